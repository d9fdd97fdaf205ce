/*
 * An image archive's JSON documents (check/load.h). Field names as
 * containers/image v5.23 (podman 4.3.1) and dockerd 20.10 read them:
 * OCI image-spec "annotations" (index, manifest, descriptors), the
 * Docker image config's "OnBuild" (config and container_config).
 */
#include "check/load.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "check/dockerfile.h"

#include "policy/body_int.h"
#include "policy/imageref.h"
#include "policy/imgdest.h"
#include "policy/json.h"

/* v, an image name the archive gives: refused in podman's infra repository. */
static int
infra_name(const cJSON *v, const char *name, struct cg_refusal *r)
{
	char qn[260], qv[260];

	if (!cJSON_IsString(v) || !image_name_infra(v->valuestring))
		return 0;
	return cg_refuse_hint(r, "denied-build-parameter", "load the image "
	    "under another name; podman builds its infra image itself",
	    "image archive document %s names the image %s, podman's default "
	    "infra image, which every project's pods run", cg_quote(name,
	    strlen(name), qn), cg_quote(v->valuestring,
	    strlen(v->valuestring), qv));
}

/*
 * v, an image name the archive gives: into names for the monitor's check
 * of each destination (load_json_check). A name that is no plain image
 * reference is refused here: the monitor puts each in an inspect's path.
 */
static int
give_name(const cJSON *v, const char *name, struct df_bases *names,
    const char *cfg, struct cg_refusal *r)
{
	char qn[260], qv[260];
	size_t len, i;

	if (!cJSON_IsString(v))
		return 0;
	if (infra_name(v, name, r) != 0)
		return -1;
	len = strlen(v->valuestring);
	if (len == 0 || len > 255 || !image_ref_path_safe(v->valuestring, len) ||
	    image_ref_transport_n(v->valuestring, len))
		return cg_refuse_hint(r, "denied-build-parameter", "load the "
		    "image under a plain name (name:tag)", "image archive "
		    "document %s names the image %s, which is not an image name "
		    "the gateway can check", cg_quote(name, strlen(name), qn),
		    cg_quote(v->valuestring, len, qv));
	if (names == NULL)
		return 0;
	for (i = 0; i < names->n && strcmp(names->ref[i], v->valuestring) != 0;
	    i++)
		;
	if (i == names->n) {
		df_bases_add(names, v->valuestring);
		if (i == names->n)
			return 0;	/* over */
	}
	/*
	 * The image each name goes to: a manifest.json entry's Config (the
	 * daemons read that file first); "repositories" ("") says nothing
	 * beside it (both ignore the file when manifest.json is there); an
	 * OCI name (NULL) may go to another image (podman tries the OCI
	 * layouts before docker-archive): no id then, as for two Configs.
	 */
	if (cfg == NULL)
		names->cfg_bad[i] = 1;
	else if (*cfg != '\0' && names->cfg[i] == NULL)
		names->cfg[i] = xstrdup(cfg);
	else if (*cfg != '\0' && strcmp(cfg, names->cfg[i]) != 0)
		names->cfg_bad[i] = 1;
	return 0;
}

/* node's member name (Go's case-insensitive match) if a string, or NULL. */
static const char *
member_str(const cJSON *node, const char *field)
{
	const cJSON *m;

	for (m = node->child; m != NULL; m = m->next)
		if (json_fold_eq(m->string, field) && cJSON_IsString(m))
			return m->valuestring;
	return NULL;
}

/* 1 when entry name is a docker-archive "repositories" file. */
static int
is_repositories(const char *name)
{
	const char *base = strrchr(name, '/');

	return strcmp(base != NULL ? base + 1 : name, "repositories") == 0;
}

/* The first refusal found in node and below, or 0. */
static int
walk(const cJSON *node, const char *name, struct df_bases *names,
    struct cg_refusal *r)
{
	const cJSON *m, *a;
	char qn[260], qk[260];

