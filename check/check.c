/*
 * The checker's rules over a build context or an uploaded archive
 * (check/check.h). Measured on podman 4.3.1 and dockerd 20.10
 * (doc/privsep.md "Builds and archives"):
 *   - podman extracts a build context with containers/storage's Untar,
 *     in its own mount namespace and without a chroot: an entry below a
 *     symlink of the context is written through it (a context with
 *     h -> /tmp/x and then h/pwned created /tmp/x/pwned as root), so
 *     every entry, hard-link target and parent directory must not pass
 *     through a symlink the context already holds;
 *   - buildah joins RUN --mount sources to the context directory on the
 *     host and follows its symlinks (CVE-2024-1753), and reads the
 *     Dockerfile and .dockerignore following symlinks: a context may
 *     hold no symlink that resolves outside it (absolute, or climbing
 *     past its root, other symlinks followed), and the Dockerfile must
 *     be a regular file reached without a symlink;
 *   - both daemons' copy into a container (buildah's copier, chrooted at
 *     the bind source; dockerd's chrootarchive) keep symlinks inside the
 *     target, but create device nodes, fifos, setuid and setgid files and
 *     file capabilities (SCHILY.xattr.security.capability, measured:
 *     cap_setuid=ep on the host file) where a host user can run them.
 */
#include "check/check.h"

#include <cjson/cJSON.h>
#include <nettle/sha2.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "check/decomp.h"
#include "check/dockerfile.h"
#include "check/load.h"
#include "check/tar.h"
#include "policy/json.h"
#include "policy/query.h"

#define PIECE		4096		/* compressed input per decode step */
#define OUTBUF		(64u << 10)
#define RING		1024		/* (input, output) offsets kept */
#define LINKS_MAX	(1u << 20)	/* symlinks a context may hold */
#define FOLLOW_MAX	40		/* symlinks followed per path (ELOOP) */
#define WATCH_MAX	8		/* files of the build looked up */
#define DIGESTS_MAX	64		/* a load's JSON documents hashed */

struct link {
	char *path;
	char *target;
};

struct watch {
	char *path;		/* cleaned, relative to the context */
	int dockerfile;		/* a Dockerfile candidate (else an ignore
				   file: only "no symlink" matters) */
	char type;		/* of the last entry there; 0 absent */
	unsigned char *data;	/* a Dockerfile's content */
	size_t len;
	int over;
};

struct chk {
	struct chk_params p;
	int refused, finished;
	struct cg_refusal r;
	struct decomp d;
	int plain;
	struct tar_reader t;
	int tar_end;
	uint64_t in_off;		/* body bytes fed */
	uint64_t out_off;		/* tar bytes read */
	uint64_t ring_in[RING], ring_out[RING];
	size_t ring_head, ring_n;
	uint64_t approved_in;
	unsigned char *out;
	/* builds */
	void *links;			/* tsearch tree of struct link */
	size_t nlinks;
	struct watch w[WATCH_MAX];
	size_t nw;
	cJSON *buildargs;
	struct df_bases bases;		/* the Dockerfile's base images; the
					   names a load gives */
	char *from;			/* the query's from= (podman), or NULL */
	char dockerfile_name[TAR_NAME_MAX + 1];	/* as podman looks it up */
	int defaults;			/* the first candidate present is
					   read (no dockerfile named) */
	struct watch *capturing;	/* its data goes to the tar sink */
	/* loads: a regular file that may be a JSON document */
	unsigned char *jbuf;		/* LOAD_JSON_MAX: the tar sink */
	char jname[TAR_NAME_MAX + 1];
	int jsniff;			/* capturing: 1 not known yet, 2 JSON */
	/* loads: the SHA-256 of each JSON document, by its cleaned entry
	   name (an image config's is the image's id: both daemons hash
	   the bytes they read; a name seen twice with two digests has none) */
	struct { char *path; char hex[65]; int bad, seen; } dg[DIGESTS_MAX];
	size_t ndg;
	struct tar_entry e;
};

static int
refuse(struct chk *c)
{
	c->refused = 1;
	return -1;
}

const struct cg_refusal *
chk_refusal(const struct chk *c)
{
	return &c->r;
}

/* ------------------------------------------------------------- paths */

static int
link_cmp(const void *a, const void *b)
{
	return strcmp(((const struct link *)a)->path,
	    ((const struct link *)b)->path);
}

static struct link *
link_find(const struct chk *c, const char *path)
{
	struct link key = { .path = (char *)(uintptr_t)path };
	void *const *n = tfind(&key, &c->links, link_cmp);

	return n != NULL ? *(struct link *const *)n : NULL;
}

