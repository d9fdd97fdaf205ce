/*
 * The project's disk usage (routes.md §7.2 as amended; doc/answers.md): a
 * system df answer computed by the monitor from the backend's own answers, and
 * the pod count behind the libpod system prune pre-check (routes.md §8.2 as
 * amended; doc/filters.md). Pure functions: no I/O, no state; the monitor
 * (monitor/exchange/answer.c) fetches the inputs itself.
 */
#ifndef CG_MONITOR_EXCHANGE_USAGE_H
#define CG_MONITOR_EXCHANGE_USAGE_H

#include <stddef.h>

#include "policy/policy.h"

/*
 * The backend answers a df is computed from: decoded bodies (at most
 * JSON_MAX_TEXT bytes each), all of the same API.
 *   containers  the container list asked with the project's label filter
 *               (compat: all=1&size=1; libpod: all=true); it is
 *               post-filtered again here (monitor/exchange/listfilter.c)
 *   volumes     the volume list asked with the project's label filter,
 *               post-filtered here
 *   images      the image list (compat: GET images/json; libpod: GET
 *               libpod/images/json?all=true): every image, shared
 *   df          the backend's own GET system/df
 */
struct usage_src {
	const char *containers, *volumes, *images, *df;
	size_t containers_len, volumes_len, images_len, df_len;
};

/*
 * The df answer of api for the project root (NUL-terminated) on a backend
 * of backend_kind, in the backend's own shape for api:
 *   compat  {"LayersSize","Images","Containers","Volumes","BuildCache",
 *           "BuilderSize"}: Containers = the project's containers as the
 *           list gave them (with their sizes); Volumes = the project's
 *           volumes, each with UsageData from the backend's df (matched
 *           by Name; {"RefCount":-1,"Size":-1} when the df lacks it);
 *           Images = every image of the list; BuildCache [], BuilderSize 0
 *           (legacy builds keep nothing there: doc/answers.md);
 *   libpod  {"Images","Containers","Volumes"} of the backend's df, its
 *           Containers and Volumes kept to the project's (by ContainerID
 *           and VolumeName, from the lists).
 * Images are shared between projects: each image's Containers counts only
 * the project's containers that use it, an image not built in the project
 * (its labels lack KEY=root) is marked wholly shared (SharedSize = Size;
 * libpod UniqueSize 0), one built in it keeps the backend's df SharedSize
 * (compat: from the df's image with the same Id). Compat LayersSize is the
 * sum of Size - SharedSize over the images: the bytes only the project's
 * own images hold. Ids compare without a "sha256:" prefix.
 * Returns 0 with *out (malloc'd, compact JSON, numbers as sent) and
 * *out_len, or -1 for an input that is not the measured shape: not JSON,
 * an object with colliding keys (policy.md §0.2), a list the list filter
 * refuses, a df without the api's lists, an element without its id or
 * name string or an image without a numeric Size.
 */
int usage_df(enum cg_api api, enum cg_kind backend_kind, const char *root,
    const struct usage_src *in, char **out, size_t *out_len);

/*
 * Of the libpod pod list body[0..len) (GET libpod/pods/json without a
 * filter), how many pods are not the project's (their Labels lack
 * KEY=root exactly: other projects' and unmanaged pods) into *n. Returns
 * 0, or -1 when the body is not a list of pod objects the list filter
 * reads (monitor/exchange/listfilter.c), or backend_kind is not podman.
 */
int usage_foreign_pods(enum cg_kind backend_kind, const char *root,
    const char *body, size_t len, unsigned *n);

#endif
