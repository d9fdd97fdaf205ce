/*
 * tar_print [-p PIECE] FILE...: how the checker's tar reader (check/tar.c)
 * reads each tar, in the form of tests/tarparity/gotar.go (Go's reader):
 * "== PATH", one "E ..." line per entry, then "EOF", "ERR <why>" (what Go
 * refuses, or a stream the reader refuses instead of mirroring it) or
 * "STOP sparse" (a GNU sparse entry: reported, then refused). The bytes
 * are fed PIECE at a time (0, the default: the whole file at once), so
 * that tests/tarparity/run.py can check that the pieces change nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/tar.h"

static void
esc(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c > 0x20 && c < 0x7f && c != '\\' && c != '=' && c != ';' &&
		    c != '"')
			putchar(c);
		else
			printf("\\x%02x", c);
	}
}

struct rec {
	const char *k, *v;
	size_t klen, vlen, idx;
};

static int
rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	size_t n = x->klen < y->klen ? x->klen : y->klen;
	int c = memcmp(x->k, y->k, n);

	if (c != 0)
		return c;
	if (x->klen != y->klen)
		return x->klen < y->klen ? -1 : 1;
	return x->idx < y->idx ? -1 : 1;
}

/*
 * The records as Go's map holds them (the last value of each key,
 * GNU.sparse.offset and .numbytes joined into GNU.sparse.map), sorted;
 * xattrs: only SCHILY.xattr.* with a non-empty value, the prefix cut.
 */
static void
print_map(const struct tar_entry *e, int xattrs)
{
	struct rec *r = NULL;
	size_t n = 0, cap = 0, pos = 0, i, smlen = 0;
	const char *k, *v;
	size_t klen, vlen;
	char *sm = NULL;
	int sparse_pairs = 0;

	while (tar_pax_next(e, &pos, &k, &klen, &v, &vlen)) {
		if ((klen == 17 && memcmp(k, "GNU.sparse.offset", 17) == 0) ||
		    (klen == 19 && memcmp(k, "GNU.sparse.numbytes", 19) == 0)) {
			sm = realloc(sm, smlen + vlen + 2);
			if (sparse_pairs++ > 0)
				sm[smlen++] = ',';
			memcpy(sm + smlen, v, vlen);
			smlen += vlen;
			continue;
		}
		if (n == cap) {
			cap = cap * 2 + 16;
			r = realloc(r, cap * sizeof(*r));
		}
		r[n] = (struct rec){ k, v, klen, vlen, n };
		n++;
	}
	if (sparse_pairs > 0) {
		if (n == cap)
			r = realloc(r, (cap + 1) * sizeof(*r));
		r[n++] = (struct rec){ "GNU.sparse.map", sm, 14, smlen, (size_t)-1 };
	}
	qsort(r, n, sizeof(*r), rec_cmp);
	for (i = 0; i < n; i++) {
		if (i + 1 < n && r[i].klen == r[i + 1].klen &&
		    memcmp(r[i].k, r[i + 1].k, r[i].klen) == 0)
			continue;	/* a later record of the key wins */
		if (xattrs) {
			if (r[i].klen < 13 || memcmp(r[i].k, "SCHILY.xattr.", 13) != 0 ||
			    r[i].vlen == 0)
				continue;
			esc(r[i].k + 13, r[i].klen - 13);
		} else {
			esc(r[i].k, r[i].klen);
		}
		putchar('=');
		esc(r[i].v, r[i].vlen);
		putchar(';');
	}
	free(r);
	free(sm);
}

static void
print_entry(const struct tar_entry *e)
{
	printf("E t=");
	esc(&e->type, 1);
	printf(" n=");
	esc(e->name, strlen(e->name));
	printf(" l=");
	esc(e->link, strlen(e->link));
	printf(" m=%lld s=%lld u=%lld g=%lld d=%lld,%lld x=", (long long)e->mode,
	    (long long)e->hsize, (long long)e->uid, (long long)e->gid,
	    (long long)e->devmajor, (long long)e->devminor);
	print_map(e, 1);
	printf(" p=");
	print_map(e, 0);
	putchar('\n');
}

static void
read_one(const unsigned char *buf, size_t n, size_t piece)
{
	struct tar_reader t;
	struct tar_entry e;
	size_t off = 0, used, k;
	enum tar_rc rc;

	tar_init(&t);
	while (off < n) {
		k = piece == 0 || n - off < piece ? n - off : piece;
		rc = tar_feed(&t, buf + off, k, &used, &e);
		off += used;
		if (rc == TAR_ENTRY) {
			if (e.sparse) {
				printf("STOP sparse\n");
				tar_free(&t);
				return;
			}
			print_entry(&e);
		} else if (rc == TAR_END) {
			printf("EOF\n");
			tar_free(&t);
			return;
		} else if (rc == TAR_ERROR) {
			printf("ERR %s\n", t.err);
			tar_free(&t);
			return;
		}
	}
	if (tar_finish(&t) == TAR_END)
		printf("EOF\n");
	else
		printf("ERR %s\n", t.err);
	tar_free(&t);
}

int
main(int argc, char **argv)
{
	size_t piece = 0, len, cap;
	unsigned char *buf;
	FILE *f;
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "-p") == 0) {
		piece = (size_t)strtoul(argv[2], NULL, 10);
		i = 3;
	}
	for (; i < argc; i++) {
		printf("== %s\n", argv[i]);
		if ((f = fopen(argv[i], "rb")) == NULL) {
			printf("ERR open\n");
			continue;
		}
		cap = 1 << 16;
		buf = malloc(cap);
		len = 0;
		for (;;) {
			size_t r = fread(buf + len, 1, cap - len, f);

			len += r;
			if (r == 0)
				break;
			if (len == cap)
				buf = realloc(buf, cap *= 2);
		}
		fclose(f);
		read_one(buf, len, piece);
		free(buf);
	}
	return 0;
}
