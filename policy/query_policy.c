/*
 * The route query policies of stage 1 (routes.md §5 step 6): what each
 * route's query must and must not hold (commit, pull and import §10.2,
 * stats and bulk image remove §9.5), the changes of commit and import
 * (policy.md §13.2), and, in stage 2, the force of image remove (after
 * the ownership checks). The label filters (filters.c) and the build query
 * (build.c) are called from here. Contracts in routes.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xmalloc.h"
#include "policy/body_int.h"
#include "policy/query.h"
#include "policy/routes.h"

/* ---- commit and import changes (policy.md §13.2) -------------------- */

static int
label_token_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '/' ||
	    c == ':' || c == '@' || c == '-';
}

static int
blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Check one key=value token s[0..len) of a LABEL change. An empty value
 * ("k=") is a plain label change: both daemons set label k to "" (measured:
 * usability.sh u_commit_label_forms; testcontainers' commit clears its
 * session label so), but never for the project label.
 */
static int
label_token(const char *s, size_t len, struct cg_refusal *r)
{
	const char *eq = memchr(s, '=', len);
	size_t i, klen;
	char key[sizeof(CG_LABEL_KEY)];

	if (eq == NULL || eq == s)
		goto bad;
	for (i = 0; i < len; i++)
		if (s + i != eq && !label_token_char((unsigned char)s[i]))
			goto bad;
	klen = (size_t)(eq - s);
	if (klen == strlen(CG_LABEL_KEY)) {
		memcpy(key, s, klen);
		key[klen] = '\0';
		if (ascii_caseeq(key, CG_LABEL_KEY))
			return cg_refuse(r, "commit-label",
			    "the project label cannot be set by a change");
	}
	return 0;
bad:
	return cg_refuse(r, "commit-label",
	    "only plain key=value LABEL changes are accepted");
}

/*
 * Go's unicode.IsSpace runes (what strings.TrimSpace trims) in UTF-8:
 * the ASCII ones, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
 * U+202F, U+205F, U+3000.
 */
static const char *const go_spaces[] = {
	"\t", "\n", "\v", "\f", "\r", " ", "\xc2\x85", "\xc2\xa0",
	"\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81", "\xe2\x80\x82",
	"\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86",
	"\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a",
	"\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f",
	"\xe3\x80\x80", NULL
};

/* Length of the Go space rune at s[0..len) (at_end: ending there), or 0. */
static size_t
go_space(const char *s, size_t len, int at_end)
{
	const char *const *sp;
	size_t n;

	for (sp = go_spaces; *sp != NULL; sp++) {
		n = strlen(*sp);
		if (n <= len && memcmp(at_end ? s + len - n : s, *sp, n) == 0)
			return n;
	}
	return 0;
}

/* Go's strings.TrimSpace on s[0..*len): returns the start, sets *len. */
static const char *
go_trim(const char *s, size_t *len)
{
	size_t n;

	while ((n = go_space(s, *len, 0)) > 0) {
		s += n;
		*len -= n;
	}
	while ((n = go_space(s, *len, 1)) > 0)
		*len -= n;
	return s;
}

/* The value s[0..len) of a LABEL change: blank-separated key=value tokens. */
static int
label_value(const char *s, size_t len, struct cg_refusal *r)
{
	size_t i = 0, start, ntok = 0;

	for (;;) {
		while (i < len && blank(s[i]))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && !blank(s[i]))
			i++;
		if (label_token(s + start, i - start, r) == -1)
			return -1;
		ntok++;
	}
	if (ntok == 0)
		return cg_refuse(r, "commit-label",
		    "only plain key=value LABEL changes are accepted");
	return 0;
}

static int
is_label(const char *s, size_t len)
{
	return len == 5 && strncasecmp(s, "LABEL", 5) == 0;
}

/*
 * The value s[0..len) of an ENV change: neither "ENV name value" nor
 * "ENV a=b c=d" may name a variable a runtime hook reads as a device
 * request (env_name_hooked; as Devices, spec README amendments of
 * 2026-12-07): each blank-separated token is checked up to its '='.
 */
