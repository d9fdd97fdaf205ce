#!/bin/bash
# tests/integration/builds.sh — build contexts, Dockerfiles and archives read by the
# gateway's checker (doc/privsep.md "Builds and archives"), through the real CLIs and a
# private rootful podman (or, with CG_BACKEND=docker, dockerd 20.10's classic builder):
#   * refused with 403 and their reason, nothing happening on the host (each checked on
#     a host directory outside the project afterwards): a context symlink to a host
#     directory used by RUN --mount (read, and rw write: CVE-2024-1753 in Debian's
#     buildah), a Dockerfile that is a symlink to a host file, FROM docker-archive: of a
#     host archive, a context entry written through a context symlink (measured: podman
#     4.3.1 extracts it on the host), a cache mount whose id climbs out of the cache
#     directory (measured: it wrote the host), docker cp of a tar holding a device node,
#     a setuid-root file or a file capability into a bound project directory, also a
#     device node hidden behind a size in a first of two PAX headers (Go's reader keeps
#     only the second's); a base image whose ONBUILD trigger holds a cache mount
#     (measured: podman ran it); docker and libpod loads of image archives carrying a
#     reserved annotation or ONBUILD triggers (the shared base image keeps its annotations);
#   * a podman dockerfile list is read from the context, not podman's working directory;
#   * ordinary builds keep working: multi-stage with COPY --from, .dockerignore, relative
#     symlinks inside the context, a gzip context (docker build --compress),
#     podman-remote build, docker-compose build, docker load of docker- and oci-archives;
#     a heredoc reaches the daemon, whose own
#     answer comes back (podman 4.3.1 and dockerd 20.10 have no heredocs, measured).
#
#   tests/integration/builds.sh            all scenarios
#   tests/integration/builds.sh b_cp_dev   only the named scenario functions
#   CG_BACKEND=docker tests/integration/builds.sh
#
# Needs root, the docker CLI, docker-compose, curl, python3 (and podman for the podman
# backend). Exit status 77 = skipped (not root); otherwise non-zero when any check failed.
# Last line: "N passed, M failed". See lib.sh for the environment.
set -u
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP integration: needs root (rootful backend)"
  exit 77
fi
. "$(dirname "$0")/lib.sh"

H=        # a host directory outside the project, made per scenario

bk_q() { timeout 60 env DOCKER_HOST="unix://$CG_BACKEND_SOCK" docker "$@" >/dev/null 2>&1; return 0; }
bk_exists() { timeout 60 env DOCKER_HOST="unix://$CG_BACKEND_SOCK" docker image inspect "$1" >/dev/null 2>&1; }
build() { cg_run env DOCKER_BUILDKIT=0 DOCKER_HOST="unix://$R1/docker.sock" \
  timeout -k 5 "$CG_TIMEOUT" docker build "$@"; }
