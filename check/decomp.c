/*
 * Decompression for the checker (check/decomp.h): zlib for gzip, libbz2
 * for bzip2, liblzma for xz. Detection by the first bytes as the daemons'
 * DetectCompression (bzip2 "BZh", gzip 1f 8b 08, xz fd 37 7a 58 5a 00,
 * zstd 28 b5 2f fd; anything else is a plain tar).
 */
#include "check/decomp.h"

#include <bzlib.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/xmalloc.h"

static const struct {
	enum decomp_kind kind;
	size_t len;
	unsigned char magic[6];
} magics[] = {
	{ DC_BZIP2, 3, { 0x42, 0x5a, 0x68 } },
	{ DC_GZIP, 3, { 0x1f, 0x8b, 0x08 } },
	{ DC_XZ, 6, { 0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00 } },
	{ DC_ZSTD, 4, { 0x28, 0xb5, 0x2f, 0xfd } },
};
#define NMAGICS	(sizeof(magics) / sizeof(magics[0]))

void
decomp_init(struct decomp *d)
{
	memset(d, 0, sizeof(*d));
}

static void
lib_end(struct decomp *d)
{
	if (!d->init)
		return;
	if (d->kind == DC_GZIP)
		inflateEnd(d->z);
	else if (d->kind == DC_BZIP2)
		BZ2_bzDecompressEnd(d->z);
	else if (d->kind == DC_XZ)
		lzma_end(d->z);
	d->init = 0;
}

void
decomp_free(struct decomp *d)
{
	lib_end(d);
	free(d->z);
	d->z = NULL;
}

enum decomp_kind
decomp_detect(struct decomp *d, const unsigned char *p, size_t n,
    size_t *used)
{
	size_t k = sizeof(d->head) - d->hlen, i;
	int maybe = 0;

	*used = 0;
	if (d->kind != DC_UNKNOWN)
		return d->kind;
	if (k > n)
		k = n;
	if (k > 0)
		memcpy(d->head + d->hlen, p, k);
	d->hlen += k;
	*used = k;
	for (i = 0; i < NMAGICS; i++) {
		size_t m = magics[i].len < d->hlen ? magics[i].len : d->hlen;

		if (memcmp(d->head, magics[i].magic, m) != 0)
			continue;
		if (m == magics[i].len)
			return d->kind = magics[i].kind;
		maybe = 1;	/* a prefix: more bytes decide */
	}
	if (maybe && n > 0 && d->hlen < sizeof(d->head))
		return DC_UNKNOWN;
	return d->kind = DC_PLAIN;
}

static enum decomp_rc
err(struct decomp *d, const char *why)
{
	d->err = why;
	return DC_ERROR;
}

static enum decomp_rc
lib_start(struct decomp *d)
{
	int rc;

	if (d->kind == DC_GZIP) {
		if (d->z == NULL)
			d->z = xcalloc(1, sizeof(z_stream));
		rc = inflateInit2(d->z, 16 + MAX_WBITS);
		if (rc != Z_OK)
			return err(d, "zlib could not start");
	} else if (d->kind == DC_BZIP2) {
		if (d->z == NULL)
			d->z = xcalloc(1, sizeof(bz_stream));
		memset(d->z, 0, sizeof(bz_stream));
		if (BZ2_bzDecompressInit(d->z, 0, 0) != BZ_OK)
			return err(d, "libbz2 could not start");
	} else {
		lzma_stream init = LZMA_STREAM_INIT;

		if (d->z == NULL)
			d->z = xmalloc(sizeof(lzma_stream));
		memcpy(d->z, &init, sizeof(init));
		if (lzma_stream_decoder(d->z, DECOMP_XZ_MEMLIMIT,
		    LZMA_CONCATENATED) != LZMA_OK)
			return err(d, "liblzma could not start");
	}
	d->init = 1;
	d->member_end = 0;
	return DC_OK;
}

