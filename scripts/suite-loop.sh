#!/usr/bin/env bash
# A suite that never fails by luck (issue 22; not in CI): runs `./shuttle test` N times, each in a fresh clone of
# this checkout's HEAD (committed work only: a clean clone is what CI and a reviewer get), and reports every failure
# with the test's name and the first lines of its message. --load runs `./shuttle lab busy` in a loop beside the
# suite (from this checkout), as issue 22's acceptance asks (5 passing runs in a row beside a busy run).
# Each clone is deleted after its run; its log and the reports of failed tests are kept under the printed directory.
# Usage: scripts/suite-loop.sh [N=10] [--load]
# Exit: 0 when every run passed, 1 when any failed, 2 on a usage error.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N=10
LOAD=0
for arg in "$@"; do
  case "$arg" in
    --load) LOAD=1 ;;
    ''|*[!0-9]*) echo "usage: scripts/suite-loop.sh [N=10] [--load]" >&2; exit 2 ;;
    *) N="$arg" ;;
  esac
done
[ "$N" -ge 1 ] || { echo "suite-loop.sh: N must be at least 1" >&2; exit 2; }

HEAD="$(git -C "$ROOT" rev-parse HEAD)"
OUT="$(mktemp -d /tmp/shuttle-suite-loop.XXXXXX)"
BUSY_PID=""
cleanup() {
  # the busy loop runs in a session of its own (setsid): its group id is its pid
  [ -n "$BUSY_PID" ] && kill -- "-$BUSY_PID" 2>/dev/null
  wait 2>/dev/null
  echo "suite-loop.sh: logs kept in $OUT"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no)" ]; then
  echo "suite-loop.sh: note: uncommitted changes in $ROOT are not tested, only HEAD $HEAD"
fi
echo "suite-loop.sh: $N runs of ./shuttle test at ${HEAD:0:12}$([ $LOAD = 1 ] && echo ' beside lab busy');" \
  "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

if [ $LOAD = 1 ]; then
  "$ROOT/shuttle" build >"$OUT/busy-build.log" 2>&1 || { echo "suite-loop.sh: ./shuttle build failed" >&2; exit 1; }
  setsid bash -c 'while :; do "$0/shuttle" lab busy --no-progress || sleep 5; done' "$ROOT" >"$OUT/busy.log" 2>&1 &
  BUSY_PID=$!
fi

# Prints "Class.test: first lines" for each failed or errored test case in the clone's surefire reports.
failures_of() {
  /usr/bin/python3 - "$1" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
for report in sorted(glob.glob(sys.argv[1] + "/*/target/surefire-reports/TEST-*.xml")):
    try:
        suite = ET.parse(report).getroot()
    except ET.ParseError as e:
        print("%s: unreadable report (%s)" % (report, e))
        continue
    for case in suite.iter("testcase"):
        for bad in list(case.findall("failure")) + list(case.findall("error")):
            text = (bad.get("message") or bad.text or bad.get("type") or "").strip().splitlines()
            print("%s.%s: %s" % (case.get("classname"), case.get("name"), " | ".join(text[:3])[:400]))
PY
}

passed=0
failed=0
: >"$OUT/failures.txt"
for i in $(seq "$N"); do
  run="$OUT/run-$i"
  mkdir -p "$run"
  clone="$run/shuttle"
  if ! git clone --quiet --no-checkout "$ROOT" "$clone" || ! git -C "$clone" checkout --quiet "$HEAD"; then
    echo "suite-loop.sh: cannot clone $ROOT" >&2
    exit 1
  fi
  start=$(date +%s)
  (cd "$clone" && ./shuttle test) >"$run/test.log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  found="$(failures_of "$clone")"
  if [ $rc -eq 0 ] && [ -z "$found" ]; then
    passed=$((passed + 1))
    echo "run $i/$N: PASS (${took} s)"
  else
    failed=$((failed + 1))
    echo "run $i/$N: FAIL (${took} s, exit $rc)"
    if [ -n "$found" ]; then
      printf '%s\n' "$found" | sed 's/^/    /'
      printf '%s\n' "$found" | sed 's/:.*//' >>"$OUT/failures.txt"
      mkdir -p "$run/reports"
      grep -l -E '<(failure|error)' "$clone"/*/target/surefire-reports/*.xml 2>/dev/null \
        | xargs -r cp -t "$run/reports"
    else
      # no failed test: the build itself failed (compilation, a crashed fork, a timeout)
      grep -E 'ERROR|FAIL' "$run/test.log" | head -5 | sed 's/^/    /'
      echo "build failure (no failed test)" >>"$OUT/failures.txt"
    fi
  fi
  rm -rf "$clone"
done

echo "suite-loop.sh: $N runs, $passed passed, $failed failed"
if [ $failed -gt 0 ]; then
  echo "failures per test:"
  sort "$OUT/failures.txt" | uniq -c | sort -rn | sed 's/^/  /'
  exit 1
fi
