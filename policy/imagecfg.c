/*
 * An image's configuration from its inspect answer (policy/imagecfg.h).
 * Field names as on the wire: libpod ImageData (Config, Annotations,
 * Labels, User) and the compat ImageInspect (Config), podman 4.3.1 and
 * dockerd 20.10.
 */
#include "policy/imagecfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/body_int.h"
#include "policy/json.h"

/*
 * obj's member key when its cJSON type is type (cJSON_Object, cJSON_Array;
 * absent or null: NULL); -1: another type.
 */
static int
member_typed(const cJSON *obj, const char *key, int type, const cJSON **out)
{
	const cJSON *m = obj != NULL ? json_get(obj, key) : NULL;

	*out = NULL;
	if (m == NULL || cJSON_IsNull(m))
		return 0;
	if ((m->type & 0xFF) != type)
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
	const cJSON *cfg, *id;
	const char *a, *b, *top_user;
	char err[128];

	memset(out, 0, sizeof(*out));
	out->tree = json_parse(body, len, err, sizeof(err));
	if (out->tree == NULL || !cJSON_IsObject(out->tree) ||
	    json_find_collision(out->tree, 1, &a, &b))
		goto bad;
	id = json_get(out->tree, "Id");
	if (!cJSON_IsString(id) || id->valuestring[0] == '\0' ||
	    member_typed(out->tree, "Config", cJSON_Object, &cfg) < 0 ||
	    (cfg != NULL && json_find_collision(cfg, 1, &a, &b)))
		goto bad;
	out->id = id->valuestring;
	if (member_typed(cfg, "Labels", cJSON_Object, &out->labels) < 0 ||
	    (out->labels == NULL &&
	    member_typed(out->tree, "Labels", cJSON_Object,
	    &out->labels) < 0) ||
	    member_typed(out->tree, "Annotations", cJSON_Object,
	    &out->annotations) < 0 ||
	    member_typed(cfg, "ExposedPorts", cJSON_Object,
	    &out->exposed_ports) < 0 ||
	    member_str(cfg, "WorkingDir", &out->working_dir) < 0 ||
	    member_str(cfg, "User", &out->user) < 0 ||
	    member_str(out->tree, "User", &top_user) < 0)
		goto bad;
	if (member_typed(cfg, "Entrypoint", cJSON_Array, &out->entrypoint) < 0 ||
	    member_typed(cfg, "Cmd", cJSON_Array, &out->cmd) < 0 ||
	    member_typed(cfg, "Env", cJSON_Array, &out->env) < 0)
		goto bad;
	if (out->user[0] == '\0')
		out->user = top_user;
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
    const char *root, struct cg_refusal *r)
{
	const cJSON *a, *p;
	char qr[260], qk[260], detail[CG_DETAIL_MAX];

	p = ic->labels != NULL ? json_get(ic->labels, CG_LABEL_KEY) : NULL;
	if (p != NULL && (!cJSON_IsString(p) || strcmp(p->valuestring,
	    root) != 0))
		return cg_refuse_hint(r, "commit-label", "build or pull the "
		    "image in this project, under a name of its own",
		    "image %s belongs to another project (it carries that "
		    "project's %s label); a container made from it would run "
		    "that project's code", cg_quote(ref, strlen(ref), qr),
		    CG_LABEL_KEY);

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

/* The first (up to) three words of a command and how many it has. */
struct words {
	const char *v[3];
	size_t n;
};

static void
words_push(struct words *w, const char *s)
{
	if (w->n < 3)
		w->v[w->n] = s;
	w->n++;
}

/*
 * Append j, a Docker strslice (a string, an array of strings, absent or
 * null: nothing) to w. 0, or -1 for another type.
 */
static int
words_add(struct words *w, const cJSON *j)
{
	const cJSON *e;

	if (j == NULL || cJSON_IsNull(j))
		return 0;
	if (cJSON_IsString(j)) {
		words_push(w, j->valuestring);
		return 0;
	}
	if (!cJSON_IsArray(j))
		return -1;
	for (e = j->child; e != NULL; e = e->next) {
		if (!cJSON_IsString(e))
			return -1;
		words_push(w, e->valuestring);
	}
	return 0;
}

static void
words_cat(struct words *w, const struct words *tail)
{
	size_t i;

	for (i = 0; i < tail->n && i < 3; i++)
		words_push(w, tail->v[i]);
	w->n += tail->n - (tail->n < 3 ? tail->n : 3);
}

/* Go's filepath.Base(p) is "systemd" (trailing slashes ignored). */
static int
base_is_systemd(const char *p)
{
	size_t n = strlen(p), s;

	while (n > 1 && p[n - 1] == '/')
		n--;
	s = n;
	while (s > 0 && p[s - 1] != '/')
		s--;
	return n - s == 7 && memcmp(p + s, "systemd", 7) == 0;
}

/* JSON's insignificant white space (RFC 8259 §2), as Go skips it. */
static const char *
json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* w's first words (at most three) into out, copied; its count into *n. */
static void
words_keep(const struct words *w, char *out[3], size_t *n)
{
	size_t i;

	for (i = 0; i < w->n && i < 3; i++)
		out[i] = xstrdup(w->v[i]);
	*n = w->n;
}

/* The words a summary kept, as words_add() would have listed them. */
static void
words_of(struct words *w, char *const v[3], size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 3; i++)
		w->v[i] = v[i];
	w->n = n;
}

