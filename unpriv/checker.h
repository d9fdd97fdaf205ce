/*
 * The checker process (unpriv/checker.c; doc/privsep.md "Builds and
 * archives"). Internal to unpriv/.
 */
#ifndef CG_UNPRIV_CHECKER_H
#define CG_UNPRIV_CHECKER_H

struct ipc_msg;

/*
 * Check one body, in a sandboxed request parser that got CHECK_START
 * (start: its fields; start->fd the read end of the pipe the monitor
 * copies the body into) instead of CONN_START. Reads the pipe to its end,
 * sends CHECK_PROGRESS (bytes read, bytes approved) every 256 KiB read,
 * after a gap and after CHECK_FLUSH, CHECK_SKIP for entry data of 256 KiB
 * or more that it would discard unread (chk_skippable; the monitor then
 * leaves it out of the pipe and says where with CHECK_SKIP_AT; no read
 * meanwhile), then one CHECK_VERDICT (at once when refused), then
 * waits for the monitor to close the socket. buf is the IPC receive
 * buffer (IPC_MSG_MAX + 1 bytes). Never returns: exits 0 when the monitor
 * closes the socket, 1 on an error.
 */
void checker_main(const struct ipc_msg *start, unsigned char *buf)
    __attribute__((noreturn));

#endif
