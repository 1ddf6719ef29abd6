#!/bin/sh
# Installs chdb (ClickHouse's engine as a library, npm package `chdb`) into .cache/chdb (or
# $STRATA_CHDB_DIR) for the tests that run the ClickHouse connector against a modern ClickHouse
# engine (packages/server/src/connectors/clickhouse/standin). Kept out of the workspace's dependencies: its
# engine library (@chdb/lib-linux-x64-gnu, an optional dependency chdb picks per platform) is
# about 570 MB, which users of other warehouses should not download. Everything comes from the
# npm registry: chdb's own install script does nothing (`node -e ""`) and downloads nothing.
# Idempotent: does nothing when the pinned version is already there.
set -eu

CHDB_VERSION=3.4.0
cd "$(dirname "$0")/.."
DIR=${STRATA_CHDB_DIR:-.cache/chdb}

installed=$(node -p "try { require(require('node:path').resolve(process.argv[1], 'node_modules/chdb/package.json')).version } catch { '' }" "$DIR" 2>/dev/null || true)
if [ "$installed" = "$CHDB_VERSION" ]; then
  echo "chdb: $CHDB_VERSION already in $DIR"
  exit 0
fi

mkdir -p "$DIR"
# a package.json of its own, so npm never walks up to the workspace root
[ -f "$DIR/package.json" ] || echo '{ "name": "strata-chdb", "private": true }' > "$DIR/package.json"
start=$(date +%s)
npm install --prefix "$DIR" --no-save --no-package-lock --no-audit --no-fund "chdb@$CHDB_VERSION"
echo "chdb: $CHDB_VERSION installed in $DIR in $(( $(date +%s) - start )) s"
