/*
 * `container-gateway audit` (doc/audit.md "The audit command"): what the
 * agent did, from the gateway's own audit records. Only the monitor's
 * access lines count: a text line that starts with the time stamp and
 * " container-gateway INFO access ", or a JSON line whose top-level event
 * is "access" and whose source is the monitor. A request parser's text
 * never starts a line and never carries a bare '=' (monitor/exchange/audit.c), so
 * it can neither be taken for a record nor add a field to one.
 */
#include "ops/audit_cmd.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "monitor/gateway.h"
#include "ops/rundir.h"
#include "policy/json.h"

#define TS_LEN		24	/* YYYY-MM-DDTHH:MM:SS.mmmZ */
#define TEXT_MARK	" container-gateway INFO access "
#define LISTED_MAX	1000	/* violations and creations listed, at most */

static const char *const outcomes[] = {
	"allowed", "refused", "replay-refused", "violation", "error",
	"abandoned",
};
#define NOUTCOMES	(sizeof(outcomes) / sizeof(outcomes[0]))

struct report {
	const struct cg_config *cfg;
	unsigned long long records;
	unsigned long long by_outcome[NOUTCOMES + 1];	/* + unknown */
	char first[TS_LEN + 1], last[TS_LEN + 1];
	cJSON *refusals;	/* code -> {"count","last","example"} */
	cJSON *violations;	/* records, at most LISTED_MAX */
	unsigned long long nviolations;
	cJSON *created;		/* records, at most LISTED_MAX */
	unsigned long long ncreated;
};

/* ---------------------------------------------------------------- text records */

/* s[0..n) with \" \\ and \xhh undone (log_quote's escapes). */
static char *
unescape(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;
	size_t i;
	unsigned v;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && (s[i + 1] == '"' ||
		    s[i + 1] == '\\')) {
			*o++ = s[++i];
		} else if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' &&
		    isxdigit((unsigned char)s[i + 2]) &&
		    isxdigit((unsigned char)s[i + 3]) &&
		    sscanf(s + i + 2, "%2x", &v) == 1) {
			*o++ = (char)v;
			i += 3;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/* The field names whose text value is a ','-separated list. */
static int
is_list(const char *k)
{
	return strcmp(k, "binds") == 0 || strcmp(k, "volumes") == 0 ||
	    strcmp(k, "ports") == 0;
}

/* The field names whose text value is a number. */
static int
is_number(const char *k)
{
	return strcmp(k, "conn") == 0 || strcmp(k, "req") == 0 ||
	    strcmp(k, "status") == 0 || strcmp(k, "duration_ms") == 0 ||
	    strcmp(k, "backend_status") == 0;
}

/*
 * A text record (after "access ") as a record object, or NULL when the
 * line does not parse as one: name=value pairs, a value bare or in
 * quotes with escapes.
 */
static cJSON *
text_record(const char *p)
{
	cJSON *r = cJSON_CreateObject();
	char key[32], *v;
	const char *start, *q;
	size_t k, n;

	while (*p != '\0' && *p != '\n') {
		while (*p == ' ')
			p++;
		if (*p == '\0' || *p == '\n')
			break;
		for (k = 0; (islower((unsigned char)p[k]) || p[k] == '_') &&
		    k < sizeof(key) - 1; k++)
			key[k] = p[k];
		key[k] = '\0';
		if (k == 0 || p[k] != '=')
			goto bad;
		p += k + 1;
		if (*p == '"') {
			start = ++p;
			for (q = p; *q != '\0' && *q != '"'; q++)
				if (*q == '\\' && q[1] != '\0')
					q++;
			if (*q != '"')
				goto bad;
			n = (size_t)(q - start);
			p = q + 1;
		} else {
			start = p;
			n = strcspn(p, " \n");
			p += n;
		}
		if (cJSON_GetObjectItemCaseSensitive(r, key) != NULL)
			goto bad;	/* a field twice: no record of ours */
		if (is_list(key)) {
			cJSON *a = cJSON_AddArrayToObject(r, key);
			const char *e = start, *end = start + n, *c;

			while (e < end) {
				c = memchr(e, ',', (size_t)(end - e));
				if (c == NULL)
					c = end;
				v = unescape(e, (size_t)(c - e));
				cJSON_AddItemToArray(a, cJSON_CreateString(v));
				free(v);
				e = c + 1;
			}
			continue;
		}
		v = unescape(start, n);
		if (is_number(key))
			cJSON_AddNumberToObject(r, key, strtod(v, NULL));
		else if (strcmp(key, "forwarded") == 0)
			cJSON_AddBoolToObject(r, key, strcmp(v, "yes") == 0);
		else if (strcmp(key, "code") == 0 && strcmp(v, "-") == 0)
			cJSON_AddNullToObject(r, key);
		else
			cJSON_AddStringToObject(r, key, v);
		free(v);
	}
	if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "conn")))
		goto bad;
	return r;
