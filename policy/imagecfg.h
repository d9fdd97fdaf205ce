/*
 * The configuration an image hands to every container made from it, read
 * from the daemon's image inspect answer: labels, annotations (podman
 * copies an image's annotations into the container's runtime config:
 * measured on podman 4.3.1, tests/integration/tools.sh t_image_annotations),
 * exposed ports, environment, working directory and user. The monitor asks
 * for it during the named-resource phase of a container or pod create
 * (monitor/exchange/image.c) and checks it with image_config_check. Pure: no I/O.
 */
#ifndef CG_POLICY_IMAGECFG_H
#define CG_POLICY_IMAGECFG_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "base/gwerror.h"

struct image_config {
	cJSON *tree;			/* the parsed answer (owned) */
	const char *id;			/* Id, never NULL after a parse */
	const cJSON *labels;		/* object, or NULL */
	const cJSON *annotations;	/* object, or NULL (compat answers) */
	const cJSON *exposed_ports;	/* object, or NULL */
	const cJSON *env;		/* array, or NULL */
	const cJSON *entrypoint;	/* Config.Entrypoint array, or NULL */
	const cJSON *cmd;		/* Config.Cmd array, or NULL */
	const char *working_dir;	/* "" when unset */
	const char *user;		/* "" when unset */
};

/*
 * Parse an image inspect answer body[0..len) of either API: libpod
 * (GET /libpod/images/{name}/json: Config.*, top-level Annotations and
 * Labels) or compat (GET /images/{name}/json: Config.*). Labels come from
 * Config.Labels, else the top level; User from Config.User, else the top
 * level. Returns 0 with *out filled (release with image_config_free), or
 * -1 (*out zeroed) when body is not a JSON object with a string Id, has
 * colliding keys (policy.md §0.2), or one of the fields above has another
 * type than stated.
 */
int image_config_parse(const char *body, size_t len, struct image_config *out);

/* Release what image_config_parse allocated; safe on a zeroed struct. */
void image_config_free(struct image_config *ic);

/*
 * The rules a create's image must pass (spec README, amendments of
 * 2026-12-07: annotations on every road): no annotation key the create
 * body could not carry either (rule_annotations' reserved prefixes,
 * policy/create_rules.c, 403 annotations), no hook variable in its Env
 * (403 devices), and no project label (CG_LABEL_KEY, exact key, as podman
 * reads labels) other than root, the gateway's project root: another
 * project's image (red team rt10 F1: a name moved onto it ran that
 * project's code in this project's containers and pods). 403
 * commit-label, the code of the road that refuses setting that label on
 * an image (policy.md §13); the detail never names the other project.
 * Unlabelled images (pulled, podman's own infra image) pass. ref is the
 * image as the create named it, for the detail. Returns 0, or -1 with *r
 * set.
 */
int image_config_check(const struct image_config *ic, const char *ref,
    const char *root, struct cg_refusal *r);

/*
 * podman 4.3.1's systemd mode (pkg/specgen/generate/container_create.go):
 * with its default systemd="true", which its compat create always sends
 * and a pod's infra container gets, podman runs a container in systemd
 * mode when the command it computes (makeCommand: the body's entrypoint,
 * else the image's, then the body's command, else the image's Cmd; a
 * leading "/bin/sh" "-c" skipped) starts with /sbin/init, /usr/sbin/init,
 * /usr/local/sbin/init or a path whose last element is "systemd". On
 * cgroup v1 that mounts the root of the host's name=systemd hierarchy
 * read-write into the container (red team rt10 F2; measured:
 * tests/integration/isolation.sh i_systemd_mode). body is the create
 * body: pod 0, a compat create (Entrypoint, Cmd: a string or an array; a
 * one-element Entrypoint is read as podman does, as a JSON array when it
 * is one); pod 1, a pod create (infra_command). ic may be NULL (no image:
 * its Entrypoint and Cmd empty). Returns 0, or -1 with *r set: 403
 * systemd, or 400 malformed for an Entrypoint/Cmd/infra_command of
 * another type or a one-element Entrypoint starting with '[' that is no
 * JSON array of strings.
 */
int image_systemd_check(const struct image_config *ic, const cJSON *body,
    int pod, struct cg_refusal *r);

/*
 * image_systemd_check() in two halves, for a caller that reads the body
 * before it has the image (monitor/exchange/createbody.c reads the create
 * body once; the image step decides later): what the check takes from
 * the body, with no pointer into it.
 */
struct systemd_body {
	const char *malformed;	/* NULL, or the 400 malformed detail the
				   body alone earns (a static string) */
	char *be[3], *bc[3];	/* the first three words of the body's
				   entrypoint (pod: infra_command; a
				   one-element '[' Entrypoint decoded) and
				   Cmd, malloc'd */
	size_t be_n, bc_n;	/* how many words each has */
	int ep_nil;		/* no entrypoint (Go: a nil slice) */
};

/* Fill *sb from body (pod as for image_systemd_check); release it with
 * image_systemd_body_free. Exits through xoom() on allocation failure. */
void image_systemd_body(const cJSON *body, int pod, struct systemd_body *sb);
void image_systemd_body_free(struct systemd_body *sb);

/* image_systemd_check() on a body summarised by image_systemd_body():
 * the same result and refusal, the image's own errors first. */
int image_systemd_decide(const struct image_config *ic,
    const struct systemd_body *sb, int pod, struct cg_refusal *r);

#endif
