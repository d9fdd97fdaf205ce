/*
 * Seccomp allow-lists as data tables, loaded with libseccomp
 * (privsep.md §4 step 6; chrony's table style).
 */
#ifndef CG_SECCOMP_FILTER_H
#define CG_SECCOMP_FILTER_H

#include <stdio.h>

/*
 * Load the request parser's filter on the calling process (privsep.md §4
 * step 6): default action KILL_PROCESS, bad architecture KILL_PROCESS,
 * only the syscalls of step 6, with argument limits: mmap/mprotect never
 * with PROT_EXEC, fcntl F_GETFL F_SETFL F_GETFD F_SETFD only, madvise with
 * the advice malloc uses only, tgkill towards the caller's own pid only;
 * fstat/newfstatat fail with EACCES instead of killing (style.md §10).
 * Irreversible. Returns 0 or a negative errno (libseccomp's codes).
 */
int cg_seccomp_load_child(void);

/*
 * Write the child filter as libseccomp PFC text to f (the golden-file
 * test, tests/golden/child.pfc); the tgkill rule shows pid 0 instead of a
 * real pid so the text is reproducible. f must have a descriptor (fileno);
 * it is flushed first. Returns 0, -EINVAL (f NULL), -EBADF (no descriptor,
 * e.g. a memory stream) or a negative errno from libseccomp.
 */
int cg_seccomp_export_child(FILE *f);

#endif
