/*
 * Strict HTTP/1.1 parsing (http.md): request heads from clients (parsed
 * only in the sandboxed child), response heads from the backend (parsed by
 * the monitor), and the chunked transfer coding in both directions.
 * picohttpparser's shape: zero-copy outputs pointing into the caller's
 * buffer, return >0 / -2 (incomplete) / -1 (error).
 */
#ifndef CG_HTTP_H
#define CG_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "base/gwerror.h"

#define HTTP_HEAD_MAX		65536	/* bytes incl. final CRLF (§2.1) */
#define HTTP_FIELDS_MAX		100	/* header fields (§2.1) */
#define HTTP_METHOD_MAX		16
#define HTTP_BODY_JSON_MAX	(8u << 20)	/* bytes (§4.2) */
#define HTTP_TRAILER_MAX	65536	/* bytes of chunked trailers (§5.1) */
#define HTTP_INTERIM_MAX	8	/* 1xx responses before the final (§8.2) */

struct http_field {
	const char *name;	/* not NUL-terminated */
	size_t name_len;
	const char *value;	/* OWS trimmed, not NUL-terminated */
	size_t value_len;
};

/* A parsed request head; all pointers point into the parsed buffer. */
struct http_request {
	const char *method;
	size_t method_len;
	const char *target;	/* origin-form (absolute-form reduced, §2.3) */
	size_t target_len;
	struct http_field fields[HTTP_FIELDS_MAX];
	size_t nfields;

	/* Semantics of the special headers (§3), filled by the parser. */
	int has_content_length;
	uint64_t content_length;
	int chunked;		/* Transfer-Encoding: chunked */
	int expect_continue;	/* Expect: 100-continue */
	int conn_close;		/* Connection list has "close" */
	int conn_upgrade;	/* Connection list has "upgrade" */
	int upgrade_tcp;	/* Upgrade: tcp (case-insensitive) */
	int grpc;		/* Content-Type media type application/grpc* */
	const char *content_type;	/* client's value or NULL */
	size_t content_type_len;
};

/*
 * Parse a request head from buf[0..len) (http.md §2, §3: request line,
 * field syntax, Host required and unique, Content-Length, Transfer-Encoding,
 * their combination, Expect, Connection, Upgrade, Content-Type grpc flag).
 * *req is cleared first; its pointers point into buf, which must outlive it.
 * Returns the head length in bytes (through the blank line) when complete;
 * -2 when more bytes are needed (len < HTTP_HEAD_MAX, no error so far);
 * -1 with *err filled (cg_refuse) on error: 400 malformed, or 431
 * header-too-large (head > HTTP_HEAD_MAX or > HTTP_FIELDS_MAX fields),
 * reported as soon as it is certain. *err is untouched unless -1. Bytes
 * at or beyond HTTP_HEAD_MAX are never read.
 */
int http_parse_request(const char *buf, size_t len, struct http_request *req,
    struct cg_refusal *err);

/*
 * First of fields[0..nfields) named name (NUL-terminated; compared
 * ASCII case-insensitively), or NULL.
 */
const struct http_field *http_find_field(const struct http_field *fields,
    size_t nfields, const char *name);

/*
 * A Content-Length value v[0..vlen) (§3.2): 1-18 ASCII digits, leading
 * zeros allowed. Returns 0 with the number in *out, or -1.
 */
int http_content_length(const char *v, size_t vlen, uint64_t *out);

/*
 * The media type of a Content-Type value v[0..vlen): the part before the
 * first ';', OWS trimmed; *mt points into v.
 */
void http_media_type(const char *v, size_t vlen, const char **mt,
    size_t *mtlen);

/* A parsed backend response head (http.md §8.1). */
struct http_response {
	int minor_version;	/* 0 or 1 */
	int status;		/* 100-599 */
	struct http_field fields[HTTP_FIELDS_MAX];
	size_t nfields;
	int has_content_length;
	uint64_t content_length;
	int chunked;
	const char *content_type;
	size_t content_type_len;
};

