/*
 * Before a container starts (start, restart, libpod init; a pod's start
 * and restart start each of its containers): what the daemon will do
 * with the container's own settings, checked through the daemon's view
 * (spec amendment of 2026-12-07).
 *
 * Every backend: no volume or bind target at or below /dev, /proc or
 * /sys, whatever put it there (an image's VOLUME /dev is not in the
 * create body; runc CVE-2025-31133, CVE-2025-52565).
 *
 * Podman below 5.7.1 (advisory podman-workdir): at each init podman joins
 * the working directory to the root file system's mount point on the
 * host (libpod resolveWorkDir, v4.3.1: filepath.Join, then os.Stat,
 * MkdirAll and Chown on the host path; containers/podman#27672), so a
 * symlink in the image or planted by the container reaches the host. The
 * monitor therefore walks the effective working directory (the
 * container's own, or its image's WORKDIR, as inspect shows it) one
 * component at a time with HEAD /containers/{id}/archive?path=, which
 * podman answers from inside the root file system (copier.Stat in a
 * chroot; X-Docker-Container-Path-Stat carries the lstat mode): any
 * symlink is refused; the first missing component ends the walk (podman
 * creates the rest below directories that are not symlinks). A working
 * directory on or above a mount is left alone, as podman leaves it
 * (isPathOnVolume, isPathOnMount).
 *
 * Every podman (advisory podman-volume-chown, measured on 4.3.1): at a
 * new named volume's first mount podman Lstats the volume's target joined
 * to the mount point on the host (libpod fixVolumePermissions) and gives
 * the volume that path's owner, mode and times. Each volume target is
 * walked the same way, after the working directory; a restart needs no
 * stop for it, as a volume is fixed up at its first mount only.
 *
 * Restarts are where the container
 * could change its root file system after the check:
 *   - a client's restart of a running container: the monitor stops it
 *     first (the client's t), then checks, then forwards the restart
 *     (which starts a stopped container);
 *   - a restart policy (the daemon restarts by itself, never asking the
 *     gateway): refused unless the root file system is read-only (the
 *     container cannot plant anything) or the working directory is / or
 *     on a mount (podman resolves nothing on the host);
 *   - docker cp into the container while it starts (podman extracts
 *     into the root file system): an archive upload and a start of one
 *     container are never in flight together (startcheck_lock).
 */
#include "monitor/gateway.h"
#include "monitor/exchange/backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/exchange/answer.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/startcheck.h"
#include "monitor/log.h"
#include "policy/body.h"
#include "policy/json.h"
#include "policy/query.h"

#define SC_MAX		32	/* containers checked for one start */
#define SC_DEPTH	64	/* components of a walked path */
/* the advisories whose paths are walked before a start */
#define WALK_ADVS	(1u << ADV_PODMAN_WORKDIR | 1u << ADV_PODMAN_VOLUME_CHOWN)
#define STAT_FIELD	"X-Docker-Container-Path-Stat"
#define GO_MODE_DIR	(1ULL << 31)	/* Go's fs.ModeDir */
#define GO_MODE_SYMLINK	(1ULL << 27)	/* Go's fs.ModeSymlink */
#define LIBPOD		"/v4.0.0/libpod"

enum sc_step { SC_STOP = 1, SC_POD, SC_INSPECT, SC_HEAD, SC_REMOVE, SC_WALK };

struct startcheck {
	enum sc_step step;
	int pod;			/* a pod's start or restart */
	int podman;			/* libpod inspects (Dependencies) */
	int workdir;			/* the podman-workdir advisory applies */
	int volchown;			/* the podman-volume-chown one */
	char ids[SC_MAX][65];		/* containers to check */
	size_t n, i;
	char name[65];			/* the current one, for messages */
	char wd[CG_PATH_MAX + 1];	/* the path being walked, cleaned: its
					   working directory, then each volume
					   target ("" none) */
	size_t wdoff;			/* the prefix checked so far */
	int walk_vol;			/* wd is a volume's target */
	char **vt;			/* its volume targets still to walk
					   (podman-volume-chown), malloc'd */
	size_t nvt, ivt;
	char restart[32];		/* its restart policy */
	int wd_safe;			/* "/", or on a mount */
	int autoremove;			/* a start of a --rm container */
	/* an update that makes the container restart by itself: its new
	   setting ("--restart always", ...); no start, no walk */
	char update[48];
	/* a refusal that waits for that container's removal */
	char rcode[32], rhint[160], rdetail[CG_DETAIL_MAX];
};

/* ---------------------------------------------------------------- locks */

/*
 * Containers with a start, an archive upload or a walk of their root file
 * system (commit, diff, export) in flight, with their connection: a start
 * and either of the others on one container are never in flight together,
 * the second refused. A tiny table: an entry per container a request
 * names (a pod's start: each of its containers), and the orphans below.
 *
 * A walk the daemon may still run after its request ended without the
 * daemon's answer (the client went away, the gateway timed out: podman
 * goes on committing whatever happens to the client) keeps its lock as an
 * orphan (c NULL) for WALK_ORPHAN_MS; an export's lock lasts until its
 * tar is relayed (dockerd sends the head first and tars as it sends).
 */
enum lock_kind { LK_START, LK_UPLOAD, LK_WALK };
struct sc_lock {
	struct conn *c;			/* NULL: orphaned */
	char id[65];
	enum lock_kind kind;
	int to_end;			/* held until c's response is relayed */
	long long expires;		/* an orphan's end (monotonic ms) */
};
static struct sc_lock *locks;
static size_t nlocks, caplocks;