bad:
	cJSON_Delete(r);
	return NULL;
}

/* ---------------------------------------------------------------- JSON records */

/* Copy member name of from (if any) into to. */
static void
copy_member(cJSON *to, const cJSON *from, const char *name, const char *as)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(from, name);

	if (v != NULL)
		cJSON_AddItemToObject(to, as, cJSON_Duplicate(v, 1));
}

/* A JSON record line as a record object (flattened), or NULL. */
static cJSON *
json_record(const char *line)
{
	static const char *const flat[] = {
		"ts", "conn", "req", "method", "path", "decision", "code",
		"status", "duration_ms", "detail", "outcome", "forwarded",
		"route", "backend_status", "target",
	};
	cJSON *j = cJSON_Parse(line), *r;
	const cJSON *ev, *src, *res, *cr;
	size_t i;

	ev = cJSON_GetObjectItemCaseSensitive(j, "event");
	src = cJSON_GetObjectItemCaseSensitive(j, "source");
	if (!cJSON_IsString(ev) || strcmp(ev->valuestring, "access") != 0 ||
	    (src != NULL && (!cJSON_IsString(src) ||
	    strcmp(src->valuestring, "monitor") != 0))) {
		cJSON_Delete(j);
		return NULL;
	}
	r = cJSON_CreateObject();
	for (i = 0; i < sizeof(flat) / sizeof(flat[0]); i++)
		copy_member(r, j, flat[i], flat[i]);
	copy_member(r, j, "decided_by", "by");
	res = cJSON_GetObjectItemCaseSensitive(j, "resource");
	copy_member(r, res, "kind", "kind");
	copy_member(r, res, "name", "name");
	copy_member(r, res, "id", "id");
	cr = cJSON_GetObjectItemCaseSensitive(j, "create");
	copy_member(r, cr, "image", "image");
	copy_member(r, cr, "binds", "binds");
	copy_member(r, cr, "volumes", "volumes");
	copy_member(r, cr, "ports", "ports");
	copy_member(r, cr, "label", "label");
	cJSON_Delete(j);
	if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "conn"))) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

/* ---------------------------------------------------------------- the report */

