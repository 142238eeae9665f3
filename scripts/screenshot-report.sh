#!/usr/bin/env bash
# Runs a small `shuttle lab reuse` with --html, then takes a screenshot of the page with headless Chromium, to check
# that the report renders (table and chart) in a real browser. Not part of CI.
#
#   scripts/screenshot-report.sh [OUT_DIR]      (default: target/report-screenshot under the repository)
#
# Environment: SHUTTLE_CMD overrides how the lab is started (default: the ./shuttle launcher, which builds what is
# missing); LAB_ARGS overrides the lab's arguments (default: a reduced matrix, 10 requests per cell, 1 round).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/target/report-screenshot}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
HTML="$OUT/lab-reuse.html"
PNG="$OUT/lab-reuse.png"
read -r -a LAB_ARGS <<< "${LAB_ARGS:---requests 10 --slow-requests 5 --rounds 1 --warmup 10}"
read -r -a SHUTTLE <<< "${SHUTTLE_CMD:-$ROOT/shuttle}"

find_chromium() {
  command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null || command -v google-chrome 2>/dev/null
}

if ! CHROMIUM="$(find_chromium)"; then
  echo "screenshot-report: chromium not found, installing the Debian package" >&2
  if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
  "${SUDO[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq chromium >/dev/null
  CHROMIUM="$(find_chromium)"
fi

echo "screenshot-report: running shuttle lab reuse ${LAB_ARGS[*]} --html $HTML" >&2
"${SHUTTLE[@]}" lab reuse "${LAB_ARGS[@]}" --no-progress --html "$HTML" > "$OUT/lab-reuse.txt"

PROFILE="$(mktemp -d)"
trap 'rm -rf "$PROFILE"' EXIT
"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$PROFILE" --hide-scrollbars \
  --screenshot="$PNG" --window-size=1400,2000 "file://$HTML" >/dev/null 2>&1

[ -s "$PNG" ] || { echo "screenshot-report: no screenshot was written" >&2; exit 1; }
echo "$PNG"
