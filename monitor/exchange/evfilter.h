/*
 * The events stream, filtered by the monitor (routes.md §8 as amended on
 * 2026-12-07; doc/filters.md): the backend's events answer is one JSON
 * event per line; the monitor keeps the lines of the project's events
 * that also match the client's label filter as the backend reads it, and
 * drops every other line. Pure functions: no I/O; the monitor builds the
 * filter from its own routing of the forwarded target (verify.c), never
 * from a flag of the child.
 */
#ifndef CG_MONITOR_EXCHANGE_EVFILTER_H
#define CG_MONITOR_EXCHANGE_EVFILTER_H

#include <stddef.h>

#include "policy/policy.h"

/* Longest event line kept, in bytes; a longer one is dropped whole. */
#define EVFILTER_LINE_MAX	(1024 * 1024)

struct evfilter;

/*
 * A filter for an events answer of a backend of kind backend, for project
 * root (NUL-terminated, copied). filters is the forwarded query's
 * "filters" value (NUL-terminated JSON, the policy's list form
 * {"key":["value",...]}), or NULL. An event is kept when its
 * Actor.Attributes (compat and podman 4.3 libpod: the same shape) hold
 * CG_LABEL_KEY with the value root exactly, once, and, on a podman
 * backend, when one of the client's label values matches: podman 4.3.1
 * reads every filter as "<key>=<value>" split at its first '=', takes the
 * key case-insensitively ("Label", "label=k" are label filters), ORs the
 * label values and matches "k=v" against an attribute k equal to v; a
 * value without '=' matches nothing (measured:
 * tests/integration/filters.sh events rows). dockerd ANDs the client's
 * label filters itself (the gateway forwards them with the project's),
 * so there only the project label is checked. filters that do not parse
 * as an object of string lists add no label value (the project's events
 * are kept). Exits through xoom() on allocation failure.
 */
struct evfilter *evfilter_new(enum cg_kind backend, const char *root,
    const char *filters);
/* evfilter_free() (monitor/exchange/exchange.h: the connection's end frees it) */

/*
 * Feed n decoded body bytes of the answer. The complete lines among them
 * that are kept are appended, each with its '\n', to *out (malloc'd or
 * NULL; *outlen bytes; the caller frees it); a partial line waits for the
 * next call, at most EVFILTER_LINE_MAX bytes (then the line is dropped
 * up to its end). Empty lines, lines that are not a JSON object and
 * events without the attributes are dropped.
 */
void evfilter_feed(struct evfilter *f, const char *in, size_t n, char **out,
    size_t *outlen);

/*
 * Keep partial lines of at most max bytes from now on (at most
 * EVFILTER_LINE_MAX, the default): the monitor's memory budget gives a
 * connection without its stream reserve RELAY_FLOOR (monitor/exchange/relay.c).
 */
void evfilter_limit(struct evfilter *f, size_t max);

/* The answer ended: a last line without '\n' is judged like the others. */
void evfilter_end(struct evfilter *f, char **out, size_t *outlen);

/* 1 when the event line line[0..len) (no '\n') is kept by f. */
int evfilter_keep(const struct evfilter *f, const char *line, size_t len);

#endif
