/* Gateway-made error responses (http.md §11). */
#include "base/gwerror.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

/*
 * The closed vocabulary (http.md §11.1) with each code's status and its
 * default hint: what to do instead (test_gwerror.c), the short form of
 * doc/troubleshooting.md. A refusal may carry a more specific hint.
 */
static const struct {
	const char *code;
	int status;
	const char *hint;
} codes[] = {
	{ "malformed", 400, "send plain HTTP/1.1 and valid JSON, as current "
	    "docker and podman clients do" },
	{ "ambiguous-field", 403, "send each key once, spelled as in the Docker "
	    "or libpod API" },
	{ "unknown-field", 403, "remove the field; the gateway accepts only the "
	    "fields it knows" },
	{ "denied-endpoint", 403, "this is never available through the gateway; "
	    "doc/troubleshooting.md lists the alternatives" },
	{ "unknown-endpoint", 403, "use the everyday docker and podman commands; "
	    "if a current CLI needs this route, report it" },
	{ "denied-query", 403, "drop the parameter, and send each query key "
	    "once" },
	{ "denied-build-parameter", 403, "remove the flag from the build; fetch "
	    "what the build needs in a RUN step" },
	{ "privileged", 403, "run without --privileged; the gateway never "
	    "grants it" },
	{ "cap-add", 403, "run without --cap-add (--cap-drop is allowed)" },
	{ "cap-drop", 403, "set capabilities when you create the container, "
	    "not on exec" },
	{ "capabilities", 403, "drop the capability set; the default set "
	    "applies" },
	{ "devices", 403, "containers get no host devices through the gateway; "
	    "use files in the project or a named volume" },
	{ "namespace", 403, "keep the default namespaces; containers that must "
	    "share one go in a pod (podman --remote pod create)" },
	{ "network", 403, "use the default network, --network none, or a "
	    "network created through this gateway (docker network create "
	    "NAME)" },
	{ "security-opt", 403, "keep the default seccomp, AppArmor and SELinux "
	    "profiles (no-new-privileges is allowed)" },
	{ "log-configuration", 403, "use the default log driver and read logs "
	    "with docker logs" },
	{ "annotations", 403, "use labels, or annotations outside the "
	    "engine-reserved prefixes" },
	{ "sysctls", 403, "kernel parameters cannot be set through the gateway; "
	    "rely on the defaults" },
	{ "cgroup-parent", 403, "drop it; set limits with --memory, --cpus or "
	    "--pids-limit" },
	{ "systemd", 403, "run it without systemd mode: podman --remote run "
	    "--systemd=false IMAGE (the gateway sends systemd=false on every "
	    "libpod create), or a command other than an init" },
	{ "runtime", 403, "use the daemon's default runtime" },
	{ "isolation", 403, "drop --isolation" },
	{ "masked-paths", 403, "drop it; the default masked paths stay" },
	{ "readonly-paths", 403, "drop it; the default read-only paths stay" },
	{ "publish-all", 403, "publish ports one by one: -p 8080:80 (bound to "
	    "127.0.0.1)" },
	{ "publish", 403, "use -p [127.0.0.1:]HOST:CONTAINER, and no "
	    "published ports with --network none" },
	{ "bind-mount", 403, "bind a directory inside the project, start the "
	    "gateway with --extra-bind-root DIR for another one, or use a named "
	    "volume (-v NAME:/path)" },
	{ "mount-type", 403, "use --mount type=bind, type=volume or "
	    "type=tmpfs" },
	{ "volume-driver", 403, "use a plain named volume (local driver, no "
	    "options)" },
	{ "volumes-from", 403, "share a named volume between the containers" },
	{ "egress-required", 403, "start the egress proxy (the gateway "
	    "re-probes it), or run the gateway with --egress "
	    "inject-if-available" },
	{ "rootfs", 403, "build an image instead" },
	{ "overlay-volumes", 403, "bind the directory (inside the project) or "
	    "use a named volume" },
	{ "env-host", 403, "pass the variables you need with -e NAME=value" },
	{ "secrets", 403, "pass values with -e or in a file inside the "
	    "project" },
	{ "chroot-directories", 403, "drop the option" },
	{ "init-path", 403, "use --init without a path" },
	{ "pid-file", 403, "drop --pidfile and --conmon-pidfile" },
	{ "container-id-file", 403, "read the id from the create response "
	    "(docker run -d prints it)" },
	{ "links", 403, "put both containers on a network created through this "
	    "gateway and use the container name as host name" },
	{ "pod", 403, "create the pod through this gateway (podman --remote pod "
	    "create)" },
	{ "dependency-containers", 403, "depend only on containers created "
	    "through this gateway" },
	{ "host-path", 403, "drop the option; the daemon keeps such files in "
	    "its own place" },
	{ "remove-image", 403, "remove the container, then the image (allowed "
	    "for images built in this project)" },
	{ "commit-label", 403, "keep the project label; use plain LABEL "
	    "key=value changes" },
	{ "not-found", 404, "only this project's containers, pods, volumes, "
	    "networks and images are visible here (docker ps -a, docker volume "
	    "ls, docker network ls)" },
	{ "too-large", 413, "keep request bodies under 8 MiB: move large "
	    "environments or labels into an image or a file" },
	{ "header-too-large", 431, "send fewer or shorter headers" },
	{ "backend-unreachable", 502, "check the daemon, then restart the "
	    "gateway: it picks its backend at start-up" },
	{ "too-many-connections", 503, "close idle clients (leftover logs -f or "
	    "attach sessions) or raise --max-connections" },
	{ "backend-timeout", 504, "check the daemon's load, or raise "
	    "--backend-timeout" },
};

