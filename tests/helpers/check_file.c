/*
 * check_file KIND BACKEND API QUERY FILE [PIECE]: run the checker
 * (check/check.h) over FILE as the checker process does, in pieces of
 * PIECE bytes (default 65536), and print "approved N of M" after each
 * piece, then "ok" or "refused <code>: <detail>; <hint>". KIND build or
 * archive, BACKEND podman or docker, API libpod or compat. For tests
 * and measurements (tests/test_check.c covers the rules).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

int
main(int argc, char **argv)
{
	struct chk_params p = { 0 };
	struct cg_refusal r;
	const struct cg_refusal *rr;
	struct chk *c;
	unsigned char *buf;
	size_t piece, n;
	unsigned long long total = 0;
	FILE *f;
	int quiet = getenv("CHECK_QUIET") != NULL;

	if (argc < 6) {
		fprintf(stderr, "usage: check_file build|archive podman|docker "
		    "libpod|compat QUERY FILE [PIECE]\n");
		return 2;
	}
	p.kind = strcmp(argv[1], "build") == 0 ? CHK_BUILD : CHK_ARCHIVE;
	p.podman = strcmp(argv[2], "podman") == 0;
	p.libpod = strcmp(argv[3], "libpod") == 0;
	p.query = argv[4];
	piece = argc > 6 ? strtoul(argv[6], NULL, 10) : 65536;
	if (piece == 0)
		piece = 1;
	if ((c = chk_new(&p, &r)) == NULL) {
		printf("refused %s: %s; %s\n", r.code, r.detail, r.hint);
		return 1;
	}
	if ((f = fopen(argv[5], "rb")) == NULL) {
		perror(argv[5]);
		return 2;
	}
	buf = malloc(piece);
	while ((n = fread(buf, 1, piece, f)) > 0) {
		total += n;
		if (chk_feed(c, buf, n) == -1)
			break;
		if (!quiet)
			printf("approved %llu of %llu\n",
			    (unsigned long long)chk_approved(c), total);
	}
	fclose(f);
	if (n > 0 || chk_finish(c) == -1) {
		rr = chk_refusal(c);
		printf("approved %llu of %llu\nrefused %s: %s; %s\n",
		    (unsigned long long)chk_approved(c), total, rr->code,
		    rr->detail, rr->hint[0] ? rr->hint : "-");
		chk_free(c);
		free(buf);
		return 1;
	}
	printf("approved %llu of %llu\nok\n", (unsigned long long)chk_approved(c),
	    total);
	chk_free(c);
	free(buf);
	return 0;
}
