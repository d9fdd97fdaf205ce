/*
 * no_userns: run a command where user namespaces cannot be made, as under
 * a container's seccomp profile (docker's default refuses unshare and
 * clone with CLONE_NEWUSER to an unprivileged process) or with
 * user.max_user_namespaces = 0, without changing the machine: unshare(2)
 * and clone(2) with CLONE_NEWUSER fail with EPERM, clone3(2) with ENOSYS
 * (its flags are in memory, out of seccomp's reach; glibc then falls back
 * to clone). Sets no_new_privs, which an unprivileged filter needs.
 * tests/integration/rootless.sh forces the gateway's degraded request
 * parser sandbox with it.
 *
 *   no_userns CMD [ARG]...
 *
 * Exit status: CMD's (exec), or 127 when the filter or the exec failed.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <seccomp.h>

int
main(int argc, char **argv)
{
	scmp_filter_ctx ctx;
	int rc;

	if (argc < 2) {
		fprintf(stderr, "usage: no_userns CMD [ARG]...\n");
		return 2;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL)
		return 127;
	rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
	    SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone),
		    1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
		    SCMP_SYS(clone3), 0);
	if (rc == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		rc = -errno;
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc != 0) {
		fprintf(stderr, "no_userns: cannot install the filter: %s\n",
		    strerror(-rc));
		return 127;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no_userns: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
