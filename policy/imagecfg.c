/*
 * An image's configuration from its inspect answer (policy/imagecfg.h).
 * Field names as on the wire: libpod ImageData (Config, Annotations,
 * Labels, User) and the compat ImageInspect (Config), podman 4.3.1 and
 * dockerd 20.10.
 */
#include "policy/imagecfg.h"

#include <stdio.h>
#include <string.h>

#include "policy/body_int.h"
#include "policy/json.h"

/* obj's member key when it is an object (or absent/null: NULL); -1: else. */
static int
member_obj(const cJSON *obj, const char *key, const cJSON **out)
{
	const cJSON *m = obj != NULL ? json_get(obj, key) : NULL;

	*out = NULL;
	if (m == NULL || cJSON_IsNull(m))
		return 0;
	if (!cJSON_IsObject(m))
		return -1;
	*out = m;
	return 0;
}

/* obj's string member key ("" when absent or null); -1: another type. */
static int
member_str(const cJSON *obj, const char *key, const char **out)
{
	const cJSON *m = obj != NULL ? json_get(obj, key) : NULL;

	*out = "";
	if (m == NULL || cJSON_IsNull(m))
		return 0;
	if (!cJSON_IsString(m))
		return -1;
	*out = m->valuestring;
	return 0;
}

int
image_config_parse(const char *body, size_t len, struct image_config *out)
{
	const cJSON *cfg, *id, *env;
	const char *a, *b, *top_user;
	char err[128];

	memset(out, 0, sizeof(*out));
	out->tree = json_parse(body, len, err, sizeof(err));
	if (out->tree == NULL || !cJSON_IsObject(out->tree) ||
	    json_find_collision(out->tree, 1, &a, &b))
		goto bad;
	id = json_get(out->tree, "Id");
	if (!cJSON_IsString(id) || id->valuestring[0] == '\0' ||
	    member_obj(out->tree, "Config", &cfg) < 0 ||
	    (cfg != NULL && json_find_collision(cfg, 1, &a, &b)))
		goto bad;
	out->id = id->valuestring;
	if (member_obj(cfg, "Labels", &out->labels) < 0 ||
	    (out->labels == NULL &&
	    member_obj(out->tree, "Labels", &out->labels) < 0) ||
	    member_obj(out->tree, "Annotations", &out->annotations) < 0 ||
	    member_obj(cfg, "ExposedPorts", &out->exposed_ports) < 0 ||
	    member_str(cfg, "WorkingDir", &out->working_dir) < 0 ||
	    member_str(cfg, "User", &out->user) < 0 ||
	    member_str(out->tree, "User", &top_user) < 0)
		goto bad;
	if (out->user[0] == '\0')
		out->user = top_user;
	env = cfg != NULL ? json_get(cfg, "Env") : NULL;
	if (env != NULL && !cJSON_IsNull(env)) {
		if (!cJSON_IsArray(env))
			goto bad;
		out->env = env;
	}
	return 0;
bad:
	image_config_free(out);
	return -1;
}

void
image_config_free(struct image_config *ic)
{
	cJSON_Delete(ic->tree);
	memset(ic, 0, sizeof(*ic));
}

int
image_config_check(const struct image_config *ic, const char *ref,
    struct cg_refusal *r)
{
	const cJSON *a;
	char qr[260], qk[260], detail[CG_DETAIL_MAX];

	if (rule_env_hooks(ic->env, "Env", r) != 0) {
		snprintf(detail, sizeof(detail), "%s", r->detail);
		return cg_refuse(r, "devices", "image %s sets %s", cg_quote(ref,
		    strlen(ref), qr), detail);
	}
	if (ic->annotations != NULL)
		for (a = ic->annotations->child; a != NULL; a = a->next)
			if (annotation_reserved(a->string) != NULL)
				return cg_refuse_hint(r, "annotations",
				    "use an image without that annotation "
				    "(build it without --annotation, or from "
				    "another base)", "image %s carries the "
				    "annotation %s, which is reserved for the "
				    "container engine; podman copies it into "
				    "the container", cg_quote(ref, strlen(ref),
				    qr), cg_quote(a->string, strlen(a->string),
				    qk));
	return 0;
}
