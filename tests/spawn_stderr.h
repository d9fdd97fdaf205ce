/*
 * Running a test helper program and reading what it says, shared by
 * test_confine.c (tests/helpers/try_monitor) and test_sandbox.c
 * (tests/helpers/try_syscall): both judge the helper by its wait status
 * and its stderr.
 */
#ifndef CG_TEST_SPAWN_STDERR_H
#define CG_TEST_SPAWN_STDERR_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <unistd.h>

/*
 * fork + execv(argv[0], argv) with stdin and stdout on /dev/null (a
 * helper under RLIMIT_FSIZE 0 would be killed by a write to a regular
 * file) and stderr on a pipe, every other descriptor closed; the pipe's
 * bytes are read into err (at most errsz - 1, NUL-terminated) until every
 * writer is gone. Returns the child's pid for the caller to waitpid(); the
 * child exits 120 when it cannot set up its descriptors, 121 when the exec
 * fails. A failed pipe2 or fork fails the test.
 */
static pid_t
spawn_stderr(char *const argv[], char *err, size_t errsz)
{
	int pfd[2], devnull;
	size_t used = 0;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe2(pfd, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		devnull = open("/dev/null", O_RDWR);
		if (devnull < 0 || dup2(devnull, 0) < 0 ||
		    dup2(devnull, 1) < 0 || dup2(pfd[1], 2) < 0)
			_exit(120);
		closefrom(3);
		execv(argv[0], argv);
		_exit(121);
	}
	close(pfd[1]);
	while (used + 1 < errsz &&
	    (n = read(pfd[0], err + used, errsz - 1 - used)) > 0)
		used += (size_t)n;
	err[used] = '\0';
	close(pfd[0]);
	return pid;
}

#endif