void
image_systemd_body(const cJSON *body, int pod, struct systemd_body *sb)
{
	struct words be = { { 0 }, 0 }, bc = { { 0 }, 0 };
	const char *t;
	char err[128];
	cJSON *dec = NULL;

	memset(sb, 0, sizeof(*sb));
	if (pod) {
		/* pod_create.go: infra_command, when not empty, is the infra
		 * container's entrypoint; an infra container has no command */
		if ((!cJSON_IsArray(json_get(body, "infra_command")) &&
		    not_null(json_get(body, "infra_command"))) ||
		    words_add(&be, json_get(body, "infra_command")) < 0) {
			sb->malformed = "infra_command is not a list of strings";
			return;
		}
	} else if (words_add(&be, json_get(body, "Entrypoint")) < 0 ||
	    words_add(&bc, json_get(body, "Cmd")) < 0) {
		sb->malformed = "Entrypoint or Cmd is not a string or a list of "
		    "strings";
		return;
	}
	sb->ep_nil = be.n == 0;
	if (!pod && be.n == 1) {
		/* compat: a one-element Entrypoint goes to podman's CLI code,
		 * which reads it as a JSON array when it parses as one
		 * (specgenutil.FillOutSpecGen) */
		t = json_ws(be.v[0]);
		if (strncmp(t, "null", 4) == 0 && *json_ws(t + 4) == '\0') {
			be.n = 0;	/* Go: null leaves the slice nil */
			sb->ep_nil = 1;
		} else if (*t == '[') {
			dec = json_parse(be.v[0], strlen(be.v[0]), err,
			    sizeof(err));
			memset(&be, 0, sizeof(be));
			if (!cJSON_IsArray(dec) || words_add(&be, dec) < 0) {
				cJSON_Delete(dec);
				sb->malformed = "a one-element Entrypoint that "
				    "starts with [ is not a JSON list of strings";
				return;
			}
		}
	}
	words_keep(&be, sb->be, &sb->be_n);
	words_keep(&bc, sb->bc, &sb->bc_n);
	cJSON_Delete(dec);
}

void
image_systemd_body_free(struct systemd_body *sb)
{
	size_t i;

	for (i = 0; i < 3; i++) {
		free(sb->be[i]);
		free(sb->bc[i]);
	}
	memset(sb, 0, sizeof(*sb));
}

int
image_systemd_decide(const struct image_config *ic,
    const struct systemd_body *sb, int pod, struct cg_refusal *r)
{
	static const char *const inits[] = {
		"/sbin/init", "/usr/sbin/init", "/usr/local/sbin/init",
	};
	struct words be = { { 0 }, 0 }, bc = { { 0 }, 0 }, ie = { { 0 }, 0 },
	    ic_cmd = { { 0 }, 0 }, cmd = { { 0 }, 0 }, *entry;
	const char *w0;
	char q0[260];
	size_t i;

	if (words_add(&ie, ic != NULL ? ic->entrypoint : NULL) < 0 ||
	    words_add(&ic_cmd, ic != NULL ? ic->cmd : NULL) < 0)
		return cg_refuse(r, "malformed", "the image's Entrypoint or Cmd "
		    "is not a list of strings");
	if (sb->malformed != NULL)
		return cg_refuse(r, "malformed", "%s", sb->malformed);
	words_of(&be, sb->be, sb->be_n);
	words_of(&bc, sb->bc, sb->bc_n);
	/* makeCommand */
	entry = sb->ep_nil ? &ie : &be;
	if (!(entry->n == 1 && entry->v[0][0] == '\0'))
		words_cat(&cmd, entry);
	if (bc.n > 0)
		words_cat(&cmd, &bc);
	else if (be.n == 0)
		words_cat(&cmd, &ic_cmd);
	/* createContainerOptions: no command at all falls back to Cmd */
	if (cmd.n == 0)
		words_cat(&cmd, &ic_cmd);
	if (cmd.n == 0)
		return 0;
	w0 = cmd.v[0];
	if (cmd.n > 2 && strcmp(cmd.v[0], "/bin/sh") == 0 &&
	    strcmp(cmd.v[1], "-c") == 0)
		w0 = cmd.v[2];
	for (i = 0; i < sizeof(inits) / sizeof(inits[0]); i++)
		if (strcmp(w0, inits[i]) == 0)
			break;
	if (i < sizeof(inits) / sizeof(inits[0]) || base_is_systemd(w0))
		return cg_refuse(r, "systemd", "podman would run %s%s in "
		    "systemd mode, which mounts the host's cgroup tree into "
		    "the container%s", pod ? "the infra command " : "",
		    cg_quote(w0, strlen(w0), q0), pod ? " (an infra image "
		    "and infra_command that are not an init, e.g. the "
		    "default ones, are fine)" : "");
	return 0;
}

int
image_systemd_check(const struct image_config *ic, const cJSON *body,
    int pod, struct cg_refusal *r)
{
	struct systemd_body sb;
	int rc;

	image_systemd_body(body, pod, &sb);
	rc = image_systemd_decide(ic, &sb, pod, r);
	image_systemd_body_free(&sb);
	return rc;
}