#define WALK_ORPHAN_MS	(10 * 60 * 1000LL)

static void vt_clear(struct startcheck *s);

static void startcheck_settle(struct conn *c, int status);

/* Lock i no longer holds: an orphan past its time, or an export relayed. */
static int
lock_stale(const struct sc_lock *l, long long now)
{
	if (l->c == NULL)
		return now >= l->expires;
	return l->to_end && l->c->rp.resp_done;
}

/*
 * Lock id for c (kind: what c does to it). Returns 0, or 1 + the kind of
 * the lock that excludes it: locks of different kinds exclude each other
 * (a start, an upload, a walk: a copy into a container while podman walks
 * its root file system can swap a directory for a symlink as well).
 */
static int
lock_take(struct conn *c, const char *id, enum lock_kind kind)
{
	long long now = now_ms();
	size_t i;

	for (i = 0; i < nlocks; ) {
		if (lock_stale(&locks[i], now)) {
			locks[i] = locks[--nlocks];
			continue;
		}
		if (strcmp(locks[i].id, id) == 0 && locks[i].c != c &&
		    locks[i].kind != kind)
			return 1 + (int)locks[i].kind;
		i++;
	}
	if (nlocks == caplocks) {
		caplocks = caplocks * 2 + 8;
		locks = xrealloc(locks, caplocks * sizeof(*locks));
	}
	memset(&locks[nlocks], 0, sizeof(*locks));
	locks[nlocks].c = c;
	locks[nlocks].kind = kind;
	snprintf(locks[nlocks++].id, sizeof(locks[0].id), "%s", id);
	c->sc_settle = startcheck_settle;
	return 0;
}

/*
 * What becomes of c's walk lock l when c's request settles (conn_settle's
 * status, -1 for an end without an answer): dropped (0), kept (1: an
 * export whose tar is still relayed) or orphaned (2: the daemon may still
 * walk; the request was written to it and no answer came, or the client
 * left during the tar).
 */
static int
walk_settles(const struct conn *c, struct sc_lock *l, int status)
{
	int sent = c->rs == RS_SENDING || c->rs == RS_STREAM ||
	    c->rs == RS_RESPONSE;

	if (l->to_end)
		return c->rp.resp_done ? 0 : status < 0 ? 2 : 1;
	if (!c->rp.head_done)
		return sent ? 2 : 0;
	if (c->fw.op == FOP_EXPORT && !c->rp.resp_done && status >= 200 &&
	    status < 300) {
		l->to_end = 1;
		return 1;
	}
	return 0;
}

/*
 * c's request ended (head, refusal, end: conn_settle, through
 * c->sc_settle, with its status): its locks and state go, but for walks
 * (walk_settles).
 */
static void
startcheck_settle(struct conn *c, int status)
{
	size_t i, kept = 0;
	int w;

	for (i = 0; i < nlocks; ) {
		if (locks[i].c != c) {
			i++;
			continue;
		}
		w = locks[i].kind == LK_WALK ? walk_settles(c, &locks[i],
		    status) : 0;
		if (w == 0) {
			locks[i] = locks[--nlocks];
			continue;
		}
		if (w == 2) {
			locks[i].c = NULL;
			locks[i].to_end = 0;
			locks[i].expires = now_ms() + WALK_ORPHAN_MS;
		} else {
			kept++;
		}
		i++;
	}
	if (nlocks == 0) {
		free(locks);
		locks = NULL;
		caplocks = 0;
	}
	if (c->sc != NULL)
		vt_clear(c->sc);
	if (c->sc != NULL)
		vt_clear(c->sc);
	free(c->sc);
	c->sc = NULL;
	if (kept == 0)
		c->sc_settle = NULL;
}

/* ---------------------------------------------------------------- helpers */

/* The id of c's path ref (verify_forward), into out; 0, or -1 for none
 * or one longer than 64 bytes. */
static int
target_id(const struct conn *c, char out[65])
{
	size_t n = c->fw.ref_len;

	if (n == 0 || n > 64)
		return -1;
	memcpy(out, c->fw.target + c->fw.ref_off, n);
	out[n] = '\0';
	return 0;
}

/* path cleaned as Go's filepath.Clean of "/" + path, into out. */
static void
clean_path(const char *path, char *out, size_t outsz)
{
	char *clean = cg_path_clean(path, 1);

	snprintf(out, outsz, "%s", clean);
	free(clean);
}

/* a equal to, below or above b (both clean), as podman's isPathOnMount. */
static int
related(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (strcmp(a, "/") == 0 || strcmp(b, "/") == 0)
		return 1;
	if (la <= lb)
		return strncmp(a, b, la) == 0 && (b[la] == '\0' || b[la] == '/');
	return strncmp(a, b, lb) == 0 && a[lb] == '/';
}

static void ask(struct conn *c, const char *method, const char *path,
    int head);

/*
 * Refuse c's start (code, hint, detail from fmt), in the monitor's own
 * words (answer_refuse). A --rm container whose start is refused is
 * removed first, as both daemons remove one whose start failed: the
 * docker CLI waits for that removal and would hang otherwise (measured
 * with podman 4.3.1: docker run --rm with a failing start exits 127 and
 * the container is gone).
 */
