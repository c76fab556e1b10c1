#!/usr/bin/env bash
# A local Redis primary/replica pair watched by Redis Sentinel, for development, tests and CI (docs/decisions/113).
#
#   scripts/redis-sentinel.sh start   # primary 127.0.0.1:7201, replica 7202, Sentinels 7211-7213 (idempotent);
#                                     # waits until the Sentinels see the primary and its replica online, prints
#                                     # REDIS_SENTINELS=127.0.0.1:7211,127.0.0.1:7212,127.0.0.1:7213
#                                     # REDIS_SENTINEL_NAME=dps
#   scripts/redis-sentinel.sh stop    # shuts every process down (no save) and deletes their directory
#   scripts/redis-sentinel.sh status  # role of each data node, the primary the Sentinels name
#
# REDIS_SENTINEL_DATA_PORTS="7201 7202" (the first starts as primary), REDIS_SENTINEL_PORTS="7211 7212 7213"
# (quorum: a majority), REDIS_SENTINEL_NAME (dps), REDIS_SENTINEL_DOWN_AFTER_MS (1000),
# REDIS_SENTINEL_DIR (default /tmp/redis-sentinel-<first data port>), REDIS_SENTINEL_PRIMARY_AS=host:port: the
# address the replica and the Sentinels reach the first primary at (default 127.0.0.1:<first data port>; the
# fault test puts a relay there).
# No persistence: a data node that died is started again (by `start`) empty, as a replica of the primary the
# Sentinels name now, and copies it whole.
set -euo pipefail

