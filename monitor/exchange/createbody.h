/*
 * A create's JSON body, parsed once by the monitor's phase
 * (monitor/exchange/createbody.c): what the later stages of a container
 * or pod create need of it (the image step's systemd check, the pins'
 * bind sources) is kept in c->cb, so that none of them parses c->json
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

/* createbody_free(), createbody_parsed(): monitor/exchange/exchange.h */

/* The debug line that says how often c->json was parsed (the forward). */
void createbody_log(const struct conn *c);

#endif
