/*
 * The checker's readers (check/): the tar reader against Go's archive/tar
 * rules, the decoders, the context and archive rules, the Dockerfile
 * reader, and the approved prefix (doc/privsep.md "Builds and archives").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <bzlib.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cjson/cJSON.h>

#include "check/check.h"
#include "check/decomp.h"
#include "check/dockerfile.h"
#include "check/onbuild.h"
#include "check/tar.h"

/* ---------------------------------------------------------------- a tar writer */

struct tb {
	unsigned char *p;
	size_t len, cap;
};

static void
tb_put(struct tb *t, const void *p, size_t n)
{
	if (t->len + n > t->cap) {
		t->cap = (t->len + n) * 2 + 4096;
		t->p = realloc(t->p, t->cap);
	}
	memcpy(t->p + t->len, p, n);
	t->len += n;
}

static void
tb_pad(struct tb *t)
{
	static const unsigned char z[512];

	if (t->len % 512)
		tb_put(t, z, 512 - t->len % 512);
}

/* One ustar header (name < 100), then data (padded). */
static void
tb_entry(struct tb *t, const char *name, char type, const char *link,
    unsigned mode, const void *data, size_t size)
{
	unsigned char h[512] = { 0 };
	unsigned sum = 0, i;

	snprintf((char *)h, 100, "%s", name);
	snprintf((char *)h + 100, 8, "%07o", mode);
	snprintf((char *)h + 108, 8, "%07o", 0);
	snprintf((char *)h + 116, 8, "%07o", 0);
	snprintf((char *)h + 124, 12, "%011zo", size);
	snprintf((char *)h + 136, 12, "%011o", 0);
	h[156] = (unsigned char)type;
	if (link)
		snprintf((char *)h + 157, 100, "%s", link);
	memcpy(h + 257, "ustar\0" "00", 8);
	memset(h + 148, ' ', 8);
	for (i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	tb_put(t, h, 512);
	if (size > 0 && data != NULL) {
		tb_put(t, data, size);
		tb_pad(t);
	}
}

/* The checksum of the header block h, after an edit. */
static void
tb_sum(unsigned char *h)
{
	unsigned sum = 0, i;

	memset(h + 148, ' ', 8);
	for (i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
}

/*
 * One GNU header ("ustar  \0" magic) with raw bytes at offset 345 (the
 * atime and ctime fields; a prefix to a pre-Go-1.8 writer), then data.
 */
static void
tb_gnu(struct tb *t, const char *at345, const char *name, char type,
    const char *link, const void *data, size_t size)
{
	size_t at = t->len;

	tb_entry(t, name, type, link, 0644, data, size);
	memcpy(t->p + at + 257, "ustar  \0", 8);
	memcpy(t->p + at + 345, at345, strlen(at345));
	tb_sum(t->p + at);
}

static void
tb_file(struct tb *t, const char *name, const char *text)
{
	tb_entry(t, name, '0', NULL, 0644, text, strlen(text));
}

static void
tb_end(struct tb *t)
{
	static const unsigned char z[1024];

	tb_put(t, z, 1024);
}

/*
 * A PAX record group ("x"): records is "key=value\n..." without lengths;
 * each gets its "%d " prefix (the length counts itself).
 */
static void
tb_pax(struct tb *t, const char *records)
{
	char out[4096], rec[1024];
	const char *p = records, *nl;
	size_t len = 0, n, d;

	while ((nl = strchr(p, '\n')) != NULL) {
		n = (size_t)(nl - p) + 1;
		for (d = 1; ; d++) {
			size_t total = d + 1 + n;

			if (snprintf(rec, sizeof(rec), "%zu", total) == (int)d)
				break;
		}
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%zu %.*s",
		    d + 1 + n, (int)n, p);
		p = nl + 1;
	}
	tb_entry(t, "PaxHeaders/x", 'x', NULL, 0644, out, len);
}

/* A raw PAX group (lengths as given: for malformed ones). */
static void
tb_pax_raw(struct tb *t, const char *records)
{
	tb_entry(t, "PaxHeaders/x", 'x', NULL, 0644, records, strlen(records));
}

/* ---------------------------------------------------------------- tar reader */

static int
count_entries(const unsigned char *p, size_t n, size_t piece,
    struct tar_entry *last, int *ended)
{
	struct tar_reader t;
	struct tar_entry e;
	size_t used, k;
	int count = 0;
	enum tar_rc rc = TAR_MORE;

	tar_init(&t);
	*ended = 0;
	while (n > 0) {
		k = n < piece ? n : piece;
		rc = tar_feed(&t, p, k, &used, &e);
		p += used;
		n -= used;
		if (rc == TAR_ERROR) {
			tar_free(&t);
			return -1;
		}
		if (rc == TAR_ENTRY) {
			count++;
			*last = e;
		}
		if (rc == TAR_END)
			*ended = 1;
	}
	if (!*ended)
		*ended = tar_finish(&t) == TAR_END ? 2 : -1;
	tar_free(&t);
	return count;
}

/* t ended, then read in pieces of piece: exactly one entry, in *e; t freed
   and emptied for the next case */
static void
one_entry(struct tb *t, size_t piece, struct tar_entry *e)
{
	int ended;

	tb_end(t);
	assert_int_equal(count_entries(t->p, t->len, piece, e, &ended), 1);
	assert_int_equal(ended, 1);
	free(t->p);
	memset(t, 0, sizeof(*t));
}

static void
test_tar_basic(void **state)
{
	struct tb t = { 0 };
	struct tar_entry e;
	size_t piece;
	int ended;

	(void)state;
	tb_file(&t, "a", "hello");
	tb_entry(&t, "d/", '5', NULL, 0755, NULL, 0);
	tb_entry(&t, "l", '2', "/etc", 0777, NULL, 0);
	/* a symlink with a size field: header-only, as in Go */
	tb_entry(&t, "s", '2', "x", 0777, NULL, 700);
	tb_file(&t, "z", "bytes");
	tb_end(&t);
	for (piece = 1; piece <= 4096; piece *= 4) {
		assert_int_equal(count_entries(t.p, t.len, piece, &e, &ended), 5);
		assert_int_equal(ended, 1);
		assert_string_equal(e.name, "z");
		assert_int_equal(e.size, 5);
	}
	free(t.p);
}

static void
test_tar_end_forms(void **state)
{
	struct tb t = { 0 };
	struct tar_entry e;
	unsigned char z[512] = { 0 };
	int ended;

	(void)state;
	tb_file(&t, "a", "x");
	/* EOF at a header boundary: the end, as Go reads it */
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), 1);
	assert_int_equal(ended, 2);
	/* one zero block and EOF: the end too */
	tb_put(&t, z, 512);
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), 1);
	assert_int_equal(ended, 2);
	/* a zero block then a header: Go's ErrHeader */
	tb_file(&t, "b", "y");
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), -1);
	free(t.p);
	/* truncated inside data */
	memset(&t, 0, sizeof(t));
	tb_file(&t, "a", "0123456789");
	assert_int_equal(count_entries(t.p, 512 + 4, 512, &e, &ended), 1);
	assert_int_equal(ended, -1);
	free(t.p);
}