/* After a member's end: another member must start here (gzip, bzip2). */
static enum decomp_rc
next_member(struct decomp *d, const unsigned char *in, size_t n)
{
	const unsigned char *m = d->kind == DC_GZIP ? magics[1].magic :
	    magics[0].magic;
	size_t k = n < 2 ? n : 2;

	if (n == 0)
		return DC_OK;		/* decided by the next bytes or the end */
	if (memcmp(in, m, k) != 0)
		return err(d, d->kind == DC_GZIP ? "bytes after a gzip member "
		    "that are not another one" : "bytes after a bzip2 stream "
		    "that are not another one");
	lib_end(d);
	return lib_start(d);
}

enum decomp_rc
decomp_feed(struct decomp *d, const unsigned char *in, size_t n,
    size_t *used, unsigned char *out, size_t cap, size_t *made)
{
	enum decomp_rc rc;
	int r;

	*used = *made = 0;
	if (d->kind == DC_ZSTD || d->kind == DC_UNKNOWN)
		return err(d, "zstd is not read by the gateway");
	if (!d->init && !d->member_end && (rc = lib_start(d)) != DC_OK)
		return rc;
	if (d->member_end) {
		if ((rc = next_member(d, in, n)) != DC_OK || d->member_end)
			return rc;
	}
	if (d->kind == DC_GZIP) {
		z_stream *z = d->z;

		z->next_in = (Bytef *)(uintptr_t)in;
		z->avail_in = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
		z->next_out = out;
		z->avail_out = (uInt)(cap > UINT32_MAX ? UINT32_MAX : cap);
		r = inflate(z, Z_NO_FLUSH);
		*used = (size_t)(z->next_in - in);
		*made = (size_t)(z->next_out - out);
		if (r == Z_STREAM_END) {
			d->member_end = 1;
			return DC_OK;
		}
		if (r != Z_OK && !(r == Z_BUF_ERROR && *used == 0 && *made == 0))
			return err(d, "the gzip data is corrupt");
		return DC_OK;
	}
	if (d->kind == DC_BZIP2) {
		bz_stream *b = d->z;

		b->next_in = (char *)(uintptr_t)in;
		b->avail_in = (unsigned)(n > UINT32_MAX ? UINT32_MAX : n);
		b->next_out = (char *)out;
		b->avail_out = (unsigned)(cap > UINT32_MAX ? UINT32_MAX : cap);
		r = BZ2_bzDecompress(b);
		*used = (size_t)((const unsigned char *)b->next_in - in);
		*made = (size_t)((unsigned char *)b->next_out - out);
		if (r == BZ_STREAM_END) {
			d->member_end = 1;
			return DC_OK;
		}
		if (r != BZ_OK)
			return err(d, "the bzip2 data is corrupt");
		return DC_OK;
	} else {
		lzma_stream *x = d->z;
		lzma_ret lr;

		x->next_in = in;
		x->avail_in = n;
		x->next_out = out;
		x->avail_out = cap;
		lr = lzma_code(x, LZMA_RUN);
		*used = (size_t)(x->next_in - in);
		*made = (size_t)(x->next_out - out);
		if (lr == LZMA_MEMLIMIT_ERROR)
			return err(d, "the xz stream needs more than 128 MiB of "
			    "memory to decode");
		if (lr == LZMA_STREAM_END) {
			d->member_end = 1;
			return DC_END;
		}
		if (lr != LZMA_OK && !(lr == LZMA_BUF_ERROR && *used == 0 &&
		    *made == 0))
			return err(d, "the xz data is corrupt");
		return DC_OK;
	}
}

enum decomp_rc
decomp_finish(struct decomp *d)
{
	if (d->kind == DC_XZ && d->init && !d->member_end) {
		lzma_stream *x = d->z;
		unsigned char o[64];
		lzma_ret lr;

		/* LZMA_CONCATENATED: the end of the input is said with FINISH */
		x->next_in = NULL;
		x->avail_in = 0;
		x->next_out = o;
		x->avail_out = sizeof(o);
		lr = lzma_code(x, LZMA_FINISH);
		if (lr == LZMA_STREAM_END && x->avail_out == sizeof(o))
			return DC_END;
		return err(d, "the xz stream is truncated");
	}
	if (d->member_end || d->kind == DC_PLAIN)
		return DC_END;
	return err(d, "the compressed stream is truncated");
}
