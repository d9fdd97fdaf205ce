/*
 * Decompression of build contexts and uploaded archives, as the daemons
 * detect it (containers/storage and moby pkg/archive DetectCompression:
 * the first bytes) and read it (gzip and bzip2 members read one after the
 * other, xz streams concatenated), with Debian's zlib, libbz2 and liblzma.
 * Runs only in the sandboxed checker (doc/privsep.md "Builds and
 * archives").
 */
#ifndef CG_CHECK_DECOMP_H
#define CG_CHECK_DECOMP_H

#include <stddef.h>
#include <stdint.h>

/*
 * The xz decoder's memory limit: xz -9 (64 MiB dictionary) needs about
 * 65 MiB to decode; a stream that needs more is refused rather than
 * decoded within the checker's 512 MiB address space.
 */
#define DECOMP_XZ_MEMLIMIT	(128u << 20)

enum decomp_kind { DC_UNKNOWN = 0, DC_PLAIN, DC_GZIP, DC_BZIP2, DC_XZ,
	DC_ZSTD };

enum decomp_rc {
	DC_OK = 0,		/* progress (or more input needed) */
	DC_END,			/* the last member ended; what follows is
				   not read (trailing bytes, see decomp_feed) */
	DC_ERROR,		/* d->err says why */
};

struct decomp {
	enum decomp_kind kind;
	unsigned char head[6];		/* the first bytes, for detection */
	size_t hlen;
	int init;			/* the library's stream is set up */
	int member_end;			/* gzip/bzip2: one member ended */
	void *z;			/* z_stream, bz_stream or lzma_stream */
	const char *err;		/* static text for DC_ERROR */
};

/* A new decoder that detects the kind from the first bytes. */
void decomp_init(struct decomp *d);
/* Free the library's state. */
void decomp_free(struct decomp *d);
/*
 * Detect the kind from the stream's first bytes: feed up to 6 bytes with
 * decomp_detect until it returns a kind (DC_UNKNOWN: more bytes needed),
 * or call it with n 0 at the end of a short stream. The bytes are kept
 * and replayed by decomp_feed. DC_ZSTD is detected, never decoded.
 */
enum decomp_kind decomp_detect(struct decomp *d, const unsigned char *p,
    size_t n, size_t *used);
/*
 * Decode in[0..n) into out[0..cap): *used input bytes taken, *made output
 * bytes written. Call again with the rest while *used < n or *made ==
 * cap. Returns DC_OK, DC_END (the stream ended and no further member
 * starts in what was given: as Go's readers, gzip and bzip2 members and
 * xz streams follow one another; anything else after the last one is an
 * error for gzip and bzip2), or DC_ERROR with d->err set (corrupt data,
 * an xz stream needing more than DECOMP_XZ_MEMLIMIT).
 */
enum decomp_rc decomp_feed(struct decomp *d, const unsigned char *in,
    size_t n, size_t *used, unsigned char *out, size_t cap, size_t *made);
/*
 * The input ended. Returns DC_END when the last member ended exactly
 * there, DC_ERROR otherwise (a truncated stream, which Go's readers
 * report as io.ErrUnexpectedEOF).
 */
enum decomp_rc decomp_finish(struct decomp *d);

#endif