static double
nget(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* The record's outcome; an access line of an older gateway by its decision. */
static const char *
outcome_of(const cJSON *r)
{
	const char *o = json_str(r, "outcome"), *d = json_str(r, "decision");

	if (o != NULL)
		return o;
	if (d == NULL)
		return "unknown";
	return strcmp(d, "allow") == 0 ? "allowed" : strcmp(d, "deny") == 0 ?
	    "refused" : "error";
}

static void
take(struct report *rp, cJSON *r)
{
	const char *ts = json_str(r, "ts"), *o = outcome_of(r), *code, *route;
	const char *kind;
	cJSON *e;
	size_t i;
	double bs;
	char ex[600];
	int violation, created;

	if (ts == NULL || (rp->cfg->since != NULL &&
	    strcmp(ts, rp->cfg->since) < 0)) {
		cJSON_Delete(r);
		return;
	}
	rp->records++;
	if (rp->first[0] == '\0')
		snprintf(rp->first, sizeof(rp->first), "%s", ts);
	snprintf(rp->last, sizeof(rp->last), "%s", ts);
	for (i = 0; i < NOUTCOMES && strcmp(o, outcomes[i]) != 0; i++)
		;
	rp->by_outcome[i]++;
	if (strcmp(o, "refused") == 0) {
		code = json_str(r, "code") != NULL ? json_str(r, "code") : "-";
		e = cJSON_GetObjectItemCaseSensitive(rp->refusals, code);
		if (e == NULL) {
			e = cJSON_AddObjectToObject(rp->refusals, code);
			cJSON_AddNumberToObject(e, "count", 0);
			cJSON_AddStringToObject(e, "last", "");
			cJSON_AddStringToObject(e, "example", "");
		}
		cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "count"),
		    nget(e, "count") + 1);
		cJSON_ReplaceItemInObjectCaseSensitive(e, "last",
		    cJSON_CreateString(ts));
		snprintf(ex, sizeof(ex), "%s %s", json_str(r, "method") != NULL ?
		    json_str(r, "method") : "-", json_str(r, "path") != NULL ?
		    json_str(r, "path") : "-");
		cJSON_ReplaceItemInObjectCaseSensitive(e, "example",
		    cJSON_CreateString(ex));
	}
	violation = strcmp(o, "violation") == 0 ||
	    strcmp(o, "replay-refused") == 0;
	/* a create the backend got: answered 2xx, or not seen (drained or not) */
	route = json_str(r, "route");
	kind = json_str(r, "kind");
	bs = nget(r, "backend_status");
	created = (strcmp(o, "allowed") == 0 || violation) && cJSON_IsTrue(
	    cJSON_GetObjectItemCaseSensitive(r, "forwarded")) && route != NULL &&
	    kind != NULL && strlen(route) >= 7 &&
	    strcmp(route + strlen(route) - 7, "/create") == 0 &&
	    (bs == 0 || (bs >= 200 && bs < 300));
	if (violation && rp->nviolations++ < LISTED_MAX)
		cJSON_AddItemToArray(rp->violations, cJSON_Duplicate(r, 1));
	if (created && rp->ncreated++ < LISTED_MAX)
		cJSON_AddItemToArray(rp->created, cJSON_Duplicate(r, 1));
	cJSON_Delete(r);
}

/* One line of a log: a record taken, anything else ignored. */
static void
line(struct report *rp, const char *l)
{
	cJSON *r = NULL;
	char ts[TS_LEN + 1];

	if (l[0] == '{') {
		r = json_record(l);
	} else if (strlen(l) > TS_LEN + sizeof(TEXT_MARK) - 1 &&
	    strncmp(l + TS_LEN, TEXT_MARK, sizeof(TEXT_MARK) - 1) == 0 &&
	    l[4] == '-' && l[10] == 'T' && l[TS_LEN - 1] == 'Z') {
		r = text_record(l + TS_LEN + sizeof(TEXT_MARK) - 1);
		if (r != NULL) {
			memcpy(ts, l, TS_LEN);
			ts[TS_LEN] = '\0';
			cJSON_AddStringToObject(r, "ts", ts);
		}
	}
	if (r != NULL)
		take(rp, r);
}

/* Read one log file; 0, or -1 when it does not exist (other errors said). */
static int
read_log(struct report *rp, const char *path)
{
	struct stat st;
	char *l = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno != ENOENT)
			fprintf(stderr, "container-gateway: %s: %s\n", path,
			    strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "container-gateway: %s is not a regular file; "
		    "not read\n", path);
		close(fd);
		return -1;
	}
	f = fdopen(fd, "r");
	if (f == NULL) {
		close(fd);
		return -1;
	}
	while ((n = getline(&l, &cap, f)) > 0) {
		if (l[n - 1] == '\n')
			l[n - 1] = '\0';
		line(rp, l);
	}
	free(l);
	fclose(f);
	return 0;
}

/* ---------------------------------------------------------------- text output */

/*
 * s for a terminal (malloc'd): every byte below 0x20, above 0x7e, and '\\'
 * as \xhh, the log's own escapes (log_escape), so no value unescaped from a
 * record (a request parser's ACCESS path, a name, a bind) can start a line
 * of its own or drive the terminal: tool.md, nothing the request parser
 * writes can pass for a record (red-team rt10 F4).
 */