static void
test_tar_checksum_and_numbers(void **state)
{
	struct tb t = { 0 };
	struct tar_entry e;
	int ended;

	(void)state;
	tb_file(&t, "a", "x");
	t.p[0] ^= 1;		/* the checksum no longer matches */
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), -1);
	free(t.p);
	memset(&t, 0, sizeof(t));
	tb_file(&t, "a", "x");
	/* base-256 size (1) with a fixed checksum */
	{
		unsigned sum = 0, i;

		memset(t.p + 124, 0, 12);
		t.p[124] = 0x80;
		t.p[135] = 1;
		memset(t.p + 148, ' ', 8);
		for (i = 0; i < 512; i++)
			sum += t.p[i];
		snprintf((char *)t.p + 148, 8, "%06o", sum);
	}
	tb_end(&t);
	assert_int_equal(count_entries(t.p, t.len, 7, &e, &ended), 1);
	assert_int_equal(e.size, 1);
	free(t.p);
}

static void
test_tar_pax_and_gnu(void **state)
{
	struct tb t = { 0 };
	struct tar_entry e;
	char longname[300];
	int ended;

	(void)state;
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	tb_entry(&t, "././@LongLink", 'L', NULL, 0644, longname, strlen(longname));
	tb_file(&t, "short", "x");
	tb_end(&t);
	assert_int_equal(count_entries(t.p, t.len, 100, &e, &ended), 1);
	assert_string_equal(e.name, longname);
	free(t.p);

	/* PAX path and size win over the header */
	memset(&t, 0, sizeof(t));
	tb_pax(&t, "path=pax/name\nsize=3\n");
	tb_entry(&t, "hdrname", '0', NULL, 0644, "abc", 3);
	tb_end(&t);
	assert_int_equal(count_entries(t.p, t.len, 3, &e, &ended), 1);
	assert_string_equal(e.name, "pax/name");
	assert_int_equal(e.size, 3);
	free(t.p);

	/* a PAX path and a GNU long name: the long name wins, as in Go's
	   next() (mergePAX, then gnuLongName) */
	memset(&t, 0, sizeof(t));
	tb_pax(&t, "path=one\n");
	tb_entry(&t, "././@LongLink", 'L', NULL, 0644, "two", 3);
	tb_file(&t, "x", "y");
	one_entry(&t, 512, &e);
	assert_string_equal(e.name, "two");

	/* a malformed PAX record: refused */
	memset(&t, 0, sizeof(t));
	tb_pax_raw(&t, "99 path=x\n");
	tb_file(&t, "x", "y");
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), -1);
	free(t.p);

	/* a security.capability xattr is reported; user.* is not */
	memset(&t, 0, sizeof(t));
	tb_pax(&t, "SCHILY.xattr.security.capability=x\n");
	tb_file(&t, "f", "y");
	tb_end(&t);
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), 1);
	assert_int_equal(e.xattr_other, 1);
	assert_string_equal(e.xattr_name, "security.capability");
	free(t.p);
	memset(&t, 0, sizeof(t));
	tb_pax(&t, "SCHILY.xattr.user.foo=x\n");
	tb_file(&t, "f", "y");
	tb_end(&t);
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), 1);
	assert_int_equal(e.xattr_other, 0);
	free(t.p);
}

static void
test_tar_v7_type_nul(void **state)
{
	struct tb t = { 0 };
	struct tar_entry e;
	int ended;

	(void)state;
	/* typeflag '\0' with a trailing slash is a directory (no data) */
	tb_entry(&t, "dir/", '\0', NULL, 0755, NULL, 0);
	tb_end(&t);
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), 1);
	assert_int_equal(e.type, '5');
	free(t.p);
}

/*
 * Streams the red team read otherwise than Go 1.19's archive/tar (the
 * daemons' reader) did; each is read here as Go reads it (the outcomes
 * checked against tests/tarparity/gotar.go).
 */
static void
test_tar_go_desyncs(void **state)
{
	struct tb t = { 0 };
	struct tar_entry e;
	size_t hidden;
	int ended;

	(void)state;
	/* two 'x' headers in a row: the second replaces the first's
	   records (parsePAX per header), in both orders */
	tb_pax(&t, "path=decoy1\nlinkpath=decoy2\n");
	tb_pax(&t, "comment=x\n");
	tb_entry(&t, "h", '2', "/tmp/victim", 0777, NULL, 0);
	one_entry(&t, 1, &e);
	assert_string_equal(e.name, "h");
	assert_string_equal(e.link, "/tmp/victim");
	tb_pax(&t, "comment=x\n");
	tb_pax(&t, "path=second\n");
	tb_file(&t, "hdr", "x");
	one_entry(&t, 512, &e);
	assert_string_equal(e.name, "second");
	/* a size lie kept from a first 'x' would skip the entries behind */
	memset(&t, 0, sizeof(t));
	tb_pax(&t, "size=1024\n");
	tb_pax(&t, "comment=x\n");
	tb_entry(&t, "cover", '0', NULL, 0644, NULL, 0);
	hidden = t.len;
	tb_entry(&t, "mem", '3', NULL, 0666, NULL, 0);
	tb_file(&t, "last", "x");
	tb_end(&t);
	assert_int_equal(count_entries(t.p, t.len, 7, &e, &ended), 3);
	assert_string_equal(e.name, "last");
	assert_int_equal(count_entries(t.p, hidden + 512, 512, &e, &ended), 2);
	assert_string_equal(e.name, "mem");
	assert_int_equal(e.type, '3');
	free(t.p);
	/* an 'L' between two 'x': the long name survives, the first 'x'
	   does not */
	memset(&t, 0, sizeof(t));
	tb_pax(&t, "path=a\nuid=7\n");
	tb_entry(&t, "././@LongLink", 'L', NULL, 0644, "b", 1);
	tb_pax(&t, "gid=5\n");
	tb_file(&t, "c", "x");
	one_entry(&t, 512, &e);
	assert_string_equal(e.name, "b");
	assert_int_equal(e.uid, 0);
	assert_int_equal(e.gid, 5);

	/* a GNU header whose atime does not parse: bytes 345.. are a prefix
	   (readHeader, golang.org/issue/12594) */
	memset(&t, 0, sizeof(t));
	tb_gnu(&t, "sub", "Dockerfile", '0', NULL, "FROM a\n", 7);
	tb_gnu(&t, "x", "sub/Dockerfile", '0', NULL, "FROM b\n", 7);
	tb_end(&t);
	assert_int_equal(count_entries(t.p, 512 + 512, 512, &e, &ended), 1);
	assert_string_equal(e.name, "sub/Dockerfile");
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), 2);
	assert_string_equal(e.name, "x/sub/Dockerfile");
	free(t.p);
	/* ... or whose ctime does not (atime empty) */
	memset(&t, 0, sizeof(t));
	tb_gnu(&t, "", "n", '0', NULL, NULL, 0);
	memcpy(t.p + 357, "junk", 4);
	tb_sum(t.p);
	one_entry(&t, 512, &e);
	assert_string_equal(e.name, "n");	/* the prefix field is empty */
	/* valid times, or a prefix that is not ASCII: the name alone */
	memset(&t, 0, sizeof(t));
	tb_gnu(&t, "00000000017", "n", '0', NULL, NULL, 0);
	tb_gnu(&t, "\xc3\xa9x", "m", '0', NULL, NULL, 0);
	tb_end(&t);
	assert_int_equal(count_entries(t.p, 512, 512, &e, &ended), 1);
	assert_string_equal(e.name, "n");
	assert_int_equal(count_entries(t.p, t.len, 512, &e, &ended), 2);
	assert_string_equal(e.name, "m");
	free(t.p);

	/* an empty GNU long link or name keeps the header's (Go sets them
	   only when not ""): a size-0 record, and one of NULs */
	memset(&t, 0, sizeof(t));
	tb_entry(&t, "././@LongLink", 'K', NULL, 0644, NULL, 0);
	tb_entry(&t, "h", '2', "/tmp/victim", 0777, NULL, 0);
	one_entry(&t, 512, &e);
	assert_string_equal(e.link, "/tmp/victim");
	tb_entry(&t, "././@LongLink", 'K', NULL, 0644, "\0\0", 2);
	tb_entry(&t, "././@LongLink", 'L', NULL, 0644, "\0", 1);
	tb_entry(&t, "h", '2', "/tmp/victim", 0777, NULL, 0);
	one_entry(&t, 3, &e);
	assert_string_equal(e.name, "h");
	assert_string_equal(e.link, "/tmp/victim");
	/* a long name, then an empty one: the empty one replaces it, and
	   the header's name stands */
	memset(&t, 0, sizeof(t));
	tb_entry(&t, "././@LongLink", 'L', NULL, 0644, "long", 4);
	tb_entry(&t, "././@LongLink", 'L', NULL, 0644, NULL, 0);
	tb_file(&t, "hdr", "x");
	one_entry(&t, 512, &e);
	assert_string_equal(e.name, "hdr");
}