	for (m = node->child; m != NULL; m = m->next) {
		/* the names it gives: RepoTags, OCI ref.name, repositories */
		/* a manifest.json entry: its Config names the image's config */
		if (cJSON_IsObject(node) && json_fold_eq(m->string, "RepoTags") &&
		    cJSON_IsArray(m)) {
			const char *cfg = member_str(node, "Config");

			for (a = m->child; a != NULL; a = a->next)
				if (give_name(a, name, names, cfg != NULL &&
				    *cfg != '\0' ? cfg : NULL, r) != 0)
					return -1;
		}
		if (cJSON_IsObject(node) && json_fold_eq(m->string, "annotations") &&
		    cJSON_IsObject(m))
			for (a = m->child; a != NULL; a = a->next)
				if ((strcmp(a->string, "org.opencontainers.image."
				    "ref.name") == 0 || strcmp(a->string,
				    "io.containerd.image.name") == 0) &&
				    give_name(a, name, names, NULL, r) != 0)
					return -1;
		if (node->string == NULL && cJSON_IsObject(node) &&
		    image_name_infra(m->string)) {
			cJSON v = { .type = cJSON_String,
			    .valuestring = m->string };

			if (infra_name(&v, name, r) != 0)
				return -1;
		}
		/* docker-archive "repositories": {"repo": {"tag": "id"}} */
		if (node->string == NULL && cJSON_IsObject(node) &&
		    cJSON_IsObject(m) && is_repositories(name))
			for (a = m->child; a != NULL; a = a->next) {
				char *rt = NULL;
				cJSON v = { .type = cJSON_String };
				int rc;

				if (asprintf(&rt, "%s:%s", m->string, a->string) < 0)
					xoom();
				v.valuestring = rt;
				rc = give_name(&v, name, names, "", r);
				free(rt);
				if (rc != 0)
					return -1;
			}
		if (cJSON_IsObject(node) && json_fold_eq(m->string, "annotations") &&
		    cJSON_IsObject(m)) {
			for (a = m->child; a != NULL; a = a->next)
				if (annotation_reserved(a->string) != NULL)
					return cg_refuse_hint(r, "annotations",
					    "load an image without that annotation",
					    "image archive document %s carries the "
					    "annotation %s, which is reserved for the "
					    "container engine: podman keeps it on the "
					    "image (also on one that other projects "
					    "share) and copies it into every container "
					    "made from it", cg_quote(name, strlen(name),
					    qn), cg_quote(a->string, strlen(a->string),
					    qk));
		}
		if (cJSON_IsObject(node) && json_fold_eq(m->string, "onbuild") &&
		    !cJSON_IsNull(m) && !(cJSON_IsArray(m) && m->child == NULL))
			return cg_refuse_hint(r, "denied-build-parameter",
			    "rebuild the image without ONBUILD, then save it",
			    "image archive document %s carries ONBUILD "
			    "triggers, which a later build would run from its "
			    "base image, unseen by the gateway's check of that "
			    "build's Dockerfile", cg_quote(name, strlen(name),
			    qn));
		if ((cJSON_IsObject(m) || cJSON_IsArray(m)) &&
		    walk(m, name, names, r) != 0)
			return -1;
	}
	return 0;
}

int
load_json_check(const char *text, size_t len, const char *name,
    struct df_bases *names, struct cg_refusal *r)
{
	char err[128], qn[260];
	cJSON *t;
	int rc;

	t = json_parse(text, len, err, sizeof(err));
	if (t == NULL)
		return cg_refuse_hint(r, "malformed", "load archives made by "
		    "docker save, podman save or skopeo", "image archive entry "
		    "%s starts like a JSON document but is not one the gateway "
		    "reads: %s", cg_quote(name, strlen(name), qn), err);
	rc = walk(t, name, names, r);
	cJSON_Delete(t);
	return rc;
}
