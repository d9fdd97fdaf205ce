/* stop and status (cli.md §11, §12). */
#ifndef CG_STATUS_H
#define CG_STATUS_H

#include "monitor/config.h"

/* `stop`: returns the exit code of cli.md §11. */
int stop_main(struct cg_config *cfg);

/* `status`: prints one JSON line; returns 0 running, 3 not, 2 refused. */
int status_main(struct cg_config *cfg);

#endif
