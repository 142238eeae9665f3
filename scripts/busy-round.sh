# Sourced by the scripts that watch one server through a round of `lab busy` (profile-busy.sh, count-wakeups.sh).
# start_busy_round LOG ARG...: starts `shuttle lab busy ARG... --rounds 1 --no-progress` in the background, its output
# in LOG, and returns once the server's JVM is up, with LAB set to the round's PID and PID to the server's.
start_busy_round() {
  local log="$1"
  shift
  "$ROOT/shuttle" lab busy "$@" --rounds 1 --no-progress >"$log" 2>&1 &
  LAB=$!
  PID=""
  for _ in $(seq 60); do
    PID="$(pgrep -f dev.shuttle.lab.servers.ServerMain | head -1 || true)"
    [ -n "$PID" ] && return 0
    sleep 1
  done
  echo "no server JVM started" >&2
  cat "$log" >&2
  exit 1
}
