/*
 * The running instance's settings (usability.sh u_cli): the gateway holding
 * the pid lock records its effective serve flags in
 * <run-dir>/container-gateway.flags; a second `serve` for the project
 * prints "already running (pid N)" and warns about every flag it was given
 * that differs from the running gateway's.
 */
#include "ops/instance.h"
#include "base/gwerror.h"
#include "monitor/advisory.h"
#include "monitor/pins.h"
#include "seccomp/filter.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>


#define RECORD_MAX	INSTANCE_RECORD_MAX

/* The flags compared, in the record's order (cli.md §2.2). */
static const struct {
	enum cg_opt id;
	const char *flag;
} compared[] = {
	{ CGO_BACKEND, "--backend" },
	{ CGO_PODMAN_SOCKET, "--podman-socket" },
	{ CGO_DOCKER_SOCKET, "--docker-socket" },
	{ CGO_EGRESS, "--egress" },
	{ CGO_EGRESS_PORT, "--egress-port" },
	{ CGO_EGRESS_HOST, "--egress-host" },
	{ CGO_EXTRA_BIND_ROOT, "--extra-bind-root" },
	{ CGO_IDLE_TIMEOUT, "--idle-timeout" },
	{ CGO_BACKEND_TIMEOUT, "--backend-timeout" },
	{ CGO_LOG_LEVEL, "--log-level" },
	{ CGO_LOG_FORMAT, "--log-format" },
	{ CGO_MAX_CONNECTIONS, "--max-connections" },
	{ CGO_LOG_MAX_SIZE, "--log-max-size" },
	{ CGO_REQUIRE_PATCHED, "--require-patched-backend" },
};
#define NCOMPARED	(sizeof(compared) / sizeof(compared[0]))

static void
record_path(const struct gateway *gw, char *out, size_t outsz)
{
	snprintf(out, outsz, "%s/container-gateway.flags", gw->run_dir);
}

/*
 * The value of one flag for gw in canonical form (out, outsz bytes).
 * running: the backend sockets are the ones in use (discovered or given);
 * otherwise the ones given. Extra bind roots are the resolved ones.
 */
static void
value_of(const struct gateway *gw, enum cg_opt id, int running, char *out,
    size_t outsz)
{
	static const char *const levels[] = { "error", "warn", "info", "debug" };
	const struct cg_config *c = gw->cfg;
	const char *p;
	size_t off = 0;
	int i;

	out[0] = '\0';
	switch (id) {
	case CGO_BACKEND:
		snprintf(out, outsz, "%s", c->backend_podman && c->backend_docker ?
		    "auto" : c->backend_podman ? "podman" : "docker");
		break;
	case CGO_PODMAN_SOCKET:
		p = running ? gw->lis[0].backend_path : c->podman_socket;
		snprintf(out, outsz, "%s", p != NULL ? p : "");
		break;
	case CGO_DOCKER_SOCKET:
		p = !running ? c->docker_socket :
		    gw->lis[1].backend_kind == CG_DOCKER ? gw->lis[1].backend_path :
		    "";
		snprintf(out, outsz, "%s", p != NULL ? p : "");
		break;
	case CGO_EGRESS:
		snprintf(out, outsz, "%s", c->egress == CG_EGRESS_OFF ? "off" :
		    c->egress == CG_EGRESS_REQUIRE ? "require" :
		    "inject-if-available");
		break;
	case CGO_EGRESS_PORT:
		snprintf(out, outsz, "%u", c->egress_port);
		break;
	case CGO_EGRESS_HOST:
		snprintf(out, outsz, "%s", c->egress_host != NULL ?
		    c->egress_host : "");
		break;
	case CGO_EXTRA_BIND_ROOT:
		for (i = 1; i < gw->nbind_roots && off < outsz; i++)
			off += (size_t)snprintf(out + off, outsz - off, "%s%s",
			    i > 1 ? ":" : "", gw->bind_roots[i]);
		break;
	case CGO_IDLE_TIMEOUT:
		snprintf(out, outsz, "%g", c->idle_timeout);
		break;
	case CGO_BACKEND_TIMEOUT:
		snprintf(out, outsz, "%g", c->backend_timeout);
		break;
	case CGO_LOG_LEVEL:
		snprintf(out, outsz, "%s", levels[c->log_level]);
		break;
	case CGO_LOG_FORMAT:
		snprintf(out, outsz, "%s", c->log_format == LOG_JSON ? "json" :
		    "text");
		break;
	case CGO_MAX_CONNECTIONS:
		snprintf(out, outsz, "%u", c->max_connections);
		break;
	case CGO_LOG_MAX_SIZE:
		snprintf(out, outsz, "%llu", (unsigned long long)c->log_max_size);
		break;
	case CGO_REQUIRE_PATCHED:
		snprintf(out, outsz, "%d", c->require_patched);
		break;
	default:
		break;
	}
	/* one line per flag: a value never holds a newline */
	out[strcspn(out, "\n")] = '\0';
}

