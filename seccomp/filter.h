/*
 * Seccomp allow-lists as data tables, loaded with libseccomp
 * (privsep.md §4 step 6; chrony's table style).
 */
#ifndef CG_SECCOMP_FILTER_H
#define CG_SECCOMP_FILTER_H

#include <stdio.h>

/*
 * Load the request parser's filter: default action KILL_PROCESS, bad
 * architecture KILL, only the syscalls of privsep.md §4 step 6 (with
 * argument limits: no PROT_EXEC, fcntl commands F_GETFL F_SETFL F_GETFD
 * F_SETFD only). Returns 0 or a negative errno.
 */
int cg_seccomp_load_child(void);

/*
 * Write the child filter as libseccomp PFC text to f (for the golden
 * file test). Returns 0 or a negative errno.
 */
int cg_seccomp_export_child(FILE *f);

#endif
