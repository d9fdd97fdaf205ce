/*
 * A backend's GET /version answer shared by the gateways of a machine:
 * ops/vershare.h says why and how.
 */
#include "ops/vershare.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"

#define MAGIC		"cg-version-answer 1"
#define HEAD_MAX	192		/* bytes of the header line */
#define SWEEP_AGE_S	86400		/* a file untouched that long goes */

/* 1 when fd is a directory owned by root, not group- or world-writable. */
static int
dir_ok(int fd)
{
	struct stat s;

	return fstat(fd, &s) == 0 && S_ISDIR(s.st_mode) && s.st_uid == 0 &&
	    (s.st_mode & 022) == 0;
}

/* base/versions, created 0700 where missing and checked; -1 when unusable. */
static int
versions_dir(const char *base)
{
	int bfd, dfd;

	if (mkdir(base, 0700) < 0 && errno != EEXIST)
		return -1;
	bfd = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (bfd < 0)
		return -1;
	if (!dir_ok(bfd) || (mkdirat(bfd, "versions", 0700) < 0 &&
	    errno != EEXIST)) {
		close(bfd);
		return -1;
	}
	dfd = openat(bfd, "versions", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	close(bfd);
	if (dfd >= 0 && !dir_ok(dfd)) {
		close(dfd);
		dfd = -1;
	}
	return dfd;
}

/* Remove the files of dfd untouched for SWEEP_AGE_S (dead backends). */
static void
sweep_old(int dfd)
{
	struct dirent *e;
	struct stat s;
	time_t now = time(NULL);
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && fstatat(dfd, e->d_name, &s,
		    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(s.st_mode) &&
		    now - s.st_mtime > SWEEP_AGE_S)
			(void)unlinkat(dfd, e->d_name, 0);
	closedir(d);
}

/* The header line naming the socket st and the time now_s, into buf. */
static int
header(char *buf, size_t cap, const struct stat *st, long long now_s,
    size_t len)
{
	return snprintf(buf, cap, MAGIC " dev=%ju ino=%ju ctime=%lld.%09ld "
	    "at=%lld len=%zu\n", (uintmax_t)st->st_dev, (uintmax_t)st->st_ino,
	    (long long)st->st_ctim.tv_sec, (long)st->st_ctim.tv_nsec, now_s,
	    len);
}

int
vershare_parse(const char *buf, size_t n, const struct stat *st,
    long long now_s, size_t *off, size_t *len, long *age_s)
{
	char want[HEAD_MAX], line[HEAD_MAX + 1];
	const char *nl = memchr(buf, '\n', n < HEAD_MAX ? n : HEAD_MAX);
	unsigned long long at, blen;
	char *p, *end;
	size_t h;

	if (nl == NULL)
		return 0;
	h = (size_t)(nl - buf) + 1;
	memcpy(line, buf, h);
	line[h] = '\0';
	/* everything up to at= must be the socket's own, byte for byte */
	p = strstr(line, " at=");
	if (p == NULL)
		return 0;
	header(want, sizeof(want), st, 0, 0);
	if (strncmp(line, want, (size_t)(p - line)) != 0 ||
	    strncmp(want + (p - line), " at=", 4) != 0)
		return 0;
	errno = 0;
	at = strtoull(p + 4, &end, 10);
	if (errno != 0 || strncmp(end, " len=", 5) != 0)
		return 0;
	blen = strtoull(end + 5, &end, 10);
	if (errno != 0 || *end != '\n' || blen > VERSHARE_BODY_MAX ||
	    blen != n - h)
		return 0;
	if ((long long)at > now_s || now_s - (long long)at > VERSHARE_TTL_S)
		return 0;
	*off = h;
	*len = (size_t)blen;
	*age_s = (long)(now_s - (long long)at);
	return 1;
}

/* The file's answer for st, if fresh: 1 with *body (malloc'd), else 0. */
static int
read_answer(int fd, const struct stat *st, char **body, size_t *len,
    long *age_s)
{
	struct stat fs;
	size_t cap, n = 0, off;
	ssize_t r;
	char *buf;

	if (fstat(fd, &fs) < 0 || fs.st_size <= 0 ||
	    fs.st_size > HEAD_MAX + VERSHARE_BODY_MAX)
		return 0;
	cap = (size_t)fs.st_size;
	buf = xmalloc(cap + 1);
	while (n < cap && (r = pread(fd, buf + n, cap - n, (off_t)n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n += (size_t)r;
	}
	if (!vershare_parse(buf, n, st, (long long)time(NULL), &off, len,
	    age_s)) {
		free(buf);
		return 0;
	}
	memmove(buf, buf + off, *len);
	buf[*len] = '\0';
	*body = buf;
	return 1;
}

enum vershare_role
vershare_open(const char *base, const char *sock_path, int *fd,
    struct stat *st, char **body, size_t *len, long *age_s)
{
	char name[24];
	struct stat fs;
	int dfd, f;

	*fd = -1;
	*body = NULL;
	*len = 0;
	*age_s = 0;
	if (geteuid() != 0 || stat(sock_path, st) < 0 || !S_ISSOCK(st->st_mode))
		return VS_ALONE;
	dfd = versions_dir(base);
	if (dfd < 0)
		return VS_ALONE;
	sweep_old(dfd);
	snprintf(name, sizeof(name), "%016" PRIx64, fnv1a64(sock_path));
	f = openat(dfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	close(dfd);
	if (f < 0)
		return VS_ALONE;
	if (fstat(f, &fs) < 0 || !S_ISREG(fs.st_mode) || fs.st_uid != 0 ||
	    fs.st_nlink != 1 || (fs.st_mode & 077) != 0)
		goto alone;
	if (flock(f, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK)
			goto alone;
		*fd = f;
		return VS_WAIT;
	}
	if (read_answer(f, st, body, len, age_s)) {
		close(f);
		return VS_READ;
	}
	if (ftruncate(f, 0) < 0)
		goto alone;
	*fd = f;
	return VS_ASK;
alone:
	close(f);
	return VS_ALONE;
}

int
vershare_try(int fd, const struct stat *st, char **body, size_t *len,
    long *age_s)
{
	int rc;

	if (flock(fd, LOCK_SH | LOCK_NB) < 0)
		return errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
	rc = read_answer(fd, st, body, len, age_s) ? 1 : -1;
	(void)flock(fd, LOCK_UN);
	return rc;
}

int
vershare_write(int fd, const struct stat *st, const char *body, size_t len)
{
	char head[HEAD_MAX];
	size_t n, off = 0;
	ssize_t w;
	char *buf;
	int h;

	if (len > VERSHARE_BODY_MAX)
		return -1;
	h = header(head, sizeof(head), st, (long long)time(NULL), len);
	if (h < 0 || (size_t)h >= sizeof(head))
		return -1;
	n = (size_t)h + len;
	buf = xmalloc(n);
	memcpy(buf, head, (size_t)h);
	memcpy(buf + h, body, len);
	while (off < n) {
		w = write(fd, buf + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(buf);
	return off == n ? 0 : -1;
}