/* The "advisory=<id> <backend> at <path>" lines of gw's backends, to f. */
static void
write_advisories(const struct gateway *gw, FILE *f)
{
	const struct listener *l;
	char value[256];
	size_t i;
	int k;

	for (k = 0; k < CG_SOCKETS; k++) {
		l = &gw->lis[k];
		if (l->backend_path[0] == '\0' || strchr(l->backend_path, '\n') ||
		    (k == 1 && strcmp(l->backend_path, gw->lis[0].backend_path) == 0))
			continue;
		advisory_describe(&l->ver, l->backend_ident == BACKEND_LIBPOD,
		    value, sizeof(value));
		for (i = 0; i < ADV_COUNT; i++)
			if (l->advisories & (1u << i))
				fprintf(f, "advisory=%s %s%s at %s\n",
				    advisory_at(i)->id, value, l->ver_pending &&
				    i == ADV_RUNC_DEV ? " (runtime not asked yet)" :
				    "", l->backend_path);
	}
}

void
instance_record_advisories(const struct gateway *gw)
{
	char path[CG_PATH_MAX + 32], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int fd;

	if (!gw->record_append)
		return;		/* the confined monitor may not open it */
	f = open_memstream(&buf, &len);
	if (f == NULL)
		return;
	fputs("advisories=final\n", f);
	write_advisories(gw, f);
	fclose(f);
	record_path(gw, path, sizeof(path));
	/* exactly the log reopen's flags: allowed under Landlock only */
	fd = open(path, CG_LOG_OPEN_FLAGS, 0600);
	if (fd >= 0) {
		(void)!write(fd, buf, len);
		close(fd);
	}
	free(buf);
}

void
instance_record(const struct gateway *gw)
{
	char path[CG_PATH_MAX + 32], value[CG_PATH_MAX + 1], *buf = NULL;
	size_t len = 0, i;
	FILE *f;
	int fd;

	record_path(gw, path, sizeof(path));
	f = open_memstream(&buf, &len);
	if (f == NULL)
		return;
	for (i = 0; i < NCOMPARED; i++) {
		value_of(gw, compared[i].id, 1, value, sizeof(value));
		fprintf(f, "%s=%s\n", compared[i].flag, value);
	}
	/* for status (ops/status.c): the sandbox level, the backends */
	fprintf(f, "sandbox=%s\n", gw->sandbox_full ? "full" : "degraded");
	for (i = 0; i < CG_SOCKETS; i++)
		if (gw->lis[i].backend_path[0] != '\0' &&
		    strchr(gw->lis[i].backend_path, '\n') == NULL &&
		    (i == 0 || strcmp(gw->lis[0].backend_path,
		    gw->lis[i].backend_path) != 0))
			fprintf(f, "backend=%s\n", gw->lis[i].backend_path);
	/* for status (instance_status) */
	pins_state(gw, value, sizeof(value));
	fprintf(f, "pins=%s\n", value);
	write_advisories(gw, f);
	fclose(f);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd >= 0) {
		(void)!write(fd, buf, len);
		close(fd);
	}
	free(buf);
}

void
instance_forget(const struct gateway *gw)
{
	char path[CG_PATH_MAX + 32];

	record_path(gw, path, sizeof(path));
	unlink(path);
}

/* Read a small regular file we own at path into buf (NUL-terminated). */
static ssize_t
read_owned(const char *path, char *buf, size_t bufsz)
{
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid()) {
		close(fd);
		return -1;
	}
	n = read(fd, buf, bufsz - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* The recorded value of flag in rec, copied to out; 0, or -1 if absent. */
static int
recorded(const char *rec, const char *flag, char *out, size_t outsz)
{
	return instance_recorded(rec, flag, 0, out, outsz);
}

int
instance_recorded(const char *rec, const char *flag, int nth, char *out,
    size_t outsz)
{
	size_t fl = strlen(flag);
	const char *line, *nl;

	for (line = rec; *line != '\0'; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl == NULL)
			return -1;
		if (strncmp(line, flag, fl) == 0 && line[fl] == '=' &&
		    nth-- == 0) {
			snprintf(out, outsz, "%.*s", (int)(nl - line - fl - 1),
			    line + fl + 1);
			return 0;
		}
	}
	return -1;
}

