/* `container-gateway audit` (doc/audit.md "The audit command"). */
#ifndef CG_AUDIT_CMD_H
#define CG_AUDIT_CMD_H

#include "monitor/config.h"

/*
 * Read the gateway's log (cfg->log_file, else <run-dir>/container-gateway.log
 * located as `status` does, read-only) and its rotated file (.1, read
 * first), keep the audit records (the monitor's access lines, text or
 * JSON; nothing a request parser wrote can pass for one) from cfg->since
 * on, and print the report on stdout: refusals counted by reason code,
 * protocol violations and replay refusals with their targets, the
 * containers and pods created with image, mounts and ports (cfg->
 * audit_part selects), as aligned columns or one JSON object (cfg->json).
 * Returns 0, 1 when there is no log to read (said on stderr), 2 after a
 * run-directory refusal.
 */
int audit_main(struct cg_config *cfg);

#endif