host_dir() { H=$CG_TMP/host-$1; rm -rf "$H"; mkdir -p "$H"; echo "TOKEN-$1-$$" > "$H/secret"; }
# host_same NAME: the host directory holds only its secret, unchanged
host_same() {
  if [ "$(ls -A "$H")" = secret ] && [ "$(cat "$H/secret")" = "TOKEN-$1-$$" ]; then return 0; fi
  echo "host dir $H now holds: $(ls -A "$H" | tr '\n' ' ')"; return 1
}
# refused NAME CODE: the last command failed with the gateway's 403 of CODE, the
# secret did not come back and the host directory is as it was
refused() {
  local name=$1 code=$2
  if [ "$CG_RC" -ne 0 ] && [[ $CG_OUT == *"container-gateway: $code: "* ]] &&
     [[ $CG_OUT != *"TOKEN-"* ]] && host_same "${H##*/host-}" >/dev/null; then pass "$name"
  else fail "$name" "exit $CG_RC: $(grep -m1 -iE 'error|container-gateway|TOKEN' <<<"$CG_OUT") $(host_same "${H##*/host-}")" quiet; fi
}
# tarpy FILE PYTHON: write a tar with Python's tarfile (add(name, ...) helpers)
tarpy() {
  python3 - "$1" "$2" <<'EOF'
import io, sys, tarfile
out, code = sys.argv[1], sys.argv[2]
t = tarfile.open(out, 'w', format=tarfile.PAX_FORMAT, encoding='utf-8', errors='surrogateescape')
def add(name, data=None, kind='f', link='', mode=0o644, uid=0, major=0, minor=0, pax=None):
    ti = tarfile.TarInfo(name); ti.mode = mode; ti.uid = uid
    if pax: ti.pax_headers = pax
    if kind == 'f':
        data = data.encode() if isinstance(data, str) else (data or b'')
        ti.size = len(data); t.addfile(ti, io.BytesIO(data)); return
    ti.type = {'l': tarfile.SYMTYPE, 'd': tarfile.DIRTYPE, 'c': tarfile.CHRTYPE,
               'b': tarfile.BLKTYPE, 'p': tarfile.FIFOTYPE}[kind]
    ti.linkname = link; ti.devmajor = major; ti.devminor = minor; t.addfile(ti)
exec(code)
t.close()
EOF
}
post_tar() {  # SOCK PATH-AND-QUERY TAR
  cg_run curl -s -m "$CG_TIMEOUT" -i --unix-socket "$1" -X POST -H 'Content-Type: application/x-tar' \
    --data-binary @"$3" "http://d$2"
}

# ---- the refusals --------------------------------------------------------------------
b_mount_read() {
  local d=$P1/b-read
  host_dir read; mkdir -p "$d"; ln -sfn "$H" "$d/h"
  printf 'FROM %s\nRUN --mount=type=bind,source=h,target=/h cat /h/secret\n' "$IMG" > "$d/Dockerfile"
  build -t localhost/cgt-b:1 "$d"
  refused "context symlink to a host dir + RUN --mount: 403 host-path, nothing read" host-path
}

b_mount_rw() {
  local d=$P1/b-rw
  host_dir rw; mkdir -p "$d"; ln -sfn "$H" "$d/h"
  printf 'FROM %s\nRUN --mount=type=bind,source=h,target=/h,rw sh -c "echo pwned > /h/written"\n' "$IMG" > "$d/Dockerfile"
  build -t localhost/cgt-b:1 "$d"
  refused "context symlink + RUN --mount rw: 403 host-path, nothing written on the host" host-path
}

b_dockerfile_link() {
  local d=$P1/b-dflink
  host_dir df; mkdir -p "$d"
  # the host file: podman would parse it and echo its lines in its error
  ln -sfn "$H/secret" "$d/Dockerfile"
  # the docker CLI 28 does not send it (it cannot open it); podman-remote and any tar do
  tar -C "$d" -cf "$CG_TMP/b-dflink.tar" Dockerfile
  post_tar "$R1/docker.sock" "/v1.41/build?dockerfile=Dockerfile&t=localhost%2Fcgt-b%3A1" "$CG_TMP/b-dflink.tar"
  [[ $CG_OUT == "HTTP/1.1 403"* ]] && CG_RC=1
  refused "a Dockerfile that is a symlink to a host file: 403 host-path, not read" host-path
  if podman_only "podman --remote build with a symlinked Containerfile"; then
    cg_run env -u DOCKER_CONFIG timeout -k 5 "$CG_TIMEOUT" podman --url "unix://$R1/podman.sock" \
      build -t localhost/cgt-b:1 "$d"
    refused "podman --remote build with a symlinked Dockerfile: 403 host-path, not read" host-path
  fi
}

b_from_archive() {
  local d=$P1/b-arch
  host_dir arch; mkdir -p "$d"
  bk_q save -o "$H/img.tar" "$IMG"
  printf 'FROM docker-archive:%s/img.tar\nRUN true\n' "$H" > "$d/Dockerfile"
  build -t localhost/cgt-b:1 "$d"
  rm -f "$H/img.tar"
  refused "FROM docker-archive: of a host archive: 403 host-path" host-path
  printf 'ARG T=oci-archive\nFROM ${T}:%s/img.tar\n' "$H" > "$d/Dockerfile"
  build -t localhost/cgt-b:1 "$d"
  refused "FROM a transport through ARG substitution: 403 host-path" host-path
}

b_write_through() {
  local t=$CG_TMP/b-through.tar
  host_dir through
  tarpy "$t" "add('h', kind='l', link='$H'); add('h/pwned', 'x'); add('Dockerfile', 'FROM $IMG\n')"
  post_tar "$R1/docker.sock" "/v1.41/build?dockerfile=Dockerfile&t=localhost%2Fcgt-b%3A1" "$t"
  [[ $CG_OUT == "HTTP/1.1 403"* ]] && CG_RC=1
  refused "a context entry below a context symlink: 403 host-path, nothing written through it" host-path
}

b_cache_escape() {
  local d=$P1/b-cache up
  host_dir cache; mkdir -p "$d"
  up=$(printf '../%.0s' 1 2 3 4 5 6 7 8)
  printf 'FROM %s\nRUN --mount=type=cache,id=%s%s,target=/c touch /c/pwned\n' "$IMG" "$up" "${H#/}" > "$d/Dockerfile"
  build -t localhost/cgt-b:1 "$d"
  refused "RUN --mount type=cache with id=../..: 403 bind-mount, nothing written" bind-mount
}

b_cwd_dockerfile() {
  local d=$CG_TMP/b-cwd cwd
  podman_only "dockerfile list read from the context" || return 0
  cwd=$(readlink "/proc/$(cat "$CG_PM_DIR/service.pid" 2>/dev/null)/cwd" 2>/dev/null)
  if [ -z "$cwd" ] || [ "$cwd" != "$CG_PM_CWD" ]; then skip "dockerfile list read from the context" "podman not started by this run"; return 0; fi
  mkdir -p "$d"; printf 'FROM %s\nRUN echo FROM-CONTEXT\n' "$IMG" > "$d/Dockerfile"
  printf 'FROM %s\nRUN echo FROM-PODMAN-CWD\n' "$IMG" > "$cwd/Dockerfile"
  tar -C "$d" -cf "$CG_TMP/b-cwd.tar" Dockerfile
  post_tar "$R1/podman.sock" "/v4.3.1/libpod/build?dockerfile=%5B%22Dockerfile%22%5D&t=localhost%2Fcgt-b%3A1&nocache=1" "$CG_TMP/b-cwd.tar"
  rm -f "$cwd/Dockerfile"
  if [[ $CG_OUT == *FROM-CONTEXT* ]] && [[ $CG_OUT != *FROM-PODMAN-CWD* ]]; then
    pass "libpod build dockerfile=[\"Dockerfile\"] reads the context's, not podman's working directory's"
  else fail "libpod build dockerfile=[\"Dockerfile\"] reads the context's, not podman's working directory's" "$(grep -o 'FROM-[A-Z-]*' <<<"$CG_OUT" | head -n 1)" quiet; fi
}

# docker cp of a crafted tar into a directory of the project bound into a container
cp_refused() {  # NAME CODE PYTHON
  local t=$CG_TMP/b-cp.tar
  # emptied, not made again: the container binds the directory that was checked at create
  # (its pin), and a directory made again under the same name is another one
  host_dir "cp$4"; mkdir -p "$P1/data" && find "$P1/data" -mindepth 1 -delete
  tarpy "$t" "$3"
  cg_run dk cp - cgt-bcp:/p < "$t"
  if [ "$CG_RC" -ne 0 ] && [[ $CG_OUT == *"container-gateway: $2: "* ]] && [ -z "$(ls -A "$P1/data")" ]; then pass "$1"
  else fail "$1" "exit $CG_RC: $(head -n 1 <<<"$CG_OUT"); $P1/data: $(ls -lA "$P1/data" | tail -n +2 | tr '\n' ' ')" quiet; fi
}

b_cp() {
  dk rm -f cgt-bcp >/dev/null 2>&1
  if ! dk create --name cgt-bcp -v "$P1/data:/p" "$IMG" sleep 600 >/dev/null 2>&1; then
    fail "docker cp: container with a bound project directory" "create failed"; return
  fi
  cp_refused "docker cp of a tar holding a device node into a bound dir: 403 devices, nothing created" \
    devices "add('ok.txt', 'x'); add('null', kind='c', major=1, minor=3, mode=0o666)" 1
  cp_refused "docker cp of a tar holding a block device: 403 devices" \
    devices "add('sda', kind='b', major=8, minor=0, mode=0o660)" 2
  cp_refused "docker cp of a tar holding a setuid-root file into a bound dir: 403 privileged, nothing created" \
    privileged "add('ok.txt', 'x'); add('su', '#!/bin/sh\nid\n', mode=0o4755, uid=0)" 3
  cp_refused "docker cp of a tar holding a file capability (security.capability): 403 privileged" \
    privileged "add('cap', 'x', mode=0o755, pax={'SCHILY.xattr.security.capability': bytes.fromhex('0100000280000000000000000000000000000000').decode('utf-8','surrogateescape')})" 4
  cp_refused "docker cp of a tar holding a fifo: 403 devices" devices "add('f', kind='p')" 5
  # entry data the checker skips (less than its hold) and then a device node or a setuid
  # file: the header after a skipped entry is read all the same
  cp_refused "docker cp of a tar holding a 600 KiB file and then a device node: 403 devices" \
    devices "add('big', b'x' * (600 << 10)); add('null', kind='c', major=1, minor=3, mode=0o666)" 6
  cp_refused "docker cp of a tar holding a 400 KiB file and then a setuid-root file: 403 privileged" \
    privileged "add('big', b'x' * (400 << 10)); add('su', '#!/bin/sh\nid\n', mode=0o4755, uid=0)" 7
  mkdir -p "$CG_TMP/b-cpok/d" && echo ok > "$CG_TMP/b-cpok/d/f" && ln -sfn f "$CG_TMP/b-cpok/d/l"
  expect_ok "docker cp of an ordinary directory into the bound dir" dk cp "$CG_TMP/b-cpok/d" cgt-bcp:/p/
  if [ "$(cat "$P1/data/d/l" 2>/dev/null)" = ok ]; then pass "docker cp: the copied files and the relative symlink arrived"
  else fail "docker cp: the copied files and the relative symlink arrived" "$(ls -lR "$P1/data" | head -n 5)" quiet; fi
  # larger than the checker's hold: the hold pipe fills and drains many times
  head -c $((24 << 20)) /dev/urandom > "$CG_TMP/b-cpbig"
  local l0 gap
  l0=$(wc -l < "$R1.log")
  expect_ok "docker cp of 24 MiB into the bound dir" dk cp "$CG_TMP/b-cpbig" cgt-bcp:/p/big
  if cmp -s "$CG_TMP/b-cpbig" "$P1/data/big"; then pass "docker cp: the 24 MiB arrived whole"
  else fail "docker cp: the 24 MiB arrived whole" "$(ls -l "$P1/data/big" 2>&1)" quiet; fi
  # the file's data reaches the backend without a copy to the checker: the gaps the
  # monitor left in the checker's pipe (CHECK_SKIP's until less CHECK_SKIP_AT's from)
  gap=$(tail -n +"$((l0 + 1))" "$R1.log" | python3 -c '
import re, sys
until, gap = None, 0
for line in sys.stdin:
    m = re.search(r"type=CHECK_SKIP req=\S+ consumed=(\d+) until=(\d+)", line)
    if m:
        until = int(m.group(2))
    m = re.search(r"type=CHECK_SKIP_AT req=\S+ from=(\d+)", line)
    if m and until is not None:
        gap += until - int(m.group(1))
print(gap)')
  if [ "$gap" -ge $((20 << 20)) ]; then pass "docker cp of 24 MiB: the checker got the headers, not the data ($((gap >> 20)) MiB left out of its pipe)"
  else fail "docker cp of 24 MiB: the checker got the headers, not the data" "left out of its pipe: $gap bytes" quiet; fi
  rm -f "$CG_TMP/b-cpbig"
  dk rm -f cgt-bcp >/dev/null 2>&1
}

# a PAX size lie in a second 'x' header (the red team's archive: two 'x' headers in a
# row, Go keeps only the second's records): the device node behind it must be seen
b_cp_pax_twice() {
  dk rm -f cgt-bcp >/dev/null 2>&1
  if ! dk create --name cgt-bcp -v "$P1/data:/p" "$IMG" sleep 600 >/dev/null 2>&1; then
    fail "docker cp: container with a bound project directory" "create failed"; return
  fi
  cp_refused "docker cp of a tar hiding a device node behind a first PAX header's size: 403 devices, nothing created" \
    devices "
def raw(name, typ, size=0, mode=0o644, major=0, minor=0, data=b''):
    ti = tarfile.TarInfo(name); ti.type = typ; ti.size = size; ti.mode = mode
    ti.devmajor = major; ti.devminor = minor
    b = ti.tobuf(format=tarfile.USTAR_FORMAT) + data + b'\0' * (-len(data) % 512)
    t.fileobj.write(b); t.offset += len(b)
hidden = tarfile.TarInfo('mem'); hidden.type = tarfile.CHRTYPE; hidden.mode = 0o666
hidden.devmajor = 1; hidden.devminor = 1
raw('PaxHeaders/a', b'x', 12, data=b'12 size=512\n')
raw('PaxHeaders/b', b'x', 13, data=b'13 comment=x\n')
raw('cover', tarfile.REGTYPE, 0)
raw('mem', tarfile.CHRTYPE, 0, 0o666, 1, 1)
add('plain.txt', 'ordinary')" 6
  dk rm -f cgt-bcp >/dev/null 2>&1
}

# image loads: the archive's JSON documents are read (podman keeps a loaded manifest's
# annotations on the image, also on a shared image with the same config, and copies them
# into every container; an image config's ONBUILD triggers run at a later build's FROM)
b_load() {
  local d=$CG_TMP/b-load ann0 ann1
  rm -rf "$d"; mkdir -p "$d"
  bk_q save -o "$d/bb.tar" "$IMG"
  if ! python3 - "$d" <<'EOF2'
import hashlib, io, json, sys, tarfile
d = sys.argv[1]
src = tarfile.open(d + "/bb.tar")
man = json.load(src.extractfile("manifest.json"))[0]
cfg = src.extractfile(man["Config"]).read()
layers = [src.extractfile(l).read() for l in man["Layers"]]
def out(name, files):
    with tarfile.open(d + "/" + name, "w", format=tarfile.PAX_FORMAT) as t:
        for n, data in files:
            ti = tarfile.TarInfo(n); ti.size = len(data); t.addfile(ti, io.BytesIO(data))
def sha(b):
    return hashlib.sha256(b).hexdigest()
def oci(name, ref, annotations):
    # an oci-archive of the same config: podman stores it under the same image id
    files = [("oci-layout", b'{"imageLayoutVersion":"1.0.0"}'), ("blobs/sha256/" + sha(cfg), cfg)]
    descs = []
    for l in layers:
        files.append(("blobs/sha256/" + sha(l), l))
        descs.append({"mediaType": "application/vnd.oci.image.layer.v1.tar",
                      "digest": "sha256:" + sha(l), "size": len(l)})
    m = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
         "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                    "digest": "sha256:" + sha(cfg), "size": len(cfg)}, "layers": descs}
    if annotations:
        m["annotations"] = annotations
    mb = json.dumps(m).encode()
    files.append(("blobs/sha256/" + sha(mb), mb))
    idx = {"schemaVersion": 2, "manifests": [{"mediaType": m["mediaType"], "digest": "sha256:" + sha(mb),
           "size": len(mb), "annotations": {"org.opencontainers.image.ref.name": ref}}]}
    files.append(("index.json", json.dumps(idx).encode()))
    out(name, files)
def docker(name, tag, config):
    files = [(man["Config"] if config is cfg else sha(config) + ".json", config)]
    files += [(l, layers[i]) for i, l in enumerate(man["Layers"])]
    files.append(("manifest.json", json.dumps([{"Config": files[0][0], "RepoTags": [tag],
                                                 "Layers": man["Layers"]}]).encode()))
    out(name, files)
oci("ann.tar", "localhost/cgt-ann:1", {"io.podman.annotations.privileged": "TRUE"})
c = json.loads(cfg)
c.setdefault("config", {})["OnBuild"] = ["RUN --mount=type=cache,id=../../../../x,target=/c true"]
docker("onbuild.tar", "localhost/cgt-onb:1", json.dumps(c).encode())
docker("plain.tar", "localhost/cgt-lok:1", cfg)
oci("plain-oci.tar", "localhost/cgt-lok:2", None)
EOF2
  then fail "image archives for the load tests" "python failed"; return; fi
  ann0=$(curl -s -m 30 --unix-socket "$CG_BACKEND_SOCK" "http://d/v4.3.1/libpod/images/${IMG//\//%2F}/json" 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin).get("Annotations"))' 2>/dev/null)
  cg_run dk load -i "$d/ann.tar"
  if [ "$CG_RC" -ne 0 ] && [[ $CG_OUT == *"container-gateway: annotations: "* ]]; then
    pass "docker load of an oci-archive with a reserved manifest annotation: 403 annotations"
  else fail "docker load of an oci-archive with a reserved manifest annotation: 403 annotations" "exit $CG_RC: $(head -n 2 <<<"$CG_OUT")" quiet; fi
  if [ "$CG_BACKEND" = podman ]; then
    post_tar "$R1/podman.sock" "/v4.3.1/libpod/images/load" "$d/ann.tar"
    if [[ $CG_OUT == *"HTTP/1.1 403"* ]] && [[ $CG_OUT == *"container-gateway: annotations: "* ]]; then
      pass "libpod images/load of the same archive: 403 annotations"
    else fail "libpod images/load of the same archive: 403 annotations" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    ann1=$(curl -s -m 30 --unix-socket "$CG_BACKEND_SOCK" "http://d/v4.3.1/libpod/images/${IMG//\//%2F}/json" 2>/dev/null |
      python3 -c 'import json,sys; print(json.load(sys.stdin).get("Annotations"))' 2>/dev/null)
    if [ "$ann0" = "$ann1" ] && [[ $ann1 != *privileged* ]] &&
       ! bk_exists localhost/cgt-ann:1; then
      pass "the shared $IMG keeps its annotations ($ann1); no localhost/cgt-ann:1"
    else fail "the shared $IMG keeps its annotations" "before: $ann0, after: $ann1" quiet; fi
    # the other project still creates from the shared image
    cg_run env DOCKER_HOST="unix://$R2/docker.sock" timeout -k 5 "$CG_TIMEOUT" docker create --name cgt-bload "$IMG" true
    if [ "$CG_RC" -eq 0 ]; then pass "project B creates from $IMG after A's refused load"
    else fail "project B creates from $IMG after A's refused load" "$(head -n 1 <<<"$CG_OUT")" quiet; fi
    DOCKER_HOST="unix://$R2/docker.sock" timeout 30 docker rm -f cgt-bload >/dev/null 2>&1
  fi
  # the refusal comes at the archive's first document while the CLI still writes the
  # rest: the request parser lingers, so the CLI reads the 403, never "broken pipe"
  # (privsep.md "One request"; tests/test_bodystream.c, tests/forwarded/run.py)
  cg_run dk load -i "$d/onbuild.tar"
  if [ "$CG_RC" -ne 0 ] && [[ $CG_OUT == *"container-gateway: denied-build-parameter: "* ]] &&
     ! bk_exists localhost/cgt-onb:1; then
    pass "docker load of an image whose config has ONBUILD triggers: 403 denied-build-parameter, not loaded"
  else fail "docker load of an image whose config has ONBUILD triggers: 403 denied-build-parameter, not loaded" "exit $CG_RC: $(head -n 2 <<<"$CG_OUT")" quiet; fi
  cg_run dk load -i "$d/plain.tar"
  if [ "$CG_RC" -eq 0 ] && bk_exists localhost/cgt-lok:1; then pass "docker load of an ordinary docker-archive loads"
  else fail "docker load of an ordinary docker-archive loads" "exit $CG_RC: $(tail -n 2 <<<"$CG_OUT")" quiet; fi
  if [ "$CG_BACKEND" = podman ]; then
    cg_run dk load -i "$d/plain-oci.tar"
    if [ "$CG_RC" -eq 0 ] && bk_exists localhost/cgt-lok:2; then pass "docker load of an ordinary oci-archive loads (podman)"
    else fail "docker load of an ordinary oci-archive loads (podman)" "exit $CG_RC: $(tail -n 2 <<<"$CG_OUT")" quiet; fi
  fi
  # measured (podman 4.3.1, direct): a load is untarred as root without a chroot (in
  # /var/tmp, trying it as an oci-archive): h -> <host dir>, then h/pwned wrote the host
  host_dir load
  tarpy "$d/through.tar" "add('h', kind='l', link='$H'); add('h/pwned', 'x')"
  cg_run dk load -i "$d/through.tar"
  refused "docker load of an archive writing through its own symlink to a host dir: 403 host-path, nothing written" host-path
  bk_q rmi -f localhost/cgt-lok:1 localhost/cgt-lok:2 localhost/cgt-ann:1 localhost/cgt-onb:1
  rm -rf "$d"
}

# measured: what a daemon does with a build body that ends before its end marker (the
# checker withholds the end until it approved the whole; a refusal truncates the body)
b_truncated() {
  local t=$CG_TMP/b-trunc.tar tmp n0 n1
  tarpy "$t" "add('Dockerfile', 'FROM $IMG\nRUN true\n'); add('a', 'x' * 20000)"
  if [ "$CG_BACKEND" = podman ]; then tmp=$CG_PM_DIR/tmp; else tmp=$CG_DD_DIR/data/tmp; fi
  n0=$(find "$tmp" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  python3 - "$CG_BACKEND_SOCK" "$t" <<'EOF2'
import socket, sys
data = open(sys.argv[2], 'rb').read()
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"POST /v1.41/build?dockerfile=Dockerfile&t=localhost%%2Fcgt-trunc%%3A1 HTTP/1.1\r\n"
          b"Host: d\r\nContent-Type: application/x-tar\r\nContent-Length: %d\r\n\r\n" % len(data))
end = data.rfind(b"\0" * 1024, 0, len(data) - 1024)
s.sendall(data[:end - 512])   # everything before the end marker, less a block
s.shutdown(socket.SHUT_WR)    # the request ends there; the daemon's answer says it is done
s.settimeout(60)
while s.recv(65536):
    pass
s.close()
EOF2
  if ! DOCKER_HOST="unix://$CG_BACKEND_SOCK" timeout 30 docker image inspect localhost/cgt-trunc:1 >/dev/null 2>&1; then
    pass "measured ($CG_BACKEND): a build body cut before its end marker builds nothing"
  else fail "measured ($CG_BACKEND): a build body cut before its end marker builds nothing" "an image was built" quiet; fi
  n1=$(find "$tmp" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  echo "# measured ($CG_BACKEND): entries in the daemon's temporary directory $tmp before and after: $n0 -> $n1"
  bk_q rmi -f localhost/cgt-trunc:1
}

# onbuild_image TAG TRIGGER...: localhost/busybox with config.OnBuild = the triggers, loaded
# straight into the daemon (as a registry pull or another project's load would bring it)
onbuild_image() {
  local tag=$1; shift
  curl -s -m 60 --unix-socket "$CG_BACKEND_SOCK" -o "$CG_TMP/ob-src.tar" "http://d/v1.41/images/$IMG/get"
  python3 - "$CG_TMP/ob-src.tar" "$CG_TMP/ob.tar" "$tag" "$@" <<'EOF2'
import hashlib, io, json, sys, tarfile
src = tarfile.open(sys.argv[1]); out_name, tag, trig = sys.argv[2], sys.argv[3], sys.argv[4:]
man = json.load(src.extractfile("manifest.json")); cfgname = man[0]["Config"]
cfg = json.load(src.extractfile(cfgname)); cfg.setdefault("config", {})["OnBuild"] = trig
raw = json.dumps(cfg).encode(); newcfg = hashlib.sha256(raw).hexdigest() + ".json"
man[0]["Config"] = newcfg; man[0]["RepoTags"] = [tag]
out = tarfile.open(out_name, "w")
for m in src.getmembers():
    if m.name not in (cfgname, "manifest.json", "repositories"):
        out.addfile(m, src.extractfile(m) if m.isfile() else None)
for name, data in ((newcfg, raw), ("manifest.json", json.dumps(man).encode())):
    ti = tarfile.TarInfo(name); ti.size = len(data); out.addfile(ti, io.BytesIO(data))
out.close()
EOF2
  curl -s -m 60 --unix-socket "$CG_BACKEND_SOCK" -X POST -H 'Content-Type: application/x-tar' \
    --data-binary @"$CG_TMP/ob.tar" "http://d/v1.41/images/load" >/dev/null
}

# a base image's ONBUILD trigger is read and checked like a Dockerfile line (red team rt9 F4:
# podman ran a loaded image's cache-mount trigger and wrote the host as root); dockerd 20.10's
# classic builder has no RUN --mount, the gateway refuses it alike
b_onbuild() {
  local d=$P1/b-onbuild up
  host_dir onbuild; mkdir -p "$d"
  up=$(printf '../%.0s' $(seq 1 24))
  onbuild_image localhost/cgt-onbuild:1 "RUN --mount=type=cache,id=$up${H#/},target=/c touch /c/pwned"
  printf 'FROM localhost/cgt-onbuild:1\nRUN true\n' > "$d/Dockerfile"
  build -t localhost/cgt-b:1 "$d"
  refused "a base image's ONBUILD cache-mount trigger: 403 bind-mount, nothing written on the host" bind-mount
  printf 'ARG B=localhost/cgt-onbuild\nFROM localhost/busybox AS ok\nFROM $B:1\nRUN true\n' > "$d/Dockerfile"
  build -t localhost/cgt-b:1 "$d"
  refused "the same base image named through ARG in a second stage: 403 bind-mount" bind-mount
  # a trigger the rules allow runs; the second build finds the image's id already read
  onbuild_image localhost/cgt-onbuild:2 "RUN echo TRIGGER-RAN-OK"
  printf 'FROM localhost/cgt-onbuild:2\nRUN true\n' > "$d/Dockerfile"
  build --no-cache -t localhost/cgt-b:2 "$d"
  if [ "$CG_RC" -eq 0 ] && [[ $CG_OUT == *TRIGGER-RAN-OK* ]]; then pass "a base image with an allowed ONBUILD trigger builds, the trigger runs"
  else fail "a base image with an allowed ONBUILD trigger builds, the trigger runs" "exit $CG_RC: $(tail -n 2 <<<"$CG_OUT")" quiet; fi
  # a trigger's ARG takes the build's value: an id that passed once is read again with buildargs
  onbuild_image localhost/cgt-onbuild:3 "ARG T=tmpfs" "RUN --mount=type=\$T,target=/c true"
  printf 'FROM localhost/cgt-onbuild:3\nRUN true\n' > "$d/Dockerfile"
  build -t localhost/cgt-b:2 "$d"
  build --build-arg T=cache -t localhost/cgt-b:2 "$d"
  refused "the same base image with --build-arg T=cache for its trigger's ARG: 403 bind-mount" bind-mount
  # --pull and podman's from= would have the daemon use an image other than the one read:
  # the gateway pulls itself and takes pull out of the query; from= is a base image too
  printf 'FROM %s\nRUN true\n' "$IMG" > "$d/Dockerfile"
  build --pull -t localhost/cgt-b:2 "$d"
  if [ "$CG_RC" -eq 0 ]; then pass "docker build --pull of a local base image builds"
  else fail "docker build --pull of a local base image builds" "exit $CG_RC: $(tail -n 2 <<<"$CG_OUT")" quiet; fi
  if podman_only "libpod build from= an image with a trigger"; then
    tar -C "$d" -cf "$CG_TMP/b-from.tar" Dockerfile
    post_tar "$R1/podman.sock" "/v4.3.1/libpod/build?from=localhost%2Fcgt-onbuild%3A1&t=localhost%2Fcgt-b%3A1" "$CG_TMP/b-from.tar"
    [[ $CG_OUT == "HTTP/1.1 403"* ]] && CG_RC=1
    refused "libpod build from= an image with a cache-mount trigger, the Dockerfile clean: 403 bind-mount" bind-mount
  fi
  # an image that is not there is pulled by the gateway first (podman and dockerd would pull it
  # unchecked); one no registry has is refused with the pull's failure, not built
  printf 'FROM cgt-nosuch.invalid/none:1\nRUN true\n' > "$d/Dockerfile"
  build -t localhost/cgt-b:3 "$d"
  if [ "$CG_RC" -ne 0 ] && [[ $CG_OUT == *"container-gateway: denied-build-parameter: base image"*"could not pull it"* ]]; then
    pass "a missing base image is pulled by the gateway first; one it cannot pull is refused"
  else fail "a missing base image is pulled by the gateway first; one it cannot pull is refused" "exit $CG_RC: $(tail -n 2 <<<"$CG_OUT")" quiet; fi
  # a project makes no ONBUILD image itself: commit and import changes carry none (both
  # daemons keep them in config.OnBuild; the check above is at one instant, and a retag
  # between it and the builder's lookup ran a refused trigger: red team rt11)
  dk create --name cgt-obc --network none "$IMG" true >/dev/null
  cg_run dk commit --change 'ONBUILD RUN echo T' cgt-obc localhost/cgt-obc:1
  if [ "$CG_RC" -ne 0 ] && [[ $CG_OUT == *"container-gateway: denied-build-parameter: ONBUILD"* ]] &&
     ! bk_exists localhost/cgt-obc:1; then pass "docker commit --change ONBUILD: 403 denied-build-parameter, no image"
  else fail "docker commit --change ONBUILD: 403 denied-build-parameter, no image" "exit $CG_RC: $(head -n 2 <<<"$CG_OUT")" quiet; fi
  bk_q rm -f cgt-obc
  bk_q rmi -f localhost/cgt-onbuild:1 localhost/cgt-onbuild:2 localhost/cgt-onbuild:3 localhost/cgt-b:2 localhost/cgt-obc:1
}

# ---- ordinary builds -------------------------------------------------------------------
b_ordinary() {
  local d=$P1/b-ok
  rm -rf "$d"; mkdir -p "$d/sub"
  echo hello > "$d/sub/file"; echo nope > "$d/secret.env"; ln -sfn sub/file "$d/rel"
  printf 'secret.env\n' > "$d/.dockerignore"
  cat > "$d/Dockerfile" <<EOF
ARG BASE=$IMG
FROM \$BASE AS stage1
COPY rel /from-link
RUN cat /from-link > /built
FROM $IMG
COPY --from=stage1 /built /built
COPY . /ctx
RUN test ! -e /ctx/secret.env && cat /built
EOF
  build -q -t localhost/cgt-bok:1 "$d"
  if [ "$CG_RC" -eq 0 ]; then pass "multi-stage, COPY --from, ARG FROM, .dockerignore, a relative symlink: builds"
  else fail "multi-stage, COPY --from, ARG FROM, .dockerignore, a relative symlink: builds" "$(tail -n 2 <<<"$CG_OUT")" quiet; fi
  expect_output "the built image holds the file read through the context's symlink" hello \
    dk run --rm --network none localhost/cgt-bok:1 cat /built
  build -q --compress -t localhost/cgt-bok:2 "$d"
  if [ "$CG_RC" -eq 0 ]; then pass "docker build --compress (a gzip context) builds"
  else fail "docker build --compress (a gzip context) builds" "$(tail -n 2 <<<"$CG_OUT")" quiet; fi
  printf 'FROM %s\nRUN <<EOT\necho heredoc\nEOT\n' "$IMG" > "$d/Dockerfile.heredoc"
  build -t localhost/cgt-bok:3 -f "$d/Dockerfile.heredoc" "$d"
  if [[ $CG_OUT != *"container-gateway:"* ]]; then pass "a heredoc reaches the daemon (its own answer comes back)"
  else fail "a heredoc reaches the daemon (its own answer comes back)" "$(grep -m1 container-gateway <<<"$CG_OUT")" quiet; fi
  if podman_only "podman --remote build"; then
    cg_run env -u DOCKER_CONFIG timeout -k 5 "$CG_TIMEOUT" podman --url "unix://$R1/podman.sock" build \
      -t localhost/cgt-bok:4 "$d"
    if [ "$CG_RC" -eq 0 ]; then pass "podman --remote build of the same context builds"
    else fail "podman --remote build of the same context builds" "$(tail -n 2 <<<"$CG_OUT")" quiet; fi
  fi
  mkdir -p "$P1/b-compose"
  printf 'version: "2.4"\nservices:\n  app:\n    build: ../b-ok\n    image: localhost/cgt-bok:5\n' > "$P1/b-compose/docker-compose.yml"
  cg_run env DOCKER_HOST="unix://$R1/docker.sock" COMPOSE_DOCKER_CLI_BUILD=0 DOCKER_BUILDKIT=0 \
    timeout -k 5 "$CG_TIMEOUT" docker-compose -f "$P1/b-compose/docker-compose.yml" -p cgtb build
  if [ "$CG_RC" -eq 0 ]; then pass "docker-compose build builds"
  else fail "docker-compose build builds" "$(tail -n 2 <<<"$CG_OUT")" quiet; fi
  bk_q rmi -f localhost/cgt-bok:1 localhost/cgt-bok:2 localhost/cgt-bok:3 localhost/cgt-bok:4 localhost/cgt-bok:5
}

ALL=(b_mount_read b_mount_rw b_dockerfile_link b_from_archive b_write_through b_cache_escape
     b_cwd_dockerfile b_cp b_cp_pax_twice b_load b_truncated b_onbuild b_ordinary)

# ---- main -------------------------------------------------------------------------
need=(docker docker-compose python3 curl timeout tar)
if [ "$CG_BACKEND" = docker ]; then need+=(dockerd containerd); else need+=(podman); fi
cg_need "${need[@]}"
cg_need_gateway
cg_two_gateways || exit
cg_run_scenarios "$@"
bk_q rmi -f localhost/cgt-b:1
cg_summary
