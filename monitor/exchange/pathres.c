/*
 * Bind-source resolution, done by the monitor alone (policy.md §4.4, with
 * the amendment of 2026-12-07: one answer for every source outside the
 * roots or unresolvable, and nothing outside the roots looked up).
 */
#include "monitor/exchange/pathres.h"
#include "monitor/gateway.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SYMLINKS_MAX	40
/*
 * Work bounds, so that one bind source cannot keep the single-threaded
 * monitor busy for other clients (a path of "x/../" repeated through
 * chained symlinks costs thousands of lstat() calls): at most LOOKUPS_MAX
 * lstat/readlink calls per resolution and DEPTH_MAX components in the path
 * looked up. Real bind sources stay far below both; beyond them the
 * source is "cannot be resolved" (hardening beyond policy.md §4.4).
 */
#define LOOKUPS_MAX	256
#define DEPTH_MAX	128

/* Pop the last component of r (never above "/"). */
static void
pop(char *r)
{
	char *slash = strrchr(r, '/');

	if (slash == NULL || slash == r)
		strcpy(r, "/");
	else
		*slash = '\0';
}

/* Append component c (clen bytes) to r; -1 when too long. */
static int
push(char *r, const char *c, size_t clen)
{
	size_t n = strlen(r);

	if (n + 1 + clen > CG_PATH_MAX)
		return -1;
	if (n > 1 || r[0] != '/')
		r[n++] = '/';
	memcpy(r + n, c, clen);
	r[n + clen] = '\0';
	return 0;
}

/* Number of components of an absolute path. */
static int
depth(const char *r)
{
	int n = 0;

	for (; *r != '\0'; r++)
		if (*r == '/' && r[1] != '\0')
			n++;
	return n;
}

/* r equal to or below base, on a '/' boundary. */
static int
below(const char *r, const char *base)
{
	size_t n = strlen(base);

	if (strcmp(base, "/") == 0)
		return 1;
	return strncmp(r, base, n) == 0 && (r[n] == '\0' || r[n] == '/');
}

/*
 * The lexical boundary: 1 when r may be looked up, that is r is equal to
 * or below one of roots[0..n), or on the way to one (an ancestor of it).
 * roots NULL: every path may.
 */
static int
within(const char *r, char *const *roots, int n)
{
	int i;

	if (roots == NULL)
		return 1;
	for (i = 0; i < n; i++)
		if (below(r, roots[i]) || below(roots[i], r))
			return 1;
	return 0;
}

/*
 * pathres_walk with a boundary: no component outside roots (within()) is
 * looked up; reaching one returns -2 at once, before any lstat or
 * readlink of it. -1: unresolvable as for pathres_walk.
 */
