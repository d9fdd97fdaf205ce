/*
 * ops/vershare.c: the kept GET /version answer's header is read back only
 * for the same socket (device, inode, change time), within the TTL and
 * with the length it says; tests/integration/usability.sh
 * u_version_shared shows gateways sharing one real podman's answer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ops/vershare.h"

static struct stat sock;

static size_t
make(char *buf, size_t cap, const struct stat *st, long long at,
    const char *body, long long len)
{
	int h = snprintf(buf, cap, "cg-version-answer 1 dev=%ju ino=%ju "
	    "ctime=%lld.%09ld at=%lld len=%lld\n%s", (uintmax_t)st->st_dev,
	    (uintmax_t)st->st_ino, (long long)st->st_ctim.tv_sec,
	    (long)st->st_ctim.tv_nsec, at, len, body);

	return (size_t)h;
}

static int
setup(void **state)
{
	(void)state;
	memset(&sock, 0, sizeof(sock));
	sock.st_dev = 64769;
	sock.st_ino = 5308418;
	sock.st_ctim.tv_sec = 1796601600;
	sock.st_ctim.tv_nsec = 123456789;
	return 0;
}

static void
test_fresh(void **state)
{
	char buf[512];
	size_t n, off = 0, len = 0;
	long age = -1;

	(void)state;
	n = make(buf, sizeof(buf), &sock, 1000, "{\"Version\":\"4.3.1\"}", 19);
	assert_int_equal(vershare_parse(buf, n, &sock, 1030, &off, &len, &age), 1);
	assert_int_equal(len, 19);
	assert_int_equal(age, 30);
	assert_memory_equal(buf + off, "{\"Version\":\"4.3.1\"}", 19);
	/* the TTL's last second, and one past it */
	assert_int_equal(vershare_parse(buf, n, &sock, 1000 + VERSHARE_TTL_S,
	    &off, &len, &age), 1);
	assert_int_equal(vershare_parse(buf, n, &sock, 1001 + VERSHARE_TTL_S,
	    &off, &len, &age), 0);
	/* written in the future (a clock set back) */
	assert_int_equal(vershare_parse(buf, n, &sock, 999, &off, &len, &age), 0);
}

static void
test_other_socket(void **state)
{
	struct stat other;
	char buf[512];
	size_t n, off, len;
	long age;

	(void)state;
	n = make(buf, sizeof(buf), &sock, 1000, "{}", 2);
	other = sock;
	other.st_ino++;		/* a daemon that bound its socket anew */
	assert_int_equal(vershare_parse(buf, n, &other, 1001, &off, &len, &age), 0);
	other = sock;
	other.st_ctim.tv_nsec++;	/* the same inode number, bound again */
	assert_int_equal(vershare_parse(buf, n, &other, 1001, &off, &len, &age), 0);
	other = sock;
	other.st_dev++;
	assert_int_equal(vershare_parse(buf, n, &other, 1001, &off, &len, &age), 0);
}

static void
test_torn(void **state)
{
	char buf[512];
	size_t n, off, len;
	long age;

	(void)state;
	/* a body shorter or longer than its header says: a torn write */
	n = make(buf, sizeof(buf), &sock, 1000, "{\"a\":1}", 8);
	assert_int_equal(vershare_parse(buf, n - 1, &sock, 1001, &off, &len, &age), 0);
	n = make(buf, sizeof(buf), &sock, 1000, "{\"a\":1}", 6);
	assert_int_equal(vershare_parse(buf, n, &sock, 1001, &off, &len, &age), 0);
	/* an empty file (the asker failed), no newline, another magic */
	assert_int_equal(vershare_parse("", 0, &sock, 1001, &off, &len, &age), 0);
	assert_int_equal(vershare_parse("cg-version-answer 1 dev=1", 25, &sock,
	    1001, &off, &len, &age), 0);
	n = make(buf, sizeof(buf), &sock, 1000, "{}", 2);
	buf[18] = '2';
	assert_int_equal(vershare_parse(buf, n, &sock, 1001, &off, &len, &age), 0);
	/* a negative time or length */
	n = make(buf, sizeof(buf), &sock, -5, "{}", 2);
	assert_int_equal(vershare_parse(buf, n, &sock, 1001, &off, &len, &age), 0);
	n = make(buf, sizeof(buf), &sock, 1000, "{}", -1);
	assert_int_equal(vershare_parse(buf, n, &sock, 1001, &off, &len, &age), 0);
}

/* what vershare_write writes, vershare_parse reads back */
static void
test_round_trip(void **state)
{
	char path[] = "/tmp/cg-vershare-XXXXXX", buf[512];
	const char *body = "{\"Components\":[{\"Name\":\"Podman Engine\"}]}";
	size_t off, len;
	ssize_t n;
	long age;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(vershare_write(fd, &sock, body, strlen(body)), 0);
	n = pread(fd, buf, sizeof(buf), 0);
	assert_true(n > 0);
	assert_int_equal(vershare_parse(buf, (size_t)n, &sock, (long long)time(NULL),
	    &off, &len, &age), 1);
	assert_int_equal(len, strlen(body));
	assert_memory_equal(buf + off, body, len);
	close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fresh, setup),
		cmocka_unit_test_setup(test_other_socket, setup),
		cmocka_unit_test_setup(test_torn, setup),
		cmocka_unit_test_setup(test_round_trip, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