static void __attribute__((format(printf, 4, 5)))
refuse(struct conn *c, const char *code, const char *hint,
    const char *fmt, ...)
{
	struct startcheck *s = c->sc;
	char path[160], detail[CG_DETAIL_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (s == NULL) {	/* an upload (startcheck_lock): no check state */
		answer_refuse(c, code, hint, "%s", detail);
		return;
	}
	snprintf(s->rdetail, sizeof(s->rdetail), "%s", detail);
	/*
	 * docker run and start -a attach before they start, and podman's
	 * attach inits the container: refused, the attach's own 403 would
	 * read "unable to upgrade to tcp, received 403" in the CLI. An empty
	 * stream instead, and the start then says why.
	 */
	if (c->fw.op == FOP_ATTACH) {
		snprintf(s->rcode, sizeof(s->rcode), "%s", code);
		answer_empty_stream(c, s->rcode, s->rdetail);
		return;
	}
	if (!s->autoremove) {
		answer_refuse(c, code, hint, "%s", s->rdetail);
		return;
	}
	snprintf(s->rcode, sizeof(s->rcode), "%s", code);
	snprintf(s->rhint, sizeof(s->rhint), "%s", hint);
	snprintf(path, sizeof(path), "/v1.41/containers/%s?force=1&v=1",
	    s->ids[0]);
	s->step = SC_REMOVE;
	ask(c, "DELETE", path, 0);
}

/* v's string, or def when v is no string. */
static const char *
str_of(const cJSON *v, const char *def)
{
	return cJSON_IsString(v) ? v->valuestring : def;
}

/* Start internal request "METHOD path" for c's check. */
static void
ask(struct conn *c, const char *method, const char *path, int head)
{
	char *req;
	int n;

	n = asprintf(&req, "%s %s HTTP/1.1\r\nHost: docker\r\nUser-Agent: "
	    "container-gateway/" CG_VERSION "\r\n%s\r\n", method, path,
	    strcmp(method, "POST") == 0 ? "Content-Length: 0\r\n" : "");
	if (n < 0)
		xoom();
	c->rs = RS_PHASE;
	if (backend_internal(c, req, (size_t)n, strcmp(method, "GET") == 0 ||
	    strcmp(method, "HEAD") == 0) < 0) {
		backend_refuse_transport(c, 0);
		return;
	}
	c->bc.head_only = head;
}

static void next(struct conn *c);

/* ---------------------------------------------------------------- steps */

/* A container to check (deduplicated); -1 after a refusal. */
static int
enqueue(struct conn *c, const char *id)
{
	struct startcheck *s = c->sc;
	size_t i;
	int held;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->ids[i], id) == 0)
			return 0;
	if (s->n == SC_MAX) {
		refuse(c, "dependency-containers", "start the containers one "
		    "by one", "more than %d containers would start", SC_MAX);
		return -1;
	}
	held = lock_take(c, id, LK_START);
	if (held == 1 + LK_UPLOAD) {
		refuse(c, "host-path", "retry once the copy is done",
		    "a copy into container %.12s is in flight; it is started "
		    "afterwards", id);
		return -1;
	}
	if (held != 0) {
		refuse(c, "host-path", "retry once it is done (after a client "
		    "that went away, within 10 minutes)", "a commit, diff or "
		    "export of container %.12s may be in flight in the daemon, "
		    "which reads its root file system on the host (advisory "
		    "podman-rootfs-walk); it is started afterwards", id);
		return -1;
	}
	snprintf(s->ids[s->n++], sizeof(s->ids[0]), "%s", id);
	return 0;
}

static void
inspect_next(struct conn *c)
{
	struct startcheck *s = c->sc;
	char path[256];

	s->step = SC_INSPECT;
	snprintf(path, sizeof(path), "%s/containers/%s/json", s->podman ?
	    LIBPOD : "/v1.41", s->ids[s->i]);
	ask(c, "GET", path, 0);
}

/* The volume targets of the current container are walked no more. */
static void
vt_clear(struct startcheck *s)
{
	while (s->nvt > 0)
		free(s->vt[--s->nvt]);
	free(s->vt);
	s->vt = NULL;
	s->ivt = 0;
}

static void head_next(struct conn *c);

/*
 * The walk of s->wd is over (or there was none): the next volume target
 * of the current container is walked, or the next container checked. A
 * path deeper than SC_DEPTH components is refused.
 */
static void
walk_next(struct conn *c)
{
	struct startcheck *s = c->sc;
	const char *p;
	int depth;

	if (s->wd[0] == '\0' && s->ivt < s->nvt) {
		snprintf(s->wd, sizeof(s->wd), "%s", s->vt[s->ivt++]);
		s->wdoff = 0;
		s->walk_vol = 1;
	}
	if (s->wd[0] == '\0') {
		vt_clear(s);
		s->i++;
		next(c);
		return;
	}
	for (depth = 0, p = s->wd; *p != '\0'; p++)
		depth += *p == '/';
	if (depth > SC_DEPTH && !s->walk_vol) {
		refuse(c, "host-path", "use a shorter working directory",
		    "working directory of container %s has more than %d "
		    "components to check", s->name, SC_DEPTH);
		return;
	}
	if (depth > SC_DEPTH) {
		refuse(c, "host-path", "mount the volume at a shorter path",
		    "volume target %s of container %s has more than %d "
		    "components to check", s->wd, s->name, SC_DEPTH);
		return;
	}
	head_next(c);
}

