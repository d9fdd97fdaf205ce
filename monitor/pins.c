/*
 * Pinned bind sources, the monitor's side (monitor/pins.h; doc/privsep.md
 * "The pinner"; spec amendment of 2026-12-07: a bind source checked at
 * create is the one mounted at every later start, restart and archive
 * call).
 *
 * At a container or pod create the monitor has checked every bind source
 * (the replay, policy.md §4.4). Once the named-resource phase passed, it
 * asks the pinner to open each source without following a symlink and
 * bind-mount it at <PIN_BASE>/pins/<key>/<name>, and forwards the body
 * with each source rewritten to that path: the daemon, runc and podman's
 * archive code then resolve a root-owned path nobody else can change, to
 * the directory that was checked, at every start, restart (the daemon's
 * own under a restart policy included), init and docker cp, for the
 * container's life. A failed create's pins go at once; the others when
 * no container of the project uses them any more: a sweep compares the
 * key directory with the Mounts of the project's containers (start-up,
 * every minute while pins exist, soon after a remove) and leaves alone
 * the pins of creates still in flight.
 */
#include "monitor/pins.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "monitor/exchange/exchange.h"
#include "monitor/log.h"
#include "monitor/pin.h"
#include "monitor/task.h"
#include "policy/body.h"
#include "policy/json.h"

#define PIN_TIMEOUT_MS	5000	/* one request to the pinner */
#define SWEEP_PERIOD_MS	60000	/* while pins exist */
#define SWEEP_SOON_MS	1000	/* after a remove or prune */
#define SWEEP_LIST_MAX	JSON_MAX_TEXT	/* a list answer, wire bytes */

/* A pin this gateway made and still tracks. */
struct pin_rec {
	char name[PIN_NAME_MAX + 1];
	int busy;		/* its create has no answer yet */
	long long settled_ms;	/* when it got one (monotonic) */
};

struct pins {
	pid_t pid;		/* -1 once reaped */
	int status;		/* its wait status then */
	int fd;			/* the socket to it; -1 */
	struct pinner_conf conf;
	char dir[CG_PATH_MAX + 1];	/* <base>/pins/<key> */
	char off[200];		/* why pins are off ("" on) */
	uint32_t seq;
	unsigned counter;
	struct pin_rec *rec;
	size_t nrec, caprec;
	long long next_sweep;	/* monotonic ms; 0 none due */
	/* the sweep in progress: one list request per backend */
	struct mtask task;
	int sw_lis;		/* the listener whose backend is asked */
	long long sw_sent;	/* when the first list was asked */
	char **sw_names;	/* the key directory's pins */
	unsigned char *sw_used;	/* sw_names[i] is some container's */
	size_t sw_n;
};

/* ---------------------------------------------------------------- pinner */