static void
link_drop(struct chk *c, const char *path)
{
	struct link *l = link_find(c, path), key = { .path = (char *)path };

	if (l == NULL)
		return;
	tdelete(&key, &c->links, link_cmp);
	free(l->path);
	free(l->target);
	free(l);
	c->nlinks--;
}

static int
link_put(struct chk *c, const char *path, const char *target)
{
	struct link *l = link_find(c, path);

	if (l != NULL) {
		free(l->target);
		l->target = xstrdup(target);
		return 0;
	}
	if (c->nlinks >= LINKS_MAX)
		return cg_refuse(&c->r, "too-large", "the build context holds "
		    "more than %u symlinks", LINKS_MAX);
	l = xmalloc(sizeof(*l));
	l->path = xstrdup(path);
	l->target = xstrdup(target);
	if (tsearch(l, &c->links, link_cmp) == NULL)
		xoom();
	c->nlinks++;
	return 0;
}

/* The first proper prefix of path (or the root "") that is a symlink. */
static const char *
through_link(const struct chk *c, const char *path)
{
	static char buf[TAR_NAME_MAX + 1];
	size_t i, n = strlen(path);

	if (link_find(c, "") != NULL)
		return "";
	for (i = 0; i < n && n <= TAR_NAME_MAX; i++) {
		if (path[i] != '/')
			continue;
		memcpy(buf, path, i);
		buf[i] = '\0';
		if (link_find(c, buf) != NULL)
			return buf;
	}
	return NULL;
}

/*
 * Resolve path (relative to the context, cleaned or not) as the kernel
 * would inside the extracted context, following the context's symlinks.
 * Returns 0 when it stays inside, 1 when it leaves (an absolute target,
 * ".." past the root), 2 after FOLLOW_MAX symlinks.
 */
static int
resolve(const struct chk *c, const char *path)
{
	char *rest = xstrdup(path), *cur = xmalloc(1), *tmp;
	size_t curlen = 0, k;
	int follows = 0, rc = 0;
	const struct link *l;

	cur[0] = '\0';
	while (rest[0] != '\0') {
		char *p = rest;

		k = strcspn(p, "/");
		if (k == 0 || (k == 1 && p[0] == '.')) {
			;
		} else if (k == 2 && p[0] == '.' && p[1] == '.') {
			if (curlen == 0) {
				rc = 1;
				break;
			}
			while (curlen > 0 && cur[curlen - 1] != '/')
				curlen--;
			if (curlen > 0)
				curlen--;
			cur[curlen] = '\0';
		} else {
			tmp = xmalloc(curlen + k + 2);
			memcpy(tmp, cur, curlen);
			if (curlen > 0)
				tmp[curlen++] = '/';
			memcpy(tmp + curlen, p, k);
			tmp[curlen + k] = '\0';
			free(cur);
			cur = tmp;
			l = link_find(c, cur);
			if (l == NULL) {
				curlen += k;
			} else {
				if (++follows > FOLLOW_MAX) {
					rc = 2;
					break;
				}
				if (l->target[0] == '/') {
					rc = 1;
					break;
				}
				/* the link's directory, then its target, then the rest */
				curlen = curlen > 0 ? curlen - 1 : 0;
				cur[curlen] = '\0';
				p += k;
				tmp = xmalloc(strlen(l->target) + strlen(p) + 2);
				sprintf(tmp, "%s%s%s", l->target, *p ? "/" : "",
				    *p == '/' ? p + 1 : p);
				free(rest);
				rest = tmp;
				continue;
			}
		}
		p += k;
		if (*p == '/')
			p++;
		memmove(rest, p, strlen(p) + 1);
	}
	free(rest);
	free(cur);
	return rc;
}

/* --------------------------------------------------------- parameters */

static void
watch_add(struct chk *c, const char *name, int dockerfile)
{
	char *p = cg_path_clean(name, 0);

	if (p == NULL || c->nw == WATCH_MAX) {
		free(p);
		return;
	}
	c->w[c->nw].path = p;
	c->w[c->nw].dockerfile = dockerfile;
	c->nw++;
}

