/* Daemon mode (cli.md §10). */
#ifndef CG_DAEMON_H
#define CG_DAEMON_H

/*
 * Detach after the lock probe (cli.md §7 step 5, §10). Opens
 * <run_dir>/container-gateway.log O_WRONLY|O_CREAT|O_APPEND|O_NOFOLLOW|
 * O_CLOEXEC|O_NONBLOCK 0600 (must be a regular file owned by the
 * effective uid), then double forks with setsid.
 * In the original process: waits on a pipe until the daemon reports
 * readiness (daemon_ready) or exits, and returns the exit code the
 * original process must end with: 0 when ready or when the daemon ended
 * with 0 (lock race, no backend); else the daemon's code after printing
 * "container-gateway: daemon failed to start (exit <n>); see <log>" on
 * stderr; 2 when the log file cannot be opened safely (refusal printed);
 * 1 when the pipe or a fork fails.
 * In the daemon: returns -1; chdir("/"), umask 077, stdin /dev/null,
 * stdout and stderr appended to the log file, SIGHUP ignored until
 * daemon_ready. Its exit status before readiness is reported to the
 * original process (on_exit).
 */
int daemon_detach(const char *run_dir);

/*
 * Install the SIGHUP handler (rt_sigaction is refused once the monitor
 * is confined, so this comes before monitor/confine.c); SIGHUP does
 * nothing until daemon_ready. No-op unless daemon_detach returned -1 in
 * this process.
 */
void daemon_arm_hup(void);

/*
 * Report readiness (sockets listening, monitor confined) to the original
 * process and close the pipe; from then on SIGHUP reopens the log file on
 * stdout and stderr (cli.md §9.1 [S], for rotation), see
 * daemon_allow_reopen. No-op unless daemon_detach returned -1 in this
 * process.
 */
void daemon_ready(void);

/*
 * Size-capped rotation of the daemon's log (doc/audit.md): before a line
 * would take <run-dir>/container-gateway.log past max_bytes, it is renamed
 * to container-gateway.log.1 (replacing the one before) and a new one is
 * opened; no line is lost or split. 0: no rotation. A failed rotation
 * stops rotating with one WARNING. No-op unless daemon_detach returned -1
 * in this process (the foreground logs to stderr, never rotated).
 */
void daemon_log_rotation(unsigned long long max_bytes);

/*
 * Whether SIGHUP may still reopen the log file (cli.md §10 [S]) and the
 * log may be rotated: the confined monitor allows the open and the rename
 * only under Landlock (monitor/confine.c). Not allowed: SIGHUP writes a
 * WARNING and keeps the old descriptor; rotation stops.
 */
void daemon_allow_reopen(int allowed);

#endif