/* HEAD the next prefix of s->wd; at its end, walk_next(). */
static void
head_next(struct conn *c)
{
	struct startcheck *s = c->sc;
	struct cg_query *q;
	char prefix[CG_PATH_MAX + 1], *enc, *path;
	size_t end;

	if (s->wdoff >= strlen(s->wd) || strcmp(s->wd, "/") == 0) {
		s->wd[0] = '\0';
		walk_next(c);
		return;
	}
	end = s->wdoff + 1 + strcspn(s->wd + s->wdoff + 1, "/");
	memcpy(prefix, s->wd, end);
	prefix[end] = '\0';
	s->wdoff = end;
	q = query_new();
	query_append(q, "path", prefix);
	enc = query_encode(q, NULL);
	query_free(q);
	if (asprintf(&path, "/v1.41/containers/%s/archive?%s", s->ids[s->i],
	    enc) < 0)
		xoom();
	free(enc);
	s->step = SC_HEAD;
	ask(c, "HEAD", path, 1);
	free(path);
}

/* Everything checked: the request goes to the backend. */
static void
next(struct conn *c)
{
	struct startcheck *s = c->sc;

	if (s->i < s->n) {
		inspect_next(c);
		return;
	}
	c->rs = RS_PHASE;
	backend_forward(c);
}

/*
 * The inspected container's Mounts (an inspect's array, or NULL): a
 * volume or bind target at or below /dev, /proc or /sys refuses (-1); a
 * mount at, above or below the working directory makes it safe (podman
 * resolves nothing there); each volume target is kept to walk
 * (podman-volume-chown). 0 otherwise.
 */
static int
mounts_read(struct conn *c, const cJSON *mounts)
{
	struct startcheck *s = c->sc;
	char dest[CG_PATH_MAX + 1];
	const cJSON *m, *d;
	const char *type;

	m = cJSON_IsArray(mounts) ? mounts->child : NULL;
	for (; m != NULL; m = m->next) {
		d = json_get(m, "Destination");
		type = str_of(json_get(m, "Type"), "");
		if (!cJSON_IsString(d))
			continue;
		clean_path(d->valuestring, dest, sizeof(dest));
		if (strcmp(type, "tmpfs") != 0 && mount_target_reserved(dest)) {
			refuse(c, "bind-mount", "create the container without "
			    "it, or build the image without that VOLUME",
			    "container %s has a volume or bind at %s, at or "
			    "below /dev, /proc or /sys", s->name, dest);
			return -1;
		}
		if (related(s->wd, dest))
			s->wd_safe = 1;
		if (s->volchown && strcmp(type, "volume") == 0 &&
		    strcmp(dest, "/") != 0) {
			s->vt = xrealloc(s->vt, (s->nvt + 1) *
			    sizeof(*s->vt));
			s->vt[s->nvt++] = xstrdup(dest);
		}
	}
	return 0;
}

/* The inspect of s->ids[s->i]: its mounts, working directory, policy. */
static void
inspected(struct conn *c, const char *body, size_t len)
{
	struct startcheck *s = c->sc;
	const cJSON *d, *hc, *deps;
	cJSON *tree = json_parse(body, len, NULL, 0);
	const char *wd, *pol;
	int ro;

	if (!cJSON_IsObject(tree)) {
		cJSON_Delete(tree);
		backend_refuse(c, "backend-unreachable", "unexpected container "
		    "inspect response");
		return;
	}
	snprintf(s->name, sizeof(s->name), "%.12s", s->ids[s->i]);
	wd = str_of(json_get(json_get(tree, "Config"), "WorkingDir"), "/");
	clean_path(wd, s->wd, sizeof(s->wd));
	s->wdoff = 0;
	s->wd_safe = strcmp(s->wd, "/") == 0;
	hc = json_get(tree, "HostConfig");
	if (s->i == 0 && !s->pod && c->fw.op == FOP_ATTACH &&
	    cJSON_IsTrue(json_get(json_get(tree, "State"), "Running"))) {
		cJSON_Delete(tree);	/* attached to as it runs: no init */
		c->rs = RS_PHASE;
		backend_forward(c);
		return;
	}
	if (s->i == 0 && !s->pod && c->fw.op == FOP_START)
		s->autoremove = cJSON_IsTrue(json_get(hc, "AutoRemove"));
	if (mounts_read(c, json_get(tree, "Mounts")) < 0) {
		cJSON_Delete(tree);
		return;
	}
	ro = cJSON_IsTrue(json_get(hc, "ReadonlyRootfs"));
	pol = str_of(json_get(json_get(hc, "RestartPolicy"), "Name"), "");
	deps = json_get(tree, "Dependencies");
	for (d = cJSON_IsArray(deps) ? deps->child : NULL; d != NULL;
	    d = d->next)
		if (cJSON_IsString(d) && strlen(d->valuestring) <= 64 &&
		    enqueue(c, d->valuestring) < 0) {
			cJSON_Delete(tree);
			return;
		}
	s->restart[0] = '\0';
	if (pol[0] != '\0' && strcmp(pol, "no") != 0)
		snprintf(s->restart, sizeof(s->restart), "--restart %.20s", pol);
	if (s->update[0] != '\0')
		snprintf(s->restart, sizeof(s->restart), "%s", s->update);
	/* podman restarts an unhealthy one itself (libpod healthcheck.go) */
	if (strcmp(str_of(json_get(json_get(tree, "Config"),
	    "HealthcheckOnFailureAction"), ""), "restart") == 0)
		snprintf(s->restart, sizeof(s->restart), "health-on-failure "
		    "restart");
	cJSON_Delete(tree);
	if (s->workdir && s->restart[0] != '\0' && !s->wd_safe && !ro) {
		refuse(c, "host-path", "create it with --read-only, with -w / "
		    "or a working directory on a volume, or without --restart; "
		    "or run podman 5.7.1 or later", "container %s restarts "
		    "by itself (%s) with working directory %s in a writable "
		    "root file system: this podman would resolve it on the host "
		    "at each restart, unchecked", s->name, s->restart, s->wd);
		return;
	}
	/* no working directory walk: safe, podman resolves it itself, or no
	   start (an update); an update walks no volume target either */
	s->walk_vol = 0;
	if (!s->workdir || s->wd_safe || s->update[0] != '\0')
		s->wd[0] = '\0';
	if (s->update[0] != '\0')
		vt_clear(s);
	walk_next(c);
}