/* ---------------------------------------------------------------- decoders */

static size_t
gz(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + 15, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	n = cap - z.avail_out;
	deflateEnd(&z);
	return n;
}

/* The checker over buf in pieces; 0 ok, -1 refused (code in *code). */
static int
run_check(enum chk_kind kind, int podman, int libpod, const char *query,
    const unsigned char *buf, size_t n, size_t piece, const char **code,
    const char **detail)
{
	struct chk_params p = { .kind = kind, .podman = podman,
		.libpod = libpod, .query = query };
	static struct cg_refusal r;
	struct chk *c = chk_new(&p, &r);
	size_t k;
	int rc = 0;

	if (c == NULL) {
		*code = r.code;
		*detail = r.detail;
		return -1;
	}
	while (n > 0 && rc == 0) {
		k = n < piece ? n : piece;
		rc = chk_feed(c, buf, k);
		buf += k;
		n -= k;
	}
	if (rc == 0)
		rc = chk_finish(c);
	if (rc != 0) {
		r = *chk_refusal(c);
		*code = r.code;
		*detail = r.detail;
	}
	chk_free(c);
	return rc;
}

static const char *DF = "FROM localhost/busybox\nRUN true\n";

static void
test_decoders(void **state)
{
	struct tb t = { 0 };
	unsigned char *z = malloc(1 << 20), *x = malloc(1 << 20);
	unsigned int bl = 1 << 20;
	size_t zl, xl = 0;
	const char *code, *detail;

	(void)state;
	tb_file(&t, "Dockerfile", DF);
	tb_entry(&t, "h", '2', "/etc", 0777, NULL, 0);
	tb_file(&t, "h/pwned", "x");
	tb_end(&t);
	/* plain, gzip, bzip2, xz: the same refusal, in any piece size */
	assert_int_equal(run_check(CHK_BUILD, 1, 0, "dockerfile=Dockerfile",
	    t.p, t.len, 1, &code, &detail), -1);
	assert_string_equal(code, "host-path");
	zl = gz(t.p, t.len, z, 1 << 20);
	assert_int_equal(run_check(CHK_BUILD, 1, 0, "dockerfile=Dockerfile", z,
	    zl, 3, &code, &detail), -1);
	assert_string_equal(code, "host-path");
	assert_int_equal(BZ2_bzBuffToBuffCompress((char *)z, &bl, (char *)t.p,
	    (unsigned)t.len, 9, 0, 0), BZ_OK);
	assert_int_equal(run_check(CHK_BUILD, 1, 0, "dockerfile=Dockerfile", z,
	    bl, 100, &code, &detail), -1);
	assert_string_equal(code, "host-path");
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, t.p,
	    t.len, x, &xl, 1 << 20), LZMA_OK);
	assert_int_equal(run_check(CHK_BUILD, 1, 0, "dockerfile=Dockerfile", x,
	    xl, 7, &code, &detail), -1);
	assert_string_equal(code, "host-path");
	/* zstd is detected and refused, never decoded */
	assert_int_equal(run_check(CHK_BUILD, 1, 0, "", (const unsigned char *)
	    "\x28\xb5\x2f\xfd\0\0\0\0", 8, 8, &code, &detail), -1);
	assert_string_equal(code, "malformed");
	/* corrupt gzip */
	zl = gz(t.p, t.len, z, 1 << 20);
	z[zl / 2] ^= 0xff;
	assert_int_equal(run_check(CHK_BUILD, 1, 0, "", z, zl, 64, &code,
	    &detail), -1);
	free(t.p);
	free(z);
	free(x);
}

/* ---------------------------------------------------------------- contexts */

static int
build_ctx(struct tb *t, const char *query, const char **code)
{
	const char *detail;

	return run_check(CHK_BUILD, 1, 0, query, t->p, t->len, 512, code,
	    &detail);
}

static void
test_context_rules(void **state)
{
	struct tb t;
	const char *code;

	(void)state;
#define CASE(setup, query, want)					\
	do {								\
		memset(&t, 0, sizeof(t));				\
		setup;							\
		tb_end(&t);						\
		code = NULL;						\
		if (want == NULL)					\
			assert_int_equal(build_ctx(&t, query, &code), 0); \
		else {							\
			assert_int_equal(build_ctx(&t, query, &code), -1); \
			assert_string_equal(code, want);		\
		}							\
		free(t.p);						\
	} while (0)
	const char *ok = NULL;

	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, "sub/", '5', NULL,
	    0755, NULL, 0); tb_file(&t, "sub/a", "x"); tb_entry(&t, "l", '2',
	    "sub/a", 0777, NULL, 0), "dockerfile=Dockerfile", ok);
	/* a relative symlink climbing out */
	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, "h", '2', "../../x",
	    0777, NULL, 0), "dockerfile=Dockerfile", "host-path");
	/* a chain that leaves through another link and a ".." after it */
	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, "d1/l", '2', "..",
	    0777, NULL, 0); tb_entry(&t, "m", '2', "d1/l/..", 0777, NULL, 0),
	    "dockerfile=Dockerfile", "host-path");
	/* a loop */
	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, "a", '2', "b", 0777,
	    NULL, 0); tb_entry(&t, "b", '2', "a", 0777, NULL, 0),
	    "dockerfile=Dockerfile", "host-path");
	/* an entry written through a (relative, inside) symlink */
	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, "d", '2', "sub",
	    0777, NULL, 0); tb_file(&t, "d/x", "x"), "dockerfile=Dockerfile",
	    "host-path");
	/* a symlink replaced by a directory first is no longer followed */
	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, "d", '2', "/etc",
	    0777, NULL, 0), "dockerfile=Dockerfile", "host-path");
	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, "d", '2', "sub",
	    0777, NULL, 0); tb_entry(&t, "d", '5', NULL, 0755, NULL, 0);
	    tb_file(&t, "d/x", "x"), "dockerfile=Dockerfile", ok);
	/* a hard link through a symlink */
	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, "d", '2', "sub",
	    0777, NULL, 0); tb_entry(&t, "x", '1', "d/shadow", 0644, NULL, 0),
	    "dockerfile=Dockerfile", "host-path");
	/* names that leave the context, and ".." itself */
	CASE(tb_file(&t, "Dockerfile", DF); tb_file(&t, "../x", "y"),
	    "dockerfile=Dockerfile", "host-path");
	CASE(tb_file(&t, "Dockerfile", DF); tb_file(&t, "..", "y"),
	    "dockerfile=Dockerfile", "host-path");
	/* device nodes */
	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, "sda", '4', NULL,
	    0660, NULL, 0), "dockerfile=Dockerfile", "devices");
	/* the Dockerfile: missing, a symlink, below a symlink, a directory */
	CASE(tb_file(&t, "Containerfile", DF), "dockerfile=Dockerfile",
	    "host-path");
	CASE(tb_file(&t, "real", DF); tb_entry(&t, "Dockerfile", '2', "real",
	    0777, NULL, 0), "dockerfile=Dockerfile", "host-path");
	CASE(tb_file(&t, "sub/Dockerfile", DF); tb_entry(&t, "s2", '2', "sub",
	    0777, NULL, 0), "dockerfile=s2/Dockerfile", "host-path");
	CASE(tb_entry(&t, "Dockerfile/", '5', NULL, 0755, NULL, 0),
	    "dockerfile=Dockerfile", "host-path");
	/* a later entry replaces the Dockerfile's content */
	CASE(tb_file(&t, "Dockerfile", DF); tb_file(&t, "Dockerfile",
	    "FROM docker-archive:/x\n"), "dockerfile=Dockerfile", "host-path");
	/* .dockerignore as a symlink */
	CASE(tb_file(&t, "Dockerfile", DF); tb_entry(&t, ".dockerignore", '2',
	    "x", 0777, NULL, 0), "dockerfile=Dockerfile", "host-path");
	/* podman: a dockerfile list is looked up outside the context */
	CASE(tb_file(&t, "Dockerfile", DF), "dockerfile=%5B%22Dockerfile%22%5D",
	    "host-path");
	/* the libpod default: Containerfile, else Dockerfile */
	memset(&t, 0, sizeof(t));
	tb_file(&t, "Dockerfile", DF);
	tb_end(&t);
	{
		const char *d;

		assert_int_equal(run_check(CHK_BUILD, 1, 1, "", t.p, t.len, 512,
		    &code, &d), 0);
		/* dockerd reads a lower-case dockerfile too */
		free(t.p);
		memset(&t, 0, sizeof(t));
		tb_file(&t, "dockerfile", DF);
		tb_end(&t);
		assert_int_equal(run_check(CHK_BUILD, 0, 0, "", t.p, t.len, 512,
		    &code, &d), 0);
		assert_int_equal(run_check(CHK_BUILD, 1, 0, "", t.p, t.len, 512,
		    &code, &d), -1);
	}
	free(t.p);