static int
env_value(const char *s, size_t len, struct cg_refusal *r)
{
	size_t i = 0, start, n;
	const char *eq;
	char q[260];

	for (;;) {
		while (i < len && blank(s[i]))
			i++;
		if (i == len)
			return 0;
		start = i;
		while (i < len && !blank(s[i]))
			i++;
		eq = memchr(s + start, '=', i - start);
		n = eq != NULL ? (size_t)(eq - (s + start)) : i - start;
		if (env_name_hooked(s + start, n))
			return cg_refuse_hint(r, "devices", "containers get no "
			    "host devices through the gateway; drop the "
			    "variable", "ENV %s is refused: a runtime hook "
			    "reads it as a device request", cg_quote(s + start,
			    n, q));
	}
}

/* The instruction p[0..plen) with its value v[0..vlen): LABEL and ENV. */
static int
change_instr(const char *p, size_t plen, const char *v, size_t vlen,
    struct cg_refusal *r)
{
	if (is_label(p, plen))
		return label_value(v, vlen, r);
	if (plen == 3 && strncasecmp(p, "ENV", 3) == 0)
		return env_value(v, vlen, r);
	/*
	 * ONBUILD: podman 4.3.1's commit and dockerd 20.10's commit and import
	 * keep it in the image's config.OnBuild (measured, red team rt11): a
	 * later build runs those triggers from its base image, checked only
	 * at one instant before the builder looks the name up again
	 * (monitor/exchange/baseimg.c); image loads refuse them too (check/load.h).
	 */
	if (plen == 7 && strncasecmp(p, "ONBUILD", 7) == 0)
		return cg_refuse_hint(r, "denied-build-parameter", "put the "
		    "steps in the Dockerfile of the build that needs them",
		    "ONBUILD changes are refused: a later build would run "
		    "them from its base image, unseen by the check of that "
		    "build's Dockerfile");
	return 0;
}

/*
 * One line s[0..len) of a changes value, read both ways a backend reads
 * it; a line either reading takes for LABEL is policed (redteam5 F4), and
 * so is one either takes for ENV.
 * podman 4.3 (containers/common ImageConfigFromChanges) splits the line
 * at its first space, or without one at its first '=': the left part,
 * Go-space-trimmed and upper-cased, is the instruction, the trimmed right
 * part its value. So "LABEL=k=v", "label=k=v" and "\xc2\xa0LABEL k=v" set
 * label k; podman refuses " LABEL k=v". dockerd 20.10 trims leading
 * (Unicode) spaces and takes the first word: " LABEL k=v" and
 * "\xc2\xa0LABEL k=v" are LABEL there, "LABEL=k=v" is refused. Measured:
 * tests/integration/usability.sh u_commit_label_forms. (Control bytes
 * such as a tab never get here: the query refuses them.)
 */
static int
change_line(const char *s, size_t len, struct cg_refusal *r)
{
	const char *sep = memchr(s, ' ', len), *p, *v;
	size_t plen, vlen, n;

	if (sep == NULL)
		sep = memchr(s, '=', len);
	if (sep != NULL) {
		plen = (size_t)(sep - s);
		p = go_trim(s, &plen);
		vlen = len - (size_t)(sep + 1 - s);
		v = go_trim(sep + 1, &vlen);
		if (change_instr(p, plen, v, vlen, r) == -1)
			return -1;
	}
	plen = len;
	p = go_trim(s, &plen);
	for (n = 0; n < plen && !blank(p[n]) && go_space(p + n, plen - n,
	    0) == 0; n++)
		;
	return change_instr(p, n, p + n, plen - n, r);
}

/* policy.md §13.2 on one changes value. */
static int
change_value(const char *v, struct cg_refusal *r)
{
	size_t len = strlen(v), i, start = 0, end;

	for (i = 0; i < len; i++)
		if (v[i] == '\\' && (i + 1 == len || v[i + 1] == '\r' ||
		    v[i + 1] == '\n'))
			return cg_refuse(r, "commit-label",
			    "line continuations in changes are refused");
	while (start <= len) {
		const char *lf = memchr(v + start, '\n', len - start);

		end = lf ? (size_t)(lf - v) : len;
		i = end;
		if (i > start && v[i - 1] == '\r')
			i--;
		if (change_line(v + start, i - start, r) == -1)
			return -1;
		start = end + 1;
	}
	return 0;
}

static int
changes_policy(const struct cg_query *q, struct cg_refusal *r)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		if (strcmp(q->v[i].key, "changes") == 0 &&
		    change_value(q->v[i].value, r) == -1)
			return -1;
	return 0;
}

