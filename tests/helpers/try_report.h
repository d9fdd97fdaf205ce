/*
 * What the try_* helpers (try_syscall.c, try_monitor.c) print and return
 * after their sandbox: raw write(2) to stderr only (stdio may need calls
 * the filter refuses), exit status 4 for an allowed call that returned
 * something else than expected.
 */
#ifndef CG_TRY_REPORT_H
#define CG_TRY_REPORT_H

#include <errno.h>
#include <string.h>
#include <unistd.h>

/*
 * a, b and a newline on stderr in one write(2): a line up to PIPE_BUF
 * bytes arrives whole, even while another process (a sanitizer report
 * of a child) writes to the same pipe. Longer lines are cut.
 */
static inline void
say(const char *a, const char *b)
{
	char line[512];
	size_t la = strlen(a), lb = strlen(b);

	if (la > sizeof(line) - 1)
		la = sizeof(line) - 1;
	if (lb > sizeof(line) - 1 - la)
		lb = sizeof(line) - 1 - la;
	memcpy(line, a, la);
	memcpy(line + la, b, lb);
	line[la + lb] = '\n';
	if (write(2, line, la + lb + 1) < 0)
		return;
}

/* For allowed calls: 0 if rc >= 0, else 4 with the errno name on stderr. */
static inline int
want_ok(long rc)
{
	if (rc >= 0)
		return 0;
	say("allowed call failed: ", strerrorname_np(errno));
	return 4;
}

/* 0 if the call failed with err, else 4 with the expected name on stderr. */
static inline int
want_errno(long rc, int err)
{
	if (rc == -1 && errno == err)
		return 0;
	say("expected error ", strerrorname_np(err));
	return 4;
}

#endif
