/*
 * The audit record (doc/audit.md): exactly one per request, written by
 * the monitor alone from what it verified, forwarded and received from
 * the backend, never from what a request parser says it did; and the
 * debug lines about the IPC (cli.md §14.4) and the request parsers' own
 * LOG messages, which can never pass for a record. The record is the
 * access line of cli.md §14.3 with the audit's fields after the spec's.
 */
#ifndef CG_MONITOR_AUDIT_H
#define CG_MONITOR_AUDIT_H

#include <stddef.h>

struct conn;
struct cg_request;
struct ipc_msg;
struct cJSON;

/* The record's "outcome" (doc/audit.md "Outcomes"). */
enum audit_outcome {
	AO_ALLOWED,		/* forwarded, or answered by the monitor */
	AO_REFUSED,		/* refused by the policy (a reason code) */
	AO_REPLAY_REFUSED,	/* the monitor's replay of the policy refused
				   the FORWARD its request parser sent */
	AO_VIOLATION,		/* the request parser broke the protocol */
	AO_ERROR,		/* a gateway error (502, 503, 504) */
	AO_ABANDONED,		/* ended before any decision, never forwarded */
};

/* What the record of a connection's current request gathers. */
struct audit_rec {
	int forwarded;		/* its whole head (and JSON body) reached the
				   backend: the backend may have acted on it */
	int verified;		/* its FORWARD passed verification */
	int is_create;		/* a create whose answer carries the new id */
	int deferred;		/* allowed, head seen: written once the
				   answer's body (the new id) is read */
	int backend_status;	/* the backend's final status; 0: none */
	const char *route;	/* the route row's pattern; NULL */
	int api;		/* enum cg_api; -1 unknown */
	int res_kind;		/* enum cg_fact_kind of its resource; -1 */
	char *res_name;		/* the resource as asked; NULL */
	char *res_id;		/* the id it resolved to or was created with */
	struct cJSON *create;	/* a create's image, binds, volumes, ports,
				   label, as forwarded; NULL */
	struct cJSON *pinned;	/* a create's pins: pin path -> the source
				   checked (monitor/pins.c); NULL */
	char *answer;		/* the beginning of a deferred answer's body */
	size_t answer_len;
	int answer_chunked;
	const struct ipc_msg *msg;	/* the child's message being dispatched
					   (what a violation tried); NULL */
};

/* Free what c's record holds and clear it for the next request. */
void audit_rec_clear(struct conn *c);

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
/*
 * c's create forwards the pin pin (a path under the pins' staging
 * directory, monitor/pins.c) for the bind source checked (both
 * NUL-terminated): its record names checked, the path the client's bind
 * means, not the pin.
 */
void audit_pinned(struct conn *c, const char *pin, const char *checked);
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
/* Write c's waiting record (audit_head) now, with the id if the body gave one. */
void audit_flush(struct conn *c);
/*
 * Take the id from c's waiting record's body (audit_body) without writing
 * the record: the caller writes another one (monitor/exchange/drain.c).
 */
void audit_settle(struct conn *c);

/*
 * Write c's record (cli.md §14.3, doc/audit.md): outcome o, method and
 * path ("-" when unknown), reason code (NULL: none), the status the client
 * got (0: none), duration_ms, detail (NULL: none). Every text value is
 * escaped (log_quote); sets c->logged. Written at INFO (nothing at
 * --log-level warn or error).
 */
void audit_write(struct conn *c, enum audit_outcome o, const char *method,
    const char *path, const char *code, int status, unsigned duration_ms,
    const char *detail);
/*
 * Write the record of a request c's child answered itself (its ACCESS,
 * fields as the child reported them, already checked: a plain method,
 * code and status that agree): refused (a code), a gateway error (5xx),
 * or abandoned (status 0, no code). decided_by is "request-parser".
 */
void audit_child_access(struct conn *c, const char *method, const char *path,
    const char *code, int status, unsigned duration_ms, const char *detail);
/*
 * c's request ends before its record was written (client or child gone,
 * the body not completed): the waiting record of an answered request; a
 * request forwarded but not answered is recorded allowed, forwarded, no
 * status, detail why (the backend may have acted on it: never
 * "abandoned"); any other is abandoned. method and path: "-" or the
 * verified ones.
 */
void audit_abandon(struct conn *c, const char *method, const char *path,
    const char *why);
/*
 * c's request parser broke the protocol (o AO_VIOLATION, what: the
 * reason) or its FORWARD failed the replay (o AO_REPLAY_REFUSED, code:
 * the policy's reason code or NULL, what: why). The record names what was
 * tried: the request as verified, else the method and path of the
 * message (c->rec.msg), and its target in "target". Written even when
 * the request's record is out already (a violation after its answer).
 */
void audit_violation(struct conn *c, enum audit_outcome o, const char *code,
    const char *what);

/*
 * A LOG message of c's child: one DEBUG line of event "child" with
 * "source": "child" (never INFO, whatever level the child asked),
 * text[0..len) escaped (no '=', no line break survives) and cut at 512
 * bytes; at most CHILD_LOG_RATE lines a second for all children together,
 * the rest counted and dropped (one line says how many).
 */
void audit_child_log(struct conn *c, const char *text, size_t len);
#define CHILD_LOG_RATE	100

/*
 * DEBUG IPC audit line (cli.md §14.4) for m; dir is "to-child" or
 * "to-monitor". No-op below debug level. Fields are cut at 2 KiB
 * (ipc_format_fields).
 */
void ipc_audit(const struct conn *c, const char *dir, const struct ipc_msg *m);
/*
 * Debug line after a FORWARD (cli.md §14.4): verdict "forwarded",
 * "refused" (code: its reason code), "answered" or "violation" (code
 * NULL); code is one of the closed vocabulary, so it needs no escaping.
 */
void ipc_audit_verdict(const struct conn *c, const char *verdict,
    const char *code);

#endif