static int
build_params(struct chk *c, struct cg_refusal *r)
{
	struct cg_query *q;
	const char *v;
	char err[64], qv[260];
	cJSON *t;

	q = query_parse(c->p.query, strlen(c->p.query), r);
	if (q == NULL)
		return -1;
	v = query_get(q, "dockerfile");
	if (v != NULL && c->p.podman) {
		t = json_parse(v, strlen(v), err, sizeof(err));
		if (cJSON_IsArray(t)) {
			cJSON_Delete(t);
			query_free(q);
			/*
			 * podman 4.3.1 stats each list entry relative to its own
			 * working directory first (buildah BuildDockerfiles), and
			 * only then in the context: a host file of that name wins.
			 */
			return cg_refuse(r, "host-path", "dockerfile %s is a list, "
			    "which podman looks up in its own working directory "
			    "before the build context", cg_quote(v, strlen(v), qv));
		}
		cJSON_Delete(t);
	}
	if (v != NULL && v[0] != '\0') {
		snprintf(c->dockerfile_name, sizeof(c->dockerfile_name), "%s", v);
		watch_add(c, v, 1);
		snprintf(qv, sizeof(qv), "%s.dockerignore", v);
		watch_add(c, qv, 0);
	} else if (c->p.libpod && c->p.podman) {
		/* podman: Containerfile if it exists, else Dockerfile */
		c->defaults = 1;
		snprintf(c->dockerfile_name, sizeof(c->dockerfile_name),
		    "Containerfile or Dockerfile");
		watch_add(c, "Containerfile", 1);
		watch_add(c, "Dockerfile", 1);
	} else if (!c->p.podman) {
		/* dockerd 20.10: Dockerfile, else dockerfile */
		c->defaults = 1;
		snprintf(c->dockerfile_name, sizeof(c->dockerfile_name),
		    "Dockerfile");
		watch_add(c, "Dockerfile", 1);
		watch_add(c, "dockerfile", 1);
	} else {
		snprintf(c->dockerfile_name, sizeof(c->dockerfile_name),
		    "Dockerfile");
		watch_add(c, "Dockerfile", 1);
	}
	watch_add(c, ".dockerignore", 0);
	watch_add(c, ".containerignore", 0);
	v = query_get(q, "ignorefile");
	if (v != NULL && v[0] != '\0')
		watch_add(c, v, 0);
	/* podman's from= replaces the first FROM: a base image too */
	v = query_get(q, "from");
	if (v != NULL && v[0] != '\0')
		c->from = xstrdup(v);
	v = query_get(q, "buildargs");
	if (v != NULL && v[0] != '\0') {
		c->buildargs = json_parse(v, strlen(v), err, sizeof(err));
		if (!cJSON_IsObject(c->buildargs)) {
			cJSON_Delete(c->buildargs);
			c->buildargs = NULL;
		}
	}
	query_free(q);
	return 0;
}

struct chk *
chk_new(const struct chk_params *p, struct cg_refusal *r)
{
	struct chk *c = xcalloc(1, sizeof(*c));

	c->p = *p;
	if (c->p.query == NULL)
		c->p.query = "";
	decomp_init(&c->d);
	tar_init(&c->t);
	c->out = xmalloc(OUTBUF);
	if (p->kind == CHK_BUILD && build_params(c, r) == -1) {
		chk_free(c);
		return NULL;
	}
	c->p.query = NULL;	/* the caller's; not needed any more */
	return c;
}

static void
link_free(void *n)
{
	struct link *l = n;

	free(l->path);
	free(l->target);
	free(l);
}

void
chk_free(struct chk *c)
{
	size_t i;

	if (c == NULL)
		return;
	tdestroy(c->links, link_free);
	for (i = 0; i < c->nw; i++) {
		free(c->w[i].path);
		free(c->w[i].data);
	}
	cJSON_Delete(c->buildargs);
	df_bases_free(&c->bases);
	for (i = 0; i < c->ndg; i++)
		free(c->dg[i].path);
	free(c->from);
	free(c->jbuf);
	decomp_free(&c->d);
	tar_free(&c->t);
	free(c->out);
	free(c);
}

/* ------------------------------------------------------------- entries */

static int
quoted_refuse(struct chk *c, const char *code, const char *hint,
    const char *fmt, const char *name)
{
	char q[260];

	return cg_refuse_hint(&c->r, code, hint, fmt,
	    cg_quote(name, strlen(name), q));
}

#define H_LINK	"replace the symlink by a copy of what it points to, or build " \
	"from the directory that holds its target"
#define H_LOAD	"load an archive made by docker save, podman save or skopeo " \
	"copy"

/* What an extracted tree is called in refusals, and how to fix one. */
static const char *
tree_noun(const struct chk *c)
{
	return c->p.kind == CHK_BUILD ? "build context" : "image archive";
}

static int
tree_refuse(struct chk *c, const char *code, const char *fmt,
    const char *name)
{
	char q[260];

	return cg_refuse_hint(&c->r, code, c->p.kind == CHK_BUILD ? H_LINK :
	    H_LOAD, fmt, tree_noun(c), cg_quote(name, strlen(name), q));
}

