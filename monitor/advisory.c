/*
 * Backend advisories (monitor/advisory.h): the one table of backend flaws
 * the gateway cannot close itself, the version parser for a daemon's
 * GET /version, and the status rendering. tool.md "Backend advisories"
 * lists the same rows; change both together.
 */
#include "monitor/advisory.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gwerror.h"
#include "policy/json.h"

static const struct advisory table[ADV_COUNT] = {
	[ADV_PODMAN_WORKDIR] = {
		"podman-workdir", "podman", "below 5.7.1",
		"podman joins the working directory to the root file "
		"system's mount point on the host without resolving it inside "
		"the container, then creates and chowns it there as root "
		"(containers/podman#27672): a symlink in the image or one the "
		"container plants reaches host paths",
		"checks the effective working directory inside the root file "
		"system through the daemon before each start, restart and "
		"init and refuses a symlink on the way; stops a running "
		"container before restarting it; refuses a restart policy "
		"unless the root file system is read-only or the working "
		"directory is / or on a mount",
	},
	[ADV_RUNC_DEV] = {
		"runc-dev-mounts", "runc",
		"below 1.2.8, 1.3.0 to 1.3.2, 1.4.0-rc.1 and -rc.2",
		"runc follows a container-controlled /dev/null, /dev/pts/ptmx "
		"or masked path while it sets the container up "
		"(CVE-2025-31133, CVE-2025-52565; CVE-2025-52881 is fixed in "
		"the same releases)",
		"refuses volume and bind targets at or below /dev, /proc and "
		"/sys at create, and image volumes there at each start; "
		"CVE-2025-52881 is not mitigated",
	},
	[ADV_BUILDAH_1753] = {
		"buildah-cve-2024-1753", "podman", "below 4.9.4, and 5.0.0",
		"podman's builder follows a symlink in the build context as "
		"the source of RUN --mount=type=bind, reading and writing the "
		"host path as root (CVE-2024-1753)",
		"refuses, in its checker, context symlinks that are absolute "
		"or resolve outside the context, whatever the Dockerfile says, "
		"and checks the ONBUILD triggers of the images a Dockerfile "
		"starts FROM (tool.md); a base image retagged between that "
		"check and the builder's own lookup is not seen",
	},
	/*
	 * Measured by red team rt11 on netavark 1.4.0 (Debian 12): project A
	 * reached B's service after its own network lost its last container;
	 * netavark's iptables driver deletes the one FORWARD jump to
	 * NETAVARK_ISOLATION_1 on the complete teardown of any isolated bridge
	 * (TeardownPolicy::OnComplete, src/firewall/varktables/types.rs; the
	 * same through 1.16 by its source). No API answer names netavark's
	 * version, so every podman backend counts as affected.
	 */
	[ADV_NETAVARK_TEARDOWN] = {
		"netavark-isolation-teardown", "netavark",
		"1.4 to at least 1.16 (podman does not report its version: every "
		"podman backend)",
		"the iptables driver deletes the one FORWARD jump to "
		"NETAVARK_ISOLATION_1 that every isolated bridge shares when "
		"any isolated bridge is torn down (its last container stops), "
		"until the next isolated network is set up: meanwhile the "
		"projects' networks reach each other",
		"nothing it can do (it does not touch the host's firewall, and "
		"teardowns happen without a request); isolate projects that "
		"must not reach each other with one daemon each",
	},
	/*
	 * Measured by the red team on podman 4.3.1: an image with /lnk ->
	 * /root and -v newvol:/lnk/.ssh gave the new volume the host's
	 * /root/.ssh mode, owner and times (libpod fixVolumePermissions:
	 * os.Lstat of filepath.Join(mount point, target) on the host). Later
	 * versions were not read: every podman counts.
	 */
	[ADV_PODMAN_VOLUME_CHOWN] = {
		"podman-volume-chown", "podman",
		"4.3.1 measured; later versions not read (every podman backend)",
		"at a new named volume's first mount podman looks its target "
		"up on the host, joined to the root file system's mount point "
		"without resolving it inside the container, and gives the "
		"volume that path's owner, mode and times: a symlink in the "
		"image or one the container plants tells whether any host "
		"path exists, and its owner, mode and times",
		"walks each volume target inside the root file system through "
		"the daemon before each start, restart, init and attach, as for "
		"podman-workdir, and refuses a symlink on the way",
	},
	/*
	 * Measured by the red team on podman 4.3.1: libpod commit and diff
	 * walk the overlay upper directory on the host, by path, without a
	 * chroot; a process writing the root file system during the walk
	 * swapped a directory for a symlink (the image held the host's
	 * /etc/shadow, the diff listed the host's /root). dockerd's overlay2
	 * diff tars the upper directory on the host too (not measured). No
	 * release is known to fix it: every podman and dockerd backend.
	 */
	[ADV_ROOTFS_WALK] = {
		"podman-rootfs-walk", "podman",
		"all known versions; dockerd too (not measured)",
		"commit, diff (changes) and export read the container's root "
		"file system on the host, by path, without a chroot: a process "
		"that writes it during the walk (the container itself, or a "
		"container of its pod through /proc/<pid>/root while it is "
		"paused) redirects the walk to host files, which end up in the "
		"image, the diff or the tar",
		"forwards every commit with pause=true and refuses one of a "
		"running container in a pod; refuses diff and export of a "
		"container that has processes (running, paused, restarting, "
		"...) or a restart policy, as the daemon tells at the request; "
		"refuses its start, restart, init and copies into it while one "
		"runs",
	},
};