/* Base64 (RFC 4648, padded) of in[0..len) into out; its length, or -1. */
static long
b64_decode(const char *in, size_t len, unsigned char *out, size_t outsz)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
	    "qrstuvwxyz0123456789+/";
	unsigned v = 0;
	size_t i, o = 0;
	int bits = 0;
	const char *p;

	for (i = 0; i < len && in[i] != '='; i++) {
		p = memchr(a, in[i], 64);
		if (p == NULL || in[i] == '\0')
			return -1;
		v = (v << 6) | (unsigned)(p - a);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o == outsz)
				return -1;
			out[o++] = (unsigned char)(v >> bits);
		}
	}
	return (long)o;
}

/*
 * The HEAD of one prefix of the working directory answered status, with
 * the stat field's value stat[0..slen) (slen 0: none).
 */
static void
headed(struct conn *c, int status, const char *stat, size_t slen)
{
	struct startcheck *s = c->sc;
	unsigned char json[4096];
	unsigned long long mode;
	const cJSON *m;
	cJSON *tree;
	long n;
	char prefix[CG_PATH_MAX + 1];

	snprintf(prefix, sizeof(prefix), "%.*s", (int)s->wdoff, s->wd);
	if (status == 404 && slen == 0) {
		/* missing: podman makes the rest below checked directories */
		s->wd[0] = '\0';
		walk_next(c);
		return;
	}
	/*
	 * A symlink whose target is missing inside the container answers
	 * 404 with the stat of the link itself (measured, podman 4.3.1):
	 * on the host it may well resolve.
	 */
	n = (status == 200 || status == 404) && slen > 0 ?
	    b64_decode(stat, slen, json, sizeof(json) - 1) : -1;
	tree = n > 0 ? json_parse((const char *)json, (size_t)n, NULL, 0) :
	    NULL;
	m = json_get(tree, "mode");
	if (!json_is_number(m) || sscanf(m->valuestring, "%llu", &mode) != 1) {
		cJSON_Delete(tree);
		backend_refuse(c, "backend-unreachable", "the daemon did not "
		    "say what %s is in container %s (HEAD archive: %d)", prefix,
		    s->name, status);
		return;
	}
	cJSON_Delete(tree);
	if ((mode & GO_MODE_SYMLINK) && s->walk_vol) {
		refuse(c, "host-path", "mount the volume at the directory's "
		    "real path", "volume target %s of container %s goes "
		    "through the symlink %s, which podman would follow on the "
		    "host to give a new volume that path's owner, mode and "
		    "times", s->wd, s->name, prefix);
		return;
	}
	if (mode & GO_MODE_SYMLINK) {
		refuse(c, "host-path", "use the directory's real path as the "
		    "working directory (-w), or run podman 5.7.1 or later",
		    "working directory %s of container %s goes through the "
		    "symlink %s, which this podman would follow on the host",
		    s->wd, s->name, prefix);
		return;
	}
	if (status == 404 || !(mode & GO_MODE_DIR)) {
		/* not a directory: podman fails the start itself, or (a
		   volume's target) stats nothing below it */
		s->wd[0] = '\0';
		walk_next(c);
		return;
	}
	head_next(c);
}

/* The pod's containers, to check each. */
static void
pod_inspected(struct conn *c, const char *body, size_t len)
{
	const cJSON *e;
	cJSON *tree = json_parse(body, len, NULL, 0);

	if (!cJSON_IsObject(tree)) {
		cJSON_Delete(tree);
		backend_refuse(c, "backend-unreachable", "unexpected pod inspect "
		    "response");
		return;
	}
	e = json_get(tree, "Containers");
	for (e = cJSON_IsArray(e) ? e->child : NULL; e != NULL; e = e->next) {
		const cJSON *id = json_get(e, "Id");

		if (cJSON_IsString(id) && strlen(id->valuestring) <= 64 &&
		    enqueue(c, id->valuestring) < 0) {
			cJSON_Delete(tree);
			return;
		}
	}
	cJSON_Delete(tree);
	next(c);
}

/*
 * The answer to the HEAD of SC_HEAD, in c->bc.in: its status and stat
 * field (STAT_FIELD, copied out before the backend connection is
 * released) go to headed(); a head that does not parse refuses.
 */