read -r -a DATA <<<"${REDIS_SENTINEL_DATA_PORTS:-7201 7202}"
read -r -a SENTINELS <<<"${REDIS_SENTINEL_PORTS:-7211 7212 7213}"
NAME="${REDIS_SENTINEL_NAME:-dps}"
DOWN_AFTER="${REDIS_SENTINEL_DOWN_AFTER_MS:-1000}"
DIR="${REDIS_SENTINEL_DIR:-${TMPDIR:-/tmp}/redis-sentinel-${DATA[0]}}"
QUORUM=$((${#SENTINELS[@]} / 2 + 1))

answers() { redis-cli -h 127.0.0.1 -p "$1" ping >/dev/null 2>&1; }
field() { redis-cli -h 127.0.0.1 -p "$1" info replication 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"; }
# host:port the Sentinels name as primary (the first one that answers), or nothing
named_primary() {
  for s in "${SENTINELS[@]}"; do
    local a
    a="$(redis-cli -h 127.0.0.1 -p "$s" sentinel get-master-addr-by-name "$NAME" 2>/dev/null | tr '\n' ':' | sed 's/:$//')" || true
    if [[ "$a" == *:* ]]; then echo "$a"; return 0; fi
  done
  return 0
}
env_out() {
  local IFS=,
  local list=()
  for s in "${SENTINELS[@]}"; do list+=("127.0.0.1:$s"); done
  echo "REDIS_SENTINELS=${list[*]}"
  echo "REDIS_SENTINEL_NAME=$NAME"
}

start_data() { # port [replicaof host port]
  local p="$1"
  shift
  mkdir -p "$DIR/$p"
  local extra=()
  [ $# -eq 2 ] && extra=(--replicaof "$1" "$2")
  redis-server --port "$p" --bind 127.0.0.1 --save "" --appendonly no --dir "$DIR/$p" --logfile "$DIR/$p/redis.log" \
    --daemonize yes "${extra[@]}"
  for _ in $(seq 1 50); do answers "$p" && return; sleep 0.1; done
  echo "Redis on 127.0.0.1:$p does not answer (log: $DIR/$p/redis.log)" >&2
  exit 1
}

start_sentinel() { # port primary-port
  local s="$1"
  mkdir -p "$DIR/s$s"
  local conf="$DIR/s$s/sentinel.conf"
  if ! [ -f "$conf" ]; then
    cat >"$conf" <<EOF
port $s
bind 127.0.0.1
dir $DIR/s$s
logfile $DIR/s$s/sentinel.log
sentinel monitor $NAME 127.0.0.1 $2 $QUORUM
sentinel down-after-milliseconds $NAME $DOWN_AFTER
sentinel failover-timeout $NAME 10000
sentinel parallel-syncs $NAME 1
EOF
  fi
  redis-server "$conf" --sentinel --daemonize yes
  for _ in $(seq 1 50); do answers "$s" && return; sleep 0.1; done
  echo "Sentinel on 127.0.0.1:$s does not answer (log: $DIR/s$s/sentinel.log)" >&2
  exit 1
}

# The Sentinels name a primary that answers as master, with every other data node an online replica of it.
all_ok() {
  local primary
  primary="$(named_primary)"
  [ -n "$primary" ] || return 1
  local pp="${primary##*:}"
  [ "$(field "$pp" role)" = master ] || return 1
  [ "$(field "$pp" connected_slaves)" = "$((${#DATA[@]} - 1))" ] || return 1
  redis-cli -h 127.0.0.1 -p "$pp" info replication | grep -q "state=online" || [ ${#DATA[@]} -eq 1 ] || return 1
  for s in "${SENTINELS[@]}"; do
    local seen
    seen="$(redis-cli -h 127.0.0.1 -p "$s" sentinel replicas "$NAME" 2>/dev/null | grep -c '^flags$' || true)"
    [ "$seen" -ge "$((${#DATA[@]} - 1))" ] || return 1
    [ "$(redis-cli -h 127.0.0.1 -p "$s" sentinel sentinels "$NAME" 2>/dev/null | grep -c '^flags$' || true)" -ge "$((${#SENTINELS[@]} - 1))" ] || return 1
  done
}

start() {
  command -v redis-server >/dev/null || { echo "redis-server is not installed" >&2; exit 1; }
  local primary
  primary="$(named_primary)"
  if [ -z "$primary" ]; then
    # first start: the first data port is the primary, the others replicate from it
    local as="${REDIS_SENTINEL_PRIMARY_AS:-127.0.0.1:${DATA[0]}}"
    answers "${DATA[0]}" || start_data "${DATA[0]}"
    for p in "${DATA[@]:1}"; do answers "$p" || start_data "$p" "${as%:*}" "${as##*:}"; done
    for s in "${SENTINELS[@]}"; do answers "$s" || start_sentinel "$s" "${as##*:}"; done
  else
    # a data node that died comes back empty as a replica of the primary named now
    for p in "${DATA[@]}"; do answers "$p" || [ "${primary##*:}" = "$p" ] || start_data "$p" "${primary%:*}" "${primary##*:}"; done
    for s in "${SENTINELS[@]}"; do answers "$s" || start_sentinel "$s" "${primary##*:}"; done
  fi
  for _ in $(seq 1 300); do all_ok && break; sleep 0.2; done
  all_ok || {
    echo "the Sentinels on ${SENTINELS[*]} do not see a primary with ${#DATA[@]} data nodes online; run: $0 stop && $0 start" >&2
    exit 1
  }
  env_out
}

stop() {
  for p in "${SENTINELS[@]}" "${DATA[@]}"; do
    answers "$p" && redis-cli -h 127.0.0.1 -p "$p" shutdown nosave >/dev/null 2>&1 || true
  done
  for p in "${SENTINELS[@]}" "${DATA[@]}"; do
    for _ in $(seq 1 50); do answers "$p" || break; sleep 0.1; done
  done
  rm -rf "$DIR"
}

status() {
  for p in "${DATA[@]}"; do
    if answers "$p"; then echo "127.0.0.1:$p $(field "$p" role)"; else echo "127.0.0.1:$p down"; fi
  done
  echo "primary named by the Sentinels: $(named_primary)"
  all_ok
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
