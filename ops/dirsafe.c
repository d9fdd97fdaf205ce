/*
 * One directory the gateway trusts (cli.md §5.3): the run directory's
 * components (ops/rundir.c) and the sessions directory (ops/session.c)
 * are checked, and created one at a time, here.
 */
#include "ops/dirsafe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
rd_refuse(const char *fmt, ...)
{
	va_list ap;

	fputs("container-gateway: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return RD_REFUSED;
}

int
rundir_component(const char *path, const char *label, int create)
{
	struct stat st;

	for (;;) {
		if (lstat(path, &st) == 0)
			break;
		if (errno != ENOENT)
			return rd_refuse("%s (%s) cannot be inspected: %s; refusing",
			    label, path, strerror(errno));
		if (!create)
			return RD_NO_RUNDIR;
		if (mkdir(path, 0700) == 0 || errno == EEXIST)
			continue;	/* a lost race re-checks what is there */
		return rd_refuse("%s (%s) cannot be created: %s; refusing", label,
		    path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return rd_refuse("%s (%s) is a symlink; refusing", label, path);
	if (!S_ISDIR(st.st_mode))
		return rd_refuse("%s (%s) is not a directory; refusing", label, path);
	if (st.st_uid != geteuid())
		return rd_refuse("%s (%s) is not owned by the current user; refusing",
		    label, path);
	if (st.st_mode & 022)
		return rd_refuse("%s (%s) is group- or world-writable; refusing",
		    label, path);
	return 0;
}
