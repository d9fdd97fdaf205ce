/*
 * The checker's verdicts on a build context, an archive uploaded into a
 * container or an image archive loaded, computed from the body's bytes as
 * they stream (check/tar.h, check/decomp.h, check/dockerfile.h,
 * check/load.h). Pure: no I/O. unpriv/checker.c
 * runs it in the sandboxed checker process; the monitor forwards to the
 * backend only bytes it approved (doc/privsep.md "Builds and archives").
 */
#ifndef CG_CHECK_CHECK_H
#define CG_CHECK_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "base/gwerror.h"

enum chk_kind {
	CHK_BUILD = 1,		/* POST build (compat, libpod) */
	CHK_ARCHIVE = 2,	/* PUT containers/{id}/archive, libpod copy */
	CHK_LOAD = 3,		/* POST images/load (compat, libpod) */
};

struct chk_params {
	enum chk_kind kind;
	int podman;		/* the backend is podman (else dockerd) */
	int libpod;		/* the request came on the libpod API */
	const char *query;	/* the forwarded target's query (after '?'),
				   "" when none: dockerfile, buildargs,
				   ignorefile are read from it */
	uint64_t hold;		/* archives: bytes approved only this far
				   behind what was read, so that a refused
				   entry within it leaves nothing extracted
				   (0: none) */
};

struct chk;

/*
 * A checker for one body, or NULL with *r set when the parameters alone
 * are refused (a build dockerfile that podman would look up outside the
 * context first: a JSON list on a podman backend).
 */
struct chk *chk_new(const struct chk_params *p, struct cg_refusal *r);
void chk_free(struct chk *c);
/*
 * The body's next bytes p[0..n). Returns 0, or -1 once refused
 * (chk_refusal says why; later calls return -1 at once).
 */
int chk_feed(struct chk *c, const unsigned char *p, size_t n);
/*
 * The body ended. Returns 0 when the whole of it is approved
 * (chk_approved() is then the number of bytes fed), or -1 refused.
 */
int chk_finish(struct chk *c);
/*
 * How many of the body's first bytes may reach the backend now: never a
 * byte from which the daemon could read a refused entry, nor (builds,
 * loads) the end of the archive before chk_finish approved the whole:
 * neither the end marker nor the last byte fed so far, since the body may
 * end there (podman 4.3.1 reads the whole body before it extracts it, and
 * built a body cut at a header boundary with no end marker, measured;
 * dockerd 20.10 extracts as it reads and builds or loads only at the
 * end). For a
 * compressed body, an input offset whose decoded output stops before
 * that point (zlib, libbz2 and liblzma decode every complete symbol of
 * what they were given, as Go's and xz's decoders do).
 */
uint64_t chk_approved(const struct chk *c);
/*
 * How many of the body's next bytes the checker may take unread
 * (chk_skip): the rest of an archive entry's data and its padding in a
 * plain (uncompressed) tar, which the tar reader discards unread anyway
 * (tar_skippable); 0 for a compressed body, a captured Dockerfile or
 * ignore file, inside a header or record, after a refusal.
 */
uint64_t chk_skippable(const struct chk *c);
/*
 * Take the body's next n bytes unread. Returns 0, or -1 when n is more
 * than chk_skippable() (nothing taken).
 */
int chk_skip(struct chk *c, uint64_t n);
/* The monitor can hold no more unapproved bytes: no hold from now on. */
void chk_flush(struct chk *c);
/* The refusal after -1. */
const struct cg_refusal *chk_refusal(const struct chk *c);
/*
 * A build approved by chk_finish: the base images its Dockerfile starts
 * stages FROM (check/dockerfile.h struct df_bases), whose ONBUILD
 * triggers the monitor has checked next (check/onbuild.h), with the
 * build's buildargs (NULL when none). An approved load: the image names
 * it gives (check/load.h), each with the id of the image it is given to
 * when known (df_bases id: the SHA-256 of its config entry's bytes, as
 * both daemons compute it), which the monitor checks next as destinations.
 * An archive: none. All belong to c (until chk_free).
 */
struct df_bases;
struct cJSON;
const struct df_bases *chk_bases(const struct chk *c);
const struct cJSON *chk_buildargs(const struct chk *c);

#endif
