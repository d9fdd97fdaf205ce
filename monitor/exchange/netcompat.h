/*
 * Docker-API network answers made from podman's libpod ones (doc/answers.md
 * "Networks on a podman backend"). Podman 4.3.1's compat network inspect
 * and list delete the isolate option from the network it keeps in memory
 * (pkg/api/handlers/compat/networks.go, convertLibpodNetworktoDockerNetwork:
 * delete(options, "isolate") on the shared map), and netavark then sets up
 * every later container of that network without the isolation rules, until
 * a network is created or removed: measured, a container reached another
 * project's isolated network after one compat inspect of its own
 * (tests/integration/isolation.sh i_network_projects). So on a podman
 * backend the monitor never sends those two requests; it asks the libpod
 * API and writes the compat answer itself. Pure functions: no I/O.
 */
#ifndef CG_MONITOR_EXCHANGE_NETCOMPAT_H
#define CG_MONITOR_EXCHANGE_NETCOMPAT_H

#include <stddef.h>

/*
 * The compat answer for libpod network JSON nets[0..nets_len): one
 * network inspect object when one is 1, else a network list (array), of
 * which only the networks labelled KEY=root are kept (a label key spelled
 * like KEY but not exactly drops the network). ctrs[0..ctrs_len) is the
 * compat container list (all=1) with the project's label filter; a
 * network's Containers are the listed ones attached to it by name,
 * {"Name","EndpointID","MacAddress","IPv4Address","IPv6Address"} keyed by
 * Id, as podman 4.3.1 writes them (address "/prefix" length appended).
 * Each network is written in podman 4.3.1's compat shape and order: Name,
 * Id, Created, Scope "local", Driver, EnableIPv6, IPAM {Driver
 * (host-local: "default"), Options, Config [{Subnet, Gateway}]}, Internal,
 * Attachable false, Ingress false, ConfigFrom {"Network":""}, ConfigOnly
 * false, Containers, Options (without isolate), Labels.
 * Returns 0 with *out (malloc'd, compact JSON) and *out_len; -2 when one
 * is 1 and the network is not root's; -1 for input that is not that shape
 * (not JSON, colliding keys, an element without its name and id strings).
 */
int netcompat_answer(const char *nets, size_t nets_len, int one,
    const char *ctrs, size_t ctrs_len, const char *root, char **out,
    size_t *out_len);

#endif