#undef CASE
}

static void
test_archive_rules(void **state)
{
	struct tb t;
	const char *code, *detail;
	static const struct {
		char type;
		unsigned mode;
		const char *want;
	} cases[] = {
		{ '0', 0644, NULL }, { '5', 02755, NULL }, { '2', 0777, NULL },
		{ '3', 0666, "devices" }, { '4', 0660, "devices" },
		{ '6', 0644, "devices" }, { '0', 04755, "privileged" },
		{ '0', 02755, "privileged" }, { '7', 0644, "malformed" },
		{ 'S', 0644, "malformed" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&t, 0, sizeof(t));
		tb_file(&t, "ok", "x");
		tb_entry(&t, "e", cases[i].type, "/etc/passwd", cases[i].mode,
		    NULL, 0);
		tb_end(&t);
		code = NULL;
		if (cases[i].want == NULL) {
			assert_int_equal(run_check(CHK_ARCHIVE, 1, 0, "", t.p, t.len,
			    100, &code, &detail), 0);
		} else {
			assert_int_equal(run_check(CHK_ARCHIVE, 1, 0, "", t.p, t.len,
			    100, &code, &detail), -1);
			assert_string_equal(code, cases[i].want);
		}
		free(t.p);
	}
}

/*
 * The red team's archives through the whole checker: each hid an entry
 * from the old reader that the daemons then extracted or built.
 */
static void
test_desyncs_refused(void **state)
{
	struct tb t = { 0 };
	const char *code, *detail;

	(void)state;
	/* a symlink to the host and a file through it, under decoy names */
	tb_pax(&t, "path=decoy1\nlinkpath=decoy2\n");
	tb_pax(&t, "comment=x\n");
	tb_entry(&t, "h", '2', "/tmp/victim", 0777, NULL, 0);
	tb_pax(&t, "path=decoy3\n");
	tb_pax(&t, "comment=x\n");
	tb_file(&t, "h/pwned", "x");
	tb_file(&t, "Dockerfile", DF);
	tb_end(&t);
	assert_int_equal(run_check(CHK_BUILD, 1, 0, "dockerfile=Dockerfile",
	    t.p, t.len, 512, &code, &detail), -1);
	assert_string_equal(code, "host-path");
	free(t.p);
	/* a device node behind a PAX size lie */
	memset(&t, 0, sizeof(t));
	tb_pax(&t, "size=512\n");
	tb_pax(&t, "comment=x\n");
	tb_entry(&t, "cover", '0', NULL, 0644, NULL, 0);
	tb_entry(&t, "mem", '3', NULL, 0666, NULL, 0);
	tb_file(&t, "plain.txt", "x");
	tb_end(&t);
	assert_int_equal(run_check(CHK_ARCHIVE, 1, 0, "", t.p, t.len, 100,
	    &code, &detail), -1);
	assert_string_equal(code, "devices");
	assert_int_equal(run_check(CHK_ARCHIVE, 0, 0, "", t.p, t.len, 100,
	    &code, &detail), -1);
	free(t.p);
	/* the Dockerfile podman builds is the GNU-prefixed one */
	memset(&t, 0, sizeof(t));
	tb_gnu(&t, "x", "sub/Dockerfile", '0', NULL, DF, strlen(DF));
	tb_gnu(&t, "sub", "Dockerfile", '0', NULL, "FROM docker-archive:/x\n",
	    23);
	tb_end(&t);
	assert_int_equal(run_check(CHK_BUILD, 1, 0, "dockerfile=sub/Dockerfile",
	    t.p, t.len, 512, &code, &detail), -1);
	assert_string_equal(code, "host-path");
	free(t.p);
	/* an empty long link hides nothing: the header's absolute link */
	memset(&t, 0, sizeof(t));
	tb_file(&t, "Dockerfile", DF);
	tb_entry(&t, "././@LongLink", 'K', NULL, 0644, NULL, 0);
	tb_entry(&t, "h", '2', "/tmp/victim", 0777, NULL, 0);
	tb_end(&t);
	assert_int_equal(run_check(CHK_BUILD, 1, 0, "dockerfile=Dockerfile",
	    t.p, t.len, 512, &code, &detail), -1);
	assert_string_equal(code, "host-path");
	free(t.p);
}

/* ---------------------------------------------------------------- loads */

static int
load(const struct tb *t, size_t piece, const char **code)
{
	const char *detail;

	*code = NULL;
	return run_check(CHK_LOAD, 1, 0, "", t->p, t->len, piece, code,
	    &detail);
}

/* A docker-archive (docker save) whose image config is cfg. */
static void
tb_docker_archive(struct tb *t, const char *cfg)
{
	static const char layer[1024];
	char man[512];

	memset(t, 0, sizeof(*t));
	tb_file(t, "abc/", "");
	tb_entry(t, "abc/layer.tar", '0', NULL, 0644, layer, sizeof(layer));
	tb_file(t, "abc/VERSION", "1.0");
	tb_file(t, "0123.json", cfg);
	snprintf(man, sizeof(man), "[{\"Config\":\"0123.json\",\"RepoTags\":"
	    "[\"localhost/x:latest\"],\"Layers\":[\"abc/layer.tar\"]}]\n");
	tb_file(t, "manifest.json", man);
	tb_file(t, "repositories", "{\"localhost/x\":{\"latest\":\"abc\"}}");
	tb_end(t);
}