static void
head_answered(struct conn *c)
{
	const struct http_field *f;
	struct http_response resp;
	char stat[4096 * 4 / 3 + 8];
	size_t slen = 0;
	int status;

	if (http_parse_response(c->bc.in, c->bc.inlen, &resp) < 0) {
		backend_refuse_transport(c, 0);
		return;
	}
	/* resp points into c->bc.in: copied out before the release */
	f = http_find_field(resp.fields, resp.nfields, STAT_FIELD);
	if (f != NULL && f->value_len < sizeof(stat)) {
		memcpy(stat, f->value, f->value_len);
		slen = f->value_len;
	}
	status = resp.status;
	backend_release(c);
	headed(c, status, stat, slen);
}

/*
 * The stop before a restart answered status: stopped (204, 304) goes on
 * to the pod's inspect or the next container, gone (404) is forwarded
 * for the daemon to answer, anything else refuses.
 */
static void
stop_answered(struct conn *c, int status)
{
	struct startcheck *s = c->sc;
	char path[160];

	if (status != 204 && status != 304 && status != 404) {
		backend_refuse(c, "backend-unreachable", "the container "
		    "could not be stopped before its restart (%d)",
		    status);
		return;
	}
	if (status == 404) {	/* the daemon answers the restart */
		c->rs = RS_PHASE;
		backend_forward(c);
		return;
	}
	if (s->pod) {
		s->step = SC_POD;
		snprintf(path, sizeof(path), LIBPOD "/pods/%s/json",
		    s->ids[0]);
		s->n = 0;
		ask(c, "GET", path, 0);
		return;
	}
	next(c);
}

/* The internal exchange of a start's check ended (startcheck_done). */
static void
start_done(struct conn *c, int ok, int timeout)
{
	struct startcheck *s = c->sc;
	char *body = NULL;
	size_t len = 0;
	int status = 0;

	if (!ok) {
		backend_refuse_transport(c, timeout);
		return;
	}
	if (s->step == SC_HEAD) {
		head_answered(c);
		return;
	}
	if (backend_internal_done(c, 1, &status, &body, &len) < 0) {
		backend_refuse_transport(c, 0);
		return;
	}
	switch (s->step) {
	case SC_REMOVE: {
		/* copies: the refusal ends the check (startcheck_settle) */
		char code[32], hint[160], detail[CG_DETAIL_MAX];

		free(body);
		memcpy(code, s->rcode, sizeof(code));
		memcpy(hint, s->rhint, sizeof(hint));
		memcpy(detail, s->rdetail, sizeof(detail));
		answer_refuse(c, code, hint, "%s", detail);
		return;
	}
	case SC_STOP:
		free(body);
		stop_answered(c, status);
		return;
	case SC_POD:
		if (status != 200) {
			free(body);
			c->rs = RS_PHASE;
			backend_forward(c);	/* the daemon answers it */
			return;
		}
		pod_inspected(c, body, len);
		break;
	case SC_INSPECT:
		if (status == 404 && s->i > 0) {
			s->i++;		/* a dependency gone: podman says so */
			next(c);
		} else if (status == 404) {
			c->rs = RS_PHASE;
			backend_forward(c);
		} else if (status != 200) {
			backend_refuse(c, "backend-unreachable", "unexpected "
			    "container inspect response (%d)", status);
		} else {
			inspected(c, body, len);
		}
		break;
	default:
		break;
	}
	free(body);
}

/* ---------------------------------------------------------------- walks */

/*
 * Commit, diff (changes) and export: podman walks the container's root
 * file system on the host, by path, without a chroot (measured by the red
 * team on podman 4.3.1: libpod commit and diff tar or list the overlay
 * upper directory; a process that writes the root file system while the
 * walk runs swapped a directory for a symlink to a host directory, and
 * the committed image held the host's /etc/shadow, the diff listed the
 * host's /root; with pause=true a second container of the pod, sharing its
 * pid namespace, raced through /proc/<pid>/root). Export tars the same
 * mounted root. dockerd's overlay2 diff also tars the upper directory on
 * the host (not measured). So the monitor refuses these walks of a
 * container that has processes, as the daemon tells at request time, and
 * holds off its starts (a walk lock) while the walk runs: a stopped
 * container has no process that could redirect the walk (advisory
 * podman-rootfs-walk, tool.md "Backend advisories").
 */

/* The word the CLIs use for c's walk. */
static const char *
walk_name(const struct conn *c)
{
	return c->fw.op == FOP_COMMIT ? "commit" : c->fw.op == FOP_CHANGES ? "diff" :
	    "export";
}

/*
 * The container c's walk names, into out: the path ref (changes,
 * export), or commit's container query value (an id the monitor answered
 * owned: verify_query_refs). 0, or -1 for none.
 */
static int
walk_target(const struct conn *c, char out[65])
{
	const char *t = memchr(c->fw.target, '?', c->fw.target_len), *v;
	struct cg_query *q;
	struct cg_refusal r;
	int rc = -1;

	if (c->fw.op != FOP_COMMIT)
		return target_id(c, out);
	q = t != NULL ? query_parse(t + 1, c->fw.target_len -
	    (size_t)(t + 1 - c->fw.target), &r) : NULL;
	v = q != NULL ? query_get(q, "container") : NULL;
	if (v != NULL && v[0] != '\0' && strlen(v) <= 64) {
		snprintf(out, 65, "%s", v);
		rc = 0;
	}
	if (q != NULL)
		query_free(q);
	return rc;
}

