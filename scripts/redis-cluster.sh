#!/usr/bin/env bash
# A local Redis Cluster of masters without replicas, for development, tests and CI (docs/decisions/112).
#
#   scripts/redis-cluster.sh start   # starts 127.0.0.1:7101-7103 (idempotent), waits for cluster_state:ok,
#                                    # prints REDIS_CLUSTER_NODES=127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103
#   scripts/redis-cluster.sh stop    # shuts the nodes down (no save) and deletes their directory
#   scripts/redis-cluster.sh status  # cluster_state of each node
#
# REDIS_CLUSTER_PORTS="7101 7102 7103" picks the nodes; a port may carry its cluster bus port as PORT:BUS
# (default PORT+10000). REDIS_CLUSTER_DIR (default /tmp/redis-cluster-<first port>) holds each node's dir,
# nodes file and log. No persistence: a node restarted by this script comes back empty (the lists' start-up
# check then asks for `npm run lists -- rebuild`).
set -euo pipefail

read -r -a SPECS <<<"${REDIS_CLUSTER_PORTS:-7101 7102 7103}"
PORTS=()
BUSES=()
for s in "${SPECS[@]}"; do
  PORTS+=("${s%%:*}")
  if [[ "$s" == *:* ]]; then BUSES+=("${s##*:}"); else BUSES+=($(("${s%%:*}" + 10000))); fi
done
DIR="${REDIS_CLUSTER_DIR:-${TMPDIR:-/tmp}/redis-cluster-${PORTS[0]}}"
NODE_TIMEOUT="${REDIS_CLUSTER_NODE_TIMEOUT:-3000}"

answers() { redis-cli -h 127.0.0.1 -p "$1" ping >/dev/null 2>&1; }
info_field() { redis-cli -h 127.0.0.1 -p "$1" cluster info 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"; }
nodes_env() {
  local IFS=,
  local list=()
  for p in "${PORTS[@]}"; do list+=("127.0.0.1:$p"); done
  echo "REDIS_CLUSTER_NODES=${list[*]}"
}

all_ok() {
  for p in "${PORTS[@]}"; do
    [ "$(info_field "$p" cluster_state)" = ok ] || return 1
    [ "$(info_field "$p" cluster_known_nodes)" = "${#PORTS[@]}" ] || return 1
  done
}

start() {
  command -v redis-server >/dev/null || { echo "redis-server is not installed" >&2; exit 1; }
  for i in "${!PORTS[@]}"; do
    local p="${PORTS[$i]}"
    answers "$p" && continue
    mkdir -p "$DIR/$p"
    redis-server --port "$p" --bind 127.0.0.1 --cluster-enabled yes --cluster-port "${BUSES[$i]}" \
      --cluster-config-file "$DIR/$p/nodes.conf" --cluster-node-timeout "$NODE_TIMEOUT" \
      --save "" --appendonly no --dir "$DIR/$p" --logfile "$DIR/$p/redis.log" --daemonize yes
  done
  for p in "${PORTS[@]}"; do
    for _ in $(seq 1 50); do answers "$p" && break; sleep 0.1; done
    answers "$p" || { echo "Redis on 127.0.0.1:$p does not answer (log: $DIR/$p/redis.log)" >&2; exit 1; }
  done
  if ! all_ok; then
    local assigned=0
    for p in "${PORTS[@]}"; do assigned=$((assigned + $(info_field "$p" cluster_slots_assigned))); done
    if [ "$assigned" -eq 0 ]; then
      local hosts=()
      for p in "${PORTS[@]}"; do hosts+=("127.0.0.1:$p"); done
      redis-cli --cluster create "${hosts[@]}" --cluster-replicas 0 --cluster-yes >"$DIR/create.log" 2>&1 ||
        { cat "$DIR/create.log" >&2; exit 1; }
    fi
    for _ in $(seq 1 150); do all_ok && break; sleep 0.2; done
    all_ok || {
      echo "the cluster on ports ${PORTS[*]} is not ok (a node from another cluster, or slots missing); run: $0 stop && $0 start" >&2
      exit 1
    }
  fi
  nodes_env
}

stop() {
  for p in "${PORTS[@]}"; do
    answers "$p" && redis-cli -h 127.0.0.1 -p "$p" shutdown nosave >/dev/null 2>&1 || true
  done
  for p in "${PORTS[@]}"; do
    for _ in $(seq 1 50); do answers "$p" || break; sleep 0.1; done
  done
  rm -rf "$DIR"
}

status() {
  for p in "${PORTS[@]}"; do
    if answers "$p"; then echo "127.0.0.1:$p cluster_state:$(info_field "$p" cluster_state)"; else echo "127.0.0.1:$p down"; fi
  done
  all_ok
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
