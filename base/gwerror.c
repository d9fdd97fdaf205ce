/* Gateway-made error responses (http.md §11). */
#include "base/gwerror.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

static const struct {
	const char *code;
	int status;
} codes[] = {
	{ "malformed", 400 },
	{ "ambiguous-field", 403 }, { "unknown-field", 403 },
	{ "denied-endpoint", 403 }, { "unknown-endpoint", 403 },
	{ "denied-query", 403 }, { "denied-build-parameter", 403 },
	{ "privileged", 403 }, { "cap-add", 403 }, { "cap-drop", 403 },
	{ "capabilities", 403 }, { "devices", 403 }, { "namespace", 403 },
	{ "network", 403 }, { "security-opt", 403 },
	{ "log-configuration", 403 }, { "annotations", 403 },
	{ "sysctls", 403 }, { "cgroup-parent", 403 }, { "runtime", 403 },
	{ "isolation", 403 }, { "masked-paths", 403 },
	{ "readonly-paths", 403 }, { "publish-all", 403 }, { "publish", 403 },
	{ "bind-mount", 403 }, { "mount-type", 403 }, { "volume-driver", 403 },
	{ "volumes-from", 403 }, { "egress-required", 403 }, { "rootfs", 403 },
	{ "overlay-volumes", 403 }, { "env-host", 403 }, { "secrets", 403 },
	{ "chroot-directories", 403 }, { "init-path", 403 },
	{ "pid-file", 403 }, { "container-id-file", 403 }, { "links", 403 },
	{ "pod", 403 }, { "dependency-containers", 403 }, { "host-path", 403 },
	{ "remove-image", 403 }, { "commit-label", 403 },
	{ "not-found", 404 },
	{ "too-large", 413 },
	{ "header-too-large", 431 },
	{ "backend-unreachable", 502 },
	{ "too-many-connections", 503 },
	{ "backend-timeout", 504 },
};

int
cg_code_status(const char *code)
{
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(codes[i].code, code) == 0)
			return codes[i].status;
	return -1;
}

int
cg_refuse(struct cg_refusal *r, const char *code, const char *fmt, ...)
{
	va_list ap;
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(codes[i].code, code) == 0)
			break;
	if (i == sizeof(codes) / sizeof(codes[0]))
		abort();
	r->code = codes[i].code;
	r->status = codes[i].status;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
	return -1;
}

int
cg_refuse_timeout(struct cg_refusal *r, const char *kind, unsigned timeout_ms)
{
	return cg_refuse(r, "backend-timeout", "the %s backend did not answer "
	    "within %gs", kind, timeout_ms / 1000.0);
}

const char *
cg_quote(const char *s, size_t len, char out[260])
{
	if (len > 256) {
		memcpy(out, s, 256);
		memcpy(out + 256, "...", 4);
	} else {
		memcpy(out, s, len);
		out[len] = '\0';
	}
	return out;
}

const char *
cg_reason_phrase(int status)
{
	switch (status) {
	case 400: return "Bad Request";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 413: return "Payload Too Large";
	case 431: return "Request Header Fields Too Large";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	default: return "Error";
	}
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when invalid. */
static size_t
utf8_seq(const unsigned char *s, size_t left)
{
	size_t n, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (left < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

char *
cg_json_escape(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = xmalloc(len * 6 + 1), *o = out;
	size_t i = 0, n;

	while (i < len) {
		if (p[i] == '"' || p[i] == '\\') {
			*o++ = '\\';
			*o++ = (char)p[i++];
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			o += sprintf(o, "\\u%04x", p[i++]);
		} else if ((n = utf8_seq(p + i, len - i)) == 0) {
			memcpy(o, "\\ufffd", 6);
			o += 6;
			i++;
		} else {
			memcpy(o, p + i, n);
			o += n;
			i += n;
		}
	}
	*o = '\0';
	return out;
}

char *
cg_error_response(const struct cg_refusal *r, int head_only, size_t *len)
{
	char *msg, *esc, *out;
	size_t bodylen;
	int n;

	n = asprintf(&msg, "container-gateway: %s: %s", r->code, r->detail);
	if (n < 0)
		xoom();
	esc = cg_json_escape(msg, (size_t)n);
	free(msg);
	bodylen = strlen(esc) + strlen("{\"message\":\"\"}");
	n = asprintf(&out, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n\r\n%s%s%s",
	    r->status, cg_reason_phrase(r->status), bodylen,
	    head_only ? "" : "{\"message\":\"", head_only ? "" : esc,
	    head_only ? "" : "\"}");
	free(esc);
	if (n < 0)
		xoom();
	*len = (size_t)n;
	return out;
}