/* ---- route query policies (routes.md §5 step 6) --------------------- */

static int
nonempty(const char *v)
{
	return v != NULL && v[0] != '\0';
}

/*
 * A commit: its container, its changes (policy.md §13.2), and pause=true
 * whatever the client asked (docker's default; podman-remote's is false).
 * Podman commits a running container by walking its root file system on
 * the host, by path: a container left running during the walk swapped a
 * directory for a symlink to /etc, and the image held the host's
 * /etc/shadow (red team, podman 4.3.1; advisory podman-rootfs-walk).
 * Frozen, it cannot; the monitor refuses the container a pod could reach
 * through a shared pid namespace (monitor/exchange/startcheck.c). The key
 * is dropped and appended last, so the forwarded query is a fixpoint of
 * the monitor's replay.
 */
static int
qp_commit(struct cg_request *req, struct cg_refusal *r)
{
	if (!nonempty(query_get(req->query, "container")))
		return cg_refuse(r, "malformed", "commit needs a container");
	(void)query_remove(req->query, "pause");
	query_append(req->query, "pause", "true");
	return changes_policy(req->query, r);
}

/*
 * An import's changes (policy.md §13.2), then the project label for its
 * image: a LABEL change after the client's, quoted, which podman 4.3.1
 * (libimage strips the quotes) and dockerd 20.10 (Dockerfile LABEL) read
 * alike. Without it the image was unlabelled, which every project's
 * creates take for a shared one: an import under a name no image had yet
 * (localhost/alpine) ran in another project's `docker run alpine` (red team
 * rt11). The change is dropped first when present, so that the forwarded
 * query is a fixpoint of the monitor's replay. A root with a quote or a
 * backslash is refused (commit-label): the change could not carry it.
 */
static int
import_changes(const struct cg_policy_ctx *ctx, struct cg_request *req,
    struct cg_refusal *r)
{
	char *change;
	size_t i;
	int rc = 0;

	if (strpbrk(ctx->root, "\"\\") != NULL)
		return cg_refuse(r, "commit-label", "the project root holds a "
		    "quote or backslash, which an import's label change "
		    "cannot carry");
	if (asprintf(&change, "LABEL %s=\"%s\"", CG_LABEL_KEY,
	    ctx->root) < 0)
		xoom();
	for (i = query_find(req->query, "changes", 0); i != QUERY_NONE;
	    i = query_find(req->query, "changes", i))
		if (strcmp(req->query->v[i].value, change) == 0)
			query_remove_at(req->query, i);
		else
			i++;
	if ((rc = changes_policy(req->query, r)) == 0)
		query_append(req->query, "changes", change);
	free(change);
	return rc;
}

/* §10.2.1: compat images/create is a pull or an import, by query. */
static int
qp_images_create(const struct cg_policy_ctx *ctx, struct cg_request *req,
    struct cg_refusal *r)
{
	const char *img = query_get(req->query, "fromImage");
	const char *src = query_get(req->query, "fromSrc");
	char q[260];

	if (nonempty(img) == nonempty(src))
		return cg_refuse(r, "malformed", "images/create needs exactly "
		    "one of fromImage and fromSrc");
	if (nonempty(src)) {
		if (strcmp(src, "-") != 0)
			return cg_refuse(r, "denied-query", "fromSrc=%s makes "
			    "the daemon fetch a URL and is refused",
			    cg_quote(src, strlen(src), q));
		req->action = "import";
		req->body_kind = CG_BODY_STREAM;
		req->no_head_timeout = 1;
		return import_changes(ctx, req, r);
	}
	return changes_policy(req->query, r);
}

static int
qp_images_pull(struct cg_request *req, struct cg_refusal *r)
{
	if (!nonempty(query_get(req->query, "reference")))
		return cg_refuse(r, "malformed", "images/pull needs a reference");
	if (nonempty(query_get(req->query, "authfile")))
		return cg_refuse(r, "denied-query", "authfile names a file on "
		    "the daemon's host and is refused");
	return 0;
}

static int
qp_images_import(const struct cg_policy_ctx *ctx, struct cg_request *req,
    struct cg_refusal *r)
{
	const char *url = query_get(req->query, "url");
	char q[260];