static int
walk(const char *path, char out[CG_PATH_MAX + 1], char *const *roots,
    int nroots)
{
	char rest[2 * CG_PATH_MAX + 2], link[CG_PATH_MAX + 1], tmp[2 * CG_PATH_MAX + 2];
	const char *p, *c;
	size_t clen;
	struct stat st;
	ssize_t ln;
	/*
	 * missing: how many components of out were appended lexically (the
	 * first missing one and everything after it); 0 = out exists as
	 * resolved so far.
	 */
	int expansions = 0, missing = 0, lookups = 0;

	if (path[0] != '/' || strlen(path) > CG_PATH_MAX)
		return -1;
	strcpy(out, "/");
	snprintf(rest, sizeof(rest), "%s", path);
	p = rest;
	for (;;) {
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		c = p;
		while (*p != '\0' && *p != '/')
			p++;
		clen = (size_t)(p - c);
		if (clen == 1 && c[0] == '.')
			continue;
		if (clen == 2 && c[0] == '.' && c[1] == '.') {
			pop(out);
			/*
			 * Popped back above the first missing component: out
			 * is a resolved existing directory again, and what
			 * follows must be looked up, not appended lexically.
			 * Otherwise <ROOT>/missing/../link, with link -> /etc,
			 * would resolve to <ROOT>/link and the daemon would
			 * follow the symlink when mounting it (B26).
			 */
			if (missing > 0)
				missing--;
			continue;
		}
		if (push(out, c, clen) < 0)
			return -1;
		if (missing) {
			missing++;
			continue;	/* lexical below a missing component */
		}
		if (++lookups > LOOKUPS_MAX || depth(out) > DEPTH_MAX)
			return -1;
		if (!within(out, roots, nroots))
			return -2;	/* outside: never looked up */
		if (lstat(out, &st) < 0) {
			if (errno != ENOENT)
				return -1;
			missing = 1;
			continue;
		}
		if (S_ISLNK(st.st_mode)) {
			if (++expansions > SYMLINKS_MAX)
				return -1;
			ln = readlink(out, link, sizeof(link) - 1);
			if (ln < 0)
				return -1;
			link[ln] = '\0';
			pop(out);
			if (link[0] == '/')
				strcpy(out, "/");
			/* splice the target in front of the remaining components */
			if ((size_t)snprintf(tmp, sizeof(tmp), "%s/%s", link, p) >=
			    sizeof(tmp))
				return -1;
			memcpy(rest, tmp, strlen(tmp) + 1);
			p = rest;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			while (*p == '/')
				p++;
			if (*p != '\0')
				return -1;	/* a file with components below */
		}
	}
	return 0;
}

int
pathres_walk(const char *path, char out[CG_PATH_MAX + 1])
{
	return walk(path, out, NULL, 0) < 0 ? -1 : 0;
}

/*
 * One answer for every source outside the roots or unresolvable (spec
 * README, amendments of 2026-12-07: the monitor runs as root, and "cannot
 * be resolved" for an existing non-directory against "outside" for a
 * missing path told a client whether any host path exists). The walk
 * looks up nothing outside the roots' ancestry (walk's boundary), and
 * every failure, inside or out, is CG_PATH_OUTSIDE with the roots.
 */
static enum cg_path_verdict
outside(const struct gateway *gw, char out[CG_PATH_MAX + 1])
{
	snprintf(out, CG_PATH_MAX + 1, "%s", gw->bind_roots_text);
	return CG_PATH_OUTSIDE;
}

enum cg_path_verdict
pathres_resolve(const struct gateway *gw, const char *path,
    char out[CG_PATH_MAX + 1])
{
	char r[CG_PATH_MAX + 1], real[CG_PATH_MAX + 1];
	int i;

	out[0] = '\0';
	if (walk(path, r, gw->bind_roots, gw->nbind_roots) < 0)
		return outside(gw, out);
	for (i = 0; i < gw->nbind_roots; i++)
		if (below(r, gw->bind_roots[i]))
			break;
	if (i == gw->nbind_roots)
		return outside(gw, out);
	/*
	 * Excluded roots and sockets are compared as configured and as
	 * resolved now by the same walk: R is a resolved path, and a path
	 * given through a symlink (the default /var/run/docker.sock with
	 * /var/run -> /run, or <ROOT>/.apache-magpie-local as a symlink to a
	 * directory inside ROOT) would otherwise not be recognised.
	 */
	for (i = 0; i < gw->nexcluded; i++)
		if (below(r, gw->excluded[i]) ||
		    (pathres_walk(gw->excluded[i], real) == 0 && below(r, real)))
			return CG_PATH_EXCLUDED;
	for (i = 0; i < CG_SOCKETS; i++) {
		if (gw->lis[i].backend_path[0] == '\0')
			continue;
		if (below(gw->lis[i].backend_path, r) ||
		    (pathres_walk(gw->lis[i].backend_path, real) == 0 &&
		    below(real, r)))
			return CG_PATH_SOCKET;
	}
	snprintf(out, CG_PATH_MAX + 1, "%s", r);
	return CG_PATH_ALLOWED;
}