int
instance_read_record(const struct gateway *gw, char *buf, size_t bufsz)
{
	char path[CG_PATH_MAX + 32];

	record_path(gw, path, sizeof(path));
	return read_owned(path, buf, bufsz) < 0 ? -1 : 0;
}

void
instance_report(const struct gateway *gw)
{
	char rec[RECORD_MAX], pidtext[32], path[CG_PATH_MAX + 32],
	    mine[CG_PATH_MAX + 1], theirs[CG_PATH_MAX + 1];
	long long pid = -1;
	char *diff = NULL;
	size_t difflen = 0, i;
	FILE *f;
	ssize_t n;

	n = read_owned(gw->pid_file, pidtext, sizeof(pidtext));
	if (n > 0)
		pid = instance_parse_pid(pidtext, (size_t)n);
	/* the pid only when it is the one serving (a forged file's is not) */
	if (pid > 0 && instance_served_by(gw, pid, NULL) == PROOF_SERVED)
		printf("container-gateway: already running (pid %lld)\n", pid);
	else
		printf("container-gateway: already running\n");
	fflush(stdout);
	record_path(gw, path, sizeof(path));
	if (read_owned(path, rec, sizeof(rec)) < 0 ||
	    (f = open_memstream(&diff, &difflen)) == NULL)
		return;
	for (i = 0; i < NCOMPARED; i++) {
		if (!(gw->cfg->explicit_mask & (1u << compared[i].id)))
			continue;
		value_of(gw, compared[i].id, 0, mine, sizeof(mine));
		if (recorded(rec, compared[i].flag, theirs, sizeof(theirs)) < 0 ||
		    strcmp(mine, theirs) == 0)
			continue;
		fprintf(f, "%s%s=%s (not %s)", ftell(f) > 0 ? ", " : "",
		    compared[i].flag, theirs[0] != '\0' ? theirs : "\"\"",
		    mine[0] != '\0' ? mine : "\"\"");
	}
	fclose(f);
	if (difflen > 0)
		fprintf(stderr, "container-gateway: warning: the running gateway "
		    "has other flags than these: %s; run container-gateway stop "
		    "first to start it with yours\n", diff);
	free(diff);
}

void
instance_status(const struct gateway *gw, FILE *f)
{
	char path[CG_PATH_MAX + 32], rec[RECORD_MAX], *esc;
	const char *pins;
	size_t n;

	record_path(gw, path, sizeof(path));
	if (read_owned(path, rec, sizeof(rec)) < 0)
		rec[0] = '\0';
	pins = strstr(rec, "\npins=");
	if (pins != NULL) {
		pins += 6;
		n = strcspn(pins, "\n");
		esc = cg_json_escape(pins, n);
		fprintf(f, ", \"pins\": \"%s\"", esc);
		free(esc);
	}
	fputs(", \"advisories\": ", f);
	advisory_status_json(rec, f);
}

long long
instance_parse_pid(const char *buf, size_t len)
{
	long long v = 0;
	size_t i;

	if (len > 0 && buf[len - 1] == '\n')
		len--;
	if (len < 1 || len > 10)
		return -1;
	for (i = 0; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -1;
		v = v * 10 + (buf[i] - '0');
	}
	return v > 1 ? v : -1;
}

/*
 * The pid listening on the socket at path, when it is a socket of the
 * effective uid (not a symlink): 0 when there is none or it does not
 * answer (stale, or its backlog is full), -1 when it is not such a socket,
 * -2 when the listener is outside this pid namespace.
 */
static long long
listener_of(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cr;
	socklen_t len = sizeof(cr);
	struct stat st;
	long long who = 0;
	int pfd, fd;

	pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return 0;
	if (fstat(pfd, &st) < 0 || !S_ISSOCK(st.st_mode) ||
	    st.st_uid != geteuid()) {
		close(pfd);
		return -1;
	}
	/* connect to the inode checked, not to whatever the path names now */
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d", pfd);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0)
		who = cr.pid > 0 ? cr.pid : -2;
	if (fd >= 0)
		close(fd);
	close(pfd);
	return who;
}

enum instance_proof
instance_served_by(const struct gateway *gw, long long pid, long long *other)
{
	enum instance_proof r = PROOF_NONE;
	long long who;
	int i;

	for (i = 0; i < CG_SOCKETS; i++) {
		if (gw->lis[i].path[0] == '\0')
			continue;
		who = listener_of(gw->lis[i].path);
		if (who == 0 || who == -1)
			continue;
		if (who == -2) {
			if (r == PROOF_NONE)
				r = PROOF_UNSEEN;
			continue;
		}
		if (who != pid) {
			if (other != NULL)
				*other = who;
			return PROOF_OTHER;
		}
		r = PROOF_SERVED;
	}
	return r;
}