	if (nonempty(url))
		return cg_refuse(r, "denied-query", "url=%s makes the daemon "
		    "fetch a URL and is refused", cg_quote(url, strlen(url), q));
	return import_changes(ctx, req, r);
}

/* §9.5: stats of named containers / pods only. */
static int
qp_stats(struct cg_request *req, const char *key, const char *what,
    struct cg_refusal *r)
{
	const char *all = query_get(req->query, "all");

	if (query_count(req->query, key) == 0 ||
	    (all != NULL && !query_value_empty(all)))
		return cg_refuse_hint(r, "denied-query", CG_HINT_IN_DETAIL,
		    "stats of all %s is not "
		    "available; name the %s", what, what);
	return 0;
}

static int
qp_images_remove(struct cg_request *req, struct cg_refusal *r)
{
	const char *all = query_get(req->query, "all");

	if (query_count(req->query, "images") == 0)
		return cg_refuse(r, "denied-query", "images is required");
	if (all != NULL && !query_value_empty(all))
		return cg_refuse(r, "denied-query", "removing all images is "
		    "not available through the gateway");
	return 0;
}

/* ---- container top on a docker backend ------------------------------ */

/*
 * dockerd 20.10 runs ps on the host with ps_args split at each space,
 * reads the column titled PID by counting blank-separated fields, and
 * keeps the lines whose PID is one of the container's (and the "-" thread
 * lines after them). A free-text column before PID shifts that count:
 * "-C sleep -o args,pid --forest" returned a host process whose arguments
 * held a container's pid (measured, tests/integration/isolation.sh
 * i_docker_ps_args). Only formats whose PID column comes after nothing
 * but one-word columns pass: options without arguments from these sets
 * (UNIX -A -a -d -e -f -F -H -j -l -L -m -N -T -w -y -c, BSD a u x r T v j
 * l s f w m H X c e n S, --forest, -aux), the selections -C -p -u -U -g -G -t
 * -s with their argument, and -o / o / --format LIST (also a UNIX cluster
 * ending in o, as -eo LIST) when the first one
 * starts with pid and no list renames a column ('='). Not -M, Z (a
 * security label first, with blanks), O, L or anything else.
 */
static int
ps_cluster_ok(const char *t, size_t n, const char *allowed)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (strchr(allowed, t[i]) == NULL)
			return 0;
	return 1;
}

static int
ps_format_ok(const char *list, size_t n, int first)
{
	size_t i;

	if (n == 0 || memchr(list, '=', n) != NULL)
		return 0;
	for (i = 0; i < n; i++)
		if (strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_%,:+-", list[i]) ==
		    NULL)
			return 0;
	return !first || (n >= 3 && strncmp(list, "pid", 3) == 0 &&
	    (n == 3 || list[3] == ','));
}

/* 1 when dockerd's ps may run with args v (see above). */
static int
ps_args_ok(const char *v)
{
	static const char *const sel[] = {
		"-C", "-p", "-u", "-U", "-g", "-G", "-t", "-s", NULL
	};
	const char *t = v, *sp, *const *k;
	size_t n;
	int want_arg = 0, want_list = 0, formats = 0;

	for (;;) {
		sp = strchr(t, ' ');
		n = sp != NULL ? (size_t)(sp - t) : strlen(t);
		if (n == 0)
			return 0;
		if (want_arg)
			want_arg = 0;
		else if (want_list) {
			if (!ps_format_ok(t, n, formats++ == 0))
				return 0;
			want_list = 0;
		} else if ((n == 2 && strncmp(t, "-o", 2) == 0) ||
		    (n == 1 && t[0] == 'o') ||
		    (n == 8 && strncmp(t, "--format", 8) == 0))
			want_list = 1;
		else if (n > 9 && strncmp(t, "--format=", 9) == 0) {
			if (!ps_format_ok(t + 9, n - 9, formats++ == 0))
				return 0;
		} else if (n > 2 && t[0] == '-' && t[n - 1] == 'o' &&
		    ps_cluster_ok(t + 1, n - 2, "AadefFHjlLmNTwyc")) {
			want_list = 1;		/* -eo LIST */
		} else if (n > 2 && strncmp(t, "-o", 2) == 0) {
			if (!ps_format_ok(t + 2, n - 2, formats++ == 0))
				return 0;
		} else if ((n == 8 && strncmp(t, "--forest", 8) == 0) ||
		    (n == 4 && strncmp(t, "-aux", 4) == 0))
			;	/* -aux: procps reads BSD aux (or -a -u x) */
		else {
			for (k = sel; *k != NULL; k++)
				if (n == 2 && strncmp(t, *k, 2) == 0)
					break;
			if (*k != NULL)
				want_arg = 1;
			else if (t[0] == '-' ? !ps_cluster_ok(t + 1, n - 1,
			    "AadefFHjlLmNTwyc") : !ps_cluster_ok(t, n,
			    "auxrTvjlsfwmHXcenS"))
				return 0;
		}
		if (sp == NULL)
			return !want_arg && !want_list;
		t = sp + 1;
	}
}

