/*
 * A base image's ONBUILD triggers, read from its export (check/onbuild.h).
 * The docker-archive layouts measured: podman 4.3.1 writes the layers,
 * then "<config hex>.json", then manifest.json; dockerd 20.10 writes the
 * configuration first. Only top-level "*.json" entries are kept.
 */
#include "check/onbuild.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "check/dockerfile.h"
#include "check/tar.h"
#include "policy/json.h"

#define HEAD_MAX	(64u << 10)	/* the answer's head */
#define JSON_MAX	(8u << 20)	/* one kept entry */
#define KEPT_MAX	16		/* kept entries */
#define ENV_MAX		1024		/* Env entries used */

struct kept {
	char *name;
	unsigned char *data;
	size_t len;
	int over;
};

struct ob_reader {
	char *ref;
	const cJSON *buildargs;
	int refused, in_body, tar_end;
	struct cg_refusal r;
	char *head;
	size_t hlen;
	struct tar_reader t;
	struct tar_entry e;
	struct kept k[KEPT_MAX];
	size_t nk;
	struct kept *capturing;
};

struct ob_reader *
ob_new(const char *ref, const cJSON *buildargs)
{
	struct ob_reader *o = xcalloc(1, sizeof(*o));

	o->ref = xstrdup(ref);
	o->buildargs = buildargs;
	o->head = xmalloc(HEAD_MAX);
	tar_init(&o->t);
	return o;
}

void
ob_free(struct ob_reader *o)
{
	size_t i;

	if (o == NULL)
		return;
	for (i = 0; i < o->nk; i++) {
		free(o->k[i].name);
		free(o->k[i].data);
	}
	tar_free(&o->t);
	free(o->head);
	free(o->ref);
	free(o);
}

const struct cg_refusal *
ob_refusal(const struct ob_reader *o)
{
	return &o->r;
}

static int
unreadable(struct ob_reader *o, const char *why)
{
	char q[260];

	o->refused = 1;
	cg_refuse_hint(&o->r, "backend-unreachable", "check the daemon, or "
	    "pull the image again", "the gateway could not read the ONBUILD "
	    "triggers of base image %s: %s", cg_quote(o->ref, strlen(o->ref),
	    q), why);
	return -1;
}

static void
capture_done(struct ob_reader *o)
{
	if (o->capturing != NULL) {
		o->capturing->len = o->t.sink_len;
		o->capturing->over = o->t.sink_over;
	}
	o->capturing = NULL;
	o->t.sink = NULL;
}

/* A top-level regular "*.json" entry of a plausible size is kept. */
static void
entry(struct ob_reader *o, const struct tar_entry *e)
{
	size_t n = strlen(e->name);
	struct kept *k;

	if (e->type != '0' || strchr(e->name, '/') != NULL || n < 6 ||
	    strcmp(e->name + n - 5, ".json") != 0 || o->nk == KEPT_MAX ||
	    e->size < 0 || e->size > (int64_t)JSON_MAX)
		return;
	k = &o->k[o->nk++];
	k->name = xstrdup(e->name);
	k->data = xmalloc((size_t)e->size + 1);
	o->capturing = k;
	o->t.sink = k->data;
	o->t.sink_len = 0;
	o->t.sink_over = 0;
	o->t.sink_max = (size_t)e->size;
}

static int
tar_bytes(struct ob_reader *o, const unsigned char *p, size_t n)
{
	size_t used;
	enum tar_rc rc;

	while (n > 0 && !o->tar_end) {
		rc = tar_feed(&o->t, p, n, &used, &o->e);
		p += used;
		n -= used;
		if (rc == TAR_ERROR)
			return unreadable(o, o->t.err);
		if (rc == TAR_END || rc == TAR_ENTRY)
			capture_done(o);
		if (rc == TAR_END)
			o->tar_end = 1;
		if (rc == TAR_ENTRY)
			entry(o, &o->e);
	}
	return 0;
}

int
ob_feed(struct ob_reader *o, const unsigned char *p, size_t n)
{
	size_t take;
	char *end;

	if (o->refused)
		return -1;
	if (!o->in_body) {
		size_t prior = o->hlen, used;

		take = HEAD_MAX - o->hlen < n ? HEAD_MAX - o->hlen : n;
		memcpy(o->head + o->hlen, p, take);
		o->hlen += take;
		end = memmem(o->head, o->hlen, "\r\n\r\n", 4);
		if (end == NULL)
			return o->hlen == HEAD_MAX ? unreadable(o, "the daemon's "
			    "answer has no end of head") : 0;
		/* the status line: only a 200 carries the archive */
		if (memcmp(o->head, "HTTP/1.0 200 ", 13) != 0 &&
		    memcmp(o->head, "HTTP/1.1 200 ", 13) != 0)
			return unreadable(o, "the daemon did not export it");
		o->in_body = 1;
		/* this piece's bytes after the head are the archive's */
		used = (size_t)(end + 4 - o->head) - prior;
		p += used;
		n -= used;
	}
	return tar_bytes(o, p, n);
}