const struct advisory *
advisory_at(size_t i)
{
	return i < ADV_COUNT ? &table[i] : NULL;
}

/* A version "A.B.C[-rc[.]N]..." as numbers; ok 0 when it does not parse. */
struct ver {
	int ok;
	long n[3];
	long rc;		/* -1: a release */
};

static struct ver
parse_ver(const char *s)
{
	struct ver v = { 0, { 0, 0, 0 }, -1 };
	char *end;
	int i;

	for (i = 0; i < 3; i++) {
		if (!isdigit((unsigned char)*s))
			return v;
		v.n[i] = strtol(s, &end, 10);
		s = end;
		if (i < 2) {
			if (*s != '.')
				return v;
			s++;
		}
	}
	if (strncmp(s, "-rc", 3) == 0) {
		s += 3;
		if (*s == '.')
			s++;
		if (isdigit((unsigned char)*s))
			v.rc = strtol(s, NULL, 10);
	}
	v.ok = 1;
	return v;
}

/* <0, 0, >0 as a is before, equal to, after b (a release after its rcs). */
static int
cmp_ver(struct ver a, struct ver b)
{
	int i;

	for (i = 0; i < 3; i++)
		if (a.n[i] != b.n[i])
			return a.n[i] < b.n[i] ? -1 : 1;
	if (a.rc == b.rc)
		return 0;
	if (a.rc < 0)
		return 1;
	if (b.rc < 0)
		return -1;
	return a.rc < b.rc ? -1 : 1;
}

static int
below(const char *v, const char *fixed)
{
	return cmp_ver(parse_ver(v), parse_ver(fixed)) < 0;
}

/*
 * s[0..) copied into out (sz bytes) up to the first byte that is not a
 * printable ASCII character other than a space, or one of stop: what the
 * backend says goes into log lines and the instance record (line-based),
 * so no control byte may pass (red team: a newline in a runtime's name
 * added a line to the record).
 */
static void
copy_word(char *out, size_t sz, const char *s, const char *stop)
{
	size_t n = 0;

	while (s[n] > ' ' && s[n] < 0x7f && strchr(stop, s[n]) == NULL)
		n++;
	snprintf(out, sz, "%.*s", (int)n, s);
}

void
advisory_parse_version(const char *body, size_t len, struct backend_version *v)
{
	const cJSON *c, *name, *ver, *top;
	const char *n, *p;
	cJSON *tree;

	memset(v, 0, sizeof(*v));
	tree = json_parse(body, len, NULL, 0);
	if (!cJSON_IsObject(tree)) {
		cJSON_Delete(tree);
		return;
	}
	top = json_get(tree, "Version");
	c = json_get(tree, "Components");
	for (c = cJSON_IsArray(c) ? c->child : NULL; c != NULL; c = c->next) {
		name = json_get(c, "Name");
		ver = json_get(c, "Version");
		if (!cJSON_IsString(name) || !cJSON_IsString(ver))
			continue;
		n = name->valuestring;
		if (strcmp(n, "Podman Engine") == 0) {
			v->engine = ENGINE_PODMAN;
			copy_word(v->version, sizeof(v->version), ver->valuestring, "");
		} else if (strcmp(n, "Engine") == 0) {
			v->engine = ENGINE_DOCKERD;
			copy_word(v->version, sizeof(v->version), ver->valuestring, "");
		} else if (strncmp(n, "OCI Runtime (", 13) == 0) {
			/* podman: "runc version 1.1.5+ds1\ncommit: ..." */
			copy_word(v->runtime, sizeof(v->runtime), n + 13, ")");
			p = strstr(ver->valuestring, " version ");
			copy_word(v->runtime_version, sizeof(v->runtime_version),
			    p != NULL ? p + 9 : ver->valuestring, "");
		} else if (strcmp(n, "runc") == 0) {
			/* dockerd: the bare version */
			snprintf(v->runtime, sizeof(v->runtime), "runc");
			copy_word(v->runtime_version, sizeof(v->runtime_version),
			    ver->valuestring, "");
		}
	}
	if (v->version[0] == '\0' && cJSON_IsString(top))
		copy_word(v->version, sizeof(v->version), top->valuestring, "");
	v->known = v->version[0] != '\0';
	cJSON_Delete(tree);
}

