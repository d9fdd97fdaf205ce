/*
 * Helpers shared by the filter builders of seccomp/ (filter.c: the request
 * parser and the zygote; monitor.c: the monitor). Internal to seccomp/.
 */
#ifndef CG_SECCOMP_RULES_H
#define CG_SECCOMP_RULES_H

#include <stddef.h>
#include <stdio.h>

#include <seccomp.h>

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* One group of syscall numbers allowed without argument checks. */
struct cg_scmp_group {
	const int *nr;
	size_t n;
};

/*
 * Allow every number of the n groups g[] (cg_scmp_allow on each).
 * Returns 0 or libseccomp's negative errno.
 */
int cg_scmp_allow_groups(scmp_filter_ctx ctx, const struct cg_scmp_group *g,
    size_t n);

/*
 * Allow each of the n syscall numbers nr[] without argument checks. A
 * negative number (a name libseccomp does not know on the native
 * architecture, e.g. poll on aarch64) is skipped. Returns 0 or
 * libseccomp's negative errno.
 */
int cg_scmp_allow(scmp_filter_ctx ctx, const int *nr, size_t n);

/*
 * The memory and descriptor-flag rules every filter here shares
 * (filter.c): mmap and mprotect never with PROT_EXEC, fcntl F_GETFL
 * F_GETFD F_SETFD only (no F_SETFL: only the monitor's filter has it), madvise with malloc's advice only.
 * Returns 0 or libseccomp's negative errno.
 */
int cg_scmp_add_memory_rules(scmp_filter_ctx ctx);

/*
 * A new filter context: default action def, other architectures killed
 * (KILL_PROCESS), the kernel's audit log on a refused call when log.
 * NULL on failure.
 */
scmp_filter_ctx cg_scmp_init(uint32_t def, int log);

/*
 * The end of a filter builder whose rules so far returned rc: the memory
 * rules (cg_scmp_add_memory_rules) and, in sanitizer builds, the
 * sanitizer's; then *out = ctx and 0, or ctx released and the negative
 * errno.
 */
int cg_scmp_finish(scmp_filter_ctx ctx, int rc, scmp_filter_ctx *out);

/*
 * Load ctx on the calling thread and release it in every case. Returns
 * 0 or libseccomp's negative errno.
 */
int cg_scmp_load_release(scmp_filter_ctx ctx);

/*
 * Write ctx as libseccomp PFC text to f (flushed first; it needs a
 * descriptor) and release ctx in every case. Returns 0, -EINVAL (f
 * NULL), -EBADF (no descriptor, e.g. a memory stream), -errno of the
 * flush or libseccomp's negative errno.
 */
int cg_scmp_export_release(FILE *f, scmp_filter_ctx ctx);

#ifdef CG_SANITIZE
/*
 * Sanitizer builds only: allow the calls the ASan/UBSan runtime makes
 * after a filter is loaded (filter.c sanitizer_rules[], each one call
 * with one argument value). Returns 0 or libseccomp's negative errno.
 */
int cg_scmp_add_sanitizer_rules(scmp_filter_ctx ctx);
#endif

#endif