/* A load checker fed t whole, its chk_finish answer want (0 or -1). */
static struct chk *
load_finished(const struct tb *t, int want)
{
	struct chk_params p = { .kind = CHK_LOAD, .podman = 1, .query = "" };
	struct cg_refusal r;
	struct chk *c = chk_new(&p, &r);

	assert_non_null(c);
	assert_int_equal(chk_feed(c, t->p, t->len), 0);
	assert_int_equal(chk_finish(c), want);
	return c;
}

/*
 * The names a load gives, for the monitor's destination check: every
 * RepoTags string (any case of the member), OCI ref.name and containerd
 * name annotations, "repositories" repo:tag pairs, each once; more than
 * DF_BASES_MAX refused, a name that is no image reference refused.
 */
static void
test_load_names(void **state)
{
	struct chk_params p = { .kind = CHK_LOAD, .podman = 1, .query = "" };
	struct cg_refusal r;
	struct tb t;
	struct chk *c;
	const struct df_bases *b;
	char man[4096];
	size_t i, n;

	(void)state;
	memset(&t, 0, sizeof(t));
	tb_file(&t, "manifest.json", "[{\"Config\":\"c.json\",\"repotags\":"
	    "[\"localhost/a:1\",\"docker.io/library/b:2\"]}]");
	tb_file(&t, "repositories", "{\"localhost/a\":{\"1\":\"x\",\"3\":"
	    "\"x\"}}");
	tb_file(&t, "index.json", "{\"manifests\":[{\"annotations\":{"
	    "\"org.opencontainers.image.ref.name\":\"c:4\","
	    "\"io.containerd.image.name\":\"d:5\"}}]}");
	/* a config's members are no names, whatever their shape */
	tb_file(&t, "c.json", "{\"config\":{\"Labels\":{\"a\":\"b\"}}}");
	tb_end(&t);
	c = load_finished(&t, 0);
	b = chk_bases(c);
	assert_int_equal(b->n, 5);
	assert_string_equal(b->ref[0], "localhost/a:1");
	assert_string_equal(b->ref[1], "docker.io/library/b:2");
	assert_string_equal(b->ref[2], "localhost/a:3");
	assert_string_equal(b->ref[3], "c:4");
	assert_string_equal(b->ref[4], "d:5");
	/*
	 * The image each is given: manifest.json's Config, c.json, whose
	 * SHA-256 (Python's hashlib of the same bytes) is the id; the
	 * repositories file says nothing beside it; OCI names none.
	 */
	assert_string_equal(b->id[0], "05c25f65268bc8c4ca2381e6d0a43d08be33418"
	    "c0b72cd9218a3a647a943e851");
	assert_string_equal(b->id[1], b->id[0]);
	assert_string_equal(b->id[2], "");
	assert_string_equal(b->id[3], "");
	assert_string_equal(b->id[4], "");
	chk_free(c);
	free(t.p);

	/* one name given to two configs, or also by an OCI index: no id */
	memset(&t, 0, sizeof(t));
	tb_file(&t, "c.json", "{\"config\":{\"Labels\":{\"a\":\"b\"}}}");
	tb_file(&t, "manifest.json", "[{\"Config\":\"c.json\",\"RepoTags\":"
	    "[\"x:1\",\"y:1\"]},{\"Config\":\"d.json\",\"RepoTags\":"
	    "[\"x:1\"]}]");
	tb_file(&t, "index.json", "{\"manifests\":[{\"annotations\":{"
	    "\"org.opencontainers.image.ref.name\":\"y:1\"}}]}");
	tb_end(&t);
	c = load_finished(&t, 0);
	b = chk_bases(c);
	assert_int_equal(b->n, 2);
	assert_string_equal(b->id[0], "");
	assert_string_equal(b->id[1], "");
	chk_free(c);
	free(t.p);

	/*
	 * The config's path also taken by a link (either order), or a config
	 * below a directory: what the daemon reads there may be another
	 * document, so no id (red team rt12)
	 */
	for (i = 0; i < 3; i++) {
		memset(&t, 0, sizeof(t));
		if (i == 1)
			tb_entry(&t, "c.json", '2', "e.json", 0777, NULL, 0);
		tb_file(&t, i == 2 ? "d/c.json" : "c.json",
		    "{\"config\":{\"Labels\":{\"a\":\"b\"}}}");
		tb_file(&t, "e.json", "{\"config\":{}}");
		if (i == 0)
			tb_entry(&t, "c.json", '2', "e.json", 0777, NULL, 0);
		tb_file(&t, "manifest.json", i == 2 ? "[{\"Config\":\"d/c.json\","
		    "\"RepoTags\":[\"x:1\"]}]" : "[{\"Config\":\"c.json\","
		    "\"RepoTags\":[\"x:1\"]}]");
		tb_end(&t);
		c = load_finished(&t, 0);
		b = chk_bases(c);
		assert_int_equal(b->n, 1);
		assert_string_equal(b->id[0], "");
		chk_free(c);
		free(t.p);
	}

	/* seventeen names: too many to check */
	n = (size_t)snprintf(man, sizeof(man), "[{\"RepoTags\":[");
	for (i = 0; i <= DF_BASES_MAX; i++)
		n += (size_t)snprintf(man + n, sizeof(man) - n, "%s\"n:%zu\"",
		    i > 0 ? "," : "", i);
	snprintf(man + n, sizeof(man) - n, "]}]");
	memset(&t, 0, sizeof(t));
	tb_file(&t, "manifest.json", man);
	tb_end(&t);
	c = load_finished(&t, -1);
	assert_string_equal(chk_refusal(c)->code, "too-large");
	chk_free(c);
	free(t.p);

	/* a name the monitor could not put in an inspect's path */
	memset(&t, 0, sizeof(t));
	tb_file(&t, "manifest.json", "[{\"RepoTags\":[\"a/../b:1\"]}]");
	tb_end(&t);
	c = chk_new(&p, &r);
	assert_non_null(c);
	assert_true(chk_feed(c, t.p, t.len) == -1 || chk_finish(c) == -1);
	assert_string_equal(chk_refusal(c)->code, "denied-build-parameter");
	chk_free(c);
	free(t.p);
}

