/*
 * How the daemons assemble one value out of several parts of a request,
 * in one place: a per-value rule must see the value the daemon uses, not
 * only its parts (spec README, amendments of 2026-12-07: "references are
 * checked as the daemon assembles them", "filter keys are compared as the
 * daemon parses them", "a stream route's form body is refused").
 *
 * Three kinds of assembly, each read from podman v4.3.1's and moby
 * v20.10's handlers:
 *   - image references joined from two query values (fromImage + tag,
 *     repo + tag): the transport rule (policy/imageref.c) checks the
 *     joined value;
 *   - filter keys: podman joins every filter key and value with '=' and
 *     splits the result at its first '=' (pkg/util/filters.go
 *     PrepareFilters, FiltersFromRequest), so a key holding '=' moves its
 *     tail into the value; the label filter rules (policy/filters.c) see
 *     the split form;
 *   - form bodies: a POST body of type application/x-www-form-urlencoded
 *     (both daemons' Go servers, http.Request.ParseForm) or
 *     multipart/form-data (dockerd's r.FormValue) is read as query values,
 *     ahead of the query (urlencoded) or where the query lacks the key
 *     (multipart); policy/headers.c refuses it on stream routes.
 * No I/O.
 */
#ifndef CG_POLICY_ASSEMBLE_H
#define CG_POLICY_ASSEMBLE_H

#include <stddef.h>

#include "policy/types.h"
#include "policy/query.h"

struct cg_route;

/* One route that joins an image reference from two query keys. */
struct asm_ref_pair {
	unsigned apis;		/* ROUTE_C, ROUTE_L or both */
	const char *family;	/* route row family and action (routes.c) */
	const char *action;
	const char *name_key;	/* the repository part */
	const char *tag_key;	/* the tag (or digest) part */
	const char *dflt_tag;	/* the tag a daemon uses when tag_key is
				   absent or empty, or NULL: the name alone */
	const char *where;	/* the handlers that join them */
};

/*
 * The table of asm_ref_pair rows, for checks that walk it (tests); *n is
 * set to its length. Never NULL.
 */
const struct asm_ref_pair *asm_ref_pairs(size_t *n);

/*
 * Every image reference a daemon could join from the query q of route rt
 * reached through api: for each asm_ref_pair row of rt, each value of a
 * key equal to name_key ignoring ASCII case (podman's gorilla/schema
 * decoder folds case and takes any repeat; dockerd takes the exact key)
 * joined with ':' to each value of a key equal to tag_key, and to
 * dflt_tag. fn is called with the name key and the joined text
 * (NUL-terminated, valid during the call); a non-zero return stops the
 * walk and is returned. Returns 0 when every call returned 0.
 */
int asm_each_ref(const struct cg_route *rt, enum cg_api api,
    const struct cg_query *q,
    int (*fn)(void *arg, const char *key, const char *ref), void *arg);

/*
 * A filter member as podman reads it: key and value joined with '=' and
 * split at the first '='. When key[0..klen) holds no '=', *split_klen is
 * klen and *tail is NULL: nothing moves. Otherwise *split_klen is the
 * length of the key before its first '=' and *tail points just past that
 * '=' (inside key); the value podman reads is tail, '=', value. Used for
 * every filter key of both APIs (podman 4.3.1: every list, prune and
 * events handler goes through PrepareFilters or FiltersFromRequest;
 * dockerd 20.10 refuses or ignores such a key, so the split form is the
 * only reading that filters anything).
 */
void asm_filter_key(const char *key, size_t klen, size_t *split_klen,
    const char **tail);

/*
 * 1 when a request body of Content-Type ct[0..len) (the whole field
 * value) is read as query values by a daemon: its media type, before any
 * ';' and without blanks, is application/x-www-form-urlencoded or
 * multipart/form-data in any case (Go's mime.ParseMediaType lower-cases
 * it); else 0.
 */
int asm_form_body(const char *ct, size_t len);

#endif
