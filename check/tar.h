/*
 * A streaming tar reader that reads headers the way the daemons' reader
 * does (Go 1.19 archive/tar, which podman 4.3.1 and dockerd 20.10 are
 * built with): ustar, GNU and PAX headers, GNU long names and links, PAX
 * records, base-256 numbers, checksums, header-only types, and the end of
 * the archive. Bytes are pushed in pieces of any size; each entry is
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
	int64_t size;			/* data bytes that follow (0 for the
					   header-only types) */
	int64_t devmajor, devminor;
	int xattr_other;		/* a SCHILY.xattr record outside user.* */
	char xattr_name[64];		/* its name, cut */
	int sparse;			/* GNU sparse (type 'S' or GNU.sparse.*) */
	uint64_t start;			/* stream offset of its first header
					   block (a PAX or GNU record's) */
};

enum tar_rc {
	TAR_MORE = 0,		/* all bytes taken, nothing to report */
	TAR_ENTRY,		/* *e filled; call again with the rest */
	TAR_END,		/* the end of the archive was read */
	TAR_ERROR,		/* a header Go's reader refuses: tar->err */
};

struct tar_reader {
	int state;
	uint64_t off;			/* bytes taken so far */
	uint64_t end_at;		/* offset of the end marker's first
					   block, once seen */
	unsigned char blk[TAR_BLOCK];
	size_t blen;
	uint64_t skip;			/* data and padding still to skip */
	unsigned char *rec;		/* a PAX or GNU record being read */
	size_t rlen, rwant;
	char rtype;
	uint64_t group;			/* start of the current header group */
	int in_group;
	/* what earlier records of the group set */
	char *pax_path, *pax_link, *long_name, *long_link;
	int pax_size_set;
	int64_t pax_size;
	int pax_xattr_other;
	char pax_xattr_name[64];
	int pax_sparse;
	const char *err;		/* static text for TAR_ERROR */
	/* the data of the entry last reported goes here when sink is set
	   (the caller sets sink, sink_len 0, sink_max and sink_over 0 after
	   TAR_ENTRY; sink_over is set when there were more bytes) */
	uint64_t data_left;		/* data bytes of it not yet read */
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
 * *e filled (call again with the rest), TAR_END once the end marker (two
 * zero blocks, or one and the end of the stream: tar_finish) is read,
 * TAR_ERROR with t->err set for what Go's reader refuses (checksum,
 * numbers, a record over TAR_SPECIAL_MAX, a zero block then another), or
 * TAR_MORE. After TAR_END every byte is taken and ignored, as Go's reader
 * never reads past the marker.
 */
enum tar_rc tar_feed(struct tar_reader *t, const unsigned char *p, size_t n,
    size_t *used, struct tar_entry *e);
/*
 * The stream ended. Returns TAR_END when it ended at a header boundary
 * or after one zero block (Go reads both as the end), TAR_ERROR
 * otherwise (inside a header, a record or an entry's data).
 */
enum tar_rc tar_finish(struct tar_reader *t);
/*
 * 1 when t is between entries' data and headers (the next byte starts a
 * header block, or is data of an entry already reported), so that every
 * byte before t->off was taken by something reported.
 */
int tar_in_data(const struct tar_reader *t);

#endif
