#!/usr/bin/env bash
# Soak (issue 11; not in CI): MINUTES of moderate valid load plus attacks against ONE Shuttle server process.
#   server   the lab's `ServerMain shuttle h2c` (HTTP/1.1 and h2c on one port, 19-byte text response) in its own JVM:
#            -XX:+UseSerialGC -Xms256m -Xmx256m -XX:+AlwaysPreTouch (heap resident from the start, so RSS growth is
#            growth outside a fixed heap; the live heap is reported separately from GC.class_histogram)
#   valid    wrk -t1 -c32, each connection paced to 50 req/s (HTTP/1.1 keep-alive, at most 1600 req/s), and
#            h2load -c16 -m4 --rps 50 (h2c, 800 req/s), both for the whole run
#   attacks  scripts/soak/attacks.py: slowloris, smuggling, oversized heads, resets mid-response over HTTP/1.1;
#            rapid reset, CONTINUATION / PING / SETTINGS floods, HPACK bomb, zero-window stall, resets mid-response
#            over HTTP/2; each in a loop, its outcomes counted
# Prints RSS (VmRSS of /proc/PID/status) every 10 s, then requests served, the valid load's errors, the attacks'
# outcomes, WARNING lines in the server's log, and PASS/FAIL: RSS at the end within 10 % of RSS after warm-up
# (the first fifth of the run, at least 60 s).
# Usage: scripts/soak.sh [MINUTES=10]
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MINUTES="${1:-10}"
TOTAL=$(( MINUTES * 60 ))
WARMUP=$(( TOTAL / 5 < 60 ? 60 : TOTAL / 5 ))
PY=/usr/bin/python3
command -v wrk >/dev/null || { echo "soak.sh: wrk missing (apt-get install -y wrk)"; exit 1; }
command -v h2load >/dev/null || { echo "soak.sh: h2load missing (apt-get install -y nghttp2-client)"; exit 1; }
$PY -c 'import hpack' 2>/dev/null || { echo "soak.sh: python3-hpack missing (apt-get install -y python3-h2)"; exit 1; }

"$ROOT/shuttle" build >/dev/null 2>&1 || { echo "soak.sh: ./shuttle build failed"; exit 1; }
JAVA_HOME="$("$ROOT/shuttle" java-home)"
JAVA="$JAVA_HOME/bin/java"
JCMD="$JAVA_HOME/bin/jcmd"
CP="$ROOT/shuttle-lab/target/shuttle-lab.jar:$(cat "$ROOT/shuttle-lab/target/classpath.txt")"
OUT="$(mktemp -d /tmp/shuttle-soak.XXXXXX)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}" "${SERVER_PID:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  echo "soak.sh: logs kept in $OUT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkfifo "$OUT/server.in"
"$JAVA" -XX:+UseSerialGC -Xms256m -Xmx256m -XX:+AlwaysPreTouch -cp "$CP" \
  dev.shuttle.lab.servers.ServerMain shuttle h2c <"$OUT/server.in" >"$OUT/server.out" 2>&1 &
SERVER_PID=$!
exec 3>"$OUT/server.in"
for _ in $(seq 300); do grep -q '^PORT ' "$OUT/server.out" && break; sleep 0.1; done
PORT="$(awk '/^PORT /{print $2}' "$OUT/server.out")"
[ -n "$PORT" ] || { cat "$OUT/server.out"; exit 1; }
URL="http://127.0.0.1:$PORT/"

rss() { awk '/^VmRSS/{print $2}' "/proc/$SERVER_PID/status"; }
live_heap() { "$JCMD" "$SERVER_PID" GC.class_histogram 2>/dev/null | tail -1 | awk '{print $2 " instances, " $3 " bytes"}'; }
histogram() { "$JCMD" "$SERVER_PID" GC.class_histogram 2>/dev/null >"$OUT/histogram-$1.txt"; }
echo "soak.sh: server pid $SERVER_PID on 127.0.0.1:$PORT, $MINUTES min, warm-up $WARMUP s; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

cat >"$OUT/pace.lua" <<'EOF'
-- each wrk connection waits 20 ms before each request: at most 50 req/s per connection
function delay() return 20 end
EOF
wrk -t1 -c32 -d"${TOTAL}s" --timeout 5s --latency -s "$OUT/pace.lua" "$URL" >"$OUT/wrk.txt" 2>&1 &
PIDS+=($!)
h2load -c16 -m4 --rps 50 -D "$TOTAL" -T 5 "$URL" >"$OUT/h2load.txt" 2>&1 &
PIDS+=($!)
$PY "$ROOT/scripts/soak/attacks.py" "$PORT" "$TOTAL" "$OUT/attacks.json" >"$OUT/attacks.out" 2>&1 &
ATTACK_PID=$!
PIDS+=($ATTACK_PID)

