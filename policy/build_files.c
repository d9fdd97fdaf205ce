/*
 * The files a build reads from its context (policy.md §10.3 dockerfile /
 * ignorefile): relative paths inside the context, one dockerfile, and no
 * dockerfile that podman would run through the host's cpp. What the
 * context holds under these names is the checker's (check/check.c).
 */
#include "policy/routes.h"

#include <string.h>

#include "policy/json.h"

/* A Dockerfile / ignore-file path: non-empty, relative, inside the context. */
static int
context_path_ok(const char *p)
{
	const char *s = p, *slash;

	if (p[0] == '\0' || p[0] == '/' || strchr(p, '\\') != NULL ||
	    strstr(p, "://") != NULL)
		return 0;
	for (;;) {
		slash = strchr(s, '/');
		if ((slash ? (size_t)(slash - s) : strlen(s)) == 2 &&
		    s[0] == '.' && s[1] == '.')
			return 0;
		if (slash == NULL)
			return 1;
		s = slash + 1;
	}
}

/*
 * Whether podman 4.3 would preprocess the dockerfile p (a context path,
 * context_path_ok) with cpp. buildah runs `cpp` on the host over every
 * dockerfile whose name ends in ".in", exactly that case, after podman
 * joined it to the context directory (Go's filepath.Join: trailing "/"
 * and "/." vanish; list entries too). Measured on podman 4.3.1
 * (tests/integration/tools.sh t_build_cpp): Containerfile.in, x.in/,
 * x.in/., ./x.in, sub/x.in, .in and ["x.in/"] run cpp; Containerfile.IN,
 * .In, x.in.txt and "x.in " do not.
 */
static int
runs_cpp(const char *p)
{
	size_t n = strlen(p);

	for (;;) {
		while (n > 0 && p[n - 1] == '/')
			n--;
		if (n >= 2 && p[n - 1] == '.' && p[n - 2] == '/')
			n -= 2;
		else if (n == 1 && p[0] == '.')
			n = 0;
		else
			break;
	}
	return n >= 3 && memcmp(p + n - 3, ".in", 3) == 0;
}

static int
bad_context_path(const char *key, const char *v, struct cg_refusal *r)
{
	char qv[260];

	return cg_refuse(r, "denied-build-parameter",
	    "%s %s must be a relative path inside the build context", key,
	    cg_quote(v, strlen(v), qv));
}

/* One path of key: inside the context, and for dockerfile no cpp. */
static int
check_one(const char *key, const char *p, const char *v,
    struct cg_refusal *r)
{
	char qp[260];

	if (!context_path_ok(p))
		return bad_context_path(key, v, r);
	/*
	 * Hardening beyond policy.md §10 (redteam5 F3): cpp on the host
	 * follows `#include "/any/file"`, read as root, and the build's parse
	 * error streams the included lines back to the client.
	 */
	if (strcmp(key, "dockerfile") == 0 && runs_cpp(p))
		return cg_refuse(r, "denied-build-parameter",
		    "dockerfile %s is refused: podman runs a *.in file through "
		    "cpp on the host; rename it", cg_quote(p, strlen(p), qp));
	return 0;
}

int
build_check_context_path(const char *key, const char *v,
    struct cg_refusal *r)
{
	char err[8], qv[260];
	const cJSON *e;
	cJSON *t;
	int rc = 0, list;

	if (v == NULL)
		return 0;
	t = json_parse(v, strlen(v), err, sizeof(err));
	list = cJSON_IsArray(t);
	if (list)
		cJSON_ArrayForEach(e, t)
			if (!cJSON_IsString(e))
				list = 0;
	/*
	 * Go's decoder takes a list our parser refuses (invalid UTF-8 in a
	 * string): a value that opens a list is a list or refused, never read
	 * as one path.
	 */
	if (!list && v[strspn(v, " \t\r\n")] == '[')
		rc = cg_refuse(r, "denied-build-parameter", "%s %s must be one "
		    "path or a JSON list of path strings", key,
		    cg_quote(v, strlen(v), qv));
	else if (!list)
		rc = check_one(key, v, v, r);
	else
		cJSON_ArrayForEach(e, t) {
			if ((rc = check_one(key, e->valuestring, v, r)) == -1)
				break;
		}
	/*
	 * Hardening beyond policy.md §10: podman concatenates the entries of
	 * a dockerfile list and follows symlinks in the context while reading
	 * them, so a second entry can leak a host file line by line through
	 * the parse errors. At most one entry is accepted.
	 */
	if (rc == 0 && list && strcmp(key, "dockerfile") == 0 &&
	    cJSON_GetArraySize(t) > 1)
		rc = cg_refuse(r, "denied-build-parameter",
		    "only one dockerfile is accepted");
	cJSON_Delete(t);
	return rc;
}

void
build_normalise_dockerfile(const struct cg_policy_ctx *ctx, struct cg_query *q)
{
	const char *v = query_get(q, "dockerfile");
	char err[8];
	cJSON *t;

	if (v == NULL || ctx->backend_kind != CG_PODMAN)
		return;
	t = json_parse(v, strlen(v), err, sizeof(err));
	if (cJSON_IsArray(t) && cJSON_GetArraySize(t) == 1 &&
	    cJSON_IsString(cJSON_GetArrayItem(t, 0)))
		query_set(q, "dockerfile", cJSON_GetArrayItem(t, 0)->valuestring);
	cJSON_Delete(t);
}
