#!/usr/bin/env bash
# Side-by-side server measurements for docs/BENCHMARKS.md (issue 2), Shuttle beside Jetty 12, in one run:
#   1. wrk, 1 KiB response, 64 connections: requests/s and p99, alternating servers over ROUNDS rounds.
#   2. N idle keep-alive connections held by a separate client JVM: live heap after a full GC (SerialGC),
#      RSS, platform and virtual threads of the server process, per connection.
# Usage: scripts/bench-server.sh [ROUNDS=3] [IDLE=10000] [DURATION=10s]
#   SCHEME=https  serves HTTP/1.1 over TLS (self-signed certificate generated at start, HTTP/2 off on both servers;
#                 wrk does not verify it) and measures wrk only: idle TLS connections are `shuttle lab idle
#                 --protocol https`, whose holder speaks TLS. IDLE=0 skips the idle part too.
#   OUT_DIR=DIR   raw output there (default: a new temporary directory).
#   SKIP_BUILD=1  uses the jars already built (the script builds with `mvn package`, never `install`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${1:-3}"
IDLE="${2:-10000}"
DURATION="${3:-10s}"
SERVERS=(shuttle jetty)
SCHEME="${SCHEME:-http}"
case "$SCHEME" in
  http) TLS_ARG=() ;;
  https) TLS_ARG=(tls) ;;
  *) echo "SCHEME must be http or https"; exit 2 ;;
esac

JAVA_HOME="$("$ROOT/shuttle" java-home)"
JAVA="$JAVA_HOME/bin/java"
JCMD="$JAVA_HOME/bin/jcmd"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
[ -n "${SKIP_BUILD:-}" ] || (cd "$ROOT" && JAVA_HOME="$JAVA_HOME" mvn -B -q -DskipTests package -pl shuttle-benchmarks -am)
CP="$ROOT/shuttle-benchmarks/target/shuttle-benchmarks.jar:$(cat "$ROOT/shuttle-benchmarks/target/classpath.txt")"
OUT="${OUT_DIR:-$(mktemp -d)}"; mkdir -p "$OUT"
JVM_FLAGS=(-XX:+UseSerialGC -Xms256m -Xmx1g)

start_server() { # name -> sets SERVER_PID, SERVER_PORT
  local log="$OUT/$1.log"
  : >"$log"   # exists before the server's own redirect does, so the wait below never races it (set -e)
  "$JAVA" "${JVM_FLAGS[@]}" -cp "$CP" dev.shuttle.benchmarks.server.ServeOneKiB "$1" 0 "${TLS_ARG[@]}" >"$log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 100); do
    SERVER_PORT="$(awk '/^PORT /{print $2}' "$log")"
    [ -n "$SERVER_PORT" ] && return 0
    sleep 0.1
  done
  echo "server $1 did not start:"; cat "$log"; exit 1
}
stop_server() { kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; }

live_heap() { # bytes of live objects after a full GC (the histogram forces one)
  "$JCMD" "$1" GC.class_histogram 2>/dev/null | awk '/^Total/{print $3}'
}
rss_kib() { awk '/^VmRSS/{print $2}' "/proc/$1/status"; }
os_threads() { awk '/^Threads/{print $2}' "/proc/$1/status"; }
virtual_threads() { # threads in the JSON dump (which lists virtual ones too) that Thread.print (platform only) lacks
  local file="$OUT/threads-$1-$RANDOM.json"
  "$JCMD" "$1" Thread.dump_to_file -format=json "$file" >/dev/null
  "$JCMD" "$1" Thread.print | grep -o '^"[^"]*" #[0-9]*' | grep -o '#[0-9]*$' | tr -d '#' >"$file.platform"
  python3 - "$file" "$file.platform" <<'PY'
import json, sys
dump = json.load(open(sys.argv[1]))["threadDump"]
platform = set(open(sys.argv[2]).read().split())
print(sum(1 for c in dump["threadContainers"] for t in c["threads"] if t["tid"] not in platform))
PY
}

echo "== wrk over $SCHEME: 1 KiB, 64 connections, $DURATION, $ROUNDS rounds (servers alternate); load: $(cut -d' ' -f1-3 /proc/loadavg) =="
for round in $(seq "$ROUNDS"); do
  for name in "${SERVERS[@]}"; do
    start_server "$name"
    wrk -t2 -c64 -d3s "$SCHEME://127.0.0.1:$SERVER_PORT/" >/dev/null          # warm-up: JIT, pools
    wrk -t2 -c64 -d"$DURATION" --latency "$SCHEME://127.0.0.1:$SERVER_PORT/" >"$OUT/wrk-$name-$round.txt"
    rps="$(awk '/^Requests\/sec/{print $2}' "$OUT/wrk-$name-$round.txt")"
    p99="$(awk '$1=="99%"{print $2}' "$OUT/wrk-$name-$round.txt")"
    printf 'round %s %-8s requests/s %10s   p99 %8s   load %s\n' "$round" "$name" "$rps" "$p99" \
      "$(cut -d' ' -f1 /proc/loadavg)"
    stop_server
  done
done

if [ "$SCHEME" = https ] || [ "$IDLE" = 0 ]; then
  echo "(idle part skipped: SCHEME=$SCHEME IDLE=$IDLE; idle TLS connections: shuttle lab idle --protocol https)"
  echo "raw output: $OUT"
  exit 0
fi
echo "== $IDLE idle keep-alive connections held by a separate JVM (server: ${JVM_FLAGS[*]}) =="
for name in "${SERVERS[@]}"; do
  start_server "$name"
  sleep 1
  heap0="$(live_heap "$SERVER_PID")"; rss0="$(rss_kib "$SERVER_PID")"
  thr0="$(os_threads "$SERVER_PID")"; vt0="$(virtual_threads "$SERVER_PID")"
  coproc HOLDER { exec "$JAVA" -Xmx512m -cp "$CP" dev.shuttle.benchmarks.server.IdleConnectionHolder "$SERVER_PORT" "$IDLE" 2>/dev/null; }
  read -r held <&"${HOLDER[0]}"
  sleep 2   # let the server finish parking what just went idle
  heap1="$(live_heap "$SERVER_PID")"; rss1="$(rss_kib "$SERVER_PID")"
  thr1="$(os_threads "$SERVER_PID")"; vt1="$(virtual_threads "$SERVER_PID")"
  eval "exec ${HOLDER[1]}>&-"
  wait "$HOLDER_PID" 2>/dev/null || true
  stop_server
  python3 - "$name" "$IDLE" "$heap0" "$heap1" "$rss0" "$rss1" "$thr0" "$thr1" "$vt0" "$vt1" "$held" <<'PY'
import sys
name, n, h0, h1, r0, r1, t0, t1, v0, v1, held = sys.argv[1], int(sys.argv[2]), *map(int, sys.argv[3:11]), sys.argv[11]
print(f"{name:8s} {held}: live heap {h0/1024:8.0f} -> {h1/1024:8.0f} KiB = {(h1-h0)/n:7.0f} B/conn;"
      f"  RSS {r0/1024:6.0f} -> {r1/1024:6.0f} MiB = {(r1-r0)*1024/n:7.0f} B/conn;"
      f"  OS threads {t0} -> {t1};  virtual threads {v0} -> {v1}")
PY
done
echo "raw output: $OUT"