#define NCODES	(sizeof(codes) / sizeof(codes[0]))

/* Index of code in codes[], or NCODES. */
static size_t
code_index(const char *code)
{
	size_t i;

	for (i = 0; i < NCODES; i++)
		if (strcmp(codes[i].code, code) == 0)
			break;
	return i;
}

const char *
cg_code_at(size_t i)
{
	return i < NCODES ? codes[i].code : NULL;
}

const char *
cg_code_hint(const char *code)
{
	size_t i = code_index(code);

	return i < NCODES ? codes[i].hint : NULL;
}

int
cg_code_status(const char *code)
{
	size_t i = code_index(code);

	return i < NCODES ? codes[i].status : -1;
}

/* Fill r's code, status and detail; abort()s on a code outside the list. */
static void
refusal_v(struct cg_refusal *r, const char *code, const char *fmt,
    va_list ap)
{
	size_t i = code_index(code);

	if (i == NCODES)
		abort();
	r->code = codes[i].code;
	r->status = codes[i].status;
	r->hint[0] = '\0';
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
}

int
cg_refuse(struct cg_refusal *r, const char *code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	refusal_v(r, code, fmt, ap);
	va_end(ap);
	return -1;
}

int
cg_refuse_hint(struct cg_refusal *r, const char *code, const char *hint,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	refusal_v(r, code, fmt, ap);
	va_end(ap);
	cg_hint(r, "%s", hint);
	return -1;
}

void
cg_hint(struct cg_refusal *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->hint, sizeof(r->hint), fmt, ap);
	va_end(ap);
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

/* cg_json_escape, and with eq also '=' as \u003d (cg_json_escape_log). */
static char *
json_escape(const char *s, size_t len, int eq)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = xmalloc(len * 6 + 1), *o = out;
	size_t i = 0, n;

	while (i < len) {
		if (p[i] == '"' || p[i] == '\\') {
			*o++ = '\\';
			*o++ = (char)p[i++];
		} else if (p[i] < 0x20 || p[i] == 0x7f || (eq && p[i] == '=')) {
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
cg_json_escape(const char *s, size_t len)
{
	return json_escape(s, len, 0);
}

char *
cg_json_escape_log(const char *s, size_t len)
{
	return json_escape(s, len, 1);
}

char *
cg_error_response(const struct cg_refusal *r, int head_only, size_t *len)
{
	const char *hint = r->hint[0] != '\0' ? r->hint : cg_code_hint(r->code);
	char *msg, *esc, *out;
	size_t bodylen;
	int n;

	if (hint == NULL || strcmp(hint, CG_HINT_IN_DETAIL) == 0)
		hint = "";
	n = asprintf(&msg, "container-gateway: %s: %s%s%s", r->code, r->detail,
	    hint[0] != '\0' ? "; " : "", hint);
	if (n < 0)
		xoom();
	esc = cg_json_escape(msg, (size_t)n);
	free(msg);
	bodylen = strlen(esc) + strlen("{\"message\":\"\"}");
	n = asprintf(&out, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n" CG_HEADER_LINE
	    "\r\n%s%s%s", r->status, cg_reason_phrase(r->status), bodylen,
	    head_only ? "" : "{\"message\":\"", head_only ? "" : esc,
	    head_only ? "" : "\"}");
	free(esc);
	if (n < 0)
		xoom();
	*len = (size_t)n;
	return out;
}