static void
test_load_rules(void **state)
{
	struct tb t;
	const char *code;
	size_t piece;
	static const struct {
		const char *cfg, *want;
	} cases[] = {
		{ "{\"config\":{\"Env\":[\"A=b\"],\"OnBuild\":null}}", NULL },
		{ "{\"config\":{\"OnBuild\":[]},\"container_config\":{}}", NULL },
		{ " \n{\"config\":{\"OnBuild\":[\"RUN --mount=type=cache,"
		    "id=../../x,target=/c true\"]}}", "denied-build-parameter" },
		/* Go's encoding/json matches member names without case */
		{ "{\"container_config\":{\"onbuild\":[\"RUN true\"]}}",
		    "denied-build-parameter" },
		{ "{\"config\":{\"Labels\":{\"a\":\"b\"}},\"ANNOTATIONS\":"
		    "{\"io.podman.annotations.privileged\":\"TRUE\"}}",
		    "annotations" },
		{ "{\"config\":{\"Labels\":{\"io.podman.annotations.privileged\""
		    ":\"TRUE\"}}}", NULL },	/* a label, not an annotation */
		{ "{\"config\":", "malformed" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (piece = 1; piece <= 4096; piece *= 64) {
			tb_docker_archive(&t, cases[i].cfg);
			if (cases[i].want == NULL) {
				assert_int_equal(load(&t, piece, &code), 0);
			} else {
				assert_int_equal(load(&t, piece, &code), -1);
				assert_string_equal(code, cases[i].want);
			}
			free(t.p);
		}

	/* an oci-archive: the index's and a manifest's annotations */
	memset(&t, 0, sizeof(t));
	tb_file(&t, "oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}");
	tb_file(&t, "index.json", "{\"schemaVersion\":2,\"manifests\":[{"
	    "\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
	    "\"annotations\":{\"org.opencontainers.image.ref.name\":\"x\","
	    "\"io.podman.annotations.privileged\":\"TRUE\"}}]}");
	tb_end(&t);
	assert_int_equal(load(&t, 512, &code), -1);
	assert_string_equal(code, "annotations");
	free(t.p);
	memset(&t, 0, sizeof(t));
	tb_file(&t, "index.json", "{\"schemaVersion\":2,\"manifests\":[{"
	    "\"annotations\":{\"org.opencontainers.image.ref.name\":\"x\"}}]}");
	tb_file(&t, "blobs/sha256/aa", "{\"schemaVersion\":2,\"annotations\":"
	    "{\"run.oci.keep_original_groups\":\"1\"}}");
	tb_end(&t);
	assert_int_equal(load(&t, 100, &code), -1);
	assert_string_equal(code, "annotations");
	free(t.p);
	/* podman's default infra image is no name an archive may give */
	{
		static const char *const infra[][2] = {
			{ "manifest.json", "[{\"Config\":\"c.json\",\"repotags\":"
			    "[\"localhost/x:1\",\"localhost/podman-pause:4.3.1-0\"]}]" },
			{ "index.json", "{\"manifests\":[{\"annotations\":{\""
			    "org.opencontainers.image.ref.name\":\"localhost/"
			    "podman-pause:4.3.1-0\"}}]}" },
			{ "repositories", "{\"localhost/podman-pause\":"
			    "{\"4.3.1-0\":\"abc\"}}" },
		};

		for (i = 0; i < 3; i++) {
			memset(&t, 0, sizeof(t));
			tb_file(&t, infra[i][0], infra[i][1]);
			tb_end(&t);
			assert_int_equal(load(&t, 512, &code), -1);
			assert_string_equal(code, "denied-build-parameter");
			free(t.p);
		}
	}
	/* the tree rules: podman extracts the archive on the host */
	memset(&t, 0, sizeof(t));
	tb_entry(&t, "h", '2', "/tmp/victim", 0777, NULL, 0);
	tb_file(&t, "h/pwned", "x");
	tb_end(&t);
	assert_int_equal(load(&t, 512, &code), -1);
	assert_string_equal(code, "host-path");
	free(t.p);
	memset(&t, 0, sizeof(t));
	tb_file(&t, "../x", "y");
	tb_end(&t);
	assert_int_equal(load(&t, 512, &code), -1);
	assert_string_equal(code, "host-path");
	free(t.p);
	memset(&t, 0, sizeof(t));
	tb_entry(&t, "mem", '3', NULL, 0666, NULL, 0);
	tb_end(&t);
	assert_int_equal(load(&t, 512, &code), -1);
	assert_string_equal(code, "devices");
	free(t.p);
	/* a layer, VERSION, a file of white space: no documents */
	memset(&t, 0, sizeof(t));
	tb_file(&t, "VERSION", "1.0");
	tb_file(&t, "blank", " \n\t ");
	tb_file(&t, "layer.tar", "\x1f\x8b junk {");
	tb_end(&t);
	assert_int_equal(load(&t, 3, &code), 0);
	free(t.p);
}

/* What is approved before the end: never a refused entry, never the end. */
static void
test_approvals(void **state)
{
	struct chk_params p = { .kind = CHK_ARCHIVE, .podman = 1, .query = "" };
	struct cg_refusal r;
	struct tb t = { 0 };
	struct chk *c;
	char big[5000];
	size_t dev;
	int i;

	(void)state;
	memset(big, 'x', sizeof(big));
	for (i = 0; i < 100; i++)
		tb_entry(&t, "f", '0', NULL, 0644, big, sizeof(big));
	dev = t.len;
	tb_entry(&t, "null", '3', NULL, 0666, NULL, 0);
	tb_end(&t);
	/* no hold: everything before the device node, not one byte of it */
	c = chk_new(&p, &r);
	assert_int_equal(chk_feed(c, t.p, dev + 100), 0);
	assert_true(chk_approved(c) <= dev);
	assert_int_equal(chk_feed(c, t.p + dev + 100, t.len - dev - 100), -1);
	assert_true(chk_approved(c) <= dev);
	chk_free(c);
	/* with a hold, 100 KiB behind */
	p.hold = 100 << 10;
	c = chk_new(&p, &r);
	assert_int_equal(chk_feed(c, t.p, dev), 0);
	assert_true(chk_approved(c) + p.hold <= dev);
	chk_flush(c);
	assert_true(chk_approved(c) + 512 >= dev);
	chk_free(c);
	free(t.p);

	/* a build: never the end marker before chk_finish */
	memset(&t, 0, sizeof(t));
	tb_file(&t, "Dockerfile", DF);
	dev = t.len;
	tb_end(&t);
	p = (struct chk_params){ .kind = CHK_BUILD, .podman = 1,
		.query = "dockerfile=Dockerfile" };
	c = chk_new(&p, &r);
	assert_int_equal(chk_feed(c, t.p, t.len), 0);
	assert_int_equal(chk_approved(c), dev);
	assert_int_equal(chk_finish(c), 0);
	assert_int_equal(chk_approved(c), t.len);
	chk_free(c);
	free(t.p);
}

/*
 * Entry data taken unread (chk_skip, the checker's CHECK_SKIP): only the
 * data and padding of an entry in a plain tar that no sink takes; the
 * headers after it are read and refused as ever.
 */
static void
test_skip(void **state)
{
	struct chk_params p = { .kind = CHK_ARCHIVE, .podman = 1, .query = "" };
	struct cg_refusal r;
	struct tb t = { 0 }, g = { 0 };
	struct chk *c;
	static char big[300000];
	unsigned char *z;
	size_t hdr, k, zl;

	(void)state;
	memset(big, 'x', sizeof(big));
	tb_entry(&t, "big", '0', NULL, 0644, big, sizeof(big));
	hdr = 512;
	tb_entry(&t, "null", '3', NULL, 0666, NULL, 0);
	tb_end(&t);

	/* nothing before the detection and inside the header */
	c = chk_new(&p, &r);
	assert_int_equal(chk_skippable(c), 0);
	assert_int_equal(chk_feed(c, t.p, 300), 0);
	assert_int_equal(chk_skippable(c), 0);
	assert_int_equal(chk_feed(c, t.p + 300, hdr - 300 + 1000), 0);
	/* the data's rest (not its padding), then the device node's header */
	k = chk_skippable(c);
	assert_int_equal(k, 300000 - 1000);
	assert_int_equal(chk_skip(c, k + 1), -1);
	assert_int_equal(chk_skip(c, k), 0);
	assert_int_equal(chk_skippable(c), 0);	/* the padding is read */
	assert_true(chk_approved(c) >= hdr + 1000 + k - 512);
	assert_int_equal(chk_feed(c, t.p + hdr + 1000 + k,
	    t.len - hdr - 1000 - k), -1);
	assert_string_equal(chk_refusal(c)->code, "devices");
	assert_true(chk_approved(c) <= hdr + 300032);
	chk_free(c);

	/* skipped in two pieces, then a clean end: all approved */
	memset(&g, 0, sizeof(g));
	tb_entry(&g, "big", '0', NULL, 0644, big, sizeof(big));
	tb_file(&g, "small", "y");
	tb_end(&g);
	c = chk_new(&p, &r);
	assert_int_equal(chk_feed(c, g.p, hdr), 0);
	assert_int_equal(chk_skip(c, 100000), 0);
	assert_int_equal(chk_feed(c, g.p + hdr + 100000, 50000), 0);
	k = chk_skippable(c);
	assert_int_equal(k, 300000 - 150000);
	assert_int_equal(chk_skip(c, k), 0);
	assert_int_equal(chk_feed(c, g.p + hdr + 300000,
	    g.len - hdr - 300000), 0);
	assert_int_equal(chk_finish(c), 0);
	assert_int_equal(chk_approved(c), g.len);
	chk_free(c);

	/* a compressed body: every byte is decoded, none skipped */
	z = malloc(g.len + 1024);
	zl = gz(g.p, g.len, z, g.len + 1024);
	c = chk_new(&p, &r);
	assert_int_equal(chk_feed(c, z, zl / 2), 0);
	assert_int_equal(chk_skippable(c), 0);
	chk_free(c);
	free(z);

	/* a build's Dockerfile is read (its sink), other data skipped */
	memset(&g, 0, sizeof(g));
	tb_entry(&g, "Dockerfile", '0', NULL, 0644, big, sizeof(big));
	tb_end(&g);
	p = (struct chk_params){ .kind = CHK_BUILD, .podman = 1,
		.query = "dockerfile=Dockerfile" };
	c = chk_new(&p, &r);
	assert_int_equal(chk_feed(c, g.p, hdr + 10), 0);
	assert_int_equal(chk_skippable(c), 0);
	chk_free(c);
	free(g.p);

	/* a PAX record's padding is not skipped: the group is unfinished */
	memset(&g, 0, sizeof(g));
	tb_pax(&g, "path=a\n");
	c = chk_new(&p, &r);
	assert_int_equal(chk_feed(c, g.p, 512 + 10), 0);
	assert_int_equal(chk_skippable(c), 0);
	chk_free(c);
	free(g.p);
	free(t.p);
}

/* ---------------------------------------------------------------- Dockerfiles */

static const char *
df(const char *text, const char *buildargs)
{
	static struct cg_refusal r;
	struct df_params p = { 0 };
	cJSON *ba = buildargs ? cJSON_Parse(buildargs) : NULL;
	int rc;

	p.buildargs = ba;
	rc = dockerfile_check(text, strlen(text), &p, &r);
	cJSON_Delete(ba);
	return rc == 0 ? NULL : r.code;
}

static void
test_dockerfile(void **state)
{
	(void)state;
	assert_null(df("FROM localhost/busybox\nRUN echo hi\n", NULL));
	assert_string_equal(df("FROM docker-archive:/x.tar\n", NULL), "host-path");
	assert_string_equal(df("from OCI-ARCHIVE:/x.tar\n", NULL), "host-path");
	assert_string_equal(df("FROM --platform=linux/amd64 dir:/x AS a\n", NULL),
	    "host-path");
	/* ARG and buildargs substitution, both forms and defaults */
	assert_string_equal(df("ARG B=docker-archive\nFROM ${B}:/x\n", NULL),
	    "host-path");
	assert_string_equal(df("ARG B\nFROM $B:/x\n", "{\"B\":\"oci\"}"),
	    "host-path");
	assert_string_equal(df("ARG B\nFROM ${B:-containers-storage}:x\n", NULL),
	    "host-path");
	assert_null(df("ARG B=localhost/busybox\nFROM $B\n", NULL));
	assert_null(df("FROM docker:dind\n", NULL));
	/* COPY/ADD --from, stage ARG and ENV */
	assert_string_equal(df("FROM a\nCOPY --from=oci:/x /a /b\n", NULL),
	    "host-path");
	assert_string_equal(df("FROM a\nENV S=docker-archive:/x\nADD --from=$S "
	    "/a /b\n", NULL), "host-path");
	assert_null(df("FROM a AS b\nFROM a\nCOPY --from=b /a /b\n", NULL));
	/* RUN --mount */
	assert_string_equal(df("FROM a\nRUN --mount=type=cache,target=/c true\n",
	    NULL), "bind-mount");
	assert_string_equal(df("FROM a\nRUN --mount=type=cache,target=/c "
	    "--mount=target=/d,id=x true\n", NULL), "bind-mount");
	assert_string_equal(df("FROM a\nRUN --mount=type=bind,from=s,source=/etc,"
	    "target=/x true\n", NULL), "bind-mount");
	assert_null(df("FROM a\nRUN --mount=type=bind,from=s,target=/x true\n",
	    NULL));
	assert_null(df("FROM a\nRUN --mount=type=bind,source=.,target=/x,rw "
	    "true\n", NULL));
	assert_string_equal(df("FROM a\nRUN --mount=type=bind,from=oci:/x,"
	    "target=/x true\n", NULL), "host-path");
	assert_string_equal(df("FROM a\nARG T=cache\nRUN --mount=type=$T,"
	    "target=/x true\n", NULL), "bind-mount");
	assert_null(df("FROM a\nRUN --mount=type=tmpfs,target=/x --mount="
	    "type=secret,id=s true\n", NULL));
	/* line continuations, comments, empty continuation lines */
	assert_string_equal(df("FROM a\nRUN \\\n# a comment\n\n  "
	    "--mount=type=cache,target=/x true\n", NULL), "bind-mount");
	/* an escape directive, read with and without # syntax before it */
	assert_string_equal(df("# escape=`\nFROM a\nRUN `\n--mount=type=cache,"
	    "target=/x true\n", NULL), "bind-mount");
	assert_string_equal(df("# syntax=docker/dockerfile:1\n# escape=`\nFROM a"
	    "\nRUN `\n--mount=type=cache,target=/x true\n", NULL), "bind-mount");
	/* heredoc bodies are instructions to these builders */
	assert_string_equal(df("FROM a\nRUN <<EOF\nFROM docker-archive:/x\nEOF\n",
	    NULL), "host-path");
	assert_null(df("FROM a\nRUN <<EOF\necho hi\nEOF\n", NULL));
	/* ONBUILD triggers */
	assert_string_equal(df("FROM a\nONBUILD RUN --mount=type=cache,target=/x "
	    "true\n", NULL), "bind-mount");
	/* JSON form, CRLF, BOM */
	assert_null(df("\xef\xbb\xbf" "FROM a\r\nRUN [\"true\"]\r\n", NULL));
	assert_string_equal(df("\xef\xbb\xbf" "FROM docker-archive:/x\r\n", NULL),
	    "host-path");
}

/* The base images text names, joined by spaces ("" for none). */
static const char *
bases(const char *text, const char *buildargs)
{
	static char out[1024];
	struct df_bases b = { 0 };
	cJSON *ba = buildargs ? cJSON_Parse(buildargs) : NULL;
	struct df_params p = { .buildargs = ba, .bases = &b };
	struct cg_refusal r;
	size_t i;

	out[0] = '\0';
	assert_int_equal(dockerfile_check(text, strlen(text), &p, &r), 0);
	for (i = 0; i < b.n; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
		    i ? " " : "", b.ref[i]);
	if (b.over)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), " +");
	df_bases_free(&b);
	cJSON_Delete(ba);
	return out;
}

