/*
 * The leniency rule (doc/leniency.md): input that real client libraries
 * send, that carries no policy and whose dropping or normalising cannot
 * weaken what the client asked for, is normalised or dropped rather than
 * refused. Measured on podman 4.3.1 and dockerd 20.10
 * (tests/integration/libs.sh, scenario measure):
 *   - small bodies (exec start and remove, network connect and disconnect,
 *     commit): both daemons decode them into Go structs, so a member whose
 *     key folds to no field is ignored by both (dockerode's "hijack" and
 *     "stdin", go-dockerclient's "InputStream", "OutputStream",
 *     "ErrorStream", "RawTerminal", "Force" on connect) and a lone case
 *     variant ("container", "detach") is read as the field;
 *   - compat create: both name the container after the query's name and
 *     ignore "name"/"Name" in the body (dockerode sends it in both);
 *   - compat create: dockerode's run() sends the legacy top-level
 *     "Volumes": {} and "VolumesFrom": []; docker 20.10 reads a top-level
 *     VolumesFrom as HostConfig.VolumesFrom when the body has no HostConfig;
 *   - commit: both take repo, tag, comment, author, pause, changes and the
 *     container from the query and ignore the copies dockerode sends in the
 *     body.
 * Called before the schema checks, so whatever is left is policed as
 * before; the output is a fixpoint (nothing here applies to it again).
 */
#include <stdio.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/body_int.h"
#include "policy/json.h"
#include "policy/query.h"
#include "policy/querykeys.h"
#include "policy/schema.h"

#define D_VOLUMES_FROM	"--volumes-from is refused; share a named volume instead"

/* Number of members of obj whose key folds like key. */
static size_t
fold_count(const cJSON *obj, const char *key)
{
	const cJSON *m;
	size_t n = 0;

	for (m = obj->child; m != NULL; m = m->next)
		if (json_fold_eq(m->string, key))
			n++;
	return n;
}

/* ---- small bodies (doc/leniency.md) -------------------------------- */

void
lenient_small_body(struct cg_request *req, cJSON *body,
    const struct sc_schema *s)
{
	const char *canon;
	cJSON *m, *next;

	for (m = body->child; m != NULL; m = next) {
		next = m->next;
		canon = schema_fold_key(s, m->string);
		if (canon == NULL) {
			/* a field neither daemon reads: not forwarded */
			note_dropped(&req->body_dropped, &req->body_dropped_len,
			    m->string);
			cJSON_Delete(cJSON_DetachItemViaPointer(body, m));
		} else if (strcmp(m->string, canon) != 0 &&
		    fold_count(body, canon) == 1) {
			/* the one spelling of its field: Go reads it so */
			rename_member(m, canon);
		}
	}
}

/* ---- compat create (policy.md §1) ----------------------------------- */

int
lenient_create_compat(const struct cg_request *req, cJSON *body,
    struct cg_refusal *r)
{
	const char *qname = req->query != NULL ?
	    query_get(req->query, "name") : NULL;
	cJSON *m, *next;
	char qa[260], qb[260], qc[260];

	for (m = body->child; m != NULL; m = next) {
		next = m->next;
		if (qname != NULL && json_fold_eq(m->string, "name") &&
		    fold_count(body, "name") == 1) {
			/* the same name in the query and the body */
			if (!cJSON_IsString(m) ||
			    strcmp(m->valuestring, qname) != 0)
				return cg_refuse(r, "ambiguous-field",
				    "%s in the body (%s) differs from name in "
				    "the query (%s)", q(m->string, qa),
				    cJSON_IsString(m) ? q(m->valuestring, qb) :
				    "not a string", q(qname, qc));
			cJSON_Delete(cJSON_DetachItemViaPointer(body, m));
		} else if (strcmp(m->string, "VolumesFrom") == 0) {
			/* legacy top level: docker reads it as HostConfig's */
			if (json_truthy(m))
				return cg_refuse(r, "volumes-from", D_VOLUMES_FROM);
			cJSON_Delete(cJSON_DetachItemViaPointer(body, m));
		} else if (strcmp(m->string, "Volumes") == 0 && !json_truthy(m)) {
			cJSON_Delete(cJSON_DetachItemViaPointer(body, m));
		}
	}
	return 0;
}

/* ---- commit (policy.md §13.1) --------------------------------------- */

/* The query form of a scalar JSON value into buf (260 bytes), or NULL. */
static const char *
scalar_text(const cJSON *v, char buf[260])
{
	if (cJSON_IsString(v))
		return v->valuestring;
	if (cJSON_IsBool(v))
		return cJSON_IsTrue(v) ? "true" : "false";
	if (json_is_number(v) && cJSON_IsRaw(v)) {
		snprintf(buf, 260, "%s", v->valuestring);
		return buf;
	}
	return NULL;
}

/*
 * 1 when body value v says what the query's values of key say: a scalar
 * equal to the only value, a list equal to all values in order, null for
 * no value.
 */
static int
same_as_query(const cJSON *v, const struct cg_query *qy, const char *key)
{
	size_t i = query_find(qy, key, 0), n = query_count(qy, key);
	const cJSON *e;
	const char *t;
	char buf[260];

	if (cJSON_IsNull(v))
		return n == 0;
	if (cJSON_IsArray(v)) {
		for (e = v->child; e != NULL; e = e->next) {
			if (i == QUERY_NONE || (t = scalar_text(e, buf)) == NULL ||
			    strcmp(t, qy->v[i].value) != 0)
				return 0;
			i = query_find(qy, key, i + 1);
		}
		return i == QUERY_NONE;
	}
	return n == 1 && (t = scalar_text(v, buf)) != NULL &&
	    strcmp(t, qy->v[i].value) == 0;
}

int
lenient_commit(const struct cg_request *req, cJSON *body,
    struct cg_refusal *r)
{
	static const char *const options[] = {
		"container", "repo", "tag", "comment", "author", "pause",
		"changes", "squash", NULL
	};
	static const struct cg_query none = { NULL, 0, 0 };
	const struct cg_query *qy = req->query != NULL ? req->query : &none;
	const char *const *k;
	cJSON *m, *next;
	char qa[260];

	for (m = body->child; m != NULL; m = next) {
		next = m->next;
		for (k = options; *k != NULL; k++)
			if (json_fold_eq(m->string, *k))
				break;
		if (*k == NULL)
			continue;
		if (!same_as_query(m, qy, *k))
			return cg_refuse(r, "ambiguous-field", "%s in the body "
			    "differs from %s in the query", q(m->string, qa), *k);
		cJSON_Delete(cJSON_DetachItemViaPointer(body, m));
	}
	return 0;
}