int
pins_init(struct gateway *gw)
{
	struct pins *p;
	struct pin_msg m;
	struct pollfd pfd;
	ssize_t n = -1;

	if (geteuid() != 0) {
		log_msg(LOG_INFO, "pins", "bind sources are not pinned: the "
		    "gateway is not root; they are checked at create only "
		    "(tool.md, threat model)");
		return 0;
	}
	p = xcalloc(1, sizeof(*p));
	p->pid = -1;
	p->fd = -1;
	p->task.fd = -1;
	snprintf(p->conf.base, sizeof(p->conf.base), "%s", PIN_BASE);
	snprintf(p->conf.key, sizeof(p->conf.key), "%016llx",
	    (unsigned long long)fnv1a64(gw->run_dir_resolved));
	p->conf.roots = (const char *const *)gw->bind_roots;
	p->conf.nroots = gw->nbind_roots;
	p->conf.excluded = (const char *const *)gw->excluded;
	p->conf.nexcluded = gw->nexcluded;
	snprintf(p->conf.rundir, sizeof(p->conf.rundir), "%s",
	    gw->run_dir_resolved);
	snprintf(p->dir, sizeof(p->dir), "%s/pins/%s", p->conf.base,
	    p->conf.key);
	gw->pins = p;
	p->pid = pinner_start(&p->conf, &p->fd);
	if (p->pid < 0) {
		snprintf(p->off, sizeof(p->off), "the pinner could not be "
		    "started: %s", strerror(errno));
	} else {
		pfd = (struct pollfd){ .fd = p->fd, .events = POLLIN };
		if (poll(&pfd, 1, PIN_TIMEOUT_MS) > 0)
			n = recv(p->fd, &m, sizeof(m), 0);
		if (n != (ssize_t)sizeof(m) || m.magic != PIN_MAGIC ||
		    m.op != PIN_OP_READY)
			snprintf(p->off, sizeof(p->off), "the pinner did not "
			    "start");
		else if (m.err != 0)
			snprintf(p->off, sizeof(p->off), "the pinner cannot "
			    "set up (%.60s: %s)", m.why, strerror(m.err));
	}
	if (p->off[0] != '\0') {
		log_msg(LOG_WARNING, "pins", "bind sources cannot be pinned: %s; "
		    "every create that binds a host path is refused", p->off);
		return 0;
	}
	if (m.start > 0)
		log_msg(LOG_INFO, "pins", "removed %u pins of run directories "
		    "that no longer exist", m.start);
	p->next_sweep = now_ms();	/* what earlier runs left behind */
	log_msg(LOG_INFO, "pins", "bind sources are pinned under %s (pinner "
	    "pid %d)", p->dir, (int)p->pid);
	return 0;
}

/*
 * One request to the pinner, m in and out: sent, then its answer (by
 * seq) awaited up to PIN_TIMEOUT_MS; answers to earlier, timed-out
 * requests are skipped. Returns 0 with the answer in *m, or -errno
 * (ETIMEDOUT, EPIPE: the pinner is gone).
 */
static int
pin_call(struct pins *p, struct pin_msg *m)
{
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	long long deadline = now_ms() + PIN_TIMEOUT_MS, left;
	uint32_t seq = ++p->seq;
	ssize_t n;

	if (p->fd < 0)
		return -EPIPE;
	m->magic = PIN_MAGIC;
	m->seq = seq;
	if (send(p->fd, m, sizeof(*m), MSG_NOSIGNAL) != (ssize_t)sizeof(*m))
		return -EPIPE;
	for (;;) {
		left = deadline - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			continue;
		n = recv(p->fd, m, sizeof(*m), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(*m) || m->magic != PIN_MAGIC)
			return -EPIPE;
		if (m->op == PIN_OP_ANSWER && m->seq == seq)
			return 0;
	}
}

static struct pin_rec *
rec_find(struct pins *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nrec; i++)
		if (strcmp(p->rec[i].name, name) == 0)
			return &p->rec[i];
	return NULL;
}

static void
rec_drop(struct pins *p, struct pin_rec *r)
{
	*r = p->rec[--p->nrec];
}

/* UNPIN name; 0, or -1 (logged). */
static int
unpin(struct pins *p, const char *name)
{
	struct pin_msg m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.op = PIN_OP_UNPIN;
	snprintf(m.name, sizeof(m.name), "%s", name);
	rc = pin_call(p, &m);
	if (rc == 0 && m.err == 0)
		return 0;
	log_msg(LOG_WARNING, "pins", "cannot remove pin %s/%s (%.60s: %s)",
	    p->dir, name, rc < 0 ? "pinner" : m.why,
	    strerror(rc < 0 ? -rc : m.err));
	return -1;
}

/* ---------------------------------------------------------------- creates */

/* Undo the pins of c's request. */
static void
unpin_conn(struct conn *c)
{
	struct pins *p = c->gw->pins;
	struct pin_rec *r;
	unsigned i;

	for (i = 0; i < c->npins; i++) {
		(void)unpin(p, c->pin_names[i]);
		if ((r = rec_find(p, c->pin_names[i])) != NULL)
			rec_drop(p, r);
	}
	c->npins = 0;
}