/*
 * The rules of a tree podman 4.3.1 extracts with containers/storage's
 * Untar, as root and without a chroot (measured: a build context before
 * the build; every loaded archive, which it first tries as an
 * oci-archive, in /var/tmp; a symlink h -> /tmp/x and then h/pwned wrote
 * /tmp/x/pwned on the host in both) for entry e at the cleaned path p.
 * Returns 1 (nothing more to check: a 'g'), 0 with *lt the cleaned target
 * of a hard link (or NULL), or -1 with c->r set.
 */
static int
tree_check(struct chk *c, const struct tar_entry *e, const char *p, char **lt)
{
	*lt = NULL;
	if (through_link(c, p) != NULL)
		return tree_refuse(c, "host-path", "%s entry %s lies below a "
		    "symlink the archive made: podman would write it through the "
		    "symlink, on the host", e->name);
	if (p[0] == '\0' && e->type != '5' && e->type != 'g')
		return tree_refuse(c, "host-path", "%s entry %s would replace "
		    "the directory it is extracted into", e->name);
	if (e->type == '3' || e->type == '4')
		return tree_refuse(c, "devices", "%s entry %s is a device node",
		    e->name);
	if (e->type == 'g')
		return 1;
	if (e->type == '2' && e->link[0] == '/')
		return tree_refuse(c, "host-path", c->p.kind == CHK_BUILD ?
		    "%s symlink %s points to an absolute path, which podman's "
		    "builder follows on the host (RUN --mount, CVE-2024-1753)" :
		    "%s symlink %s points to an absolute path, which podman "
		    "follows on the host when it reads the extracted archive",
		    e->name);
	if (e->type == '1') {
		*lt = cg_path_clean(e->link, 0);
		if (*lt == NULL || through_link(c, *lt) != NULL) {
			free(*lt);
			*lt = NULL;
			return tree_refuse(c, "host-path", "%s hard link %s names "
			    "a target outside the archive or below a symlink",
			    e->name);
		}
	}
	return 0;
}

/* The extracted tree after e at p (lt: tree_check's): what is at p now. */
static int
tree_update(struct chk *c, const struct tar_entry *e, const char *p,
    const char *lt)
{
	const struct link *tl;

	if (e->type == '2')
		return link_put(c, p, e->link);
	if (e->type == '1' && (tl = link_find(c, lt)) != NULL)
		return link_put(c, p, tl->target);
	link_drop(c, p);
	return 0;
}

/* A build context's entry e at the cleaned path p. */
static int
build_entry(struct chk *c, const struct tar_entry *e, const char *p)
{
	char *lt;
	size_t i, plen = strlen(p);
	int rc;

	if ((rc = tree_check(c, e, p, &lt)) != 0)
		return rc == 1 ? 0 : -1;
	for (i = 0; i < c->nw && (e->type == '2' || e->type == '1'); i++)
		if (strcmp(c->w[i].path, p) == 0) {
			free(lt);
			return quoted_refuse(c, "host-path", "send the file itself, "
			    "not a link to it", "%s is a link in the build "
			    "context: podman reads it on the host, following a "
			    "symlink", c->w[i].path);
		}
	rc = tree_update(c, e, p, lt);
	for (i = 0; i < c->nw && rc == 0; i++) {
		struct watch *w = &c->w[i];
		size_t wl = strlen(w->path);

		if (strcmp(w->path, p) == 0) {
			w->type = e->type;
			w->len = 0;
			w->over = 0;
			if (w->dockerfile && e->type == '0') {
				if (w->data == NULL)
					w->data = xmalloc(DOCKERFILE_MAX);
				c->t.sink = w->data;
				c->t.sink_len = 0;
				c->t.sink_over = 0;
				c->t.sink_max = DOCKERFILE_MAX;
				c->capturing = w;
			}
		} else if (plen < wl && w->path[plen] == '/' &&
		    strncmp(w->path, p, plen) == 0 && e->type != '5') {
			w->type = 0;	/* a parent replaced: it is gone */
		}
	}
	free(lt);
	return rc;
}

/*
 * An image archive's entry e at the cleaned path p: the tree's rules, and
 * a regular file's data captured (check/load.h) until its first byte after
 * white space says it is no JSON document (json_sniff).
 */
static void digest_taint(struct chk *c, const char *p);

static int
load_entry(struct chk *c, const struct tar_entry *e, const char *p)
{
	char *lt;
	int rc;

	digest_taint(c, p);	/* hashed again, and kept, if a JSON document */
	if ((rc = tree_check(c, e, p, &lt)) != 0)
		return rc == 1 ? 0 : -1;
	rc = tree_update(c, e, p, lt);
	free(lt);
	if (rc == 0 && e->type == '0' && e->size > 0) {
		if (c->jbuf == NULL)
			c->jbuf = xmalloc(LOAD_JSON_MAX);
		snprintf(c->jname, sizeof(c->jname), "%s", e->name);
		c->t.sink = c->jbuf;
		c->t.sink_len = 0;
		c->t.sink_over = 0;
		c->t.sink_max = LOAD_JSON_MAX;
		c->jsniff = 1;
	}
	return rc;
}

