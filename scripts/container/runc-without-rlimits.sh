#!/bin/sh
# An OCI runtime for podman on machines whose kernel refuses setrlimit to containers (this CI's
# VM does: every container podman starts, and every `RUN` of a build, fails with "error setting
# rlimit … operation not permitted"). It deletes the resource limits from what podman hands runc
# (`process.rlimits` of the bundle's config.json for create/run, `rlimits` of the --process file
# for exec), then runs runc with the same arguments. The container keeps the limits it inherits.
set -eu
bundle=.
process=
command=
previous=
for arg in "$@"; do
  case "$previous" in
    --bundle | -b) bundle=$arg ;;
    --process | -p) process=$arg ;;
  esac
  case "$arg" in
    --bundle=*) bundle=${arg#--bundle=} ;;
    --process=*) process=${arg#--process=} ;;
    create | run | exec) [ -n "$command" ] || command=$arg ;;
  esac
  previous=$arg
done

strip() { # file, jq path
  [ -f "$1" ] || return 0
  jq -e "$2 != null" "$1" >/dev/null 2>&1 || return 0
  tmp=$(mktemp "$1.XXXXXX")
  jq "del($2)" "$1" >"$tmp" && mv "$tmp" "$1"
}

case "$command" in
  create | run) strip "$bundle/config.json" .process.rlimits ;;
  exec) [ -z "$process" ] || strip "$process" .rlimits ;;
esac
exec runc "$@"
