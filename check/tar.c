/*
 * The streaming tar reader (check/tar.h). Every rule mirrors Go 1.19's
 * archive/tar reader (reader.go next(), readHeader(), mergePAX(),
 * parsePAX(); strconv.go; format.go getFormat()), which podman 4.3.1 and
 * dockerd 20.10 extract with; the names of Go's functions are given where
 * a step follows one. tests/tarparity/run.py compares the two readers on
 * a corpus of odd tars (Go's side: tests/tarparity/gotar.go).
 */
#include "check/tar.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

enum { ST_HDR, ST_REC, ST_SKIP, ST_ZERO, ST_END, ST_ERR };
enum { F_V7, F_USTAR, F_GNU, F_STAR };

void
tar_init(struct tar_reader *t)
{
	memset(t, 0, sizeof(*t));
	t->state = ST_HDR;
}

/* Go's next() returned: its locals (paxHdrs, gnuLongName, gnuLongLink) go. */
static void
group_reset(struct tar_reader *t)
{
	free(t->pax);
	free(t->long_name);
	free(t->long_link);
	t->pax = t->long_name = t->long_link = NULL;
	t->pax_len = 0;
	t->in_group = 0;
}

void
tar_free(struct tar_reader *t)
{
	group_reset(t);
	free(t->rec);
	free(t->gname);
	free(t->epax);
	t->rec = NULL;
	t->gname = t->epax = NULL;
}

static enum tar_rc
fail(struct tar_reader *t, const char *why)
{
	t->state = ST_ERR;
	t->err = why;
	return TAR_ERROR;
}

/* ------------------------------------------------------------- numbers */

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

/*
 * strconv.ParseInt(s[0..n), 10, 64): an optional sign, then at least one
 * decimal digit (no underscore: base 10 is given), within int64.
 */