#define H_PRIV	"clear the bits before copying (chmod u-s,g-s), or set them " \
	"inside the container"

/* An archive entry e uploaded into a container. */
static int
archive_entry(struct chk *c, const struct tar_entry *e)
{
	char q[260];

	if (e->type == '3' || e->type == '4' || e->type == '6')
		return quoted_refuse(c, "devices", "copy regular files; create "
		    "device nodes and fifos inside the container", e->type == '6' ?
		    "archive entry %s is a fifo" : "archive entry %s is a device "
		    "node", e->name);
	if ((e->mode & 04000) || ((e->mode & 02000) && e->type != '5'))
		return quoted_refuse(c, "privileged", H_PRIV, "archive entry %s "
		    "is setuid or setgid: a host user who runs it from a bound "
		    "directory gets the owner's rights", e->name);
	if (e->xattr_other)
		return cg_refuse_hint(&c->r, "privileged", "copy without "
		    "extended attributes; set them inside the container",
		    "archive entry %s carries the extended attribute %s (only "
		    "user.* passes): security.capability grants capabilities to "
		    "whoever runs the file", cg_quote(e->name, strlen(e->name), q),
		    e->xattr_name);
	return 0;
}

static int
entry(struct chk *c, const struct tar_entry *e)
{
	char *p;
	int rc;

	if (e->sparse)
		return quoted_refuse(c, "malformed", "send the file without "
		    "GNU sparse encoding (tar without --sparse)", "entry %s is a "
		    "GNU sparse file, which the gateway does not read", e->name);
	if (strchr("0123456g", e->type) == NULL || e->type == '\0')
		return quoted_refuse(c, "malformed", "send regular files, "
		    "directories and links", "entry %s has a tar type the daemon "
		    "does not extract", e->name);
	if (c->p.kind == CHK_ARCHIVE)
		return archive_entry(c, e);
	if ((p = cg_path_clean(e->name, 0)) == NULL)
		return (tree_refuse(c, "host-path", "%s entry %s leaves the "
		    "directory it is extracted into", e->name), refuse(c));
	rc = c->p.kind == CHK_LOAD ? load_entry(c, e, p) : build_entry(c, e, p);
	free(p);
	return rc == -1 ? refuse(c) : 0;
}

/* ------------------------------------------------------------- stream */

/* What the body is called in refusals. */
static const char *
kind_noun(const struct chk *c)
{
	return c->p.kind == CHK_BUILD ? "build context" : c->p.kind == CHK_LOAD ?
	    "image archive" : "archive";
}

/*
 * A load's regular file being captured: once its first byte after JSON
 * white space is known, the capture stops unless it is '{' or '[' (a
 * layer, VERSION: never a document the daemons parse).
 */
static void
json_sniff(struct chk *c)
{
	size_t i;

	for (i = 0; c->jsniff == 1 && i < c->t.sink_len; i++) {
		unsigned char ch = c->jbuf[i];

		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')
			continue;
		if (ch == '{' || ch == '[') {
			c->jsniff = 2;
		} else {
			c->jsniff = 0;
			c->t.sink = NULL;
		}
	}
}

/* A load's JSON document jbuf[0..len), entry name: its digest kept. */
static void
digest_doc(struct chk *c, const char *name, const unsigned char *d,
    size_t len)
{
	static const char hexd[] = "0123456789abcdef";
	unsigned char dg[SHA256_DIGEST_SIZE];
	struct sha256_ctx h;
	char hex[65], *p = cg_path_clean(name, 0);
	size_t i;

	if (p == NULL)
		return;
	sha256_init(&h);
	sha256_update(&h, len, d);
	sha256_digest(&h, sizeof(dg), dg);
	for (i = 0; i < sizeof(dg); i++) {
		hex[2 * i] = hexd[dg[i] >> 4];
		hex[2 * i + 1] = hexd[dg[i] & 15];
	}
	hex[64] = '\0';
	for (i = 0; i < c->ndg && strcmp(c->dg[i].path, p) != 0; i++)
		;
	if (i < c->ndg && c->dg[i].hex[0] == '\0')
		memcpy(c->dg[i].hex, hex, sizeof(hex));
	else if (i < c->ndg)
		c->dg[i].bad = 1;	/* a second document at that path */
	free(p);
}