/*
 * Pin path for c (create: make missing directories); the new pin's name
 * in name. 0, or -1 after the refusal.
 */
static int
pin_one(struct conn *c, const char *path, int create,
    char name[PIN_NAME_MAX + 1])
{
	struct pins *p = c->gw->pins;
	struct timespec ts;
	struct pin_msg m;
	int rc, err;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(name, PIN_NAME_MAX + 1, "%llx-%x",
	    (unsigned long long)ts.tv_sec * 1000ULL +
	    (unsigned long long)ts.tv_nsec / 1000000ULL, ++p->counter);
	memset(&m, 0, sizeof(m));
	m.op = PIN_OP_PIN;
	m.flags = create ? PIN_F_CREATE : 0;
	snprintf(m.name, sizeof(m.name), "%s", name);
	snprintf(m.path, sizeof(m.path), "%s", path);
	rc = pin_call(p, &m);
	err = rc < 0 ? -rc : m.err;
	if (err == 0)
		return 0;
	unpin_conn(c);
	if (rc == 0 && err == ENOENT)
		backend_refuse(c, "bind-mount", "bind source %s does not exist",
		    path);
	else if (rc == 0 && (err == ELOOP || err == ENOTDIR))
		backend_refuse(c, "bind-mount", "bind source %s changed since it "
		    "was checked: a symlink is on its path now", path);
	else {
		log_msg(LOG_WARNING, "pins", "cannot pin %s (%.60s: %s)", path,
		    rc < 0 ? "pinner" : m.why, strerror(err));
		backend_refuse(c, "bind-mount", "bind source %s cannot be "
		    "pinned (%s)", path, strerror(err));
	}
	return -1;
}

int
pins_create(struct conn *c, int pod_create)
{
	struct pins *p = c->gw->pins;
	struct cg_bind_src src[PINS_PER_CREATE];
	char *paths[PINS_PER_CREATE], pin[CG_PATH_MAX + PIN_NAME_MAX + 2];
	unsigned pin_of[PINS_PER_CREATE];
	char *body, *s, err[96];
	cJSON *tree;
	size_t len;
	int n, i, j, rc = 0, create;

	/* the phase's read of the body counted its bind sources
	   (createbody.c); a body that did not parse was refused there */
	if (!c->cb.read)
		return 0;
	n = c->cb.nbind;
	/*
	 * Nothing to pin; or not root (no pins); or a backend that is
	 * neither podman nor dockerd (its _ping's Server field): the pins
	 * were measured on those two (tests/integration/after_check.sh), so
	 * another gets the checked path, as it did before pins.
	 */
	if (n == 0 || (n > 0 && (p == NULL ||
	    c->gw->lis[c->lis].backend_ident == BACKEND_UNKNOWN)))
		return 0;
	if (n < 0) {
		backend_refuse(c, "bind-mount", "more than %d bind mounts",
		    PINS_PER_CREATE);
		return -1;
	}
	if (p->off[0] != '\0') {
		backend_refuse(c, "bind-mount", "bind sources cannot be pinned "
		    "on this gateway (%s); see its log", p->off);
		return -1;
	}
	/* sources to pin: the body is rewritten, which takes its tree (one
	   at a time: the phase's was deleted) */
	createbody_parsed(c);
	tree = json_parse(c->json, (size_t)c->body_len, err, sizeof(err));
	if (tree == NULL)
		return 0;	/* the phase parsed the same bytes */
	n = body_bind_sources((enum cg_api)c->api, pod_create, tree, src,
	    PINS_PER_CREATE);
	if (c->pin_names == NULL)
		c->pin_names = xcalloc(PINS_PER_CREATE, sizeof(*c->pin_names));
	c->npins = 0;
	for (i = 0; i < n; i++)
		paths[i] = xstrndup(src[i].node->valuestring, src[i].len);
	for (i = 0; i < n && rc == 0; i++) {
		/* one pin per path */
		for (j = 0; j < i && strcmp(paths[j], paths[i]) != 0; j++)
			;
		if (j < i) {
			pin_of[i] = pin_of[j];
		} else {
			/* where the daemon itself would create a missing one:
			   Binds (both), Mounts on podman (measured) */
			create = src[i].binds || (c->api == IPC_API_COMPAT &&
			    c->gw->lis[c->lis].backend_kind == CG_PODMAN);
			rc = pin_one(c, paths[i], create,
			    c->pin_names[c->npins]);
			if (rc < 0)
				break;
			if (p->nrec == p->caprec) {
				p->caprec = p->caprec * 2 + 8;
				p->rec = xrealloc(p->rec, p->caprec *
				    sizeof(*p->rec));
			}
			snprintf(p->rec[p->nrec].name, PIN_NAME_MAX + 1, "%s",
			    c->pin_names[c->npins]);
			p->rec[p->nrec].busy = 1;
			p->rec[p->nrec++].settled_ms = 0;
			pin_of[i] = c->npins++;
		}
		snprintf(pin, sizeof(pin), "%s/%s", p->dir,
		    c->pin_names[pin_of[i]]);
		audit_pinned(c, pin, paths[i]);
		if (src[i].binds) {
			if (asprintf(&s, "%s%s", pin, src[i].node->valuestring +
			    src[i].len) < 0)
				xoom();
			if (cJSON_SetValuestring(src[i].node, s) == NULL)
				xoom();
			free(s);
		} else {
			if (cJSON_SetValuestring(src[i].node, pin) == NULL)
				xoom();
		}
	}
	for (i = 0; i < n; i++)
		free(paths[i]);
	if (rc < 0) {
		cJSON_Delete(tree);
		return -1;
	}
	body = json_serialize(tree, &len);
	cJSON_Delete(tree);
	backend_set_json(c, body, len);
	if (p->next_sweep == 0)
		p->next_sweep = now_ms() + SWEEP_PERIOD_MS;
	return 0;
}

