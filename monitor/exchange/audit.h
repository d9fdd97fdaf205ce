/*
 * The audit record (doc/audit.md): exactly one per request, written by
 * the monitor alone from what it verified, forwarded and received from
 * the backend, never from what a request parser says it did; and the
 * debug lines about the IPC (cli.md §14.4) and the request parsers' own
 * LOG messages, which can never pass for a record. The record is the
 * access line of cli.md §14.3 with the audit's fields after the spec's.
 */
#ifndef CG_MONITOR_EXCHANGE_AUDIT_H
#define CG_MONITOR_EXCHANGE_AUDIT_H

#include <stddef.h>

#include "monitor/gateway.h"

struct conn;
struct cg_request;
struct ipc_msg;
struct cJSON;

/*
 * c's FORWARD passed verification (monitor/exchange/verify.c): its route (req, the
 * monitor's own routing), API and resource: kind, the ref as asked (name;
 * NULL: none) and the id it resolved to (id; NULL). For a create the name
 * comes from the query ("name") or later from the body.
 */
void audit_route(struct conn *c, const struct cg_request *req,
    const char *name, const char *id);
/*
 * c's FORWARD names a resource ref[0..len) (route req, the monitor's own
 * routing) that the monitor did not answer owned: kept for its violation
 * record (the resource it aimed at; no id).
 */
void audit_aimed(struct conn *c, const struct cg_request *req, const char *ref,
    size_t len);
/*
 * The JSON body json[0..len) of c's request as it goes to the backend
 * (after the replay, monitor/exchange/backend.c backend_forward): for a container
 * or pod create its image, binds and volumes (sources as resolved; a
 * pinned one as checked, audit_pinned),
 * published ports (as rewritten) and project label are kept for the
 * record; for a volume, network or pod create its name. A body that does
 * not parse keeps nothing.
 */
void audit_forward_body(struct conn *c, const char *json, size_t len);
/* The whole forwarded head (and JSON body) of c's request was written. */
void audit_forwarded(struct conn *c);
/*
 * The final response head of c's forwarded request, status: 1 when the
 * record waits for the body (a 2xx answer to a create, whose body names
 * the new id), 0 when the caller writes it now.
 */
int audit_head(struct conn *c, int status);
/*
 * Body bytes p[0..n) of c's response as relayed (chunked: with their
 * framing); kept up to 8 KiB while the record waits for them.
 */
void audit_body(struct conn *c, const char *p, size_t n, int chunked);
/*
 * Take the id from c's waiting record's body (audit_body) without writing
 * the record: the caller writes another one (monitor/exchange/drain.c).
 */
void audit_settle(struct conn *c);

/*
 * Write the record of a request c's child answered itself (its ACCESS,
 * fields as the child reported them, already checked: a plain method,
 * code and status that agree): refused (a code), a gateway error (5xx),
 * or abandoned (status 0, no code). decided_by is "request-parser".
 */
void audit_child_access(struct conn *c, const char *method, const char *path,
    const char *code, int status, unsigned duration_ms, const char *detail);

/*
 * A LOG message of c's child: one DEBUG line of event "child" with
 * "source": "child" (never INFO, whatever level the child asked),
 * text[0..len) escaped (no '=', no line break survives) and cut at 512
 * bytes; at most CHILD_LOG_RATE lines a second for all children together,
 * the rest counted and dropped (one line says how many).
 */
void audit_child_log(struct conn *c, const char *text, size_t len);
#define CHILD_LOG_RATE	100

#endif
