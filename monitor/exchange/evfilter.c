/*
 * The monitor's events stream filter (evfilter.h; routes.md §8 as
 * amended on 2026-12-07).
 */
#include "monitor/exchange/evfilter.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xmalloc.h"
#include "monitor/exchange/exchange.h"
#include "policy/json.h"

struct evfilter {
	enum cg_kind backend;
	char *root;
	char **labels;		/* podman: the client's label values */
	size_t nlabels;
	char *line;		/* a partial line */
	size_t len;
	int skipping;		/* dropping an over-long line to its end */
	size_t line_max;	/* evfilter_limit(); EVFILTER_LINE_MAX */
};

/* podman's reading of the filter <key>=<value>: 1 when it is a label one */
static int
podman_label_filter(const char *key, const char *value, char **out)
{
	size_t klen = strlen(key), vlen = strlen(value);
	char *s = xmalloc(klen + vlen + 2), *eq;

	memcpy(s, key, klen);
	s[klen] = '=';
	memcpy(s + klen + 1, value, vlen + 1);
	eq = strchr(s, '=');
	*eq = '\0';
	if (strcasecmp(s, "label") != 0) {
		free(s);
		return 0;
	}
	*out = xstrdup(eq + 1);
	free(s);
	return 1;
}

struct evfilter *
evfilter_new(enum cg_kind backend, const char *root, const char *filters)
{
	struct evfilter *f = xcalloc(1, sizeof(*f));
	const cJSON *m, *v;
	cJSON *in = NULL;
	char err[100], *label;

	f->backend = backend;
	f->root = xstrdup(root);
	f->line_max = EVFILTER_LINE_MAX;
	if (backend == CG_PODMAN && filters != NULL)
		in = json_parse(filters, strlen(filters), err, sizeof(err));
	if (cJSON_IsObject(in)) {
		for (m = in->child; m != NULL; m = m->next) {
			if (!cJSON_IsArray(m))
				continue;
			cJSON_ArrayForEach(v, m) {
				if (!cJSON_IsString(v) ||
				    !podman_label_filter(m->string,
				    v->valuestring, &label))
					continue;
				f->labels = xrealloc(f->labels,
				    (f->nlabels + 1) * sizeof(*f->labels));
				f->labels[f->nlabels++] = label;
			}
		}
	}
	cJSON_Delete(in);
	return f;
}

void
evfilter_free(struct evfilter *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->nlabels; i++)
		free(f->labels[i]);
	free(f->labels);
	free(f->root);
	free(f->line);
	free(f);
}

/* The one member of obj named key exactly, or NULL (none, or several). */
static const cJSON *
only_member(const cJSON *obj, const char *key)
{
	const cJSON *m, *found = NULL;

	for (m = obj->child; m != NULL; m = m->next)
		if (m->string != NULL && strcmp(m->string, key) == 0) {
			if (found != NULL)
				return NULL;
			found = m;
		}
	return found;
}

/* podman: attribute k equal to v for the label filter "k=v" */
static int
label_matches(const cJSON *attrs, const char *filter)
{
	const char *eq = strchr(filter, '=');
	const cJSON *m;
	size_t klen;

	if (eq == NULL)
		return 0;
	klen = (size_t)(eq - filter);
	for (m = attrs->child; m != NULL; m = m->next)
		if (m->string != NULL && strlen(m->string) == klen &&
		    memcmp(m->string, filter, klen) == 0 &&
		    cJSON_IsString(m) && strcmp(m->valuestring, eq + 1) == 0)
			return 1;
	return 0;
}

int
evfilter_keep(const struct evfilter *f, const char *line, size_t len)
{
	const cJSON *actor, *attrs, *own;
	cJSON *ev;
	char err[100];
	size_t i;
	int keep = 0;

	if (len == 0 || (ev = json_parse(line, len, err, sizeof(err))) == NULL)
		return 0;
	if (!cJSON_IsObject(ev) ||
	    (actor = only_member(ev, "Actor")) == NULL ||
	    !cJSON_IsObject(actor) ||
	    (attrs = only_member(actor, "Attributes")) == NULL ||
	    !cJSON_IsObject(attrs) ||
	    (own = only_member(attrs, CG_LABEL_KEY)) == NULL ||
	    !cJSON_IsString(own) || strcmp(own->valuestring, f->root) != 0)
		goto out;
	keep = f->nlabels == 0;
	for (i = 0; i < f->nlabels && !keep; i++)
		keep = label_matches(attrs, f->labels[i]);
out:
	cJSON_Delete(ev);
	return keep;
}

/* Judge line[0..len) and append it with '\n' to *out when kept. */
static void
judge(const struct evfilter *f, const char *line, size_t len, char **out,
    size_t *outlen)
{
	if (!evfilter_keep(f, line, len))
		return;
	*out = xrealloc(*out, *outlen + len + 1);
	memcpy(*out + *outlen, line, len);
	(*out)[*outlen + len] = '\n';
	*outlen += len + 1;
}

void
evfilter_feed(struct evfilter *f, const char *in, size_t n, char **out,
    size_t *outlen)
{
	const char *nl;
	size_t take;

	while (n > 0) {
		nl = memchr(in, '\n', n);
		take = nl != NULL ? (size_t)(nl - in) : n;
		if (!f->skipping && f->len + take > f->line_max) {
			f->skipping = 1;
			f->len = 0;
		}
		if (!f->skipping) {
			f->line = xrealloc(f->line, f->len + take + 1);
			memcpy(f->line + f->len, in, take);
			f->len += take;
		}
		if (nl == NULL)
			return;
		if (!f->skipping)
			judge(f, f->line, f->len, out, outlen);
		f->skipping = 0;
		f->len = 0;
		in = nl + 1;
		n -= take + 1;
	}
}

void
evfilter_limit(struct evfilter *f, size_t max)
{
	f->line_max = max < EVFILTER_LINE_MAX ? max : EVFILTER_LINE_MAX;
}

void
evfilter_end(struct evfilter *f, char **out, size_t *outlen)
{
	if (!f->skipping && f->len > 0)
		judge(f, f->line, f->len, out, outlen);
	f->skipping = 0;
	f->len = 0;
}