/*
 * Parse a backend response head from buf[0..len) (http.md §8.1: status
 * line HTTP/1.0 or HTTP/1.1 with status 100-599, field rules of §2.4,
 * §3.2-3.4). *resp is cleared first; its pointers point into buf.
 * Returns the head length in bytes, -2 if incomplete, -1 if invalid or
 * larger than HTTP_HEAD_MAX bytes / HTTP_FIELDS_MAX fields (no detail).
 */
int http_parse_response(const char *buf, size_t len,
    struct http_response *resp);

/*
 * 1 when the response (to an attach or exec-start request) switches the
 * connection to a raw stream (http.md §9.1): status 101, or 200 with a
 * Content-Type media type application/vnd.docker.raw-stream or
 * application/vnd.docker.multiplexed-stream (case-insensitive) and neither
 * Content-Length nor Transfer-Encoding; else 0. The caller checks the
 * route.
 */
int http_response_switches(const struct http_response *resp);

/*
 * Incremental chunked decoder (http.md §5.1). Request mode: chunk-size of
 * 1-8 hex digits; response mode (§8.4): up to 16. In both modes the trailer
 * section (including the final CRLF) is limited to HTTP_TRAILER_MAX bytes;
 * chunk extensions and trailers are checked, never copied to out. The
 * decoder keeps its state in the struct; zero it (= request mode) or call
 * http_chunked_init before the first call.
 */
struct http_chunked {
	int response_mode;
	int state;
	uint64_t remaining;	/* data bytes left in the current chunk */
	unsigned digits;
	size_t line_len;	/* XXX unused: no per-line limit is kept */
	size_t trailer_len;
	int done;
};

/* Reset c; response_mode != 0 selects response mode. */
void http_chunked_init(struct http_chunked *c, int response_mode);

/*
 * Feed in[0..inlen). Decoded data bytes are written to out (capacity
 * *outlen bytes; on return *outlen = bytes written); *consumed = input
 * bytes used (both set on every return). Stops early when out is full or
 * the body ended (c->done set; bytes after the final CRLF are not
 * consumed). Returns 0 on progress or completion, -1 on a grammar
 * violation; the error is sticky (every later call returns -1). out may
 * be NULL only in validate-only use: then data bytes are skipped, not
 * copied, and *outlen stays 0 (the monitor relays response chunks
 * verbatim and only validates).
 */
int http_chunked_feed(struct http_chunked *c, const char *in, size_t inlen,
    char *out, size_t *outlen, size_t *consumed);

/*
 * Inside a chunk's data: count the rest of it as consumed without feeding
 * it (a relay that moves those bytes with splice(2)) and go on at the CRLF
 * after it. Returns the data bytes skipped; 0 outside a chunk's data (nothing
 * changes then).
 */
uint64_t http_chunked_skip_data(struct http_chunked *c);

/*
 * Take back the last n bytes that http_chunked_skip_data() counted as
 * consumed and were not moved after all (the splice's pipe was closed
 * mid-chunk): the decoder expects n data bytes again, then the CRLF.
 * n must not exceed what the skip returned; n 0, or a decoder that is not
 * right after a skip, changes nothing.
 */
void http_chunked_unskip(struct http_chunked *c, uint64_t n);

/*
 * Decode a whole chunked response body in[0..inlen) (response mode,
 * §8.4) into a new buffer: *out (malloc'd, the caller frees it) holds
 * *outlen data bytes and a NUL after them. Bytes after the body's end are
 * ignored. Returns 0, or -1 with nothing allocated when the framing is
 * broken or does not end within in.
 */
int http_chunked_decode_all(const char *in, size_t inlen, char **out,
    size_t *outlen);

/*
 * Copy the response head head[0..headlen) (parsed into *resp by
 * http_parse_response) to out without the fields named in drop (a
 * NULL-ended list, names compared ASCII case-insensitively) and without
 * its final empty line: the status line and the kept field lines, each
 * with its CRLF. out has room for headlen bytes. Returns the bytes
 * written.
 */
size_t http_head_copy(const char *head, size_t headlen,
    const struct http_response *resp, const char *const *drop, char *out);

#endif
