#!/usr/bin/env bash
# Where the RSS of idle connections goes: one server of the lab (`lab idle`'s flags plus Native Memory Tracking)
# holds N idle connections opened by the lab's holder client in another JVM; prints VmRSS and the NMT summary diff
# between the baseline (one warm-up connection) and N idle connections.
# Usage: scripts/nmt-idle.sh [SERVER=shuttle] [PROTOCOL=h2c] [N=10000]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVER="${1:-shuttle}"
PROTOCOL="${2:-h2c}"
N="${3:-10000}"

"$ROOT/shuttle" build >/dev/null
JAVA_HOME="$("$ROOT/shuttle" java-home)"
JAVA="$JAVA_HOME/bin/java"
JCMD="$JAVA_HOME/bin/jcmd"
CP="$ROOT/shuttle-lab/target/shuttle-lab.jar:$(cat "$ROOT/shuttle-lab/target/classpath.txt")"
OUT="$(mktemp -d)"
trap 'kill "${SERVER_PID:-}" "${HOLDER_PID:-}" 2>/dev/null || true; rm -rf "$OUT"' EXIT

mkfifo "$OUT/server.in" "$OUT/holder.in"
"$JAVA" -XX:+UseSerialGC -Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:NativeMemoryTracking=summary -cp "$CP" \
  dev.shuttle.lab.servers.ServerMain "$SERVER" "$PROTOCOL" <"$OUT/server.in" >"$OUT/server.out" 2>&1 &
SERVER_PID=$!
exec 3>"$OUT/server.in"
for _ in $(seq 300); do grep -q '^PORT ' "$OUT/server.out" && break; sleep 0.1; done
PORT="$(awk '/^PORT /{print $2}' "$OUT/server.out")"
[ -n "$PORT" ] || { cat "$OUT/server.out"; exit 1; }

"$JAVA" -XX:+UseSerialGC -Xmx1g -cp "$CP" dev.shuttle.lab.load.LoadMain hold "$PROTOCOL" "$PORT" \
  <"$OUT/holder.in" >"$OUT/holder.out" 2>&1 &
HOLDER_PID=$!
exec 4>"$OUT/holder.in"

rss() { awk '/^VmRSS/{print $2}' "/proc/$SERVER_PID/status"; }
echo "open 1" >&4; echo "status" >&4; sleep 5
"$JCMD" "$SERVER_PID" GC.run >/dev/null
"$JCMD" "$SERVER_PID" VM.native_memory baseline >/dev/null
RSS0="$(rss)"
echo "open $N" >&4
for _ in $(seq 600); do
  echo "status" >&4; sleep 1
  tail -1 "$OUT/holder.out" | grep -q "^open $((N + 1)) " && break
done
sleep 5
"$JCMD" "$SERVER_PID" GC.run >/dev/null
RSS1="$(rss)"
echo "server $SERVER over $PROTOCOL: $(tail -1 "$OUT/holder.out")"
echo "VmRSS: $RSS0 KiB baseline -> $RSS1 KiB with $N idle connections: $(( (RSS1 - RSS0) * 1024 / N )) B per connection"
"$JCMD" "$SERVER_PID" VM.native_memory summary.diff scale=KB | sed -n '/Total/,$p' | grep -E "Total|^-|\(reserved=|committed=.*[+-]" | head -60
