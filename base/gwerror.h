/*
 * Gateway-made errors: the closed reason-code vocabulary (http.md §11.1)
 * and the exact error response (http.md §11).
 */
#ifndef CG_GWERROR_H
#define CG_GWERROR_H

#include <stddef.h>

#define CG_DETAIL_MAX 1024	/* bytes, including the NUL (privsep.md §7.2) */
#define CG_HINT_MAX 512		/* bytes, including the NUL */

/*
 * Every answer the gateway writes carries this field (its own errors, the
 * 503, forwarded response heads; not the verbatim head of a switched
 * stream): other gateways recognise a gateway by it and never use one as
 * their backend (usability.sh u_chain).
 */
#define CG_HEADER_NAME	"Container-Gateway"
#define CG_HEADER_LINE	CG_HEADER_NAME ": " CG_VERSION "\r\n"

/* A hint value meaning "the detail already says what to do instead". */
#define CG_HINT_IN_DETAIL	"-"

/*
 * One refusal. code is a static string of the vocabulary, status follows.
 * detail says what was refused (the access line logs it); hint says what
 * to do instead: "" for the code's default hint (cg_code_hint), or a
 * specific one set with cg_refuse_hint / cg_hint, or CG_HINT_IN_DETAIL.
 */
struct cg_refusal {
	const char *code;
	int status;
	char detail[CG_DETAIL_MAX];
	char hint[CG_HINT_MAX];
};

/*
 * Status of a reason code (http.md §11.1; code NUL-terminated); -1 for a
 * code outside the vocabulary.
 */
int cg_code_status(const char *code);

/*
 * The code at index i of the vocabulary (0, 1, ...), NULL past the end:
 * for tests that walk every code.
 */
const char *cg_code_at(size_t i);

/*
 * The default hint of a reason code (every refusal says what to do instead;
 * doc/troubleshooting.md is the long form; test_gwerror.c): a static non-empty
 * string, or NULL for a code outside the vocabulary.
 */
const char *cg_code_hint(const char *code);

/*
 * Fill r with code, its status, no specific hint and a printf-formatted
 * detail (truncated to CG_DETAIL_MAX - 1 bytes). r->code then points to the static vocabulary
 * entry, not to the argument. Always returns -1 so rule code can write
 * "return cg_refuse(r, ...)". abort()s on a code outside the vocabulary
 * (a programming error, not an input error).
 */
int cg_refuse(struct cg_refusal *r, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * cg_refuse with a specific hint instead of the code's default (hint is
 * copied, truncated to CG_HINT_MAX - 1 bytes; CG_HINT_IN_DETAIL when the
 * detail itself says what to do). Returns -1.
 */
int cg_refuse_hint(struct cg_refusal *r, const char *code, const char *hint,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Set r's specific hint, printf-formatted (truncated to CG_HINT_MAX - 1). */
void cg_hint(struct cg_refusal *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Quote a client-supplied string s[0..len) (NUL not required) for a
 * detail: the first 256 bytes, "..." appended when cut (http.md §11.3
 * [S]); no escaping (cg_json_escape does that later). out must hold 260
 * bytes; the result is NUL-terminated; returns out.
 */
const char *cg_quote(const char *s, size_t len, char out[260]);

/*
 * The 504 refusal of http.md §10, §11.1: "the <kind> backend did not
 * answer within <T>s" with T = timeout_ms as configured (e.g. 60, 0.5).
 * kind is "podman" or "docker". Returns -1 like cg_refuse.
 */
int cg_refuse_timeout(struct cg_refusal *r, const char *kind,
    unsigned timeout_ms);

/* Reason phrase for a gateway status (http.md §11.4); "Error" otherwise. */
const char *cg_reason_phrase(int status);

/*
 * Render the complete gateway error response for r (http.md §11 item 1):
 * status line, Content-Type, Content-Length, Connection: close,
 * Container-Gateway: <version>, blank line, then the body
 * {"message":"container-gateway: <code>: <detail>; <hint>"} (no "; <hint>"
 * for CG_HINT_IN_DETAIL) unless head_only (HEAD: same Content-Length, no
 * body). Returns a
 * malloc'd NUL-terminated buffer (the caller frees it) and its length in
 * *len (bytes, without the NUL); exits through xoom() on allocation
 * failure.
 */
char *cg_error_response(const struct cg_refusal *r, int head_only,
    size_t *len);

/*
 * JSON-escape s[0..len) per http.md §11.3: '"' and '\\' escaped, bytes
 * < 0x20 and 0x7f as \u00xx (lower-case hex), valid UTF-8 copied, each
 * invalid byte as \ufffd, '/' unescaped. Returns a malloc'd NUL-terminated
 * string (the caller frees it; at most 6 * len + 1 bytes); exits through
 * xoom() on allocation failure.
 */
char *cg_json_escape(const char *s, size_t len);
/*
 * cg_json_escape with '=' also written as \u003d: for values in the
 * monitor's JSON log lines (cli.md §14.1; doc/audit.md), so that a raw
 * grep of the log finds no "access conn=" or "decision=allow" inside a
 * value a client or a request parser chose. Same sizes and errors.
 */
char *cg_json_escape_log(const char *s, size_t len);

#endif