void
pins_settle(struct conn *c, int status)
{
	struct pins *p = c->gw->pins;
	struct pin_rec *r;
	long long now = now_ms();
	unsigned i;

	if (p == NULL)
		return;
	if (c->npins > 0 && status != -1 && (status < 200 || status > 299)) {
		unpin_conn(c);
	} else {
		/*
		 * Unseen (-1): the create may still be under way on the
		 * backend (an answer whose parser died is drained,
		 * monitor/exchange/drain.c): kept out of sweeps for --backend-timeout.
		 */
		for (i = 0; i < c->npins; i++)
			if ((r = rec_find(p, c->pin_names[i])) != NULL) {
				r->busy = 0;
				r->settled_ms = now + (status == -1 ?
				    (long long)c->gw->backend_timeout_ms : 0);
			}
		c->npins = 0;
	}
	/* a container or pod may be gone: sweep soon */
	if (status >= 200 && status <= 299 && p->off[0] == '\0' &&
	    (c->fw.op == FOP_REMOVE || c->fw.op == FOP_PRUNE) &&
	    (p->next_sweep == 0 || p->next_sweep > now + SWEEP_SOON_MS))
		p->next_sweep = now + SWEEP_SOON_MS;
}

/* ---------------------------------------------------------------- sweeps */

static void
sweep_free(struct pins *p)
{
	size_t i;

	for (i = 0; i < p->sw_n; i++)
		free(p->sw_names[i]);
	free(p->sw_names);
	free(p->sw_used);
	p->sw_names = NULL;
	p->sw_used = NULL;
	p->sw_n = 0;
}

/* The names under the key directory into p->sw_names; -1 on failure. */
static int
list_pins(struct pins *p)
{
	struct pin_msg m;
	uint32_t start = 0;
	char *line, *nl;

	do {
		memset(&m, 0, sizeof(m));
		m.op = PIN_OP_LIST;
		m.start = start;
		if (pin_call(p, &m) < 0 || m.err != 0)
			return -1;
		for (line = m.path; (nl = strchr(line, '\n')) != NULL;
		    line = nl + 1) {
			*nl = '\0';
			p->sw_names = xrealloc(p->sw_names, (p->sw_n + 1) *
			    sizeof(*p->sw_names));
			p->sw_names[p->sw_n++] = xstrdup(line);
			start++;
		}
	} while (m.flags & PIN_F_MORE);
	p->sw_used = xcalloc(p->sw_n + 1, 1);
	return 0;
}

