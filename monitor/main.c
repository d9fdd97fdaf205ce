/* container-gateway: entry point (cli.md §1). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "monitor/config.h"
#include "monitor/serve.h"
#include "ops/audit_cmd.h"
#include "ops/cli.h"
#include "ops/status.h"
#include "unpriv/child.h"

/*
 * Descriptors 0, 1 and 2 open (on /dev/null where closed), so that nothing
 * the gateway opens later becomes its stdin, stdout or stderr: with stderr
 * closed the pid file was fd 2 and the log overwrote its pid (status said
 * not running, stop refused); with stdout and stderr closed the pinner's
 * socket was fd 2 and the first log line ended the pinner (red team rt13;
 * tests/ops/stdio.sh). Returns 0, or -1 when /dev/null cannot be opened.
 */
static int
std_fds_open(void)
{
	int fd;

	do {
		fd = open("/dev/null", O_RDWR | O_NOCTTY);
		if (fd < 0)
			return -1;
	} while (fd <= 2);
	close(fd);
	return 0;
}

int
main(int argc, char **argv)
{
	struct cg_config cfg;
	int rc;

	/* a request parser started by the monitor (monitor/serve.c) */
	if (argc == 2 && strcmp(argv[0], CHILD_ARGV0) == 0)
		zygote_main(strcmp(argv[1], "-") != 0 ? argv[1] : NULL);

	if (std_fds_open() < 0)
		return 1;
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