static int
qp_top(const struct cg_policy_ctx *ctx, struct cg_request *req,
    struct cg_refusal *r)
{
	const char *v = query_get(req->query, "ps_args");
	char q[260];

	if (ctx->backend_kind != CG_DOCKER || req->api != CG_API_COMPAT ||
	    v == NULL || v[0] == '\0' || ps_args_ok(v))
		return 0;
	return cg_refuse_hint(r, "denied-query", "use a format whose PID "
	    "column comes first or after one-word columns: -ef, aux, or "
	    "-o pid,<columns>", "ps_args %s is refused: dockerd runs ps on the "
	    "host and would show host processes once a free-text column "
	    "comes before PID", cg_quote(v, strlen(v), q));
}

int
query_policy(const struct cg_policy_ctx *ctx, struct cg_request *req,
    struct cg_refusal *r)
{
	switch (req->route->qpolicy) {
	case QP_FILTERS:
	case QP_IMAGE_PRUNE:
		return filters_apply(ctx, req->route, req->query, r);
	case QP_SYSTEM_PRUNE:
		return filters_system_prune(ctx, req->route, req->query, r);
	case QP_COMMIT:
		return qp_commit(req, r);
	case QP_IMAGES_CREATE:
		return qp_images_create(ctx, req, r);
	case QP_IMAGES_PULL:
		return qp_images_pull(req, r);
	case QP_IMAGES_IMPORT:
		return qp_images_import(ctx, req, r);
	case QP_CONTAINER_STATS:
		return qp_stats(req, "containers", "containers", r);
	case QP_POD_STATS:
		return qp_stats(req, "namesOrIDs", "pods", r);
	case QP_IMAGES_REMOVE:
		return qp_images_remove(req, r);
	case QP_BUILD:
		return build_query_policy(ctx, req->api, req->query, r);
	case QP_TOP:
		return qp_top(ctx, req, r);
	case QP_IMAGE_REMOVE:	/* force: after ownership (force_policy) */
	case QP_NONE:
	case QP_COUNT:
	default:
		return 0;
	}
}

/* ---- stage 2: force (routes.md §10.3) ------------------------------ */

/*
 * 1 when both daemons read the boolean query value v as false: "", "0" or
 * "false" after trimming spaces and tabs, in any case. Not every value
 * query_value_empty() takes: dockerd 20.10 (httputils.BoolValue) reads all
 * but "", "0", "no", "false" and "none" as true, so force=null, [] or {}
 * removed an image a container used (podman refuses them); measured by
 * tests/integration/isolation.sh i_force_falsy.
 */
static int
bool_false(const char *v)
{
	size_t b = strspn(v, " \t"), e = strlen(v);

	while (e > b && (v[e - 1] == ' ' || v[e - 1] == '\t'))
		e--;
	return e == b || (e - b == 1 && v[b] == '0') ||
	    (e - b == 5 && strncasecmp(v + b, "false", 5) == 0);
}

/*
 * Hardening beyond routes.md §10.3: a truthy force on image remove (both
 * APIs), libpod bulk remove and untag makes podman remove every container
 * that uses the image, other projects' too. Checked after the ownership
 * checks, so another project's image still answers 404 (as without force).
 */
int
force_policy(const struct cg_request *req, struct cg_refusal *r)
{
	const char *force;

	if (req->route->qpolicy != QP_IMAGE_REMOVE &&
	    req->route->qpolicy != QP_IMAGES_REMOVE)
		return 0;
	force = query_get(req->query, "force");
	if (force != NULL && !bool_false(force))
		return cg_refuse(r, "denied-query", "force removes containers "
		    "of other projects and is refused");
	return 0;
}
