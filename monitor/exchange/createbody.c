/*
 * A create's JSON body, parsed once by the monitor, in its replay
 * (createbody.h).
 * Only this file writes c->cb (tests/boundary.sh rule 5).
 */
#include "monitor/gateway.h"
#include "monitor/exchange/createbody.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"
#include "monitor/pins.h"
#include "policy/body.h"
#include "policy/imagecfg.h"
#include "policy/json.h"

void
createbody_free(struct conn *c)
{
	if (c->cb.sd != NULL) {
		image_systemd_body_free(c->cb.sd);
		free(c->cb.sd);
		c->cb.sd = NULL;
	}
	c->cb.nbind = 0;
	c->cb.read = 0;
	createbody_drop_tree(c);
}

int
createbody_wants_tree(const struct conn *c)
{
	return c->json != NULL && (c->fw.op == FOP_CONTAINER_CREATE ||
	    c->fw.op == FOP_POD_CREATE || c->fw.op == FOP_VOLUME_CREATE);
}

void
createbody_take_tree(struct conn *c, cJSON *tree)
{
	createbody_drop_tree(c);
	c->cb.tree = tree;
}

void
createbody_drop_tree(struct conn *c)
{
	cJSON_Delete(c->cb.tree);
	c->cb.tree = NULL;
}

void
createbody_begin(struct conn *c)
{
	createbody_free(c);
	c->cb.parses = 0;
}

void
createbody_parsed(struct conn *c)
{
	c->cb.parses++;
}

void
createbody_log(const struct conn *c)
{
	log_msg(LOG_DEBUG, "body-parses", "the monitor parsed the forwarded "
	    "JSON body %u time%s (conn %llu)", c->cb.parses,
	    c->cb.parses == 1 ? "" : "s", (unsigned long long)c->id);
}

cJSON *
createbody_read(struct conn *c, int create, int pod, char *err,
    size_t errlen)
{
	struct cg_bind_src src[PINS_PER_CREATE];
	cJSON *tree;

	/* the replay's tree of the same bytes, else a parse */
	tree = c->cb.tree;
	c->cb.tree = NULL;
	createbody_free(c);
	if (tree == NULL) {
		c->cb.parses++;
		tree = json_parse(c->json, (size_t)c->body_len, err, errlen);
	}
	if (tree == NULL || !create)
		return tree;
	c->cb.read = 1;
	/* the words are the body's own (at most six strings): within the
	   second body copy forward_need() took, unused until the forward */
	c->cb.sd = xcalloc(1, sizeof(*c->cb.sd));
	image_systemd_body(tree, pod, c->cb.sd);
	c->cb.nbind = body_bind_sources((enum cg_api)c->api, pod, tree, src,
	    PINS_PER_CREATE);
	return tree;
}

/* The end of the JSON string that starts at s[i] ('"'), or len. */
static size_t
string_end(const char *s, size_t i, size_t len)
{
	for (i++; i < len && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i < len ? i + 1 : len;
}

/* The end of the JSON value (valid, compact) that starts at s[i]. */
static size_t
value_end(const char *s, size_t i, size_t len)
{
	size_t depth = 0;

	if (s[i] == '"')
		return string_end(s, i, len);
	if (s[i] != '{' && s[i] != '[') {	/* a number or a literal */
		while (i < len && s[i] != ',' && s[i] != '}' && s[i] != ']')
			i++;
		return i;
	}
	while (i < len) {
		if (s[i] == '"') {
			i = string_end(s, i, len);
			continue;
		}
		if (s[i] == '{' || s[i] == '[')
			depth++;
		else if ((s[i] == '}' || s[i] == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return len;
}

int
createbody_set_string(const char *json, size_t len, const char *key,
    const char *value, char **out, size_t *out_len)
{
	size_t i = 1, k, v, klen = strlen(key), qlen;
	char *quoted;
	cJSON *str;

	if (len < 2 || json[0] != '{')
		return -1;
	while (i < len && json[i] == '"') {
		k = string_end(json, i, len);
		if (memchr(json + i, '\\', k - i) != NULL)
			return -2;
		if (k + 1 >= len || json[k] != ':')
			return -1;
		v = value_end(json, k + 1, len);
		if (k - i - 2 == klen && memcmp(json + i + 1, key, klen) == 0) {
			if (json[k + 1] != '"')
				return -1;
			str = json_checked(cJSON_CreateString(value));
			quoted = json_serialize(str, &qlen);
			cJSON_Delete(str);
			*out_len = (k + 1) + qlen + (len - v);
			*out = xmalloc(*out_len + 1);
			memcpy(*out, json, k + 1);
			memcpy(*out + k + 1, quoted, qlen);
			memcpy(*out + k + 1 + qlen, json + v, len - v);
			(*out)[*out_len] = '\0';
			free(quoted);
			return 0;
		}
		if (v >= len || json[v] != ',')
			return -1;
		i = v + 1;
	}
	return -1;
}