/*
 * Another entry at path p (any type): a config there may not be what the
 * daemon reads (dockerd extracts the whole archive, the last entry
 * winning and links followed; podman takes the first): its digest, now
 * or later, gives no id (red team rt12: a symlink at the config's path
 * made a changed image pass as the one its name had).
 */
static void
digest_taint(struct chk *c, const char *p)
{
	size_t i;

	for (i = 0; i < c->ndg && strcmp(c->dg[i].path, p) != 0; i++)
		;
	if (i < c->ndg) {
		c->dg[i].seen++;
		return;
	}
	if (c->ndg == DIGESTS_MAX)
		return;		/* its images have no id (checked strictly) */
	c->dg[c->ndg].path = xstrdup(p);
	c->dg[c->ndg].hex[0] = '\0';
	c->dg[c->ndg].bad = 0;
	c->dg[c->ndg++].seen = 1;
}

/* A load's end: each name's image id, where its config is known. */
static void
load_ids(struct chk *c)
{
	struct df_bases *b = &c->bases;
	size_t i, k;
	char *p;

	for (i = 0; i < b->n; i++) {
		b->id[i][0] = '\0';
		/* a config at the top (docker and podman save put it there):
		   no directory on the way that a link could redirect */
		if (b->cfg_bad[i] || b->cfg[i] == NULL ||
		    (p = cg_path_clean(b->cfg[i], 0)) == NULL)
			continue;
		if (strchr(p, '/') != NULL) {
			free(p);
			continue;
		}
		for (k = 0; k < c->ndg; k++)
			if (strcmp(c->dg[k].path, p) == 0 && !c->dg[k].bad &&
			    c->dg[k].seen == 1 && c->dg[k].hex[0] != '\0')
				memcpy(b->id[i], c->dg[k].hex, 65);
		free(p);
	}
}

/* The data of the entry being captured is complete: 0, or -1 refused. */
static int
capture_done(struct chk *c)
{
	char q[260];
	int rc = 0;

	if (c->capturing != NULL) {
		c->capturing->len = c->t.sink_len;
		c->capturing->over = c->t.sink_over;
		c->capturing = NULL;
	}
	if (c->jsniff != 0) {
		json_sniff(c);
		if (c->jsniff != 0 && c->t.sink_over)
			rc = cg_refuse_hint(&c->r, "too-large", H_LOAD, "image "
			    "archive entry %s is a JSON document over %u MiB",
			    cg_quote(c->jname, strlen(c->jname), q),
			    LOAD_JSON_MAX >> 20);
		else if (c->jsniff == 2)
			rc = load_json_check((const char *)c->jbuf, c->t.sink_len,
			    c->jname, &c->bases, &c->r);
		if (c->jsniff == 2 && rc == 0)
			digest_doc(c, c->jname, c->jbuf, c->t.sink_len);
		c->jsniff = 0;
	}
	c->t.sink = NULL;
	return rc;
}

/* Tar bytes (decompressed) into the reader; entries checked. */
static int
tar_bytes(struct chk *c, const unsigned char *p, size_t n)
{
	size_t used;
	enum tar_rc rc;

	while (n > 0 && !c->tar_end) {
		rc = tar_feed(&c->t, p, n, &used, &c->e);
		p += used;
		n -= used;
		c->out_off += used;
		if (rc == TAR_ERROR)
			return (cg_refuse_hint(&c->r, "malformed", "send a tar "
			    "archive as the docker and podman clients make it",
			    "the %s is not a tar archive the gateway can read: %s",
			    kind_noun(c), c->t.err), refuse(c));
		if ((rc == TAR_END || rc == TAR_ENTRY) && capture_done(c) == -1)
			return refuse(c);
		if (rc == TAR_MORE && c->jsniff == 1)
			json_sniff(c);
		if (rc == TAR_END)
			c->tar_end = 1;
		if (rc == TAR_ENTRY && entry(c, &c->e) == -1)
			return refuse(c);
	}
	return 0;
}

/* The tar offset up to which every byte belongs to a checked entry. */
static uint64_t
clean_out(const struct chk *c)
{
	if (c->tar_end || c->t.end_at > 0)
		return c->t.end_at > 0 ? c->t.end_at : c->t.off;
	if (tar_in_data(&c->t))
		return c->t.off;
	if (c->t.in_group)
		return c->t.group;
	return c->t.off - c->t.blen;
}

static void
ring_push(struct chk *c)
{
	size_t i;

	if (c->ring_n == RING) {	/* full: the oldest goes (approval lags) */
		c->ring_head = (c->ring_head + 1) % RING;
		c->ring_n--;
	}
	i = (c->ring_head + c->ring_n) % RING;
	c->ring_in[i] = c->in_off;
	c->ring_out[i] = c->out_off;
	c->ring_n++;
}

