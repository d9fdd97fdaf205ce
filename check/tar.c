/*
 * The streaming tar reader (check/tar.h). Every rule mirrors Go 1.19's
 * archive/tar reader (reader.go, format.go, strconv.go), which podman
 * 4.3.1 and dockerd 20.10 extract with; where the two readings could
 * differ on something that matters (the name, the link, the type, the
 * mode, the data size) the input is refused instead.
 */
#include "check/tar.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

enum { ST_HDR, ST_REC, ST_SKIP, ST_ZERO, ST_END, ST_ERR };

void
tar_init(struct tar_reader *t)
{
	memset(t, 0, sizeof(*t));
	t->state = ST_HDR;
}

static void
group_reset(struct tar_reader *t)
{
	free(t->pax_path);
	free(t->pax_link);
	free(t->long_name);
	free(t->long_link);
	t->pax_path = t->pax_link = t->long_name = t->long_link = NULL;
	t->pax_size_set = t->pax_xattr_other = t->pax_sparse = 0;
	t->pax_xattr_name[0] = '\0';
	t->in_group = 0;
}

void
tar_free(struct tar_reader *t)
{
	group_reset(t);
	free(t->rec);
	t->rec = NULL;
}

static enum tar_rc
fail(struct tar_reader *t, const char *why)
{
	t->state = ST_ERR;
	t->err = why;
	return TAR_ERROR;
}

/* Go's parser.parseString: up to the first NUL. */
static size_t
field_len(const unsigned char *b, size_t n)
{
	const unsigned char *z = memchr(b, 0, n);

	return z != NULL ? (size_t)(z - b) : n;
}

/*
 * Go's parseOctal: spaces and NULs trimmed at both ends, then the text up
 * to a NUL must be octal digits (strconv.ParseUint base 8, 64 bits).
 * Returns 0 and sets *v, or -1.
 */
static int
parse_octal(const unsigned char *b, size_t n, int64_t *v)
{
	size_t i = 0, j = n, k;
	uint64_t x = 0;

	while (i < j && (b[i] == ' ' || b[i] == 0))
		i++;
	while (j > i && (b[j - 1] == ' ' || b[j - 1] == 0))
		j--;
	if (i == j) {
		*v = 0;
		return 0;
	}
	j = i + field_len(b + i, j - i);
	if (i == j)
		return -1;	/* ParseUint("") fails */
	for (k = i; k < j; k++) {
		if (b[k] < '0' || b[k] > '7' || (x >> 61) != 0)
			return -1;
		x = x << 3 | (uint64_t)(b[k] - '0');
	}
	*v = (int64_t)x;	/* int64(x) as Go converts it */
	return 0;
}

/* Go's parseNumeric: base-256 when the first bit is set, else octal. */
static int
parse_numeric(const unsigned char *b, size_t n, int64_t *v)
{
	unsigned char inv, c;
	uint64_t x = 0;
	size_t i;

	if (n == 0 || !(b[0] & 0x80))
		return parse_octal(b, n, v);
	inv = (b[0] & 0x40) ? 0xff : 0;
	for (i = 0; i < n; i++) {
		c = b[i] ^ inv;
		if (i == 0)
			c &= 0x7f;
		if ((x >> 56) > 0)
			return -1;
		x = x << 8 | c;
	}
	if ((x >> 63) > 0)
		return -1;
	*v = inv ? ~(int64_t)x : (int64_t)x;
	return 0;
}

