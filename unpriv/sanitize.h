/*
 * What a sanitizer build (CG_SANITIZE: clang -fsanitize=address,undefined,
 * `make check-asan`) needs so that the ASan/UBSan runtime keeps working in
 * the sandboxed request parser (privsep.md §4 [S]: sanitizer builds may
 * loosen what release builds never do). In a release build every function
 * here does nothing and CG_SANITIZE_BUILD is 0.
 */
#ifndef CG_SANITIZE_H
#define CG_SANITIZE_H

#ifdef CG_SANITIZE
#define CG_SANITIZE_BUILD	1
#else
#define CG_SANITIZE_BUILD	0
#endif

/*
 * The environment of a freshly exec'd request parser (serve.c passes it to
 * fexecve). Release: LD_BIND_NOW=1 only (every symbol bound at load: the
 * zygote's children lack libseccomp's and libcap's mappings,
 * unpriv/zygote.c dontfork). CG_SANITIZE: ASAN_OPTIONS and UBSAN_OPTIONS
 * from the monitor's environment with the child's needs appended (no
 * symboliser process, no tty probe); reports go to the monitor's log_path
 * option, else to the monitor's stderr, which the child keeps then.
 * Returns a NULL-terminated array, valid until the
 * process execs or exits (a static one or one allocated in the forked
 * process); never NULL.
 */
char **cg_sanitize_child_env(void);

/*
 * Called by sandbox_enter_zygote() before its first step, while files and
 * fork are still allowed. CG_SANITIZE: runs the leak check of start-up now (the
 * end-of-process check would need clone and ptrace; it is off from here
 * on), opens the report file when log_path is set, and loads the module
 * list once so that a later report can print module+offset frames without
 * reading /proc/self/maps. Release: nothing.
 */
void cg_sanitize_before_sandbox(void);

/*
 * Called by sandbox_finish_child() in a request parser just forked from
 * the zygote. CG_SANITIZE: its reports go to the zygote's report file
 * (the runtime would open one of its own, an openat the zygote's filter
 * kills). Release: nothing.
 */
void cg_sanitize_after_fork(void);

#endif
