/*
 * PublishAllPorts (compat) and publish_image_ports (libpod) rewritten, not
 * refused (policy.md rule 20 as amended on 2026-12-07; seed 002: published
 * ports bind to loopback): the monitor turns the exposed ports of the
 * image and of the container into explicit 127.0.0.1 bindings with
 * ephemeral host ports, in the forwarded create body, after the replay
 * and the phase's image step, before forwarding (monitor/exchange/phase.c). Pure
 * functions: no I/O.
 */
#ifndef CG_MONITOR_EXCHANGE_PUBLISH_H
#define CG_MONITOR_EXCHANGE_PUBLISH_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "policy/policy.h"

/*
 * 1 when a container create body tree (api's shape, the phase's own parse)
 * asks to publish every exposed port: compat HostConfig.PublishAllPorts
 * or libpod publish_image_ports exactly true; else 0.
 */
int publish_all_wanted(enum cg_api api, const cJSON *tree);

/*
 * The exposed ports of the image are the keys of image_ports (its
 * Config.ExposedPorts as the phase's image step read them,
 * policy/imagecfg.h), or none when it is NULL (no such image: the create
 * fails at the daemon itself). The body json[0..len) is rewritten:
 *   compat: HostConfig.PublishAllPorts removed; unless NetworkMode is
 *     "none", every exposed port of the image and of the body's
 *     ExposedPorts that HostConfig.PortBindings does not bind gets
 *     [{"HostIp":"127.0.0.1","HostPort":""}] (an ephemeral host port, as
 *     docker -P gives) and a key in ExposedPorts;
 *   libpod: publish_image_ports removed; unless netns.nsmode is "none",
 *     every exposed port of the image and of the body's expose that no
 *     portmappings entry covers gets {"container_port":N,"protocol":P,
 *     "host_ip":"127.0.0.1"} (host_port 0: ephemeral).
 * A port is "N" or "N/tcp", "N/udp", "N/sctp" (N 1-65535; "N" is tcp).
 * Returns 0 with *out (malloc'd compact JSON, *outlen bytes), or -1 with
 * detail (200 bytes) set: a port in another form (the gateway could not
 * say where the daemon would bind it), a body that does not parse.
 * Exits through xoom() on allocation failure.
 */
int publish_all_rewrite(enum cg_api api, const char *json, size_t len,
    const cJSON *image_ports, char **out, size_t *outlen, char detail[200]);

#endif