unsigned
advisory_applies(const struct backend_version *v, int podman_server)
{
	int podman = v->engine == ENGINE_PODMAN ||
	    (v->engine == ENGINE_UNKNOWN && podman_server);
	const char *pv = v->version, *rv = v->runtime_version;
	struct ver r = parse_ver(rv);
	unsigned bits = 0;

	if (podman && (!parse_ver(pv).ok || below(pv, "5.7.1")))
		bits |= 1u << ADV_PODMAN_WORKDIR;
	if (podman && (!parse_ver(pv).ok || below(pv, "4.9.4") ||
	    (!below(pv, "5.0.0") && below(pv, "5.0.1"))))
		bits |= 1u << ADV_BUILDAH_1753;
	if (podman)
		bits |= 1u << ADV_NETAVARK_TEARDOWN |
		    1u << ADV_PODMAN_VOLUME_CHOWN;
	bits |= 1u << ADV_ROOTFS_WALK;		/* podman and dockerd, all */
	/* fixed in 1.2.8, 1.3.3 and 1.4.0-rc.3 */
	if ((v->runtime[0] == '\0' || strcmp(v->runtime, "runc") == 0) &&
	    (!r.ok || below(rv, "1.2.8") ||
	    (!below(rv, "1.3.0") && below(rv, "1.3.3")) ||
	    (!below(rv, "1.4.0-rc.0") && below(rv, "1.4.0-rc.3"))))
		bits |= 1u << ADV_RUNC_DEV;
	return bits;
}

void
advisory_describe(const struct backend_version *v, int podman_server,
    char *buf, size_t sz)
{
	const char *engine = v->engine == ENGINE_PODMAN ? "podman" :
	    v->engine == ENGINE_DOCKERD ? "dockerd" :
	    podman_server ? "podman" : "backend";

	if (!v->known) {
		snprintf(buf, sz, "%s, version unknown", engine);
		return;
	}
	snprintf(buf, sz, "%s %s, %s %s", engine, v->version,
	    v->runtime[0] != '\0' ? v->runtime : "runtime",
	    v->runtime_version[0] != '\0' ? v->runtime_version : "unknown");
}

/* One JSON string member "key": value (escaped) to f. */
static void
member(FILE *f, const char *key, const char *value, int last)
{
	char *e = cg_json_escape(value, strlen(value));

	fprintf(f, "\"%s\": \"%s\"%s", key, e, last ? "" : ", ");
	free(e);
}

void
advisory_status_json(const char *rec, FILE *f)
{
	const char *line, *nl, *sp;
	char id[64], backend[256];
	int first = 1;
	size_t i;

	fputc('[', f);
	/* the last block appended after start-up wins (instance.c) */
	for (line = rec; (sp = strstr(line, "advisories=final\n")) != NULL;
	    line = sp + 17)
		;
	for (; line != NULL && *line != '\0';
	    line = nl != NULL ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (strncmp(line, "advisory=", 9) != 0)
			continue;
		line += 9;
		sp = strchr(line, ' ');
		if (sp == NULL || (nl != NULL && sp > nl))
			continue;
		snprintf(id, sizeof(id), "%.*s", (int)(sp - line), line);
		snprintf(backend, sizeof(backend), "%.*s", nl != NULL ?
		    (int)(nl - sp - 1) : (int)strlen(sp + 1), sp + 1);
		for (i = 0; i < ADV_COUNT; i++)
			if (strcmp(table[i].id, id) == 0)
				break;
		if (i == ADV_COUNT)
			continue;
		fprintf(f, "%s{", first ? "" : ", ");
		member(f, "id", id, 0);
		member(f, "backend", backend, 0);
		member(f, "affected", table[i].affected, 0);
		member(f, "flaw", table[i].flaw, 0);
		member(f, "gateway", table[i].gateway, 1);
		fputc('}', f);
		first = 0;
	}
	fputc(']', f);
}