static int
go_atoi(const char *s, size_t n, int64_t *v)
{
	uint64_t x = 0, lim = (uint64_t)INT64_MAX;
	size_t i = 0;
	int neg = 0;

	if (n > 0 && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == n)
		return -1;
	if (neg)
		lim++;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || x > (lim - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

/* Go's parsePAXTime: seconds (ParseInt), then optionally '.' and digits. */
static int
pax_time_ok(const char *s, size_t n)
{
	const char *dot = memchr(s, '.', n);
	size_t i;
	int64_t v;

	if (go_atoi(s, dot != NULL ? (size_t)(dot - s) : n, &v) < 0)
		return -1;
	if (dot != NULL)
		for (i = (size_t)(dot - s) + 1; i < n; i++)
			if (s[i] < '0' || s[i] > '9')
				return -1;
	return 0;
}

/* ------------------------------------------------------------- headers */

static int
all_zero(const unsigned char *b)
{
	size_t i;

	for (i = 0; i < TAR_BLOCK; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

/* Go's getFormat: -1 when the checksum fails (parseOctal, both sums). */
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

/* Go's isHeaderOnlyType. */
static int
header_only(char type)
{
	return type != '\0' && strchr("123456", type) != NULL;
}

static uint64_t
padded(uint64_t n)
{
	return (n + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
}

/* ------------------------------------------------------------- PAX */

/*
 * Go's parsePAXRecord and validPAXRecord: one record at s[0..left).
 * Returns 0 with its length in *rl and the key and value, or -1.
 */
static int
pax_record(const char *s, size_t left, size_t *rl, const char **k,
    size_t *klen, const char **v, size_t *vlen)
{
	const char *sp = memchr(s, ' ', left), *eq;
	int64_t n;
	size_t nlen, len;

	if (sp == NULL)
		return -1;
	nlen = (size_t)(sp - s);
	if (go_atoi(s, nlen, &n) < 0 || n < 5 || (uint64_t)n > left ||
	    n - (int64_t)nlen - 1 <= 0 || s[n - 1] != '\n')
		return -1;
	len = (size_t)n - nlen - 2;		/* between the space and '\n' */
	eq = memchr(sp + 1, '=', len);
	if (eq == NULL || eq == sp + 1)
		return -1;
	*k = sp + 1;
	*klen = (size_t)(eq - *k);
	*v = eq + 1;
	*vlen = len - *klen - 1;
	if ((*klen == 4 && memcmp(*k, "path", 4) == 0) ||
	    (*klen == 8 && memcmp(*k, "linkpath", 8) == 0) ||
	    (*klen == 5 && memcmp(*k, "uname", 5) == 0) ||
	    (*klen == 5 && memcmp(*k, "gname", 5) == 0)) {
		if (memchr(*v, 0, *vlen) != NULL)
			return -1;
	} else if (memchr(*k, 0, *klen) != NULL) {
		return -1;
	}
	*rl = (size_t)n;
	return 0;
}

#define KEY(k, kl, lit)	((kl) == sizeof(lit) - 1 && memcmp((k), (lit), (kl)) == 0)

/* Go's parsePAX over rec[0..n): every record valid, sparse pairs in order. */
static int
pax_valid(const char *rec, size_t n)
{
	const char *k, *v;
	size_t klen, vlen, rl, pos = 0, pairs = 0;

	while (pos < n) {
		if (pax_record(rec + pos, n - pos, &rl, &k, &klen, &v, &vlen) < 0)
			return -1;
		pos += rl;
		if (KEY(k, klen, "GNU.sparse.offset") ||
		    KEY(k, klen, "GNU.sparse.numbytes")) {
			if ((pairs % 2 == 0) != KEY(k, klen, "GNU.sparse.offset") ||
			    memchr(v, ',', vlen) != NULL)
				return -1;
			pairs++;
		}
	}
	return 0;
}

int
tar_pax_next(const struct tar_entry *e, size_t *pos, const char **k,
    size_t *klen, const char **v, size_t *vlen)
{
	size_t rl;

	if (e->pax == NULL || *pos >= e->pax_len ||
	    pax_record(e->pax + *pos, e->pax_len - *pos, &rl, k, klen, v,
	    vlen) < 0)
		return 0;
	*pos += rl;
	return 1;
}

/* What Go's mergePAX takes from a record set: the last value of each key. */
struct merged {
	const char *val[8];
	size_t len[8];
	int xattr_other, sparse;
	char xattr_name[64];
};
enum { M_PATH, M_LINK, M_SIZE, M_UID, M_GID, M_ATIME, M_MTIME, M_CTIME };

/*
 * The records rec[0..n) (valid) as mergePAX applies them: 0, or -1 when a
 * value it parses (uid, gid, size, the times) fails, its ErrHeader. An
 * empty value keeps the header's (mergePAX skips it): val NULL. xattrs:
 * any non-empty SCHILY.xattr record outside user.* (also one a later
 * empty record of its key would hide: refused the same). sparse: any
 * GNU.sparse record (Go reads some as no sparse file at all).
 */
static int
pax_merge(const char *rec, size_t n, struct merged *m)
{
	static const char *const keys[8] = { "path", "linkpath", "size",
		"uid", "gid", "atime", "mtime", "ctime" };
	const char *k, *v;
	size_t klen, vlen, rl, pos = 0, i;
	int64_t x;

	memset(m, 0, sizeof(*m));
	while (rec != NULL && pos < n &&
	    pax_record(rec + pos, n - pos, &rl, &k, &klen, &v, &vlen) == 0) {
		pos += rl;
		for (i = 0; i < 8; i++)
			if (klen == strlen(keys[i]) && memcmp(k, keys[i], klen) == 0) {
				m->val[i] = vlen > 0 ? v : NULL;
				m->len[i] = vlen;
			}
		if (klen >= 11 && memcmp(k, "GNU.sparse.", 11) == 0)
			m->sparse = 1;
		if (klen >= 13 && memcmp(k, "SCHILY.xattr.", 13) == 0 &&
		    vlen > 0 && !(klen > 18 && memcmp(k + 13, "user.", 5) == 0)) {
			i = klen - 13 < sizeof(m->xattr_name) - 1 ? klen - 13 :
			    sizeof(m->xattr_name) - 1;
			if (!m->xattr_other) {
				memcpy(m->xattr_name, k + 13, i);
				m->xattr_name[i] = '\0';
			}
			m->xattr_other = 1;
		}
	}
	for (i = M_SIZE; i <= M_GID; i++)
		if (m->val[i] != NULL && go_atoi(m->val[i], m->len[i], &x) < 0)
			return -1;
	for (i = M_ATIME; i <= M_CTIME; i++)
		if (m->val[i] != NULL && pax_time_ok(m->val[i], m->len[i]) < 0)
			return -1;
	return 0;
}

/* ------------------------------------------------------------- entries */

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

/* The records last reported are freed; rec becomes e's. */
static void
give_pax(struct tar_reader *t, struct tar_entry *e, char *rec, size_t len)
{
	free(t->epax);
	t->epax = rec;
	e->pax = rec;
	e->pax_len = rec != NULL ? len : 0;
}

/*
 * Go's readHeader() for the block t->blk (not all zeros): its fields, the
 * name joined to the USTAR, STAR or (GNU fallback) prefix. Returns 0, or
 * -1 with t failed.
 */
struct hdr {
	char type;
	char name[TAR_NAME_MAX + 1];
	char link[101];
	int64_t mode, uid, gid, size, dmaj, dmin;
};

static int
read_header(struct tar_reader *t, struct hdr *h)
{
	const unsigned char *b = t->blk;
	int fmt = block_format(b), perr = 0, p2 = 0;
	int64_t x;
	size_t nlen, plen = 0, i;

	if (fmt < 0)
		return (fail(t, "a header's checksum is wrong"), -1);
	memset(h, 0, sizeof(*h));
	h->type = (char)b[156];
	perr |= parse_numeric(b + 124, 12, &h->size);
	perr |= parse_numeric(b + 100, 8, &h->mode);
	perr |= parse_numeric(b + 108, 8, &h->uid);
	perr |= parse_numeric(b + 116, 8, &h->gid);
	perr |= parse_numeric(b + 136, 12, &x);
	if (fmt != F_V7) {
		perr |= parse_numeric(b + 329, 8, &h->dmaj);
		perr |= parse_numeric(b + 337, 8, &h->dmin);
	}
	if (fmt == F_USTAR) {
		plen = field_len(b + 345, 155);
	} else if (fmt == F_STAR) {
		plen = field_len(b + 345, 131);
		perr |= parse_numeric(b + 476, 12, &x);
		perr |= parse_numeric(b + 488, 12, &x);
	} else if (fmt == F_GNU) {
		/* a pre-Go-1.8 writer's prefix where the times do not parse
		   (golang.org/issue/12594): used when it is ASCII */
		if (b[345] != 0)
			p2 |= parse_numeric(b + 345, 12, &x);
		if (b[357] != 0)
			p2 |= parse_numeric(b + 357, 12, &x);
		if (p2 != 0) {
			plen = field_len(b + 345, 155);
			for (i = 0; i < plen; i++)
				if (b[345 + i] >= 0x80)
					plen = 0;
		}
	}
	if (perr != 0)
		return (fail(t, "a header's number is not one"), -1);
	nlen = field_len(b, 100);
	if (plen > 0) {
		if (plen + 1 + nlen > TAR_NAME_MAX)
			return (fail(t, "a name is too long"), -1);
		memcpy(h->name, b + 345, plen);
		h->name[plen] = '/';
		memcpy(h->name + plen + 1, b, nlen);
	} else {
		memcpy(h->name, b, nlen);
	}
	memcpy(h->link, b + 157, field_len(b + 157, 100));
	/* handleRegularFile on the header as read */
	if (!header_only(h->type) && h->size < 0)
		return (fail(t, "a header's size is negative"), -1);
	return 0;
}

/* The rest of Go's next() for an entry header h: records merged, reported. */
static enum tar_rc
entry(struct tar_reader *t, const struct hdr *h, struct tar_entry *e)
{
	struct merged m;
	size_t nlen;
	int64_t size = h->size;

	if (pax_merge(t->pax, t->pax_len, &m) < 0)
		return fail(t, "a PAX size, uid, gid or time is not a number");
	e->start = t->group;
	e->type = h->type;
	e->mode = h->mode;
	e->uid = h->uid;
	e->gid = h->gid;
	e->devmajor = h->dmaj;
	e->devminor = h->dmin;
	if ((m.val[M_PATH] != NULL ? set_name(e->name, m.val[M_PATH],
	    m.len[M_PATH]) : set_name(e->name, h->name, strlen(h->name))) < 0 ||
	    (m.val[M_LINK] != NULL ? set_name(e->link, m.val[M_LINK],
	    m.len[M_LINK]) : set_name(e->link, h->link, strlen(h->link))) < 0)
		return fail(t, "a name is too long");
	/* an empty GNU long name or link keeps the name before it */
	if ((t->long_name != NULL && t->long_name[0] != '\0' &&
	    set_name(e->name, t->long_name, strlen(t->long_name)) < 0) ||
	    (t->long_link != NULL && t->long_link[0] != '\0' &&
	    set_name(e->link, t->long_link, strlen(t->long_link)) < 0))
		return fail(t, "a name is too long");
	if (m.val[M_SIZE] != NULL)
		(void)go_atoi(m.val[M_SIZE], m.len[M_SIZE], &size);
	if (m.val[M_UID] != NULL)
		(void)go_atoi(m.val[M_UID], m.len[M_UID], &e->uid);
	if (m.val[M_GID] != NULL)
		(void)go_atoi(m.val[M_GID], m.len[M_GID], &e->gid);
	if (e->type == '\0') {
		nlen = strlen(e->name);
		e->type = nlen > 0 && e->name[nlen - 1] == '/' ? '5' : '0';
	}
	if (!header_only(e->type) && size < 0)
		return fail(t, "a PAX size is negative");
	e->xattr_other = m.xattr_other;
	memcpy(e->xattr_name, m.xattr_name, sizeof(e->xattr_name));
	e->sparse = m.sparse || e->type == 'S';
	e->hsize = size;
	e->size = header_only(e->type) ? 0 : size;
	give_pax(t, e, t->pax, t->pax_len);
	t->pax = NULL;
	group_reset(t);
	t->skip = padded((uint64_t)e->size);
	t->data_left = (uint64_t)e->size;
	t->state = t->skip > 0 ? ST_SKIP : ST_HDR;
	if (e->sparse) {
		/* reported (the caller refuses it), never read past */
		t->state = ST_ERR;
		t->err = "a GNU sparse file, which the gateway does not read";
	}
	return TAR_ENTRY;
}

/* A header block (not all zeros): a record to read, or an entry. */
static enum tar_rc
header(struct tar_reader *t, struct tar_entry *e)
{
	struct hdr h;

	if (read_header(t, &h) < 0)
		return TAR_ERROR;
	if (!t->in_group) {
		t->in_group = 1;
		t->group = t->off - TAR_BLOCK;
	}
	if (h.type == 'x' || h.type == 'g' || h.type == 'L' || h.type == 'K') {
		/* readSpecialFile */
		if ((uint64_t)h.size > TAR_SPECIAL_MAX)
			return fail(t, "a PAX or GNU long-name record is over "
			    "1 MiB");
		t->rtype = h.type;
		t->rwant = (size_t)h.size;
		t->rlen = 0;
		t->rec = xrealloc(t->rec, t->rwant + 1);
		t->skip = padded((uint64_t)h.size) - (uint64_t)h.size;
		t->data_left = 0;
		if (h.type == 'g') {
			free(t->gname);
			t->gname = xstrdup(h.name);
		}
		t->state = ST_REC;
		return TAR_MORE;	/* an empty one: completed by tar_feed */
	}
	return entry(t, &h, e);
}

/* A 'g' record: the entry Go returns for it. */
static enum tar_rc
global(struct tar_reader *t, struct tar_entry *e)
{
	struct merged m;
	char *rec = (char *)t->rec;

	/*
	 * mergePAX's error is ignored for 'g' and it stops at the first bad
	 * value of a Go map (random order): refused, not mirrored
	 */
	if (pax_merge(rec, t->rwant, &m) < 0)
		return fail(t, "a PAX global header with a value Go does not "
		    "parse");
	e->type = 'g';
	e->start = t->group;
	e->link[0] = '\0';
	if ((m.val[M_PATH] != NULL ? set_name(e->name, m.val[M_PATH],
	    m.len[M_PATH]) : set_name(e->name, t->gname, strlen(t->gname))) < 0)
		return fail(t, "a name is too long");
	e->mode = e->uid = e->gid = e->hsize = e->size = 0;
	e->devmajor = e->devminor = 0;
	e->xattr_other = m.xattr_other;
	memcpy(e->xattr_name, m.xattr_name, sizeof(e->xattr_name));
	e->sparse = 0;
	t->rec = NULL;
	give_pax(t, e, rec, t->rwant);
	group_reset(t);
	return TAR_ENTRY;
}

/* A record is complete: take what it sets for the group's entry. */
static enum tar_rc
record_done(struct tar_reader *t, struct tar_entry *e)
{
	char *s;

	t->rec[t->rwant] = '\0';
	t->state = t->skip > 0 ? ST_SKIP : ST_HDR;
	if (t->rtype == 'x' || t->rtype == 'g') {
		if (pax_valid((const char *)t->rec, t->rwant) < 0)
			return fail(t, "a PAX record is malformed");
		if (t->rtype == 'g')
			return global(t, e);
		/* a new 'x' replaces the records of any before it */
		free(t->pax);
		t->pax = (char *)t->rec;
		t->pax_len = t->rwant;
		t->rec = NULL;
		return TAR_MORE;
	}
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
			if (t->rlen == t->rwant &&
			    (rc = record_done(t, e)) != TAR_MORE) {
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
			/* readHeader: the end even within a group (io.EOF) */
			if (all_zero(t->blk)) {
				t->end_at = t->off - TAR_BLOCK;
				t->state = ST_ZERO;
				continue;
			}
			rc = header(t, e);
			if (rc == TAR_MORE && t->state == ST_REC && t->rwant == 0)
				rc = record_done(t, e);
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
	switch (t->state) {
	case ST_END:
		return TAR_END;
	case ST_ZERO:
	case ST_HDR:
		/* io.ReadFull: nothing read is io.EOF, a part of a block not */
		if (t->blen == 0)
			return (t->state = ST_END, TAR_END);
		break;
	case ST_SKIP:
		/* the padding is read with tryReadFull: io.EOF, the end */
		if (t->data_left == 0)
			return (t->state = ST_END, TAR_END);
		break;
	case ST_ERR:
		return TAR_ERROR;
	}
	return fail(t, "the archive ends inside an entry");
}

int
tar_in_data(const struct tar_reader *t)
{
	return !t->in_group && (t->state == ST_SKIP ||
	    (t->state == ST_HDR && t->blen == 0));
}

uint64_t
tar_skippable(const struct tar_reader *t)
{
	if (t->in_group || t->state != ST_SKIP || t->sink != NULL)
		return 0;
	return t->data_left;	/* the padding is read: Go ends there at EOF */
}

void
tar_skip(struct tar_reader *t, uint64_t n)
{
	if (n > tar_skippable(t))
		n = tar_skippable(t);
	if (n == 0)
		return;		/* maybe not in data at all */
	t->data_left -= n < t->data_left ? n : t->data_left;
	t->skip -= n;
	t->off += n;
	if (t->skip == 0)
		t->state = ST_HDR;
}
