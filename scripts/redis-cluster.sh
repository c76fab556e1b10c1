#!/usr/bin/env bash
# A local Redis Cluster for development, tests and CI (docs/decisions/112): 3 masters without replicas by
# default; with REDIS_CLUSTER_REPLICAS=1, 3 masters each with one replica (6 nodes).
#
#   scripts/redis-cluster.sh start   # starts 127.0.0.1:7101-7103 (idempotent), waits for cluster_state:ok,
#                                    # prints REDIS_CLUSTER_NODES=127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103
#   scripts/redis-cluster.sh stop    # shuts the nodes down (no save) and deletes their directory
#   scripts/redis-cluster.sh status  # cluster_state (and role) of each node
#
# REDIS_CLUSTER_PORTS="7101 7102 7103" picks the nodes; a port may carry its cluster bus port as PORT:BUS
# (default PORT+10000). REDIS_CLUSTER_DIR (default /tmp/redis-cluster-<first port>) holds each node's dir,
# nodes file and log. No persistence: a node restarted by this script comes back empty (the lists' start-up
# check then asks for `npm run lists -- rebuild`).
#
# REDIS_CLUSTER_REPLICAS=R (default 0) gives every master R replicas (redis-cli --cluster create
# --cluster-replicas R): REDIS_CLUSTER_PORTS then names all the nodes, 3×(R+1) or more and a multiple of R+1
# (default 7101-7106 for R=1); redis-cli picks which become masters. `start` also waits until every replica's
# link to its master is up (master_link_status:up) and every master has its R replicas online.
# REDIS_CLUSTER_NODES always lists every node: they are seeds, the client learns the roles from the cluster
# (and a failover swaps them). A master that was SIGKILLed is started again by `start` from its nodes file:
# once its replica has taken its slots over (after REDIS_CLUSTER_NODE_TIMEOUT ms, default 3000) it rejoins as
# that replica's replica and syncs; started again before that, it is an empty master again and its replica
# resyncs to empty (the lists' `live` check then fails scrubs closed until `npm run lists -- rebuild`).
set -euo pipefail

REPLICAS="${REDIS_CLUSTER_REPLICAS:-0}"
[[ "$REPLICAS" =~ ^[0-9]+$ ]] || { echo "REDIS_CLUSTER_REPLICAS must be a number (replicas per master)" >&2; exit 2; }
DEFAULT_PORTS=""
for i in $(seq 1 $((3 * (REPLICAS + 1)))); do DEFAULT_PORTS+="$((7100 + i)) "; done
read -r -a SPECS <<<"${REDIS_CLUSTER_PORTS:-$DEFAULT_PORTS}"
PORTS=()
BUSES=()
for s in "${SPECS[@]}"; do
  PORTS+=("${s%%:*}")
  if [[ "$s" == *:* ]]; then BUSES+=("${s##*:}"); else BUSES+=($(("${s%%:*}" + 10000))); fi
done
if [ "${#SPECS[@]}" -lt $((3 * (REPLICAS + 1))) ] || [ $(("${#SPECS[@]}" % (REPLICAS + 1))) -ne 0 ]; then
  echo "REDIS_CLUSTER_PORTS names ${#SPECS[@]} nodes: with REDIS_CLUSTER_REPLICAS=$REPLICAS it needs 3×$((REPLICAS + 1)) or more, a multiple of $((REPLICAS + 1))" >&2
  exit 2
fi
DIR="${REDIS_CLUSTER_DIR:-${TMPDIR:-/tmp}/redis-cluster-${PORTS[0]}}"
NODE_TIMEOUT="${REDIS_CLUSTER_NODE_TIMEOUT:-3000}"

answers() { redis-cli -h 127.0.0.1 -p "$1" ping >/dev/null 2>&1; }
info_field() { redis-cli -h 127.0.0.1 -p "$1" cluster info 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"; }
repl_field() { redis-cli -h 127.0.0.1 -p "$1" info replication 2>/dev/null | tr -d '\r' | sed -n "s/^$2://p"; }
nodes_env() {
  local IFS=,
  local list=()
  for p in "${PORTS[@]}"; do list+=("127.0.0.1:$p"); done
  echo "REDIS_CLUSTER_NODES=${list[*]}"
}

all_ok() {
  local masters=0
  for p in "${PORTS[@]}"; do
    [ "$(info_field "$p" cluster_state)" = ok ] || return 1
    [ "$(info_field "$p" cluster_known_nodes)" = "${#PORTS[@]}" ] || return 1
    [ "$REPLICAS" -eq 0 ] && continue
    # replicas: each one's link is up; each master has its replicas online (and in sync since the link is up)
    case "$(repl_field "$p" role)" in
      slave) [ "$(repl_field "$p" master_link_status)" = up ] || return 1 ;;
      master)
        masters=$((masters + 1))
        [ "$(redis-cli -h 127.0.0.1 -p "$p" info replication 2>/dev/null | grep -c '^slave[0-9]*:.*state=online')" -ge "$REPLICAS" ] || return 1
        ;;
      *) return 1 ;;
    esac
  done
  [ "$REPLICAS" -eq 0 ] || [ "$masters" -eq $(("${#PORTS[@]}" / (REPLICAS + 1))) ]
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
      redis-cli --cluster create "${hosts[@]}" --cluster-replicas "$REPLICAS" --cluster-yes >"$DIR/create.log" 2>&1 ||
        { cat "$DIR/create.log" >&2; exit 1; }
    fi
    # (replicas: the first full sync of each follows the creation)
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
    if ! answers "$p"; then echo "127.0.0.1:$p down"; continue; fi
    local line="127.0.0.1:$p cluster_state:$(info_field "$p" cluster_state)"
    if [ "$REPLICAS" -gt 0 ]; then
      line+=" role:$(repl_field "$p" role)"
      [ "$(repl_field "$p" role)" = slave ] && line+=" of $(repl_field "$p" master_host):$(repl_field "$p" master_port) master_link_status:$(repl_field "$p" master_link_status)"
    fi
    echo "$line"
  done
  all_ok
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