static char *
term_safe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = xmalloc(strlen(s) * 4 + 1), *o = out;

	for (; *p != '\0'; p++) {
		if (*p < 0x20 || *p > 0x7e || *p == '\\')
			o += sprintf(o, "\\x%02x", *p);
		else
			*o++ = (char)*p;
	}
	*o = '\0';
	return out;
}

#define COLS_MAX	8

struct table {
	size_t ncols, nrows;
	char **cells;		/* nrows * ncols, row 0 the header */
	size_t width[COLS_MAX];
	int right[COLS_MAX];	/* right-aligned (numbers) */
};

static void
row_add(struct table *t, const char *const *v)
{
	size_t i;

	t->cells = xrealloc(t->cells, (t->nrows + 1) * t->ncols *
	    sizeof(char *));
	for (i = 0; i < t->ncols; i++) {
		t->cells[t->nrows * t->ncols + i] = term_safe(v[i] != NULL ?
		    v[i] : "-");
		if (strlen(t->cells[t->nrows * t->ncols + i]) > t->width[i])
			t->width[i] = strlen(t->cells[t->nrows * t->ncols + i]);
	}
	t->nrows++;
}

static void
table_print(struct table *t)
{
	size_t r, i;
	const char *s;

	if (t->nrows == 1) {
		puts("  none");
	} else {
		for (r = 0; r < t->nrows; r++) {
			fputs(" ", stdout);
			for (i = 0; i < t->ncols; i++) {
				s = t->cells[r * t->ncols + i];
				if (i + 1 == t->ncols && !t->right[i])
					printf(" %s", s);
				else if (t->right[i] && r > 0)
					printf(" %*s", (int)t->width[i], s);
				else
					printf(" %-*s", (int)t->width[i], s);
			}
			putchar('\n');
		}
	}
	for (r = 0; r < t->nrows * t->ncols; r++)
		free(t->cells[r]);
	free(t->cells);
}

/* "a, b, c" of list members k1 and k2 (NULL: none) (malloc'd), "-" when empty. */
static char *
joined(const cJSON *r, const char *k1, const char *k2)
{
	const cJSON *v;
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	int n = 0;

	if (f == NULL)
		xoom();
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(r, k1))
		if (cJSON_IsString(v))
			fprintf(f, "%s%s", n++ > 0 ? ", " : "", v->valuestring);
	if (k2 != NULL)
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(r, k2))
			if (cJSON_IsString(v))
				fprintf(f, "%s%s", n++ > 0 ? ", " : "",
				    v->valuestring);
	if (n == 0)
		fputc('-', f);
	if (fclose(f) != 0)
		xoom();
	return s;
}

/* An id as docker prints it: its first 12 characters. */
static void
short_id(const char *id, char out[13])
{
	snprintf(out, 13, "%s", id != NULL ? id : "-");
}

static int
by_count(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
	double d = nget(y, "count") - nget(x, "count");

	return d > 0 ? 1 : d < 0 ? -1 : strcmp(x->string, y->string);
}

/* The refusals, most frequent first (malloc'd array of n). */
static cJSON **
sorted_refusals(const struct report *rp, size_t *n)
{
	cJSON **v, *e;
	size_t i = 0;

	*n = (size_t)cJSON_GetArraySize(rp->refusals);
	v = xmalloc((*n + 1) * sizeof(*v));
	cJSON_ArrayForEach(e, rp->refusals)
		v[i++] = e;
	qsort(v, *n, sizeof(*v), by_count);
	return v;
}

