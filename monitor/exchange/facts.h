/*
 * Ownership questions (monitor/exchange/facts.c; routes.md §9): the
 * inspects, their verdicts, the answers to the child.
 */
#ifndef CG_MONITOR_EXCHANGE_FACTS_H
#define CG_MONITOR_EXCHANGE_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "monitor/gateway.h"

/*
 * Verdict of an inspect response (routes.md §9.3): status and body
 * body[0..body_len) of the inspect, ROOT as root. Returns CG_OWNED with
 * the id in id_out, CG_NOT_OWNED (404, or a 2xx without the project label
 * = root) or CG_UNEXPECTED (other status, invalid JSON, key collisions
 * (policy.md §0.2), missing or invalid id, label key spelling variant).
 * For CG_FACT_EXEC, CG_OWNED means only "exec found" with its
 * ContainerID in id_out; the caller must check that container next
 * (routes.md §9.4). id_out is written only on CG_OWNED.
 */
enum cg_fact_result facts_verdict(enum cg_fact_kind kind, enum cg_api api,
    int status, const char *body, size_t body_len, const char *root,
    char id_out[CG_ID_MAX + 1]);

/*
 * The internal inspect request for kind/api/prefix/ref (routes.md §9.2,
 * http.md §7.5): "GET <prefix><inspect path> HTTP/1.1", Host: docker,
 * Connection: close. prefix and ref are spliced verbatim: the caller must
 * have validated them (no CR, LF, space, '?', '#', '%'). Pods always use
 * the libpod path. Returns a malloc'd request (the caller frees it), its
 * length in *len; exits through xoom() on allocation failure.
 */
char *facts_inspect_request(enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, size_t *len);

/* The libpod API version of the monitor's own libpod requests on a compat
 * connection: network create wants 4.0.0 or later (podman 4.3.1). */
#define CG_LIBPOD_PREFIX	"/v4.0.0"

/*
 * The network inspect the monitor makes about any network (ownership
 * questions, the project network, the named-resource phase), and its API:
 * libpod on a podman backend (only its answer shows the isolate option,
 * and podman's compat inspect strips that option: monitor/exchange/netcompat.h),
 * compat with the client's version prefix on dockerd. Returns a malloc'd
 * request, its length in *len.
 */
char *facts_network_request(const struct conn *c, const char *name,
    size_t *len);
enum cg_api facts_network_api(const struct conn *c);

/*
 * Handle a FACT_QUERY m (privsep.md §7.2, §6.6): at most
 * IPC_FACT_QUERIES_MAX per request, a ref that is a path segment (images:
 * segments), a prefix that is "" or a canonical version. Starts the
 * inspect (c->rs = RS_FACT) or answers unreachable at once. Returns 0,
 * -1 after conn_violation(), or FACTS_PROJNET for a question about the
 * project network (CG_FACT_PROJNET; c->rs = RS_FACT, the question kept in
 * c->q_*): the caller starts it (projnet_fact_start, whose internal
 * answers go to projnet_fact_done, not facts_done), so that the
 * ownership questions stay below the project network, which asks them.
 */
#define FACTS_PROJNET	1
int facts_on_query(struct conn *c, const struct ipc_msg *m);

/*
 * The inspect of c's running FACT_QUERY ended (ok: a complete response;
 * timeout: the deadline passed; not for CG_FACT_PROJNET: projnet.c's): answer FACT_ANSWER, or first inspect the
 * container of an exec session (routes.md §9.4). Owned answers are kept in
 * c->fq.facts for the FORWARD's verification.
 */
void facts_done(struct conn *c, int ok, int timeout);

/*
 * The answer to c's running FACT_QUERY: result (enum ipc_fact_result) and,
 * when owned, id (NUL-terminated, kept in c->fq.facts for the FORWARD's
 * verification and the replay). c goes back to RS_IDLE.
 */
void facts_answer(struct conn *c, uint8_t result, const char *id);

/*
 * The internal answer of c's running FACT_QUERY (ok, timeout as for
 * facts_done): 0 with its status and decoded body (malloc'd, the caller
 * frees it), the connection released; -1 after answering the child
 * timeout or unreachable.
 */
int facts_internal_answer(struct conn *c, int ok, int timeout, int *status,
    char **body, size_t *body_len);

#endif
