#!/usr/bin/env bash
# Where a busy server's CPU goes: runs one round of `lab busy` for one server and records JFR's CPU-time samples
# (every 2 ms of each thread's CPU time, JDK 25) in that server's JVM for part of the window, then sorts the
# samples into the phases of a request (scripts/cpu-phases.py).
# Usage: scripts/profile-busy.sh [SERVER=shuttle] [PROTOCOL=h2c] [SCENARIO=hot] [OUT=/tmp/profile-busy]
# Hot: a 25 s window, recorded from 8 s after the server started for 15 s. Mostly idle: recorded from 30 s
# (after the 5 000 connections and the warm-up) for 30 s.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVER="${1:-shuttle}"
PROTOCOL="${2:-h2c}"
SCENARIO="${3:-hot}"
OUT="${4:-/tmp/profile-busy}"
mkdir -p "$OUT"

JAVA_HOME="$("$ROOT/shuttle" java-home)" # `lab busy` below builds what is stale
if [ "$SCENARIO" = hot ]; then WINDOW=(--duration 25s); AFTER=8; RECORD=15s; else WINDOW=(); AFTER=30; RECORD=30s; fi

. "$ROOT/scripts/busy-round.sh"
start_busy_round "$OUT/$SERVER.log" --scenario "$SCENARIO" --protocol "$PROTOCOL" --servers "$SERVER" \
  "${WINDOW[@]}" --json "$OUT/$SERVER.json"
sleep "$AFTER"
"$JAVA_HOME/bin/jcmd" "$PID" JFR.start settings=profile jdk.CPUTimeSample#enabled=true \
  jdk.CPUTimeSample#throttle=2ms duration="$RECORD" filename="$OUT/$SERVER.jfr" >/dev/null
wait "$LAB"
"$JAVA_HOME/bin/jfr" print --events jdk.CPUTimeSample --stack-depth 64 "$OUT/$SERVER.jfr" >"$OUT/$SERVER.cpu.txt"
grep -A2 '^----' "$OUT/$SERVER.log" | sed -n 2p
python3 "$ROOT/scripts/cpu-phases.py" "$OUT/$SERVER.cpu.txt" "$OUT/$SERVER.json"