static void
print_text(const struct report *rp, const char *where, const char *files)
{
	struct table t;
	cJSON **rf, *r;
	char cnt[32], idb[13], *mounts, *ports;
	size_t i, n;
	int part = rp->cfg->audit_part;

	char *safe[5];

	safe[0] = term_safe(where);
	safe[1] = term_safe(files);
	safe[2] = term_safe(rp->first);
	safe[3] = term_safe(rp->last);
	safe[4] = term_safe(rp->cfg->since != NULL ? rp->cfg->since : "");
	printf("Audit of %s\n", safe[0]);
	printf("Log: %s; %llu records", safe[1], rp->records);
	if (rp->records > 0)
		printf(" from %s to %s", safe[2], safe[3]);
	if (rp->cfg->since != NULL)
		printf(" (since %s)", safe[4]);
	for (i = 0; i < 5; i++)
		free(safe[i]);
	printf("\n\nRequests %llu:", rp->records);
	for (i = 0; i < NOUTCOMES; i++)
		printf(" %s %llu%s", outcomes[i], rp->by_outcome[i],
		    i + 1 < NOUTCOMES ? "," : "");
	putchar('\n');

	if (part == AUDIT_ALL || part == AUDIT_REFUSED) {
		printf("\nRefused by the policy, by reason code\n");
		memset(&t, 0, sizeof(t));
		t.ncols = 4;
		t.right[1] = 1;
		row_add(&t, (const char *[]){ "CODE", "COUNT", "LAST", "EXAMPLE" });
		rf = sorted_refusals(rp, &n);
		for (i = 0; i < n; i++) {
			snprintf(cnt, sizeof(cnt), "%.0f", nget(rf[i], "count"));
			row_add(&t, (const char *[]){ rf[i]->string, cnt,
			    json_str(rf[i], "last"), json_str(rf[i], "example") });
		}
		free(rf);
		table_print(&t);
	}
	if (part == AUDIT_ALL || part == AUDIT_VIOLATION) {
		printf("\nProtocol violations and replay refusals (the request "
		    "parser was ended)\n");
		memset(&t, 0, sizeof(t));
		t.ncols = 6;
		t.right[1] = 1;
		row_add(&t, (const char *[]){ "TIME", "CONN", "OUTCOME",
		    "FORWARDED", "TARGET", "WHAT" });
		cJSON_ArrayForEach(r, rp->violations) {
			snprintf(cnt, sizeof(cnt), "%.0f", nget(r, "conn"));
			row_add(&t, (const char *[]){ json_str(r, "ts"), cnt,
			    outcome_of(r), cJSON_IsTrue(
			    cJSON_GetObjectItemCaseSensitive(r, "forwarded")) ?
			    "yes" : "no", json_str(r, "target") != NULL ?
			    json_str(r, "target") : json_str(r, "path"),
			    json_str(r, "detail") });
		}
		table_print(&t);
		if (rp->nviolations > LISTED_MAX)
			printf("  (%llu more not listed)\n", rp->nviolations -
			    LISTED_MAX);
	}
	if (part == AUDIT_ALL) {
		printf("\nCreated (forwarded; ID - when the backend's answer was "
		    "not seen)\n");
		memset(&t, 0, sizeof(t));
		t.ncols = 7;
		row_add(&t, (const char *[]){ "TIME", "KIND", "NAME", "ID",
		    "IMAGE", "PORTS", "MOUNTS" });
		cJSON_ArrayForEach(r, rp->created) {
			short_id(json_str(r, "id"), idb);
			mounts = joined(r, "binds", "volumes");
			ports = joined(r, "ports", NULL);
			row_add(&t, (const char *[]){ json_str(r, "ts"),
			    json_str(r, "kind"), json_str(r, "name"), idb,
			    json_str(r, "image"), ports, mounts });
			free(mounts);
			free(ports);
		}
		table_print(&t);
		if (rp->ncreated > LISTED_MAX)
			printf("  (%llu more not listed)\n", rp->ncreated -
			    LISTED_MAX);
	}
}

/* ---------------------------------------------------------------- JSON output */