/*
 * The inspect of a walk's container (podman's own, dockerd's compat),
 * body[0..len): passes (1) when its state has no process (created,
 * configured, exited, stopped; not running, paused or restarting, no pid)
 * and the daemon will not start it by itself meanwhile (no restart
 * policy, or never started); a commit also when the container runs
 * outside a pod: the policy forwards it with pause=true (policy/
 * query_policy.c qp_commit), which freezes every process that could
 * reach its root file system, as no container of this gateway joins
 * another's pid namespace but through a pod (policy.md §3.2). Else
 * refused (0).
 */
static int
walk_inspected(struct conn *c, const char *body, size_t len)
{
	static const char *const idle[] = { "created", "configured", "exited",
	    "stopped" };
	const struct listener *l = &c->gw->lis[c->lis];
	const char *daemon = l->backend_kind == CG_PODMAN ? "podman" :
	    "the daemon";
	struct startcheck *s = c->sc;
	cJSON *tree = json_parse(body, len, NULL, 0);
	const cJSON *st = json_get(tree, "State"), *pid = json_get(st, "Pid");
	char state[24], pol[24];
	int idle_ok = 0, fresh, pod;
	size_t i;

	if (!cJSON_IsObject(tree)) {
		cJSON_Delete(tree);
		backend_refuse(c, "backend-unreachable", "unexpected container "
		    "inspect response");
		return 0;
	}
	snprintf(state, sizeof(state), "%s", str_of(json_get(st, "Status"),
	    "unknown"));
	snprintf(pol, sizeof(pol), "%s", str_of(json_get(json_get(json_get(
	    tree, "HostConfig"), "RestartPolicy"), "Name"), ""));
	for (i = 0; i < sizeof(idle) / sizeof(idle[0]); i++)
		idle_ok |= strcmp(state, idle[i]) == 0;
	if (cJSON_IsTrue(json_get(st, "Running")) ||
	    cJSON_IsTrue(json_get(st, "Paused")) ||
	    cJSON_IsTrue(json_get(st, "Restarting")) ||
	    (json_is_number(pid) && strcmp(pid->valuestring, "0") != 0))
		idle_ok = 0;
	pod = str_of(json_get(tree, "Pod"), "")[0] != '\0';
	cJSON_Delete(tree);
	fresh = strcmp(state, "created") == 0 ||
	    strcmp(state, "configured") == 0;
	if (!idle_ok && c->fw.op == FOP_COMMIT && !pod)
		return 1;	/* frozen by pause=true for the walk */
	if (!idle_ok && c->fw.op == FOP_COMMIT) {
		refuse(c, "host-path", "docker stop (or podman --remote stop) "
		    "it, then commit it", "commit: stop the container first: "
		    "container %s is %s in a pod, whose containers can reach "
		    "its files while %s reads them on the host, paused or not "
		    "(advisory podman-rootfs-walk)", s->name, state, daemon);
		return 0;
	}
	if (!idle_ok) {
		refuse(c, "host-path", "docker stop (or podman --remote stop) "
		    "it, then run the command again", "%s: stop the container "
		    "first: container %s is %s, and %s reads a running "
		    "container's files on the host, where the container can "
		    "redirect it (advisory podman-rootfs-walk)", walk_name(c),
		    s->name, state, daemon);
		return 0;
	}
	if (!fresh && pol[0] != '\0' && strcmp(pol, "no") != 0) {
		refuse(c, "host-path", "create the container without --restart",
		    "%s: container %s restarts by itself (--restart %s): %s "
		    "could start it while it reads its files on the host "
		    "(advisory podman-rootfs-walk)", walk_name(c), s->name,
		    pol, daemon);
		return 0;
	}
	return 1;
}

/* The internal exchange of a walk's inspect ended; 1 when it passed. */
static int
walk_done(struct conn *c, int ok, int timeout)
{
	char *body = NULL;
	size_t len = 0;
	int status = 0, pass = 0;

	if (!ok) {
		backend_refuse_transport(c, timeout);
		return 0;
	}
	if (backend_internal_done(c, 1, &status, &body, &len) < 0) {
		backend_refuse_transport(c, 0);
		return 0;
	}
	if (status == 404)
		pass = 1;	/* gone: the daemon answers the walk itself */
	else if (status != 200)
		backend_refuse(c, "backend-unreachable", "unexpected container "
		    "inspect response (%d)", status);
	else
		pass = walk_inspected(c, body, len);
	free(body);
	if (pass) {
		/* the lock stays (c->sc_settle) until the walk ends */
		free(c->sc);
		c->sc = NULL;
	}
	return pass;
}

int
startcheck_walk(struct conn *c)
{
	struct startcheck *s;
	char id[65], path[160];

	if ((c->fw.op != FOP_COMMIT && c->fw.op != FOP_CHANGES &&
	    c->fw.op != FOP_EXPORT) || walk_target(c, id) < 0)
		return 0;
	s = c->sc = xcalloc(1, sizeof(*s));
	c->sc_settle = startcheck_settle;	/* conn_settle frees it */
	snprintf(s->ids[0], sizeof(s->ids[0]), "%s", id);
	s->n = 1;
	snprintf(s->name, sizeof(s->name), "%.12s", id);
	c->rs = RS_PHASE;
	if (lock_take(c, id, LK_WALK) != 0) {
		refuse(c, "host-path", "retry once that is done", "%s: container "
		    "%s is being started or copied into (advisory "
		    "podman-rootfs-walk)", walk_name(c), s->name);
		return 1;
	}
	s->step = SC_WALK;
	/* podman's own inspect names the container's pod */
	snprintf(path, sizeof(path), "%s/containers/%s/json",
	    c->gw->lis[c->lis].backend_kind == CG_PODMAN ? LIBPOD : "/v1.41",
	    id);
	ask(c, "GET", path, 0);
	return 1;
}