static void sweep_done(struct gateway *gw, struct mtask *t, int ok,
    int status, const char *body, size_t len);

/* Ask listener li's backend for the project's containers; -1 when it cannot. */
static int
sweep_ask(struct gateway *gw, int li)
{
	struct pins *p = gw->pins;
	char *q, *target;
	int rc;

	p->sw_lis = li;
	q = facts_label_query(gw->root, "all=1");
	if (asprintf(&target, "/containers/json?%s", q) < 0)
		xoom();
	free(q);
	p->task.done = sweep_done;
	p->task.max = SWEEP_LIST_MAX;
	p->task.timeout_ms = 0;
	rc = mtask_get(gw, &p->task, MTASK_SWEEP, gw->lis[li].backend_path,
	    target);
	free(target);
	return rc;
}

static void
sweep_start(struct gateway *gw, long long now)
{
	struct pins *p = gw->pins;
	int li;

	p->next_sweep = 0;
	sweep_free(p);
	if (list_pins(p) < 0) {
		log_msg(LOG_WARNING, "pins", "cannot list the pins of %s; "
		    "trying again in a minute", p->dir);
		p->next_sweep = now + SWEEP_PERIOD_MS;
		return;
	}
	if (p->sw_n == 0 && p->nrec == 0)
		return;		/* nothing pinned: no sweep until a pin */
	p->sw_sent = now;
	/* the first backend that can hold pins (podman or dockerd) */
	for (li = 0; li < CG_SOCKETS; li++)
		if (gw->lis[li].backend_path[0] != '\0' &&
		    gw->lis[li].backend_ident != BACKEND_UNKNOWN)
			break;
	if (li == CG_SOCKETS) {
		sweep_free(p);
		return;
	}
	if (sweep_ask(gw, li) < 0) {
		p->next_sweep = now + SWEEP_PERIOD_MS;
		sweep_free(p);
	}
}

/* Mark the pins a compat list answer body[0..len) names as used. */
static int
mark_used(struct pins *p, const char *body, size_t len)
{
	const cJSON *c, *m, *s;
	size_t dl = strlen(p->dir), i;
	cJSON *tree = json_parse(body, len, NULL, 0);

	if (!cJSON_IsArray(tree)) {
		cJSON_Delete(tree);
		return -1;
	}
	for (c = tree->child; c != NULL; c = c->next)
		for (m = json_get(c, "Mounts"), m = cJSON_IsArray(m) ? m->child :
		    NULL; m != NULL; m = m->next) {
			s = json_get(m, "Source");
			if (!cJSON_IsString(s) ||
			    strncmp(s->valuestring, p->dir, dl) != 0 ||
			    s->valuestring[dl] != '/')
				continue;
			for (i = 0; i < p->sw_n; i++)
				if (strcmp(p->sw_names[i],
				    s->valuestring + dl + 1) == 0)
					p->sw_used[i] = 1;
		}
	cJSON_Delete(tree);
	return 0;
}