static void
test_dockerfile_bases(void **state)
{
	(void)state;
	assert_string_equal(bases("FROM a\nRUN true\n", NULL), "a");
	/* stage names match exactly (buildah); an unnamed stage is its index */
	assert_string_equal(bases("FROM a AS s1\nFROM s1\nFROM S1\n", NULL),
	    "a S1");
	assert_string_equal(bases("FROM a\nFROM 0\nFROM 1\nFROM 3\n", NULL),
	    "a 3");
	assert_string_equal(bases("FROM a AS x\nFROM 0\n", NULL), "a 0");
	/* a later stage's name is no stage yet */
	assert_string_equal(bases("FROM s1\nFROM a AS s1\n", NULL), "s1 a");
	assert_string_equal(bases("FROM scratch\nFROM SCRATCH\n", NULL), "");
	/* ARG substitution, buildargs, each once */
	assert_string_equal(bases("ARG B=x\nFROM $B:1\nFROM ${B}:1\n", NULL),
	    "x:1");
	assert_string_equal(bases("ARG B=x\nFROM $B\n", "{\"B\":\"y/z\"}"),
	    "y/z");
	/* flags, and what does not run a base image's triggers */
	assert_string_equal(bases("FROM --platform=linux/amd64 a AS b\n"
	    "COPY --from=img /x /y\nRUN --mount=type=bind,from=img2,target=/m "
	    "true\n", NULL), "a");
	/* both readings of the escape directive */
	assert_string_equal(bases("# syntax=x\n# escape=`\nFROM a`\nb\n", NULL),
	    "a` ab");
	assert_string_equal(bases("FROM a1\nFROM a2\nFROM a3\nFROM a4\n"
	    "FROM a5\nFROM a6\nFROM a7\nFROM a8\nFROM a9\nFROM a10\n"
	    "FROM a11\nFROM a12\nFROM a13\nFROM a14\nFROM a15\nFROM a16\n"
	    "FROM a17\n", NULL), "a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 "
	    "a14 a15 a16 +");
}