/* Approval after progress: the largest input offset whose output is clean. */
static void
approve(struct chk *c)
{
	uint64_t ok = clean_out(c), a = c->approved_in;

	if (c->plain) {
		a = ok;
	} else {
		while (c->ring_n > 0 && c->ring_out[c->ring_head] <= ok) {
			a = c->ring_in[c->ring_head];
			c->ring_head = (c->ring_head + 1) % RING;
			c->ring_n--;
		}
	}
	if (c->p.kind == CHK_ARCHIVE && c->p.hold > 0) {
		uint64_t lim = c->in_off > c->p.hold ? c->in_off - c->p.hold : 0;

		if (a > lim)
			a = lim;
	}
	/* builds, loads: the body may end at any byte; the last waits */
	if (c->p.kind != CHK_ARCHIVE && c->in_off > 0 && a >= c->in_off)
		a = c->in_off - 1;
	if (a > c->approved_in)
		c->approved_in = a;
}

static int
decomp_bytes(struct chk *c, const unsigned char *p, size_t n)
{
	size_t used, made, k;
	enum decomp_rc rc;

	while (n > 0 || c->ring_n == 0) {
		k = n < PIECE ? n : PIECE;
		do {
			rc = decomp_feed(&c->d, p, k, &used, c->out, OUTBUF, &made);
			/* what was decoded before an error is read first */
			if (rc == DC_ERROR && tar_bytes(c, c->out, made) == -1)
				return -1;
			if (rc == DC_ERROR && c->tar_end)
				break;	/* garbage past the end is not read */
			if (rc == DC_ERROR)
				return (cg_refuse_hint(&c->r, "malformed", "send a "
				    "plain, gzip, bzip2 or xz tar archive", "the %s "
				    "cannot be decompressed: %s", kind_noun(c),
				    c->d.err), refuse(c));
			p += used;
			k -= used;
			n -= used;
			c->in_off += used;
			if (tar_bytes(c, c->out, made) == -1)
				return -1;
		} while ((k > 0 || made == OUTBUF) && !c->tar_end);
		ring_push(c);
		if (c->tar_end || n == 0)
			break;
	}
	if (c->tar_end)
		c->in_off += n;		/* past the end: not read (Go's reader) */
	return 0;
}

int
chk_feed(struct chk *c, const unsigned char *p, size_t n)
{
	size_t used;
	enum decomp_kind k;

	if (c->refused)
		return -1;
	if (c->d.kind == DC_UNKNOWN) {
		k = decomp_detect(&c->d, p, n, &used);
		if (k == DC_UNKNOWN)
			return 0;	/* kept: replayed once known */
		if (k == DC_ZSTD)
			return (cg_refuse_hint(&c->r, "malformed", "send a plain, "
			    "gzip, bzip2 or xz tar archive", "the %s is "
			    "zstd-compressed, which the gateway does not read",
			    kind_noun(c)),
			    refuse(c));
		c->plain = k == DC_PLAIN;
		/* the detection bytes first, then the rest */
		{
			unsigned char head[6];
			size_t hl = c->d.hlen;

			memcpy(head, c->d.head, hl);
			if (chk_feed(c, head, hl) == -1)
				return -1;
		}
		p += used;
		n -= used;
	}
	if (c->plain) {
		c->in_off += n;
		if (tar_bytes(c, p, n) == -1)
			return -1;
		if (c->tar_end)
			c->out_off = c->in_off;
	} else if (!c->tar_end) {
		if (decomp_bytes(c, p, n) == -1)
			return -1;
	} else {
		c->in_off += n;
	}
	approve(c);
	return 0;
}

/* The Dockerfile the build reads, and the ignore files: final checks. */
static int
build_final(struct chk *c)
{
	struct df_params prm = { .buildargs = c->buildargs,
	    .bases = &c->bases };
	struct watch *df = NULL;
	size_t i;
	char q[260];

	for (i = 0; i < c->nw; i++) {
		struct watch *w = &c->w[i];

		if (through_link(c, w->path) != NULL || w->type == '2' ||
		    link_find(c, w->path) != NULL)
			return quoted_refuse(c, "host-path", "send the file itself, "
			    "not a symlink to it", "%s is a symlink or lies below "
			    "one in the build context: podman reads it on the host, "
			    "following the symlink", w->path);
		if (w->dockerfile && df == NULL && w->type != 0)
			df = w;
	}
	if (df == NULL || (!c->defaults && df != &c->w[0]))
		return quoted_refuse(c, "host-path", "put the Dockerfile in the "
		    "build context, or name it with -f", "the Dockerfile %s is "
		    "not in the build context", c->dockerfile_name);
	if (df->type != '0')
		return quoted_refuse(c, "host-path", "send the Dockerfile as a "
		    "regular file", "the Dockerfile %s is not a regular file in "
		    "the build context", df->path);
	if (df->over)
		return cg_refuse(&c->r, "too-large", "the Dockerfile %s is over "
		    "%u MiB", cg_quote(df->path, strlen(df->path), q),
		    DOCKERFILE_MAX >> 20);
	if (dockerfile_check((const char *)df->data, df->len, &prm, &c->r) < 0)
		return -1;
	if (c->from != NULL)
		df_bases_add(&c->bases, c->from);
	if (c->bases.over)
		return cg_refuse_hint(&c->r, "too-large", "build from fewer "
		    "base images", "the Dockerfile names more than %u base "
		    "images, each of which the gateway reads", DF_BASES_MAX);
	return 0;
}

