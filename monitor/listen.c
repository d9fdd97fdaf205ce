/*
 * The gateway's listening sockets at start-up (cli.md §7 step 11, §15;
 * http.md §1.2): binding, the egress probe per backend, and the
 * connection limit fitted to RLIMIT_NOFILE.
 */
#include "monitor/gateway.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "monitor/exchange/exchange.h"
#include "monitor/listen.h"
#include "monitor/log.h"

/*
 * Bind one gateway socket (cli.md §7 step 11). Returns 0, 2 (refused
 * configuration, message printed) or 1 (runtime failure).
 */
int
bind_socket(struct listener *l)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stat st;
	mode_t old;
	int fd, probe;

	if (lstat(l->path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			fprintf(stderr, "container-gateway: %s exists and is not a "
			    "socket; refusing to bind over it\n", l->path);
			return 2;
		}
		probe = backend_connect(l->path);
		if (probe >= 0) {
			struct pollfd p = { .fd = probe, .events = POLLOUT };
			int err = 0;
			socklen_t el = sizeof(err);

			poll(&p, 1, 200);
			getsockopt(probe, SOL_SOCKET, SO_ERROR, &err, &el);
			close(probe);
			if (err == 0) {
				fprintf(stderr, "container-gateway: %s is in use by "
				    "another process; refusing to bind over it\n",
				    l->path);
				return 2;
			}
		}
		unlink(l->path);
	}
	strcpy(sun.sun_path, l->path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return 1;
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		umask(old);
		fprintf(stderr, "container-gateway: cannot bind %s: %s\n", l->path,
		    strerror(errno));
		close(fd);
		return 1;
	}
	umask(old);
	chmod(l->path, 0600);
	/* a deep backlog: a burst (a slowloris) must not shut out the owner */
	if (listen(fd, SOMAXCONN) < 0 || stat(l->path, &st) < 0) {
		close(fd);
		unlink(l->path);
		return 1;
	}
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->fd = fd;
	return 0;
}

/*
 * Egress probe per served socket (cli.md §15), logged once per backend:
 * docker.sock on the same backend as podman.sock takes podman.sock's
 * result (the alias is a function of the backend kind).
 */
void
egress_probe(struct gateway *gw, struct listener *l)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	const char *alias, *kind = l->backend_kind == CG_DOCKER ? "docker" : "podman";
	struct pollfd p;
	int fd, err = 1;
	socklen_t el = sizeof(err);

	l->proxy_available = 0;
	l->proxy[0] = l->noproxy[0] = '\0';
	if (gw->cfg->egress == CG_EGRESS_OFF)
		return;
	/* once per backend, not per socket (usability.sh u_cli) */
	if (l == &gw->lis[1] && gw->lis[0].backend_path[0] != '\0' &&
	    strcmp(gw->lis[0].backend_path, l->backend_path) == 0) {
		l->proxy_available = gw->lis[0].proxy_available;
		memcpy(l->proxy, gw->lis[0].proxy, sizeof(l->proxy));
		memcpy(l->noproxy, gw->lis[0].noproxy, sizeof(l->noproxy));
		return;
	}
	/*
	 * cli.md §15's podman alias, 10.88.0.1, is the podman0 bridge's; by
	 * the amendment "Projects do not share a network" no container joins
	 * that bridge, so 10.88.0.1 is no address of the host and leaves by
	 * the default route (measured, podman 4.3.1, netavark). podman
	 * writes host.containers.internal into every container's /etc/hosts,
	 * as the gateway of its first network, and of a build's RUN step, as
	 * the host's address; both reach the host through an isolated bridge
	 * (isolation.sh i_egress_alias).
	 */
	alias = gw->cfg->egress_host != NULL ? gw->cfg->egress_host :
	    l->backend_kind == CG_DOCKER ? "172.17.0.1" :
	    "host.containers.internal";
	sin.sin_port = htons((uint16_t)gw->cfg->egress_port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd >= 0) {
		if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0) {
			err = 0;
		} else if (errno == EINPROGRESS) {
			p.fd = fd;
			p.events = POLLOUT;
			if (poll(&p, 1, 1000) == 1)
				getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
		}
		close(fd);
	}
	if (err == 0) {
		l->proxy_available = 1;
		snprintf(l->proxy, sizeof(l->proxy), strchr(alias, ':') != NULL ?
		    "http://[%s]:%u" : "http://%s:%u", alias, gw->cfg->egress_port);
		snprintf(l->noproxy, sizeof(l->noproxy), "localhost,127.0.0.1,%s",
		    alias);
	}
	log_egress(l->socket_kind == CG_DOCKER ? "docker" : "podman", kind,
	    gw->cfg->egress == CG_EGRESS_REQUIRE ? "require" :
	    "inject-if-available", gw->cfg->egress_port, l->proxy_available,
	    l->proxy);
	/* what the line above (cli.md §15's) is about, once per start */
	if (!l->proxy_available && gw->cfg->egress == CG_EGRESS_INJECT &&
	    !gw->egress_explained) {
		gw->egress_explained = 1;
		log_msg(LOG_WARNING, "egress", "the egress gateway is an optional "
		    "HTTP proxy of yours on the host (127.0.0.1:%u, "
		    "--egress-port) that containers and builds are pointed at "
		    "when it runs; without it they reach the network directly. "
		    "--egress off (CONTAINER_GATEWAY_EGRESS=off) stops the probe "
		    "and these lines", gw->cfg->egress_port);
	}
}

/*
 * The monitor holds up to five descriptors per connection (its child's
 * IPC end, the client, a backend connection, a relay pipe's two ends:
 * CONN_FDS), up to LINGER_SLOTS refused
 * clients, 2 per reclaimed connection not ended yet (RECLAIMED_MAX), up
 * to pool_max kept backend connections and a few of its
 * own: raise the soft RLIMIT_NOFILE to the hard limit, and lower
 * --max-connections with a
 * WARNING when even that is too small (beyond http.md §1.2: a limit the
 * process cannot honour would make accept() or poll() fail for everyone).
 */
void
fit_max_connections(struct gateway *gw)
{
	struct rlimit rl;
	rlim_t need = CONN_FDS * (rlim_t)gw->cfg->max_connections +
	    LINGER_SLOTS + 2 * RECLAIMED_MAX + (rlim_t)gw->pool_max + 32;
	unsigned fit;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
		(void)getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return;
	fit = rl.rlim_cur > LINGER_SLOTS + 2 * RECLAIMED_MAX +
	    (rlim_t)gw->pool_max + 40 ? (unsigned)((rl.rlim_cur - LINGER_SLOTS -
	    2 * RECLAIMED_MAX - (rlim_t)gw->pool_max - 32) / CONN_FDS) : 4;
	log_msg(LOG_WARNING, "listen", "RLIMIT_NOFILE %llu is too small for "
	    "--max-connections %u; serving at most %u connections",
	    (unsigned long long)rl.rlim_cur, gw->cfg->max_connections, fit);
	gw->cfg->max_connections = fit;
}

