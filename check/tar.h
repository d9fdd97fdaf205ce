/*
 * A streaming tar reader that reads a stream exactly as the daemons' reader
 * does (Go 1.19's archive/tar Reader.Next, which podman 4.3.1 and dockerd
 * 20.10 extract with): V7, USTAR, GNU and STAR headers, the GNU prefix
 * fallback of pre-Go-1.8 writers, PAX 'x' and 'g' records, GNU long names
 * and links, base-256 and octal numbers, both checksums, header-only types,
 * and every way a stream ends or fails. Where exact parity would cost more
 * than it is worth, the stream is refused instead (names over TAR_NAME_MAX,
 * a GNU sparse file, a 'g' record Go would apply only in part): a refusal
 * is always safe. tests/tarparity/run.py compares it with Go's reader on a
 * corpus of odd tars. Bytes are pushed in pieces of any size; each entry is
 * reported before any byte of its data has been read. Internal to the
 * checker (check/check.c, doc/privsep.md "Builds and archives").
 */
#ifndef CG_CHECK_TAR_H
#define CG_CHECK_TAR_H

#include <stddef.h>
#include <stdint.h>

#define TAR_BLOCK	512
#define TAR_SPECIAL_MAX	(1u << 20)	/* a PAX or GNU long-name record,
					   as Go's maxSpecialFileSize */
#define TAR_NAME_MAX	4096		/* longer names and links refused */

/* One entry, as Go's tar.Reader.Next() returns it (after PAX and GNU
   records merged, '\0' types made '0' or '5'). */
struct tar_entry {
	char type;			/* typeflag: '0' '1' '2' '3' '4' '5' '6'
					   'g', or another byte */
	char name[TAR_NAME_MAX + 1];
	char link[TAR_NAME_MAX + 1];
	int64_t mode;
	int64_t uid, gid;		/* the header's, or PAX uid/gid */
	int64_t hsize;			/* Go's Header.Size (the header's or the
					   PAX size; any value for the
					   header-only types) */
	int64_t size;			/* data bytes that follow (0 for the
					   header-only types and 'g') */
	int64_t devmajor, devminor;
	int xattr_other;		/* a non-empty SCHILY.xattr record
					   outside user.* */
	char xattr_name[64];		/* its name, cut */
	int sparse;			/* GNU sparse (type 'S' or a GNU.sparse.*
					   record): the reader stops after it */
	const char *pax;		/* the PAX records that apply (the last
					   'x' of the group's, or a 'g' entry's
					   own), valid until the next tar_feed;
					   walk them with tar_pax_next */
	size_t pax_len;
	uint64_t start;			/* stream offset of its first header
					   block (a PAX or GNU record's) */
};

enum tar_rc {
	TAR_MORE = 0,		/* all bytes taken, nothing to report */
	TAR_ENTRY,		/* *e filled; call again with the rest */
	TAR_END,		/* the end of the archive was read */
	TAR_ERROR,		/* a stream Go's reader refuses, or one this
				   reader does not mirror: tar->err */
};

struct tar_reader {
	int state;
	uint64_t off;			/* bytes taken so far */
	uint64_t end_at;		/* offset of the end marker's first
					   block, once seen */
	unsigned char blk[TAR_BLOCK];
	size_t blen;
	uint64_t skip;			/* data and padding still to skip */
	uint64_t data_left;		/* of which data (not padding): the
					   stream may end in padding, not there */
	unsigned char *rec;		/* a PAX or GNU record being read */
	size_t rlen, rwant;
	char rtype;
	char *gname;			/* the name of a 'g' being read */
	uint64_t group;			/* start of the current header group */
	int in_group;
	/* Go's next() locals: the last 'x' header's records, the last GNU
	   long name and link (parseString of the record, maybe "") */
	char *pax;
	size_t pax_len;
	char *long_name, *long_link;
	char *epax;			/* the records of the entry last
					   reported (tar_entry.pax) */
	const char *err;		/* static text for TAR_ERROR */
	/* the data of the entry last reported goes here when sink is set
	   (the caller sets sink, sink_len 0, sink_max and sink_over 0 after
	   TAR_ENTRY; sink_over is set when there were more bytes) */
	unsigned char *sink;
	size_t sink_len, sink_max;
	int sink_over;
};

/* A new reader at offset 0. */
void tar_init(struct tar_reader *t);
/* Free what t holds (records being read). */
void tar_free(struct tar_reader *t);
/*
 * Take bytes p[0..n) of the stream; *used says how many were taken (all,
 * unless an entry or the end is reported first). Returns TAR_ENTRY with
 * *e filled (call again with the rest), TAR_END once the end is read (two
 * zero blocks; or, at tar_finish, the stream ending at a header boundary,
 * after one zero block or in a padding, as Go's reader reads io.EOF
 * there), TAR_ERROR with t->err set for what Go's reader refuses (its
 * ErrHeader, ErrFieldTooLong, io.ErrUnexpectedEOF) and for what this
 * reader refuses instead of mirroring (see the file comment), or TAR_MORE.
 * After TAR_END every byte is taken and ignored, as Go's reader never
 * reads past the marker; after a sparse entry every call is TAR_ERROR.
 */
enum tar_rc tar_feed(struct tar_reader *t, const unsigned char *p, size_t n,
    size_t *used, struct tar_entry *e);
/*
 * The stream ended. Returns TAR_END where Go's reader reads io.EOF (at a
 * header boundary, after one zero block, inside the padding after an
 * entry's data or a record), TAR_ERROR otherwise (inside a header block,
 * a record or an entry's data: io.ErrUnexpectedEOF).
 */
enum tar_rc tar_finish(struct tar_reader *t);
/*
 * 1 when t is between entries' data and headers (the next byte starts a
 * header block, or is data of an entry already reported), so that every
 * byte before t->off was taken by something reported.
 */
int tar_in_data(const struct tar_reader *t);
/*
 * The PAX records of e (valid ones, as tar_feed checked them), in order:
 * *pos starts at 0. Returns 1 with the key k[0..klen) and value
 * v[0..vlen) (not NUL-terminated), 0 after the last. Go keeps the last
 * record of a key (a map), except GNU.sparse.offset and .numbytes, which
 * it joins into GNU.sparse.map.
 */
int tar_pax_next(const struct tar_entry *e, size_t *pos, const char **k,
    size_t *klen, const char **v, size_t *vlen);
/*
 * Bytes from t->off on that the reader would take without looking at
 * them: the rest of a reported entry's data, when no sink takes them
 * (Go's reader hands data to the extractor, never to its header parser).
 * Not the padding, which is read: a stream that ends inside it is the
 * archive's end (tar_finish). 0 elsewhere: inside a header, a PAX or GNU
 * record or its padding.
 */
uint64_t tar_skippable(const struct tar_reader *t);
/* Take n <= tar_skippable(t) bytes as if fed, without their content. */
void tar_skip(struct tar_reader *t, uint64_t n);

#endif