/* The member of obj whose key folds like key (Go's encoding/json). */
static const cJSON *
fold_get(const cJSON *obj, const char *key)
{
	const cJSON *c, *found = NULL;

	if (!cJSON_IsObject(obj))
		return NULL;
	for (c = obj->child; c != NULL; c = c->next)
		if (c->string != NULL && json_fold_eq(c->string, key))
			found = c;	/* the last one wins, as in Go */
	return found;
}

/* An object whose keys two fold alike: Go's reading is not ours to guess. */
static int
ambiguous(const cJSON *obj)
{
	const char *a, *b;

	return cJSON_IsObject(obj) && json_find_collision(obj, 1, &a, &b);
}

static const struct kept *
kept_find(const struct ob_reader *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->nk; i++)
		if (strcmp(o->k[i].name, name) == 0 && !o->k[i].over)
			return &o->k[i];
	return NULL;
}

/* The triggers of configuration text cfg checked; 0 or -1 refused. */
static int
check_config(struct ob_reader *o, const struct kept *cfg)
{
	char err[128], origin[320], q[260];
	const char *env[ENV_MAX];
	const cJSON *config, *onbuild, *envs, *v;
	struct df_params prm = { .buildargs = o->buildargs, .triggers = 1 };
	cJSON *tree = json_parse((const char *)cfg->data, cfg->len, err,
	    sizeof(err));
	size_t nenv = 0, len = 0;
	char *text, *p;
	int rc;

	config = fold_get(tree, "config");
	if (tree == NULL || ambiguous(tree) || ambiguous(config)) {
		cJSON_Delete(tree);
		return unreadable(o, "its configuration is not JSON the gateway "
		    "reads one way");
	}
	onbuild = fold_get(config, "OnBuild");
	envs = fold_get(config, "Env");
	if (onbuild == NULL || cJSON_IsNull(onbuild) ||
	    (cJSON_IsArray(onbuild) && onbuild->child == NULL)) {
		cJSON_Delete(tree);
		return 0;
	}
	if (!cJSON_IsArray(onbuild) || (envs != NULL && !cJSON_IsNull(envs) &&
	    !cJSON_IsArray(envs))) {
		cJSON_Delete(tree);
		return unreadable(o, "its configuration's OnBuild or Env is not "
		    "a list");
	}
	cJSON_ArrayForEach(v, onbuild) {
		if (!cJSON_IsString(v)) {
			cJSON_Delete(tree);
			return unreadable(o, "an OnBuild trigger is not a string");
		}
		len += strlen(v->valuestring) + 1;
	}
	/* imagebuilder: ParseDockerfile(strings.Join(OnBuild, "\n")) */
	p = text = xmalloc(len + 1);
	cJSON_ArrayForEach(v, onbuild) {
		len = strlen(v->valuestring);
		memcpy(p, v->valuestring, len);
		p += len;
		*p++ = '\n';
	}
	*p = '\0';
	if (cJSON_IsArray(envs))
		cJSON_ArrayForEach(v, envs)
			if (cJSON_IsString(v) && nenv < ENV_MAX)
				env[nenv++] = v->valuestring;
	prm.env = env;
	prm.nenv = nenv;
	snprintf(origin, sizeof(origin), "base image %s, ONBUILD trigger",
	    cg_quote(o->ref, strlen(o->ref), q));
	prm.origin = origin;
	rc = dockerfile_check(text, (size_t)(p - text), &prm, &o->r);
	free(text);
	cJSON_Delete(tree);
	if (rc < 0)
		o->refused = 1;
	return rc;
}

int
ob_finish(struct ob_reader *o)
{
	char err[128];
	const struct kept *man, *cfg;
	const cJSON *item, *name;
	cJSON *tree;
	int rc = 0;

	if (o->refused)
		return -1;
	if (!o->in_body)
		return unreadable(o, "the daemon's answer ended in its head");
	if (!o->tar_end && tar_finish(&o->t) != TAR_END)
		return unreadable(o, "the export ended in the middle");
	capture_done(o);
	man = kept_find(o, "manifest.json");
	if (man == NULL)
		return unreadable(o, "the export holds no manifest.json");
	tree = json_parse((const char *)man->data, man->len, err, sizeof(err));
	if (!cJSON_IsArray(tree) || tree->child == NULL) {
		cJSON_Delete(tree);
		return unreadable(o, "its manifest.json is not a list");
	}
	/* one image was exported: every configuration it names is checked */
	cJSON_ArrayForEach(item, tree) {
		name = fold_get(item, "Config");
		if (ambiguous(item) || !cJSON_IsString(name) ||
		    (cfg = kept_find(o, name->valuestring)) == NULL) {
			cJSON_Delete(tree);
			return unreadable(o, "the configuration its manifest.json "
			    "names is not in the export");
		}
		if (check_config(o, cfg) < 0) {
			rc = -1;
			break;
		}
	}
	cJSON_Delete(tree);
	return rc;
}
