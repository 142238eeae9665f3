#!/usr/bin/env bash
# How often a server's threads go to sleep and are woken, per request: runs one round of `lab busy --scenario
# mostly-idle` (1 000 requests/s) for one server and reads each thread's context switches from /proc/PID/task/*/status
# 30 s into the round and 30 s later, summed by thread name with the trailing number dropped.
# Voluntary switches are sleeps (each one ends in a wake-up); involuntary ones are preemptions.
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

switches() { # thread id, name, voluntary, involuntary
  for task in /proc/"$PID"/task/*; do
    echo "$(basename "$task") $(tr ' ' _ <"$task/comm")" \
      "$(awk '/^voluntary_ctxt_switches/ {v=$2} /^nonvoluntary_ctxt_switches/ {n=$2} END {print v, n}' "$task/status")"
  done | sort
}
sleep 30 # 5 000 connections opened and the warm-up interval over
switches >"$OUT/before"
sleep "$WINDOW"
switches >"$OUT/after"
wait "$LAB"
grep -A2 '^----' "$OUT/$SERVER-$PROTOCOL.log" | sed -n 2p
join "$OUT/before" "$OUT/after" | awk -v requests=$((WINDOW * 1000)) '
  { name = $2; sub(/-?[0-9]+$/, "", name); vol[name] += $6 - $3; invol[name] += $7 - $4 }
  END { for (n in vol) if (vol[n] + invol[n] > requests / 100)
          printf "%-24s voluntary/request %.2f  involuntary/request %.2f\n", n, vol[n] / requests, invol[n] / requests }' |
  sort
