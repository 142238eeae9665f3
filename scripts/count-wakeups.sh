#!/usr/bin/env bash
# How often a server's threads go to sleep and are woken, per request: runs one round of `lab busy --scenario
# mostly-idle` (1 000 requests/s) for one server and reads each thread's context switches from /proc/PID/task/*/status
# 30 s into the round and 30 s later, summed by thread name with the trailing number dropped.
# Voluntary switches are sleeps (each one ends in a wake-up); involuntary ones are preemptions. Beside them, each
# thread group's CPU time per request (utime + stime, in clock ticks of 1/100 s, so about ±0.3 µs here).
# Usage: scripts/count-wakeups.sh [SERVER=shuttle] [PROTOCOL=h2c] [OUT=/tmp/count-wakeups]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVER="${1:-shuttle}"
PROTOCOL="${2:-h2c}"
OUT="${3:-/tmp/count-wakeups}"
WINDOW=30
mkdir -p "$OUT"

. "$ROOT/scripts/busy-round.sh"
start_busy_round "$OUT/$SERVER-$PROTOCOL.log" --scenario mostly-idle --protocol "$PROTOCOL" --servers "$SERVER"

switches() { # thread id, name, voluntary, involuntary, CPU ticks
  for task in /proc/"$PID"/task/*; do
    echo "$(basename "$task") $(tr ' ' _ <"$task/comm")" \
      "$(awk '/^voluntary_ctxt_switches/ {v=$2} /^nonvoluntary_ctxt_switches/ {n=$2} END {print v, n}' "$task/status")" \
      "$(sed 's/.*) //' "$task/stat" | awk '{print $12 + $13}')"
  done | sort
}
sleep 30 # 5 000 connections opened and the warm-up interval over
switches >"$OUT/before"
sleep "$WINDOW"
switches >"$OUT/after"
wait "$LAB"
grep -A2 '^----' "$OUT/$SERVER-$PROTOCOL.log" | sed -n 2p
join "$OUT/before" "$OUT/after" | awk -v requests=$((WINDOW * 1000)) -v tick_us="$((1000000 / $(getconf CLK_TCK)))" '
  { name = $2; sub(/-?[0-9]+$/, "", name); vol[name] += $7 - $3; invol[name] += $8 - $4; cpu[name] += $9 - $5 }
  END { for (n in vol) if (vol[n] + invol[n] > requests / 100 || cpu[n] * tick_us > requests)
          printf "%-24s voluntary/request %.2f  involuntary/request %.2f  CPU us/request %.1f\n", n,
                 vol[n] / requests, invol[n] / requests, cpu[n] * tick_us / requests }' |
  sort
