/*
 * Response post-filtering of list routes (routes.md §8.2 as amended;
 * doc/filters.md): the monitor keeps only the project's elements of a list the
 * backend answered, whatever filters the client sent. Pure functions: no I/O,
 * no state; the monitor calls them on its own classification of the forwarded
 * target, never on a flag from the child.
 */
#ifndef CG_MONITOR_EXCHANGE_LISTFILTER_H
#define CG_MONITOR_EXCHANGE_LISTFILTER_H

#include <stddef.h>

#include "policy/json.h"
#include "policy/policy.h"
#include "policy/routes.h"

/* The lists that are post-filtered, by element shape. */
enum lf_kind {
	LF_NONE = 0,	/* not a post-filtered list */
	LF_CONTAINERS,	/* GET containers/json (compat, libpod) */
	LF_VOLUMES,	/* GET volumes (compat), volumes/json (libpod) */
	LF_NETWORKS,	/* GET networks (compat), networks/json (libpod) */
	LF_PODS,	/* GET pods/json (libpod) */
};

/*
 * The post-filtered list kind of route rt (a row of policy/routes.c, as
 * route_classify() found it for the forwarded target), or LF_NONE: every
 * other route, including images/json (decision 9: images are shared) and
 * events (a stream). rt may be NULL (LF_NONE).
 */
enum lf_kind listfilter_kind(const struct cg_route *rt);

/*
 * Keep the elements of a kind list answered on api by a backend of
 * backend_kind whose labels hold CG_LABEL_KEY with the value root exactly
 * (NUL-terminated); every other element (another project's, unlabelled,
 * a label key spelled otherwise) is dropped. body[0..len) is the whole
 * decoded response body (at most JSON_MAX_TEXT bytes). Shapes: a JSON
 * array of objects, except compat volumes ({"Volumes": array or null,
 * ...}, other members kept); labels in "Labels", libpod networks in
 * "labels". On success returns 0 with *out (malloc'd, the caller frees
 * it; compact JSON, numbers as sent) and *out_len bytes. Returns -1 for an
 * unexpected answer: not JSON (policy.md §0.1), not the shape of kind and
 * api, an element that is not an object, an element with colliding keys
 * (identical or fold-equal, policy.md §0.2) or a labels object with
 * identical keys, libpod on a docker backend, kind LF_NONE. Exits through
 * xoom() on allocation failure.
 */
int listfilter_apply(enum lf_kind kind, enum cg_api api,
    enum cg_kind backend_kind, const char *root, const char *body,
    size_t len, char **out, size_t *out_len);

/* Wire bytes of a list answer's body the monitor collects at most. */
#define LISTFILTER_RAW_MAX	(2 * JSON_MAX_TEXT)

/*
 * A whole post-filtered answer: head[0..headlen) is the backend's final
 * response head (status 200, validated by http_parse_response), wire[0..
 * wirelen) its body as framed on the wire (chunked when chunked != 0,
 * else the Content-Length or EOF-delimited bytes, at most
 * LISTFILTER_RAW_MAX). The body is decoded and listfilter_apply()'d; the
 * answer is rebuilt as the head without its Content-Length and
 * Transfer-Encoding fields plus "Content-Length: <n>", then the filtered
 * body. Returns 0 with *out (malloc'd) and *out_len, or -1 (unparsable
 * head, broken or unfinished chunked framing, a decoded body over
 * JSON_MAX_TEXT, or listfilter_apply()'s refusals).
 */
int listfilter_response(enum lf_kind kind, enum cg_api api,
    enum cg_kind backend_kind, const char *root, const char *head,
    size_t headlen, int chunked, const char *wire, size_t wirelen,
    char **out, size_t *out_len);

#endif