static void
print_json(struct report *rp, const char *log, cJSON *files)
{
	cJSON *o = cJSON_CreateObject(), *oc, *a, *e;
	cJSON **rf;
	size_t i, n;
	char *s;
	int part = rp->cfg->audit_part;

	cJSON_AddStringToObject(o, "log", log);
	cJSON_AddItemToObject(o, "files", files);
	if (rp->cfg->since != NULL)
		cJSON_AddStringToObject(o, "since", rp->cfg->since);
	else
		cJSON_AddNullToObject(o, "since");
	cJSON_AddNumberToObject(o, "records", (double)rp->records);
	if (rp->records > 0) {
		cJSON_AddStringToObject(o, "first", rp->first);
		cJSON_AddStringToObject(o, "last", rp->last);
	} else {
		cJSON_AddNullToObject(o, "first");
		cJSON_AddNullToObject(o, "last");
	}
	oc = cJSON_AddObjectToObject(o, "outcomes");
	for (i = 0; i < NOUTCOMES; i++)
		cJSON_AddNumberToObject(oc, outcomes[i],
		    (double)rp->by_outcome[i]);
	if (part == AUDIT_ALL || part == AUDIT_REFUSED) {
		a = cJSON_AddArrayToObject(o, "refusals");
		rf = sorted_refusals(rp, &n);
		for (i = 0; i < n; i++) {
			e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "code", rf[i]->string);
			cJSON_AddNumberToObject(e, "count", nget(rf[i], "count"));
			cJSON_AddStringToObject(e, "last", json_str(rf[i], "last"));
			cJSON_AddStringToObject(e, "example",
			    json_str(rf[i], "example"));
			cJSON_AddItemToArray(a, e);
		}
		free(rf);
	}
	if (part == AUDIT_ALL || part == AUDIT_VIOLATION) {
		cJSON_AddItemToObject(o, "violations", rp->violations);
		rp->violations = NULL;
		cJSON_AddNumberToObject(o, "violations_total",
		    (double)rp->nviolations);
	}
	if (part == AUDIT_ALL) {
		cJSON_AddItemToObject(o, "created", rp->created);
		rp->created = NULL;
		cJSON_AddNumberToObject(o, "created_total", (double)rp->ncreated);
	}
	s = cJSON_PrintUnformatted(o);
	if (s == NULL)
		xoom();
	puts(s);
	free(s);
	cJSON_Delete(o);
}

/* ---------------------------------------------------------------- main */

int
audit_main(struct cg_config *cfg)
{
	struct report rp;
	struct gateway *gw = NULL;
	char *log, *old, *where, *names = NULL;
	cJSON *files = cJSON_CreateArray();
	size_t nlen = 0;
	FILE *nf;
	int rc = 0, got = 0;

	if (cfg->log_file != NULL) {
		log = xstrdup(cfg->log_file);
		where = xstrdup(log);
	} else {
		gw = xcalloc(1, sizeof(*gw));
		gw->cfg = cfg;
		gw->pid_fd = -1;
		rc = rundir_locate(gw, 0);
		if (rc == RD_REFUSED) {
			free(gw);
			cJSON_Delete(files);
			return 2;
		}
		if (asprintf(&log, "%s/container-gateway.log", gw->run_dir) < 0 ||
		    asprintf(&where, "%s (run directory %s)", gw->root,
		    gw->run_dir) < 0)
			xoom();
		if (rc != 0) {
			fprintf(stderr, "container-gateway: no log at %s: the "
			    "project's gateway never ran here in daemon mode "
			    "(a foreground gateway logs to stderr: save it and "
			    "pass --log-file)\n", log);
			free(gw);
			free(log);
			free(where);
			cJSON_Delete(files);
			return 1;
		}
		free(gw);
	}
	memset(&rp, 0, sizeof(rp));
	rp.cfg = cfg;
	rp.refusals = cJSON_CreateObject();
	rp.violations = cJSON_CreateArray();
	rp.created = cJSON_CreateArray();
	nf = open_memstream(&names, &nlen);
	if (nf == NULL || asprintf(&old, "%s.1", log) < 0)
		xoom();
	/* the rotated file holds the older records */
	if (read_log(&rp, old) == 0) {
		cJSON_AddItemToArray(files, cJSON_CreateString(old));
		fprintf(nf, "%s", old);
		got++;
	}
	if (read_log(&rp, log) == 0) {
		cJSON_AddItemToArray(files, cJSON_CreateString(log));
		fprintf(nf, "%s%s", got > 0 ? ", " : "", log);
		got++;
	}
	if (fclose(nf) != 0)
		xoom();
	if (got == 0) {
		fprintf(stderr, "container-gateway: no log at %s\n", log);
		cJSON_Delete(files);
		rc = 1;
	} else if (cfg->json) {
		print_json(&rp, log, files);
	} else {
		print_text(&rp, where, names);
		cJSON_Delete(files);
	}
	cJSON_Delete(rp.refusals);
	cJSON_Delete(rp.violations);
	cJSON_Delete(rp.created);
	free(names);
	free(old);
	free(log);
	free(where);
	return rc;
}
