#!/bin/sh
# Starts the local ClickHouse server the connector integration tests use (HTTP on 127.0.0.1:8123).
# Idempotent: exits 0 at once when the server already answers /ping. Installs Debian's
# clickhouse-server when it is missing (needs root). Runs the server as user clickhouse.
set -eu

PING_URL=${CLICKHOUSE_PING_URL:-http://127.0.0.1:8123/ping}
CONFIG=/etc/clickhouse-server/config.xml
DAEMON=/usr/sbin/clickhouse-server
LOG_DIR=/var/log/clickhouse-server
DATA_DIR=/var/lib/clickhouse

ping_ok() {
  [ "$(curl -s --max-time 2 "$PING_URL" 2>/dev/null)" = "Ok." ]
}

if ping_ok; then
  echo "clickhouse: already running"
  exit 0
fi

if [ ! -x "$DAEMON" ]; then
  echo "clickhouse: installing clickhouse-server"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y clickhouse-server clickhouse-client
fi

if ! id clickhouse >/dev/null 2>&1; then
  echo "clickhouse: user clickhouse does not exist (the package creates it)" >&2
  exit 1
fi

for dir in "$DATA_DIR" "$LOG_DIR"; do
  mkdir -p "$dir"
  chown -R clickhouse:clickhouse "$dir"
done

echo "clickhouse: starting"
cd "$DATA_DIR"
if command -v start-stop-daemon >/dev/null 2>&1; then
  start-stop-daemon --start --quiet --oknodo --chuid clickhouse:clickhouse --background \
    --chdir "$DATA_DIR" --exec "$DAEMON" -- --config-file="$CONFIG"
else
  su -s /bin/sh clickhouse -c "nohup $DAEMON --config-file=$CONFIG >/dev/null 2>&1 &"
fi

i=0
while [ "$i" -lt 60 ]; do
  if ping_ok; then
    echo "clickhouse: ready"
    exit 0
  fi
  sleep 0.5
  i=$((i + 1))
done

echo "clickhouse: did not answer $PING_URL within 30 s; see $LOG_DIR/clickhouse-server.err.log" >&2
tail -n 20 "$LOG_DIR/clickhouse-server.err.log" >&2 2>/dev/null || true
exit 1
