/* container-gateway: entry point (cli.md §1). */
#include <stdio.h>
#include <string.h>

#include "monitor/config.h"
#include "monitor/serve.h"
#include "ops/audit_cmd.h"
#include "ops/cli.h"
#include "ops/status.h"
#include "unpriv/child.h"

int
main(int argc, char **argv)
{
	struct cg_config cfg;
	int rc;

	/* a request parser started by the monitor (monitor/serve.c) */
	if (argc == 2 && strcmp(argv[0], CHILD_ARGV0) == 0)
		zygote_main(strcmp(argv[1], "-") != 0 ? argv[1] : NULL);

	rc = cli_parse(argc, argv, &cfg);
	if (rc != 0)
		return rc;
	switch (cfg.command) {
	case CMD_VERSION:
		printf("container-gateway %s\n", CG_VERSION);
		rc = 0;
		break;
	case CMD_HELP:
		cli_usage(cfg.help_topic);
		rc = 0;
		break;
	case CMD_SERVE:
		rc = serve_main(&cfg);
		break;
	case CMD_STOP:
		rc = stop_main(&cfg);
		break;
	case CMD_STATUS:
		rc = status_main(&cfg);
		break;
	case CMD_AUDIT:
		rc = audit_main(&cfg);
		break;
	default:
		rc = 2;
		break;
	}
	cli_free(&cfg);
	return rc;
}