START=$(date +%s)
RSS_WARM=""
printf '%6s %10s %8s\n' "t(s)" "RSS(KiB)" "threads"
while :; do
  now=$(( $(date +%s) - START ))
  [ -d "/proc/$SERVER_PID" ] || { echo "soak.sh: the server died"; cat "$OUT/server.out"; exit 1; }
  r="$(rss)"
  printf '%6d %10d %8s\n' "$now" "$r" "$(awk '/^Threads/{print $2}' "/proc/$SERVER_PID/status")" | tee -a "$OUT/rss.txt"
  if [ -z "$RSS_WARM" ] && [ "$now" -ge "$WARMUP" ]; then
    RSS_WARM="$r"
    HEAP_WARM="$(live_heap)"; histogram warm
    echo "       warm-up done: RSS $RSS_WARM KiB, live heap after GC $HEAP_WARM; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  fi
  [ "$now" -ge "$TOTAL" ] && break
  sleep 10
done

# the load generators end on their own at TOTAL; the attack driver's rounds finish within ~45 s
for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null; done
PIDS=()
sleep 2
RSS_END="$(rss)"
HEAP_END="$(live_heap)"; histogram end
LOAD_END="$(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "== valid load (errors should be ~0: attacks must not hurt other clients)"
wrk_req="$(awk '/requests in/{print $1}' "$OUT/wrk.txt")"
echo "wrk (HTTP/1.1 keep-alive, 32 conns): ${wrk_req:-?} requests; $(grep -E 'Requests/sec' "$OUT/wrk.txt" | tr -s ' ')"
echo "  errors: $(grep -E 'Socket errors|Non-2xx' "$OUT/wrk.txt" | tr -s ' ' | paste -sd';' - | sed 's/^$/none/')"
echo "  latency: $(grep -E '^ +(50|99)%' "$OUT/wrk.txt" | tr -s ' ' | paste -sd',' -)"
h2_done="$(awk '/^requests:/{print $8}' "$OUT/h2load.txt")"
echo "h2load (h2c, 16 conns x 4 streams): $(grep -E '^requests:' "$OUT/h2load.txt")"
echo "  $(grep -E '^status codes:' "$OUT/h2load.txt")"
echo "requests served to the valid load: $(( ${wrk_req:-0} + ${h2_done:-0} ))"

echo
echo "== attacks: how each ended (x = not the answer docs/SECURITY.md gives)"
$PY - "$OUT/attacks.json" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))
for r in rows:
    print("%s %7d  %-45s %s" % (" " if r["expected"] else "x", r["count"], r["attack"], r["outcome"]))
print("attack rounds: %d, of which not as documented: %d" % (sum(r["count"] for r in rows),
      sum(r["count"] for r in rows if not r["expected"])))
EOF
echo "server log: $(grep -c -E 'WARNING|SEVERE' "$OUT/server.out") WARNING/SEVERE lines, $(grep -c 'Exception' "$OUT/server.out") mentioning an exception"

echo
echo "== memory"
awk '{print $2}' "$OUT/rss.txt" | sort -n | awk '{a[NR]=$1} END {print "RSS series: " NR " samples, min " a[1] " KiB, max " a[NR] " KiB"}'
echo "RSS after warm-up: $RSS_WARM KiB (live heap after GC: $HEAP_WARM)"
echo "RSS at the end:    $RSS_END KiB (live heap after GC: $HEAP_END); load average $LOAD_END"
echo "top classes by bytes, warm-up vs end: $OUT/histogram-warm.txt, $OUT/histogram-end.txt"
growth=$(awk -v a="$RSS_WARM" -v b="$RSS_END" 'BEGIN {printf "%+.1f", (b - a) * 100 / a}')
if awk -v a="$RSS_WARM" -v b="$RSS_END" 'BEGIN {exit !(b <= a * 1.10)}'; then
  echo "PASS: RSS $RSS_WARM -> $RSS_END KiB ($growth %), within 10 % of RSS after warm-up"
else
  echo "FAIL: RSS $RSS_WARM -> $RSS_END KiB ($growth %), more than 10 % over RSS after warm-up"
  exit 1
fi
