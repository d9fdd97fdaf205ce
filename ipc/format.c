/*
 * The debug IPC audit line's fields (cli.md §14.4): a message's fields
 * as " name=value" units for the text log, or as one JSON object for the
 * JSON log (escaping of cli.md §14.1), walking the catalogue table of
 * proto.c with the spec names of privsep.md §7.
 */
#include "ipc/proto.h"
#include "ipc/proto_int.h"
#include "base/gwerror.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct out {
	char *p;
	size_t sz;		/* capacity including the NUL */
	size_t len;
	int full;		/* something did not fit: write nothing more */
	int json;		/* JSON members instead of name=value */
	int nfields;		/* members written so far (JSON commas) */
};

/* Append s[0..n) whole or not at all, so a cut never splits a unit. */
static void
out_raw(struct out *o, const char *s, size_t n)
{
	if (o->full)
		return;
	if (n > o->sz - 1 - o->len) {
		o->full = 1;
		return;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static void
out_cstr(struct out *o, const char *s)
{
	out_raw(o, s, strlen(s));
}

static void
out_name(struct out *o, const char *name, const char *suffix)
{
	char tmp[64];
	int n = o->json ? snprintf(tmp, sizeof(tmp), "%s\"%s%s\":",
	    o->nfields++ > 0 ? "," : "", name, suffix) :
	    snprintf(tmp, sizeof(tmp), " %s%s=", name, suffix);

	if (n > 0 && (size_t)n < sizeof(tmp))
		out_raw(o, tmp, (size_t)n);
	else
		o->full = 1;
}

static void
out_u64(struct out *o, uint64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v);

	out_raw(o, tmp, (size_t)n);
}

static void
out_i64(struct out *o, int64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" PRId64, v);

	out_raw(o, tmp, (size_t)n);
}

/* A str value: bare when it is a plain token, else quoted and escaped. */
static void
out_escaped(struct out *o, const struct ipc_str *s)
{
	const unsigned char *p = (const unsigned char *)s->p;
	int quote = s->len == 0;
	char tmp[5];
	uint32_t i;

	if (p == NULL && s->len > 0) {	/* invalid message: say so, safely */
		out_raw(o, o->json ? "null" : "<null>", o->json ? 4 : 6);
		return;
	}
	if (o->json) {			/* a JSON string (cli.md §14.1) */
		char *e = cg_json_escape_log(s->p != NULL ? s->p : "", s->len);

		out_raw(o, "\"", 1);
		out_cstr(o, e);
		out_raw(o, "\"", 1);
		free(e);
		return;
	}
	for (i = 0; i < s->len && !quote; i++)
		if (p[i] < 0x21 || p[i] > 0x7E || p[i] == '"' || p[i] == '\\' ||
		    p[i] == '=')
			quote = 1;
	if (!quote) {
		out_raw(o, s->p, s->len);
		return;
	}
	out_raw(o, "\"", 1);
	for (i = 0; i < s->len; i++) {
		if (p[i] == '"' || p[i] == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)p[i];
			out_raw(o, tmp, 2);
		} else if (p[i] >= 0x20 && p[i] <= 0x7E && p[i] != '=')
			out_raw(o, (const char *)&p[i], 1);
		else {
			(void)snprintf(tmp, sizeof(tmp), "\\x%02X", p[i]);
			out_raw(o, tmp, 4);
		}
	}
	out_raw(o, "\"", 1);
}

static void
out_field(struct out *o, const struct ipc_msg *m, const struct field *f)
{
	const unsigned char *p = (const unsigned char *)m + f->off;

	switch (f->kind) {
	case F_BOOL:
		out_name(o, f->name, "");
		out_u64(o, *p);
		break;
	case F_ENUM:
		out_name(o, f->name, "");
		if (*p < f->max) {
			if (o->json)
				out_raw(o, "\"", 1);
			out_cstr(o, f->names[*p]);
			if (o->json)
				out_raw(o, "\"", 1);
		} else {
			out_u64(o, *p);
		}
		break;
	case F_U16:
		out_name(o, f->name, "");
		out_u64(o, *(const uint16_t *)(const void *)p);
		break;
	case F_U32:
		out_name(o, f->name, "");
		out_u64(o, *(const uint32_t *)(const void *)p);
		break;
	case F_U64:
		out_name(o, f->name, "");
		out_u64(o, *(const uint64_t *)(const void *)p);
		break;
	case F_I32:
		out_name(o, f->name, "");
		out_i64(o, *(const int32_t *)(const void *)p);
		break;
	case F_STR:
		out_name(o, f->name, "");
		out_escaped(o, (const struct ipc_str *)(const void *)p);
		break;
	case F_BYTES:
		out_name(o, f->name, "_len");
		out_u64(o, ((const struct ipc_str *)(const void *)p)->len);
		break;
	case F_HEADERS:
		out_name(o, f->name, "_n");
		out_u64(o, m->u.forward.nheaders);
		break;
	}
}

int
ipc_format_fields_json(const struct ipc_msg *m, char *out, size_t outsz)
{
	const struct msgdesc *d = ipc_msgdesc(m->type);
	struct out o = { out, outsz, 0, 0, 1, 0 };
	size_t i;

	if (outsz < 3)
		return -1;
	out[0] = '\0';
	out_raw(&o, "{", 1);
	for (i = 0; d != NULL && i < d->nf && !o.full; i++)
		out_field(&o, m, &d->f[i]);
	if (o.full) {		/* keep it valid JSON: drop the fields */
		snprintf(out, outsz, "{}");
		return 2;
	}
	out_raw(&o, "}", 1);
	return o.full ? -1 : (int)o.len;
}

int
ipc_format_fields(const struct ipc_msg *m, char *out, size_t outsz)
{
	const struct msgdesc *d = ipc_msgdesc(m->type);
	struct out o = { out, outsz, 0, 0, 0, 0 };
	size_t i;

	if (outsz == 0)
		return 0;
	out[0] = '\0';
	if (d == NULL)
		return 0;
	for (i = 0; i < d->nf && !o.full; i++)
		out_field(&o, m, &d->f[i]);
	return (int)o.len;
}