/* An export answer: head, then a docker-archive with config and manifest. */
static unsigned char *
export_answer(const char *status, const char *config, int with_manifest,
    size_t *len)
{
	struct tb t = { 0 };
	char head[256];
	static const unsigned char z[1024];
	const char *man = "[{\"Config\":\"abc.json\",\"RepoTags\":null,"
	    "\"Layers\":[\"l.tar\"]}]";

	unsigned char *out;

	snprintf(head, sizeof(head), "HTTP/1.0 %s\r\nContent-Type: "
	    "application/x-tar\r\n\r\n", status);
	tb_entry(&t, "l.tar", '0', NULL, 0644, "layer", 5);
	tb_entry(&t, "abc.json", '0', NULL, 0644, config, strlen(config));
	if (with_manifest)
		tb_entry(&t, "manifest.json", '0', NULL, 0644, man, strlen(man));
	tb_put(&t, z, sizeof(z));
	*len = strlen(head) + t.len;
	out = malloc(*len);
	memcpy(out, head, strlen(head));
	memcpy(out + strlen(head), t.p, t.len);
	free(t.p);
	return out;
}

/* ob_* over the answer in pieces of step bytes: NULL, or the code. */
static const char *
onbuild(const char *status, const char *config, int with_manifest,
    size_t step, const char *buildargs)
{
	static char code[40];
	size_t len, i, n;
	unsigned char *a = export_answer(status, config, with_manifest, &len);
	cJSON *ba = buildargs ? cJSON_Parse(buildargs) : NULL;
	struct ob_reader *o = ob_new("localhost/x:1", ba);
	int rc = 0;

	for (i = 0; i < len && rc == 0; i += n) {
		n = len - i < step ? len - i : step;
		rc = ob_feed(o, a + i, n);
	}
	if (rc == 0)
		rc = ob_finish(o);
	snprintf(code, sizeof(code), "%s", rc == 0 ? "" : ob_refusal(o)->code);
	if (getenv("CG_TEST_DEBUG") && rc != 0)
		fprintf(stderr, "%s\n", ob_refusal(o)->detail);
	ob_free(o);
	cJSON_Delete(ba);
	free(a);
	return rc == 0 ? NULL : code;
}

static void
test_onbuild(void **state)
{
	static const size_t steps[] = { 1, 7, 512, 100000 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		size_t k = steps[i];

		assert_null(onbuild("200 OK", "{\"config\":{}}", 1, k, NULL));
		assert_null(onbuild("200 OK", "{\"config\":{\"OnBuild\":null}}",
		    1, k, NULL));
		assert_null(onbuild("200 OK", "{\"config\":{\"OnBuild\":"
		    "[\"RUN echo hi\"]}}", 1, k, NULL));
		assert_string_equal(onbuild("200 OK", "{\"config\":{\"OnBuild\":"
		    "[\"RUN true\",\"RUN --mount=type=cache,id=../../x,target=/c "
		    "true\"]}}", 1, k, NULL), "bind-mount");
		/* keys as Go's decoder matches them: in any case */
		assert_string_equal(onbuild("200 OK", "{\"CONFIG\":{\"onbuild\":"
		    "[\"RUN --mount=type=cache,target=/c true\"]}}", 1, k, NULL),
		    "bind-mount");
		assert_string_equal(onbuild("200 OK", "{\"config\":{\"OnBuild\":"
		    "[\"COPY --from=docker-archive:/x /a /b\"]}}", 1, k, NULL),
		    "host-path");
		/* two keys Go would read as one: not guessed at */
		assert_string_equal(onbuild("200 OK", "{\"config\":{\"OnBuild\":"
		    "[],\"onbuild\":[\"RUN --mount=type=cache,target=/c true\"]}}",
		    1, k, NULL), "backend-unreachable");
		/* the image's Env and the build's buildargs substitute */
		assert_string_equal(onbuild("200 OK", "{\"config\":{\"Env\":"
		    "[\"T=cache\"],\"OnBuild\":[\"RUN --mount=type=$T,target=/c "
		    "true\"]}}", 1, k, NULL), "bind-mount");
		assert_string_equal(onbuild("200 OK", "{\"config\":{\"OnBuild\":"
		    "[\"ARG T\",\"RUN --mount=type=$T,target=/c true\"]}}", 1, k,
		    "{\"T\":\"cache\"}"), "bind-mount");
		/* a trigger with a newline is two instructions */
		assert_string_equal(onbuild("200 OK", "{\"config\":{\"OnBuild\":"
		    "[\"RUN true\\nRUN --mount=type=cache,target=/c true\"]}}", 1,
		    k, NULL), "bind-mount");
		/* not an export the gateway can read: fail closed */
		assert_string_equal(onbuild("404 Not Found", "{}", 1, k, NULL),
		    "backend-unreachable");
		assert_string_equal(onbuild("200 OK", "{\"config\":{}}", 0, k,
		    NULL), "backend-unreachable");
		assert_string_equal(onbuild("200 OK", "{\"config\":{\"OnBuild\":"
		    "\"RUN x\"}}", 1, k, NULL), "backend-unreachable");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tar_basic),
		cmocka_unit_test(test_tar_end_forms),
		cmocka_unit_test(test_tar_checksum_and_numbers),
		cmocka_unit_test(test_tar_pax_and_gnu),
		cmocka_unit_test(test_tar_v7_type_nul),
		cmocka_unit_test(test_tar_go_desyncs),
		cmocka_unit_test(test_decoders),
		cmocka_unit_test(test_context_rules),
		cmocka_unit_test(test_archive_rules),
		cmocka_unit_test(test_desyncs_refused),
		cmocka_unit_test(test_load_rules),
		cmocka_unit_test(test_load_names),
		cmocka_unit_test(test_approvals),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_dockerfile),
		cmocka_unit_test(test_dockerfile_bases),
		cmocka_unit_test(test_onbuild),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
