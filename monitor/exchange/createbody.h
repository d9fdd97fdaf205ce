/*
 * A create's JSON body, parsed once by the monitor, in its replay
 * (monitor/exchange/createbody.c): what the later stages of a container
 * or pod create need of it (the image step's systemd check, how many
 * bind sources the pins have to rewrite) is kept in c->cb, so that none of them parses c->json
 * again while the phase waits for the backend. The slice also counts the
 * monitor's parses of a request's JSON body (its debug line at the
 * forward; tests/forwarded/run.py holds a create to it).
 */
#ifndef CG_MONITOR_EXCHANGE_CREATEBODY_H
#define CG_MONITOR_EXCHANGE_CREATEBODY_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "monitor/gateway.h"
#include "monitor/exchange/exchange.h"

/* A new request's replay begins: c->cb empty, no parse counted. */
void createbody_begin(struct conn *c);

/*
 * Parse once: the replay (verify.c) asks the policy to keep its tree of a
 * create's body when createbody_wants_tree() (a container, pod or volume
 * create with a JSON body), and hands it over with createbody_take_tree()
 * once its serialisation matched c->json byte for byte, so the tree is
 * one of c->json. The phase's read (createbody_read) takes it instead of
 * parsing; createbody_drop_tree() deletes one nobody took, at the end of
 * the call that made it (dispatch.c start_phase): one tree at a time,
 * monitor/budget.c.
 */
int createbody_wants_tree(const struct conn *c);
void createbody_take_tree(struct conn *c, cJSON *tree);
void createbody_drop_tree(struct conn *c);

/* createbody_free(), createbody_parsed(): monitor/exchange/exchange.h */

/*
 * The phase's read of c->json (phase.c phase_resume): the replay's tree
 * (createbody_take_tree), or else a parse, counted. For a
 * container or pod create (create != 0; pod: a pod's) it keeps in c->cb
 * what the later stages read of the body while the phase waits for the
 * backend: its command words (image.c's systemd check) and how many bind
 * sources it names (pins.c, which parses again only to rewrite them).
 * Returns the tree (the caller deletes it before the event loop runs
 * again: one tree at a time, monitor/budget.c), or NULL with err set
 * when c->json does not parse.
 */
cJSON *createbody_read(struct conn *c, int create, int pod, char *err,
    size_t errlen);

/*
 * Make the top-level member key of the JSON object json[0..len), a string,
 * be value: the body json_serialize() prints after cJSON_SetValuestring()
 * on the first member named key of its parse, without the parse. json must
 * be json_serialize()'s output (c->json always is: the replay compared it
 * with the policy's serialisation byte for byte, and every rewrite
 * serialises). Returns 0 with *out (malloc'd, NUL-terminated) and
 * *out_len; -1 when there is no such member or it is not a string; -2
 * when a top-level key has an escape (the caller parses instead).
 */
int createbody_set_string(const char *json, size_t len, const char *key,
    const char *value, char **out, size_t *out_len);

/* The debug line that says how often c->json was parsed (the forward). */
void createbody_log(const struct conn *c);

#endif