static int
all_zero(const unsigned char *b)
{
	size_t i;

	for (i = 0; i < TAR_BLOCK; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

enum { F_V7, F_USTAR, F_GNU, F_STAR };

/* Go's getFormat after its checksum test; -1 when the checksum fails. */
static int
block_format(const unsigned char *b)
{
	int64_t sum;
	int64_t u = 0, s = 0;
	size_t i;

	if (parse_octal(b + 148, 8, &sum) < 0)
		return -1;
	for (i = 0; i < TAR_BLOCK; i++) {
		unsigned char c = (i >= 148 && i < 156) ? ' ' : b[i];

		u += c;
		s += (signed char)c;
	}
	if (sum != u && sum != s)
		return -1;
	if (memcmp(b + 257, "ustar\0", 6) == 0 && memcmp(b + 508, "tar\0", 4) == 0)
		return F_STAR;
	if (memcmp(b + 257, "ustar\0", 6) == 0)
		return F_USTAR;
	if (memcmp(b + 257, "ustar ", 6) == 0 && memcmp(b + 263, " \0", 2) == 0)
		return F_GNU;
	return F_V7;
}

static int
header_only(char type)
{
	return strchr("123456", type) != NULL && type != '\0';
}

static uint64_t
padded(uint64_t n)
{
	return (n + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
}

/* Go's validPAXRecord and parsePAXRecord over the record rec[0..n). */
static enum tar_rc
parse_pax(struct tar_reader *t, const char *rec, size_t n)
{
	const char *s = rec, *end = rec + n, *sp, *eq, *k, *v;
	size_t klen, vlen, len;
	uint64_t rl;

	while (s < end) {
		sp = memchr(s, ' ', (size_t)(end - s));
		if (sp == NULL || sp == s || sp - s > 18)
			return fail(t, "a PAX record without a length");
		for (rl = 0, k = s; k < sp; k++) {
			if (*k < '0' || *k > '9')
				return fail(t, "a PAX record length is not a number");
			rl = rl * 10 + (uint64_t)(*k - '0');
		}
		if (rl < 5 || rl > (uint64_t)(end - s) ||
		    rl <= (uint64_t)(sp - s) + 1 || s[rl - 1] != '\n')
			return fail(t, "a PAX record length is wrong");
		k = sp + 1;
		len = (size_t)(s + rl - 1 - k);
		eq = memchr(k, '=', len);
		if (eq == NULL || eq == k)
			return fail(t, "a PAX record without a key");
		klen = (size_t)(eq - k);
		v = eq + 1;
		vlen = len - klen - 1;
		if (memchr(k, 0, klen) != NULL ||
		    ((klen == 4 && memcmp(k, "path", 4) == 0) ||
		    (klen == 8 && memcmp(k, "linkpath", 8) == 0) ||
		    (klen == 5 && memcmp(k, "uname", 5) == 0) ||
		    (klen == 5 && memcmp(k, "gname", 5) == 0)) ?
		    memchr(v, 0, vlen) != NULL : 0)
			return fail(t, "a PAX record holds a NUL");
		s += rl;
		/* an empty value keeps the header's own (Go's mergePAX) */
		if (klen == 4 && memcmp(k, "path", 4) == 0) {
			free(t->pax_path);
			t->pax_path = vlen > 0 ? xstrndup(v, vlen) : NULL;
		} else if (klen == 8 && memcmp(k, "linkpath", 8) == 0) {
			free(t->pax_link);
			t->pax_link = vlen > 0 ? xstrndup(v, vlen) : NULL;
		} else if (klen == 4 && memcmp(k, "size", 4) == 0) {
			int64_t x = 0;
			size_t i;

			t->pax_size_set = vlen > 0;
			for (i = 0; i < vlen; i++) {
				if (v[i] < '0' || v[i] > '9' || x > (INT64_MAX - 9) / 10)
					return fail(t, "a PAX size is not a number");
				x = x * 10 + (v[i] - '0');
			}
			t->pax_size = x;
		} else if (klen > 11 && memcmp(k, "GNU.sparse.", 11) == 0) {
			t->pax_sparse = 1;
		} else if (klen > 13 && memcmp(k, "SCHILY.xattr.", 13) == 0 &&
		    vlen > 0 && !(klen > 18 && memcmp(k + 13, "user.", 5) == 0)) {
			t->pax_xattr_other = 1;
			len = klen - 13 < sizeof(t->pax_xattr_name) - 1 ?
			    klen - 13 : sizeof(t->pax_xattr_name) - 1;
			memcpy(t->pax_xattr_name, k + 13, len);
			t->pax_xattr_name[len] = '\0';
		}
	}
	return TAR_MORE;
}

/* Copy a name of len bytes into dst (TAR_NAME_MAX + 1), or refuse. */
static int
set_name(char *dst, const char *src, size_t len)
{
	if (len > TAR_NAME_MAX)
		return -1;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

/* A header block b (not all zeros): a record to read, or an entry. */
static enum tar_rc
header(struct tar_reader *t, struct tar_entry *e)
{
	const unsigned char *b = t->blk;
	int fmt = block_format(b);
	int64_t size, mode, uid, gid, mtime, dmaj = 0, dmin = 0;
	size_t nlen, plen;
	char type = (char)b[156];

	if (fmt < 0)
		return fail(t, "a header's checksum is wrong");
	if (parse_numeric(b + 100, 8, &mode) < 0 ||
	    parse_numeric(b + 108, 8, &uid) < 0 ||
	    parse_numeric(b + 116, 8, &gid) < 0 ||
	    parse_numeric(b + 124, 12, &size) < 0 ||
	    parse_numeric(b + 136, 12, &mtime) < 0)
		return fail(t, "a header's number is not one");
	if (fmt != F_V7 && (parse_numeric(b + 329, 8, &dmaj) < 0 ||
	    parse_numeric(b + 337, 8, &dmin) < 0))
		return fail(t, "a header's device number is not one");
	if (size < 0)
		return fail(t, "a header's size is negative");
	if (!t->in_group) {
		t->in_group = 1;
		t->group = t->off - TAR_BLOCK;
	}
	if (type == 'x' || type == 'L' || type == 'K') {
		if ((uint64_t)size > TAR_SPECIAL_MAX)
			return fail(t, "a PAX or GNU long-name record is over "
			    "1 MiB");
		t->rtype = type;
		t->rwant = (size_t)size;
		t->rlen = 0;
		t->rec = xrealloc(t->rec, t->rwant + 1);
		t->skip = padded((uint64_t)size) - (uint64_t)size;
		t->state = ST_REC;
		return TAR_MORE;	/* an empty one: completed by tar_feed */
	}
	e->start = t->group;
	e->xattr_other = e->sparse = 0;
	e->xattr_name[0] = '\0';
	e->link[0] = '\0';
	e->type = type;
	e->mode = mode;
	e->devmajor = dmaj;
	e->devminor = dmin;
	nlen = field_len(b, 100);
	if (set_name(e->name, (const char *)b, nlen) < 0)
		return fail(t, "a name is too long");
	if (fmt == F_USTAR || fmt == F_STAR) {
		plen = field_len(b + 345, fmt == F_STAR ? 131 : 155);
		if (plen > 0) {
			char tmp[TAR_NAME_MAX + 1];

			if (plen + 1 + nlen > TAR_NAME_MAX)
				return fail(t, "a name is too long");
			memcpy(tmp, b + 345, plen);
			tmp[plen] = '/';
			memcpy(tmp + plen + 1, e->name, nlen);
			tmp[plen + 1 + nlen] = '\0';
			memcpy(e->name, tmp, plen + 2 + nlen);
		}
	}
	(void)set_name(e->link, (const char *)b + 157, field_len(b + 157, 100));
	if (type == 'g') {
		/* a global header: reported as an entry; records do not
		   reach past it (Go returns it from Next) */
		e->size = 0;
		t->skip = padded((uint64_t)size);
		t->data_left = 0;
		group_reset(t);
		t->state = t->skip > 0 ? ST_SKIP : ST_HDR;
		return TAR_ENTRY;
	}
	/* the group's records, refused where Go's precedence would matter */
	if (t->pax_path != NULL && t->long_name != NULL &&
	    strcmp(t->pax_path, t->long_name) != 0)
		return fail(t, "a PAX path and a GNU long name disagree");
	if (t->pax_link != NULL && t->long_link != NULL &&
	    strcmp(t->pax_link, t->long_link) != 0)
		return fail(t, "a PAX linkpath and a GNU long link disagree");
	if ((t->long_name && set_name(e->name, t->long_name,
	    strlen(t->long_name)) < 0) ||
	    (t->pax_path && set_name(e->name, t->pax_path,
	    strlen(t->pax_path)) < 0) ||
	    (t->long_link && set_name(e->link, t->long_link,
	    strlen(t->long_link)) < 0) ||
	    (t->pax_link && set_name(e->link, t->pax_link,
	    strlen(t->pax_link)) < 0))
		return fail(t, "a name is too long");
	if (t->pax_size_set)
		size = t->pax_size;
	e->xattr_other = t->pax_xattr_other;
	memcpy(e->xattr_name, t->pax_xattr_name, sizeof(e->xattr_name));
	e->sparse = t->pax_sparse || type == 'S';
	if (type == '\0') {
		nlen = strlen(e->name);
		e->type = nlen > 0 && e->name[nlen - 1] == '/' ? '5' : '0';
	}
	e->size = header_only(e->type) ? 0 : size;
	t->skip = padded((uint64_t)e->size);
	t->data_left = (uint64_t)e->size;
	group_reset(t);
	t->state = t->skip > 0 ? ST_SKIP : ST_HDR;
	return TAR_ENTRY;
}

/* A record is complete: take what it sets for the group's entry. */
static enum tar_rc
record_done(struct tar_reader *t)
{
	char *s;

	t->rec[t->rwant] = '\0';
	t->state = t->skip > 0 ? ST_SKIP : ST_HDR;
	if (t->rtype == 'x')
		return parse_pax(t, (const char *)t->rec, t->rwant);
	/* GNU long name or link: up to the first NUL (parseString) */
	s = xstrndup((const char *)t->rec, field_len(t->rec, t->rwant));
	if (t->rtype == 'L') {
		free(t->long_name);
		t->long_name = s;
	} else {
		free(t->long_link);
		t->long_link = s;
	}
	return TAR_MORE;
}

enum tar_rc
tar_feed(struct tar_reader *t, const unsigned char *p, size_t n,
    size_t *used, struct tar_entry *e)
{
	size_t k, i = 0;
	enum tar_rc rc;

	*used = 0;
	while (i < n) {
		switch (t->state) {
		case ST_END:
			t->off += n - i;
			*used = n;
			return TAR_END;
		case ST_ERR:
			*used = i;
			return TAR_ERROR;
		case ST_SKIP:
			k = n - i < t->skip ? n - i : (size_t)t->skip;
			if (t->data_left > 0) {
				size_t d = k < t->data_left ? k : (size_t)t->data_left;

				if (t->sink != NULL && !t->sink_over) {
					if (t->sink_len + d > t->sink_max) {
						t->sink_over = 1;
					} else {
						memcpy(t->sink + t->sink_len, p + i, d);
						t->sink_len += d;
					}
				}
				t->data_left -= d;
			}
			t->skip -= k;
			i += k;
			t->off += k;
			if (t->skip == 0)
				t->state = ST_HDR;
			continue;
		case ST_REC:
			k = t->rwant - t->rlen;
			if (k > n - i)
				k = n - i;
			memcpy(t->rec + t->rlen, p + i, k);
			t->rlen += k;
			i += k;
			t->off += k;
			if (t->rlen == t->rwant && (rc = record_done(t)) != TAR_MORE) {
				*used = i;
				return rc;
			}
			continue;
		default:	/* ST_HDR, ST_ZERO: a block */
			k = TAR_BLOCK - t->blen;
			if (k > n - i)
				k = n - i;
			memcpy(t->blk + t->blen, p + i, k);
			t->blen += k;
			i += k;
			t->off += k;
			if (t->blen < TAR_BLOCK)
				continue;
			t->blen = 0;
			if (t->state == ST_ZERO) {
				if (!all_zero(t->blk))
					return (*used = i, fail(t, "a zero block "
					    "and then a header"));
				t->state = ST_END;
				continue;
			}
			if (all_zero(t->blk)) {
				if (t->in_group)
					return (*used = i, fail(t, "a PAX or GNU "
					    "record before the end"));
				t->end_at = t->off - TAR_BLOCK;
				t->state = ST_ZERO;
				continue;
			}
			rc = header(t, e);
			if (rc == TAR_MORE && t->state == ST_REC && t->rwant == 0 &&
			    (rc = record_done(t)) == TAR_MORE)
				continue;
			if (rc != TAR_MORE) {
				*used = i;
				return rc;
			}
			continue;
		}
	}
	*used = n;
	if (t->state == ST_END)
		return TAR_END;
	return t->state == ST_ERR ? TAR_ERROR : TAR_MORE;
}

enum tar_rc
tar_finish(struct tar_reader *t)
{
	if (t->state == ST_END || (t->state == ST_ZERO && t->blen == 0))
		return (t->state = ST_END, TAR_END);
	/* Go: io.EOF at a header boundary is the end as well */
	if (t->state == ST_HDR && t->blen == 0 && !t->in_group)
		return (t->state = ST_END, TAR_END);
	if (t->state == ST_ERR)
		return TAR_ERROR;
	return fail(t, "the archive ends inside an entry");
}

int
tar_in_data(const struct tar_reader *t)
{
	return !t->in_group && (t->state == ST_SKIP ||
	    (t->state == ST_HDR && t->blen == 0));
}
