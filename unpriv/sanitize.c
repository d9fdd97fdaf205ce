/*
 * Sanitizer builds only (see sanitize.h): the ASan/UBSan runtime inside the
 * sandboxed request parser. Everything that loosens the sandbox for it is
 * behind CG_SANITIZE: here, the sanitizer_rules[] of seccomp/filter.c, and
 * the RLIMIT_AS line of sandbox.c. A release build compiles the two empty
 * functions at the bottom; tests/test_sandbox.c checks that the release
 * filter and binary hold nothing of the rest.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unpriv/sanitize.h"

#ifdef CG_SANITIZE
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>

#include "base/xmalloc.h"

/*
 * What the runtime would otherwise do in the sandbox and get killed for:
 * start llvm-symbolizer (fork, execve; reports print module+offset, which
 * tests/sanitize/check-asan.sh symbolises afterwards) and ask whether
 * stderr is a terminal (ioctl TCGETS).
 */
#define CHILD_OPTIONS	"symbolize=0:color=never"

/* Where a child keeps its report file (above every descriptor it uses). */
#define REPORT_FD	100

static char *
options(const char *name)
{
	const char *cur = getenv(name);
	char *s;

	if (asprintf(&s, "%s=%s%s" CHILD_OPTIONS, name,
	    cur != NULL ? cur : "", cur != NULL && cur[0] != '\0' ? ":" : "") < 0)
		xoom();
	return s;
}

char **
cg_sanitize_child_env(void)
{
	static char *env[3];

	env[0] = options("ASAN_OPTIONS");
	env[1] = options("UBSAN_OPTIONS");
	env[2] = NULL;
	return env;
}

void
cg_sanitize_before_sandbox(void)
{
	char module[256];
	void *offset;
	int low, high;

	/* Leaks of start-up, checked now; no check at exit after this. */
	__lsan_do_leak_check();
	/* With log_path set, open our report file (<log_path>.<pid>) now:
	 * the runtime opens it lazily, which would be an openat later. It
	 * takes the lowest free descriptor; move it out of the way (to
	 * REPORT_FD) so that the descriptors stay those of a release build
	 * (tests look for the client at fd 4, and RLIMIT_NOFILE counts low
	 * descriptors). Children forked from the zygote inherit it. */
	low = dup(0);
	if (low >= 0)
		close(low);
	if (__sanitizer_get_report_path() != NULL && low >= 0 &&
	    fcntl(low, F_GETFD) >= 0 &&
	    (high = fcntl(low, F_DUPFD_CLOEXEC, REPORT_FD)) >= 0) {
		__sanitizer_set_report_fd((void *)(intptr_t)high);
		close(low);
	}
	/* Symbolizer::RefreshModules() reads /proc/self/maps the first
	 * time a pc is looked up; do that first lookup here (without
	 * starting a symboliser process). */
	(void)__sanitizer_get_module_and_offset_for_pc(
	    (void *)cg_sanitize_before_sandbox, module, sizeof(module), &offset);
}

void
cg_sanitize_after_fork(void)
{
	if (fcntl(REPORT_FD, F_GETFD) >= 0)
		__sanitizer_set_report_fd((void *)(intptr_t)REPORT_FD);
}

#else

char **
cg_sanitize_child_env(void)
{
	static char *env[2] = { "LD_BIND_NOW=1", NULL };

	return env;
}

void
cg_sanitize_before_sandbox(void)
{
}

void
cg_sanitize_after_fork(void)
{
}

#endif