/* twalk has no closure: the context being checked, one at a time. */
static struct chk *walk_chk;
static const struct link *walk_bad;

static void
walk_link(const void *node, VISIT v, int depth)
{
	const struct link *l = *(const struct link *const *)node;
	char *dir, *path;
	const char *slash;

	(void)depth;
	if ((v != postorder && v != leaf) || walk_bad != NULL)
		return;
	slash = strrchr(l->path, '/');
	dir = xstrndup(l->path, slash != NULL ? (size_t)(slash - l->path) : 0);
	path = xmalloc(strlen(dir) + strlen(l->target) + 2);
	sprintf(path, "%s%s%s", dir, dir[0] ? "/" : "", l->target);
	if (resolve(walk_chk, path) != 0)
		walk_bad = l;
	free(dir);
	free(path);
}

int
chk_finish(struct chk *c)
{
	if (c->refused)
		return -1;
	if (c->d.kind == DC_UNKNOWN) {
		size_t used;

		(void)decomp_detect(&c->d, NULL, 0, &used);
		c->plain = 1;
		c->in_off += c->d.hlen;
		if (tar_bytes(c, c->d.head, c->d.hlen) == -1)
			return -1;
	}
	if (!c->tar_end && !c->plain && decomp_finish(&c->d) == DC_ERROR &&
	    tar_finish(&c->t) != TAR_END)
		return (cg_refuse_hint(&c->r, "malformed", "send the whole "
		    "archive", "the %s ends in the middle: %s", kind_noun(c),
		    c->d.err), refuse(c));
	if (!c->tar_end && tar_finish(&c->t) != TAR_END)
		return (cg_refuse_hint(&c->r, "malformed", "send the whole "
		    "archive", "the %s ends in the middle of an entry",
		    kind_noun(c)), refuse(c));
	if (capture_done(c) == -1)
		return refuse(c);
	if (c->p.kind != CHK_ARCHIVE) {
		walk_chk = c;
		walk_bad = NULL;
		twalk(c->links, walk_link);
		if (walk_bad != NULL)
			return (tree_refuse(c, "host-path", c->p.kind == CHK_BUILD ?
			    "%s symlink %s resolves outside the context, where "
			    "podman's builder would follow it on the host (RUN "
			    "--mount, CVE-2024-1753)" : "%s symlink %s resolves "
			    "outside the archive, where podman would follow it on "
			    "the host when it reads the extracted archive",
			    walk_bad->path), refuse(c));
	}
	if (c->p.kind == CHK_BUILD && build_final(c) == -1)
		return refuse(c);
	/* each name the load gives is checked by the monitor next */
	if (c->p.kind == CHK_LOAD && c->bases.over)
		return (cg_refuse_hint(&c->r, "too-large", "load fewer names at "
		    "once", "the image archive gives more than %d image names",
		    DF_BASES_MAX), refuse(c));
	if (c->p.kind == CHK_LOAD)
		load_ids(c);
	c->finished = 1;
	c->approved_in = c->in_off;
	return 0;
}

const struct df_bases *
chk_bases(const struct chk *c)
{
	return &c->bases;
}

const struct cJSON *
chk_buildargs(const struct chk *c)
{
	return c->buildargs;
}

uint64_t
chk_approved(const struct chk *c)
{
	return c->approved_in;
}

uint64_t
chk_skippable(const struct chk *c)
{
	if (c->refused || c->finished || !c->plain || c->tar_end ||
	    c->d.kind == DC_UNKNOWN)
		return 0;
	return tar_skippable(&c->t);
}

int
chk_skip(struct chk *c, uint64_t n)
{
	if (n > chk_skippable(c))
		return -1;
	tar_skip(&c->t, n);
	c->in_off += n;
	c->out_off += n;
	approve(c);
	return 0;
}

void
chk_flush(struct chk *c)
{
	c->p.hold = 0;
	if (!c->refused)
		approve(c);
}
