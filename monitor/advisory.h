/*
 * Backend advisories: flaws of a backend version that the gateway cannot
 * close itself, what it does about each, and the backend's version as it
 * reports it at start-up (spec amendment of 2026-12-07; tool.md "Backend
 * advisories").
 */
#ifndef CG_ADVISORY_H
#define CG_ADVISORY_H

#include <stddef.h>
#include <stdio.h>

/* The daemon and runtime behind one listener, from its GET /version. */
struct backend_version {
	int known;			/* /version answered with a Components list
					   or a Version the parser read */
	enum { ENGINE_UNKNOWN, ENGINE_PODMAN, ENGINE_DOCKERD } engine;
	char version[48];		/* the engine's, as reported ("4.3.1") */
	char runtime[24];		/* "runc", "crun", ... ("" unknown) */
	char runtime_version[48];	/* "1.1.5+ds1" ("" unknown) */
};

/* The advisories, in the order of the table (monitor/advisory.c). */
enum advisory_id {
	ADV_PODMAN_WORKDIR,	/* podman < 5.7.1: workdir joined on the host */
	ADV_RUNC_DEV,		/* runc CVE-2025-31133, CVE-2025-52565 */
	ADV_BUILDAH_1753,	/* buildah CVE-2024-1753 in podman < 4.9.4 */
	ADV_NETAVARK_TEARDOWN,	/* netavark drops the shared isolation jump */
	ADV_PODMAN_VOLUME_CHOWN, /* podman stats a new volume's target on
				    the host */
	ADV_ROOTFS_WALK,	/* commit, diff, export walk the root on the host */
	ADV_COUNT
};

/* One row of the table: tool.md lists the same rows. */
struct advisory {
	const char *id;		/* stable name, e.g. "podman-workdir" */
	const char *component;	/* "podman" or "runc" */
	const char *affected;	/* the affected versions, as text */
	const char *flaw;	/* what the backend does wrong */
	const char *gateway;	/* what the gateway does about it */
};

/* Row i (0 <= i < ADV_COUNT), or NULL. */
const struct advisory *advisory_at(size_t i);

/*
 * Fill *v from the body[0..len) of a GET /version answer: podman's
 * Components "Podman Engine" and "OCI Runtime (<name>)" (whose Version is
 * "<name> version X ..."), dockerd's "Engine" and "runc" (measured on
 * podman 4.3.1 and dockerd 20.10.24). v->known is 0 when the body is no
 * JSON object with a Components list or a Version string. Never fails.
 */
void advisory_parse_version(const char *body, size_t len,
    struct backend_version *v);

/*
 * Bit 1 << id for each advisory that applies to v. podman_server: the
 * daemon said "Server: Libpod/..." on its GET /_ping, so an unreadable
 * version counts as affected (fail closed); the runc row applies when the
 * runtime is runc below a fixed release, or unknown; podman-rootfs-walk
 * always (podman and dockerd: no fixed release is known).
 */
unsigned advisory_applies(const struct backend_version *v,
    int podman_server);

/*
 * "podman 4.3.1, runc 1.1.5+ds1" (or "podman, version unknown") into buf
 * (sz bytes, NUL-terminated).
 */
void advisory_describe(const struct backend_version *v, int podman_server,
    char *buf, size_t sz);

/*
 * Write the status "advisories" member's value (a JSON array of
 * {"id","backend","affected","flaw","gateway"}) for the record lines
 * "advisory=<id> <backend text>" in rec (NUL-terminated), to f; only
 * those after the last "advisories=final" line when there is one.
 */
void advisory_status_json(const char *rec, FILE *f);

#endif
