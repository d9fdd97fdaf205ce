/*
 * Image references naming a transport (policy/imageref.h). Measured on
 * podman 4.3.1 by the s7 red team: libpod build t=dir:/h (and oci:,
 * oci-archive:, docker-archive:) wrote the built image to /h as root;
 * from=docker-archive:/p and pod create infra_image=docker-archive:/p read
 * a root-only archive of another project into the shared store.
 */
#include "policy/imageref.h"

#include <string.h>

#include "base/util.h"
#include "policy/assemble.h"

#define D_HINT	"name an image (NAME[:TAG]) without a transport prefix; " \
		"load archives with docker load"

/* The transports of containers/image (alltransports), podman's build. */
static const char *const transports[] = {
	"containers-storage", "dir", "docker", "docker-archive",
	"docker-daemon", "oci", "oci-archive", "openshift", "ostree", "sif",
	"tarball", NULL
};

int
image_ref_transport_n(const char *v, size_t len)
{
	const char *colon = memchr(v, ':', len);
	const char *const *t;
	size_t n;

	if (colon == NULL)
		return 0;
	n = (size_t)(colon - v);
	for (t = transports; *t != NULL; t++)
		if (cg_ci_eq(v, n, *t))
			/* docker: needs "//"; docker:dind is an image name */
			return strcmp(*t, "docker") != 0 ||
			    (len - n >= 3 && colon[1] == '/' && colon[2] == '/');
	return 0;
}

int
image_ref_transport(const char *v)
{
	return image_ref_transport_n(v, strlen(v));
}

/* asm_each_ref callback: refuse a joined reference naming a transport. */
static int
joined_transport(void *arg, const char *key, const char *ref)
{
	char qv[260];

	if (!image_ref_transport(ref))
		return 0;
	cg_refuse_hint(arg, "host-path", D_HINT, "%s joined with its tag is %s, "
	    "which names an image transport: the daemon would open that host "
	    "path", key, cg_quote(ref, strlen(ref), qv));
	return -1;
}

int
request_check_transports(const char *path, size_t plen,
    const struct cg_route *rt, enum cg_api api, const struct cg_query *q,
    struct cg_refusal *r)
{
	const char *s = path, *e = path + plen, *slash;
	char qv[260];
	size_t i;

	for (; s < e; s = slash + 1) {
		slash = memchr(s, '/', (size_t)(e - s));
		if (slash == NULL)
			slash = e;
		if (image_ref_transport_n(s, (size_t)(slash - s)))
			return cg_refuse_hint(r, "host-path", D_HINT, "the path "
			    "names an image transport (%s): the daemon would "
			    "open that host path", cg_quote(s, (size_t)(slash -
			    s), qv));
	}
	for (i = 0; q != NULL && i < q->n; i++)
		if (image_ref_transport(q->v[i].value))
			return cg_refuse_hint(r, "host-path", D_HINT, "%s %s "
			    "names an image transport: the daemon would open "
			    "that host path", q->v[i].key,
			    cg_quote(q->v[i].value, strlen(q->v[i].value), qv));
	return asm_each_ref(rt, api, q, joined_transport, r) != 0 ? -1 : 0;
}

int
build_check_image_refs(const struct cg_query *q, struct cg_refusal *r)
{
	char qv[260];
	size_t i;

	for (i = 0; i < q->n; i++)
		if ((strcmp(q->v[i].key, "t") == 0 ||
		    strcmp(q->v[i].key, "from") == 0) &&
		    image_ref_transport(q->v[i].value))
			return cg_refuse_hint(r, "denied-build-parameter", D_HINT,
			    "%s %s names a transport: the daemon would read or "
			    "write that host path", q->v[i].key,
			    cg_quote(q->v[i].value, strlen(q->v[i].value), qv));
	return 0;
}

int
image_ref_path_safe(const char *v, size_t len)
{
	size_t i, seg = 0;

	if (len == 0)
		return 0;
	for (i = 0; i <= len; i++) {
		unsigned char ch = i < len ? (unsigned char)v[i] : '/';

		if (ch == '/') {
			if (i == seg || (i - seg == 1 && v[seg] == '.') ||
			    (i - seg == 2 && v[seg] == '.' && v[seg + 1] == '.'))
				return 0;
			seg = i + 1;
			continue;
		}
		if (ch < 0x21 || ch > 0x7e || strchr("%?#\\", ch) != NULL)
			return 0;
	}
	return 1;
}

int
image_field_check(const char *field, const char *v, struct cg_refusal *r)
{
	char qv[260];

	if (v == NULL || v[0] == '\0')
		return 0;
	if (!image_ref_path_safe(v, strlen(v)))
		return cg_refuse_hint(r, "malformed", "name an image as "
		    "NAME[:TAG] or by its id", "%s %s is not an image "
		    "reference", field, cg_quote(v, strlen(v), qv));
	if (!image_ref_transport(v))
		return 0;
	return cg_refuse_hint(r, "host-path", D_HINT, "%s %s names a "
	    "transport: the daemon would read that host path", field,
	    cg_quote(v, strlen(v), qv));
}