/* A list answer is in: the next backend, or the unpins. */
static void
sweep_done(struct gateway *gw, struct mtask *t, int ok, int status,
    const char *body, size_t len)
{
	struct pins *p = gw->pins;
	struct pin_rec *r;
	size_t i, removed = 0;
	int li;

	(void)t;
	if (!ok || status != 200 || mark_used(p, body, len) < 0) {
		log_msg(LOG_WARNING, "pins", "the %s backend's container list "
		    "could not be read (%d); no pin is removed this time",
		    gw->lis[p->sw_lis].backend_kind == CG_DOCKER ? "docker" :
		    "podman", status);
		p->next_sweep = now_ms() + SWEEP_PERIOD_MS;
		sweep_free(p);
		return;
	}
	li = p->sw_lis + 1;
	if (li < CG_SOCKETS && gw->lis[li].backend_path[0] != '\0' &&
	    gw->lis[li].backend_ident != BACKEND_UNKNOWN &&
	    strcmp(gw->lis[li].backend_path, gw->lis[0].backend_path) != 0) {
		if (sweep_ask(gw, li) == 0)
			return;
		p->next_sweep = now_ms() + SWEEP_PERIOD_MS;
		sweep_free(p);
		return;
	}
	for (i = 0; i < p->sw_n; i++) {
		r = rec_find(p, p->sw_names[i]);
		/* a create in flight, or answered after the list was asked */
		if (p->sw_used[i] || (r != NULL && (r->busy ||
		    r->settled_ms >= p->sw_sent)))
			continue;
		if (unpin(p, p->sw_names[i]) == 0)
			removed++;
		if (r != NULL)
			rec_drop(p, r);
	}
	/* forget the settled ones this sweep decided */
	for (i = 0; i < p->nrec; )
		if (!p->rec[i].busy && p->rec[i].settled_ms < p->sw_sent)
			rec_drop(p, &p->rec[i]);
		else
			i++;
	if (removed > 0)
		log_msg(LOG_INFO, "pins", "removed %zu pin%s no container uses "
		    "any more", removed, removed == 1 ? "" : "s");
	if (p->sw_n > removed || p->nrec > 0)
		p->next_sweep = now_ms() + SWEEP_PERIOD_MS;
	sweep_free(p);
}

int
pins_tick(struct gateway *gw, long long now)
{
	struct pins *p = gw->pins;

	if (p == NULL || p->off[0] != '\0' || mtask_running(&p->task))
		return 60000;
	if (p->next_sweep != 0 && now >= p->next_sweep)
		sweep_start(gw, now);
	if (mtask_running(&p->task) || p->next_sweep == 0)
		return 60000;
	return p->next_sweep - now > 0 ? (int)(p->next_sweep - now) : 0;
}

/* ---------------------------------------------------------------- life */

long long
pins_wake_at(const struct gateway *gw)
{
	const struct pins *p = gw->pins;

	if (p == NULL || p->off[0] != '\0')
		return -1;
	if (mtask_running(&p->task))
		return -2;
	return p->next_sweep != 0 ? p->next_sweep : -1;
}

int
pins_reaped(struct gateway *gw, pid_t pid, int st)
{
	struct pins *p = gw->pins;

	if (p == NULL || pid <= 0 || pid != p->pid)
		return 0;
	p->pid = -1;
	p->status = st;
	return 1;
}

int
pins_dead(const struct gateway *gw, int *st)
{
	const struct pins *p = gw->pins;

	if (p == NULL || p->off[0] != '\0' || p->pid > 0)
		return 0;
	*st = p->status;
	return 1;
}

void
pins_state(const struct gateway *gw, char *buf, size_t sz)
{
	const struct pins *p = gw->pins;

	if (p == NULL)
		snprintf(buf, sz, "off: the gateway is not root; bind sources "
		    "are checked at create only");
	else if (p->off[0] != '\0')
		snprintf(buf, sz, "off: %s; creates that bind a host path are "
		    "refused", p->off);
	else
		snprintf(buf, sz, "on (%s)", p->dir);
}

void
pins_stop(struct gateway *gw)
{
	struct pins *p = gw->pins;
	long long until;

	if (p == NULL)
		return;
	mtask_cancel(gw, &p->task);
	sweep_free(p);
	if (p->fd >= 0)
		close(p->fd);	/* the pinner reads end-of-file and exits */
	p->fd = -1;
	until = now_ms() + 1000;
	while (p->pid > 0 && now_ms() < until) {
		if (waitpid(p->pid, NULL, WNOHANG) != 0)
			p->pid = -1;
		else
			usleep(10000);
	}
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		(void)waitpid(p->pid, NULL, 0);
	}
	free(p->rec);
	free(p);
	gw->pins = NULL;
}