int
startcheck_done(struct conn *c, int ok, int timeout)
{
	if (c->sc->step == SC_WALK)
		return walk_done(c, ok, timeout);
	start_done(c, ok, timeout);
	return 0;
}

int
startcheck_lock(struct conn *c)
{
	const struct listener *l = &c->gw->lis[c->lis];
	char id[65];
	int held;

	if (!(l->advisories & WALK_ADVS) || c->fw.op != FOP_ARCHIVE_PUT ||
	    target_id(c, id) < 0)
		return 0;
	held = lock_take(c, id, LK_UPLOAD);
	if (held == 0)
		return 0;
	if (held == 1 + LK_WALK)
		refuse(c, "host-path", "retry once it is done", "a commit, diff "
		    "or export of container %.12s is in flight (advisory "
		    "podman-rootfs-walk); a copy into it waits until then", id);
	else
		refuse(c, "host-path", "retry once it has started", "container "
		    "%.12s is being started; a copy into it waits until then",
		    id);
	return 1;
}

/*
 * The self-restart an update body[0..len) asks for (compat RestartPolicy,
 * libpod health_on_failure: podman 5 applies both to a running
 * container), into out ("" none).
 */
static void
update_restart(const char *body, size_t len, char *out, size_t outsz)
{
	cJSON *tree = body != NULL ? json_parse(body, len, NULL, 0) : NULL;
	const char *pol = str_of(json_get(json_get(tree, "RestartPolicy"),
	    "Name"), ""), *hc = str_of(json_get(tree, "health_on_failure"), "");

	out[0] = '\0';
	if (pol[0] != '\0' && strcmp(pol, "no") != 0)
		snprintf(out, outsz, "--restart %.20s", pol);
	else if (strcmp(hc, "restart") == 0)
		snprintf(out, outsz, "health-on-failure restart");
	cJSON_Delete(tree);
}

int
startcheck_start(struct conn *c)
{
	const struct listener *l = &c->gw->lis[c->lis];
	struct startcheck *s;
	const char *t;
	char path[256], id[65], tq[32] = "";
	int pod = c->fw.op == FOP_POD_START || c->fw.op == FOP_POD_RESTART;
	int restart = c->fw.op == FOP_RESTART || c->fw.op == FOP_POD_RESTART;
	/* podman's attach inits a container that is not running, "for
	   Docker compatibility" (compat AttachContainer, v4.3.1) */
	int attach = c->fw.op == FOP_ATTACH && (l->advisories & WALK_ADVS);
	struct cg_query *q;
	struct cg_refusal r;
	char upd[48] = "";

	/* an update that makes a container restart itself (podman 5) */
	if (c->fw.op == FOP_UPDATE &&
	    (l->advisories & (1u << ADV_PODMAN_WORKDIR)))
		update_restart(c->json, (size_t)c->body_len, upd, sizeof(upd));
	if ((c->fw.op != FOP_START && c->fw.op != FOP_POD_START && !restart &&
	    !attach && upd[0] == '\0' && c->fw.op != FOP_INIT) ||
	    target_id(c, id) < 0 ||
	    (l->backend_kind == CG_PODMAN ? 0 : pod))
		return 0;
	s = c->sc = xcalloc(1, sizeof(*s));
	c->sc_settle = startcheck_settle;	/* conn_settle frees it */
	s->pod = pod;
	s->podman = l->backend_kind == CG_PODMAN;
	s->workdir = (l->advisories & (1u << ADV_PODMAN_WORKDIR)) != 0;
	s->volchown = (l->advisories & (1u << ADV_PODMAN_VOLUME_CHOWN)) != 0;
	snprintf(s->update, sizeof(s->update), "%s", upd);
	c->rs = RS_PHASE;
	if (pod)
		snprintf(s->ids[0], sizeof(s->ids[0]), "%s", id);
	else if (enqueue(c, id) < 0)
		return 1;
	if (restart && s->workdir) {
		/* the client's stop timeout, if any */
		t = strchr(c->fw.target, '?');
		q = t != NULL ? query_parse(t + 1, strlen(t + 1), &r) : NULL;
		if (q != NULL && query_get(q, "t") != NULL &&
		    strspn(query_get(q, "t"), "0123456789") ==
		    strlen(query_get(q, "t")) && strlen(query_get(q, "t")) < 6)
			snprintf(tq, sizeof(tq), "?t=%s", query_get(q, "t"));
		if (q != NULL)
			query_free(q);
		snprintf(path, sizeof(path), "%s/%s/%s/stop%s", pod ? LIBPOD :
		    "/v1.41", pod ? "pods" : "containers", id, tq);
		s->step = SC_STOP;
		ask(c, "POST", path, 0);
		if (c->bc.fd >= 0)	/* the stop takes up to t seconds */
			c->bc.deadline += (tq[0] != '\0' ? atol(tq + 3) : 10) *
			    1000LL;
		return 1;
	}
	if (pod) {
		s->step = SC_POD;
		snprintf(path, sizeof(path), LIBPOD "/pods/%s/json", id);
		ask(c, "GET", path, 0);
		return 1;
	}
	next(c);
	return 1;
}
