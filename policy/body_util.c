/*
 * Helpers of the body policies: ASCII case, the resource-name grammar of
 * policy.md §3.3 and §4, JSON member access and new nodes (these exit
 * through xoom() on allocation failure), and the ownership questions a
 * body rule asks (routes.md §9.3). Contracts in body_int.h.
 */
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "policy/body.h"
#include "policy/body_int.h"
#include "policy/json.h"

int
ci_prefix(const char *s, const char *prefix)
{
	for (; *prefix != '\0'; s++, prefix++)
		if (*s == '\0' || cg_lower((unsigned char)*s) !=
		    cg_lower((unsigned char)*prefix))
			return 0;
	return 1;
}

/* Copy s[0..n), trimmed of blanks and lower-cased. */
char *
trim_lower(const char *s, size_t n)
{
	char *out;
	size_t i;

	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	out = xstrndup(s, n);
	for (i = 0; i < n; i++)
		out[i] = (char)cg_lower((unsigned char)out[i]);
	return out;
}

int
name_char(int c, int first)
{
	if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return !first && (c == '_' || c == '.' || c == '-');
}

int
is_resource_name(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > 255)
		return 0;
	for (i = 0; i < len; i++)
		if (!name_char((unsigned char)s[i], i == 0))
			return 0;
	return 1;
}

const char *
q(const char *s, char buf[260])
{
	return cg_quote(s, strlen(s), buf);
}

const char *
jstr(const cJSON *obj, const char *key)
{
	const cJSON *v = json_get(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *
jstr0(const cJSON *obj, const char *key)
{
	const char *s = jstr(obj, key);

	return s != NULL ? s : "";
}

/* "Not null" (§3.1 step 19): present with a value other than null. */
int
not_null(const cJSON *v)
{
	return v != NULL && !cJSON_IsNull(v);
}

cJSON *
xj_string(const char *s)
{
	return json_checked(cJSON_CreateString(s));
}

cJSON *
xj_object(void)
{
	return json_checked(cJSON_CreateObject());
}

cJSON *
xj_array(void)
{
	return json_checked(cJSON_CreateArray());
}

cJSON *
xj_false(void)
{
	return json_checked(cJSON_CreateFalse());
}

void
xj_set_string(cJSON *item, const char *s)
{
	if (cJSON_SetValuestring(item, s) == NULL)
		xoom();
}

void
replace_member(cJSON *obj, cJSON *item, cJSON *repl)
{
	/* Keys are unique here (collisions were refused), so the first
	 * exact match is item; cJSON copies the key onto repl. */
	if (!cJSON_ReplaceItemInObjectCaseSensitive(obj, item->string, repl) ||
	    repl->string == NULL)
		xoom();
}

void
set_member(cJSON *obj, const char *key, cJSON *value)
{
	cJSON *old = json_get(obj, key);

	if (old != NULL)
		replace_member(obj, old, value);
	else if (!cJSON_AddItemToObject(obj, key, value))
		xoom();
}

void
rename_member(cJSON *item, const char *key)
{
	size_t n = strlen(key) + 1;
	char *k = cJSON_malloc(n);

	if (k == NULL)
		xoom();
	memcpy(k, key, n);
	if (item->string != NULL && !(item->type & cJSON_StringIsConst))
		cJSON_free(item->string);
	item->type &= ~cJSON_StringIsConst;
	item->string = k;
}

/* ---- Facts (routes.md §9.3) ---- */

static const char *
backend_name(const struct cg_policy_ctx *ctx)
{
	return ctx->backend_kind == CG_DOCKER ? "docker" : "podman";
}

int
fact_failure(const struct cg_policy_ctx *ctx, enum cg_fact_result res,
    const char *kind, struct cg_refusal *r)
{
	switch (res) {
	case CG_TIMEOUT:
		return cg_refuse_timeout(r, backend_name(ctx),
		    ctx->backend_timeout_ms ? ctx->backend_timeout_ms : 60000);
	case CG_UNEXPECTED:
		return cg_refuse(r, "backend-unreachable",
		    "unexpected %s inspect response", kind);
	case CG_OWNED:
	case CG_NOT_OWNED:
	case CG_UNREACHABLE:
		break;
	}
	return cg_refuse(r, "backend-unreachable",
	    "the %s backend is unreachable", backend_name(ctx));
}

enum cg_fact_result
ask_owned(const struct cg_policy_ctx *ctx, const struct cg_request *req,
    enum cg_fact_kind kind, const char *ref, char id_out[CG_ID_MAX + 1])
{
	enum cg_fact_result res;

	id_out[0] = '\0';
	if (ctx->facts == NULL || ctx->facts->owned == NULL)
		return CG_UNREACHABLE;
	res = ctx->facts->owned(ctx->facts->arg, kind, req->api, req->prefix,
	    ref, id_out);
	id_out[CG_ID_MAX] = '\0';
	if (res == CG_OWNED && id_out[0] == '\0')
		return CG_UNEXPECTED;
	return res;
}
