#!/usr/bin/env bash
# A longer fuzz run than the build's bounded one (issue 11): each Jazzer fuzz test for SECONDS, one JVM per test, with
# the settings of the poms' fuzz executions (profiles wire-fuzz and server-fuzz): JAZZER_FUZZ=1,
# jazzer.internal.basedir=<module>/target/jazzer, JUnit's own timeout enforcement off so @Timeout bounds each input
# (Jazzer's -timeout) rather than the whole run. JAZZER_MAX_DURATION overrides @FuzzTest(maxDuration).
# Usage: scripts/fuzz.sh [SECONDS=300] [TEST...]   (TEST: Http1ParserFuzzTest Http2ReadPathFuzzTest
#                                                   Http2StreamCoreFuzzTest ServerConnectionFuzzTest; default all)
#
# Where things land, per module (shuttle-wire, shuttle-server):
#   target/jazzer/.cifuzz-corpus/<class>/<method>/   the corpus Jazzer grew; kept between runs, so a run goes on from
#                                                    the last one's coverage (delete it to start from the seeds)
#   target/jazzer/src/test/resources/<package>/<Class>Inputs/<method>/crash-<sha1>   a crashing input
#   target/fuzz-long-<Test>.log                      the Maven log, with libFuzzer's progress lines (cov, exec/s)
#                                                    and, on a crash, "Test unit written to <file>"
# To keep a crash as a regression seed: fix the bug, then copy the file under a name that says what it is into the
# test's inputs directory in the work tree, e.g.
#   cp shuttle-wire/target/jazzer/src/test/resources/dev/shuttle/wire/http1/Http1ParserFuzzTestInputs/codecOnlyEverThrowsHttp1Exception/crash-… \
#      shuttle-wire/src/test/resources/dev/shuttle/wire/http1/Http1ParserFuzzTestInputs/codecOnlyEverThrowsHttp1Exception/request_what_it_is
# Every ordinary test run (./shuttle test) replays the files there as regression inputs.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_EACH="${1:-300}"
shift || true
TESTS=("$@")
[ ${#TESTS[@]} -gt 0 ] || TESTS=(Http1ParserFuzzTest Http2ReadPathFuzzTest Http2StreamCoreFuzzTest ServerConnectionFuzzTest)

JAVA_HOME="$("$ROOT/shuttle" java-home)"
export JAVA_HOME
cd "$ROOT"

module_of() {
  case "$1" in
    Http1ParserFuzzTest | Http2ReadPathFuzzTest | Http2StreamCoreFuzzTest) echo shuttle-wire ;;
    ServerConnectionFuzzTest) echo shuttle-server ;;
    *) echo "fuzz.sh: unknown fuzz test $1" >&2; return 1 ;;
  esac
}

echo "fuzz.sh: compiling tests (mvn -B -o test-compile)"
mvn -B -o -q -pl shuttle-wire,shuttle-server -am test-compile || exit 1

declare -A RESULT
FAILED=0
for test in "${TESTS[@]}"; do
  module="$(module_of "$test")" || exit 2
  echo "fuzz.sh: fuzzing $test ($module) for ${SECONDS_EACH} s"
  started=$(date +%s)
  # test-compile (up to date, quick) then surefire:test alone: the fuzz executions bound to the test phase do not
  # run, only this test, in the modules of the reactor that have it.
  JAZZER_FUZZ=1 JAZZER_MAX_DURATION="${SECONDS_EACH}s" \
    mvn -B -o -pl "$module" -am test-compile surefire:test \
      -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
      -Djazzer.internal.basedir="$ROOT/$module/target/jazzer" \
      -Djunit.jupiter.execution.timeout.mode=disabled \
      -Dsurefire.reportNameSuffix=fuzz-long -Dmaven.test.redirectTestOutputToFile=true \
      >"$ROOT/$module/target/fuzz-long-$test.log" 2>&1
  rc=$?
  took=$(( $(date +%s) - started ))
  log="$ROOT/$module/target/fuzz-long-$test.log"
  # libFuzzer writes its progress to the forked JVM's native stderr, which lands in the Maven log
  last="$(grep -a -E '^#[0-9]+' "$log" | tail -1 | awk '{print $1, $2, $3, $4, "corp:", $8, "exec/s:", $12}')"
  grep -a -E 'Test unit written to|artifact_prefix' "$log" | sed 's/^/    /'
  if [ $rc -eq 0 ]; then
    RESULT[$test]="ok in ${took} s: ${last:-no libFuzzer line}"
  else
    FAILED=1
    RESULT[$test]="FAILED (exit $rc) after ${took} s; see $module/target/fuzz-long-$test.log"
  fi
  echo "fuzz.sh: $test ${RESULT[$test]}"
done

echo
echo "fuzz.sh: summary (${SECONDS_EACH} s each)"
for test in "${TESTS[@]}"; do echo "  $test: ${RESULT[$test]}"; done
crashes="$(find "$ROOT/shuttle-wire" "$ROOT/shuttle-server" -path '*/src/main' -prune -o -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) -print 2>/dev/null)"
if [ -n "$crashes" ]; then
  echo "fuzz.sh: inputs that failed (keep one as a regression seed, see the header of this script):"
  echo "$crashes" | sed 's/^/  /'
else
  echo "fuzz.sh: no crash inputs in shuttle-wire or shuttle-server"
fi
exit $FAILED
