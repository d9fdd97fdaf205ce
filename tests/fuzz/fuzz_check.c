/*
 * libFuzzer entry point: the checker's readers (check/): the tar reader,
 * the decoders, the context and archive rules, the Dockerfile reader
 * and the image archive reader (doc/privsep.md "Builds and archives").
 * Input: byte 0 selects the mode (bits 0-1: 0 build on podman, 1 build on
 * dockerd, 2 archive, 3 the Dockerfile reader alone; bit 2: libpod; bit 3:
 * a hold; bit 4: an image load instead of a build or archive), byte 1 the
 * piece size (1 to 256 bytes, 0: all at once); the rest is the body (or
 * the Dockerfile).
 * Aborts on a refusal outside the vocabulary, an approval that goes back,
 * passes what was fed, or moves after a refusal, a whole body approved
 * short of its length, or a verdict that depends on how the body was cut
 * into pieces or on entry data skipped unread (chk_skip, as the checker
 * process does after CHECK_SKIP).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/gwerror.h"
#include "check/check.h"
#include "check/dockerfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Run the body in pieces of piece bytes (0: whole), with skip set taking
 * what chk_skippable() allows after each; the refusal's code.
 */
static const char *
run(const struct chk_params *p, const uint8_t *b, size_t n, size_t piece,
    int skip)
{
	struct cg_refusal r;
	struct chk *c = chk_new(p, &r);
	uint64_t fed = 0, last = 0, a;
	const char *code = NULL;
	size_t k;
	int rc = 0;

	if (c == NULL)
		return r.code;
	while (n > 0 && rc == 0) {
		k = piece == 0 || n < piece ? n : piece;
		rc = chk_feed(c, b, k);
		fed += k;
		a = chk_approved(c);
		if (a < last || a > fed)
			abort();
		last = a;
		b += k;
		n -= k;
		if (skip && rc == 0 && n > 0) {
			k = chk_skippable(c) < n ? (size_t)chk_skippable(c) : n;
			if (chk_skip(c, k) != 0)
				abort();
			fed += k;
			b += k;
			n -= k;
			a = chk_approved(c);
			if (a < last || a > fed)
				abort();
			last = a;
		}
	}
	if (rc == 0 && chk_finish(c) == 0) {
		if (chk_approved(c) != fed)
			abort();
	} else {
		code = chk_refusal(c)->code;
		if (cg_code_status(code) < 400 || chk_approved(c) != last)
			abort();
		if (chk_feed(c, (const unsigned char *)"x", 1) != -1)
			abort();
	}
	chk_free(c);
	return code;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct chk_params p = { .query = "dockerfile=Dockerfile" };
	const char *c1, *c2, *c3;
	size_t piece;

	if (size < 2)
		return 0;
	piece = data[1];
	if ((data[0] & 3) == 3) {
		struct df_params dp = { 0 };
		struct cg_refusal r;

		if (dockerfile_check((const char *)data + 2, size - 2, &dp, &r) ==
		    -1 && cg_code_status(r.code) < 400)
			abort();
		return 0;
	}
	p.kind = (data[0] & 16) ? CHK_LOAD : (data[0] & 3) == 2 ? CHK_ARCHIVE :
	    CHK_BUILD;
	p.podman = (data[0] & 3) != 1;
	p.libpod = (data[0] & 4) != 0;
	if (p.libpod)
		p.query = "";
	p.hold = (data[0] & 8) ? 1024 : 0;
	c1 = run(&p, data + 2, size - 2, 0, 0);
	c2 = run(&p, data + 2, size - 2, piece, 0);
	c3 = run(&p, data + 2, size - 2, piece, 1);
	/* the verdict does not depend on the pieces, nor on skipping */
	if ((c1 == NULL) != (c2 == NULL) || (c1 && strcmp(c1, c2) != 0))
		abort();
	if ((c2 == NULL) != (c3 == NULL) || (c2 && strcmp(c2, c3) != 0))
		abort();
	return 0;
}
