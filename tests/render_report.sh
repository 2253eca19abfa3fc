#!/usr/bin/env bash
# Renders `amdahl report`'s page in headless Chromium, as a browser would show it: the page must load
# offline from a file and give a full screenshot. Skipped (exit 77, ctest's SKIP_RETURN_CODE) when
# chromium is not installed; scripts/setup installs it, so CI runs it.
#   tests/render_report.sh BUILD_DIR SOURCE_DIR [SCREENSHOT.png]   (the last: keep the picture, e.g.
#   docs/img/report.png)
set -euo pipefail
build=$1 source=$2 keep=${3:-}
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "SKIPPED: chromium is not installed (Debian: apt-get install chromium)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "render_report: $*" >&2; cat "$dir/chromium.log" >&2 2>/dev/null || true; exit 1; }
build=$(realpath "$build")
# From the source tree, to stdout: the page shows the command as a user would type it.
(cd "$source" && "$build/amdahl" report examples/transformer_step.json -s attention_softmax=10 >"$dir/report.html")
# No network for the page: anything it tried to fetch would be missing from the picture.
HOME=$dir timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --screenshot="$dir/report.png" --window-size=1000,1400 "file://$dir/report.html" >"$dir/chromium.log" 2>&1 ||
  fail "chromium failed"
[ -f "$dir/report.png" ] || fail "no screenshot"
kind=$(file -b "$dir/report.png")
[[ $kind == "PNG image data, 1000 x 1400"* ]] || fail "the screenshot is $kind"
# A blank page compresses to a few kilobytes; the report's text and tables make far more.
size=$(stat -c %s "$dir/report.png")
[ "$size" -gt 30000 ] || fail "the screenshot is $size bytes: a blank page?"
if [ -n "$keep" ]; then cp "$dir/report.png" "$keep"; fi
echo "rendered: $kind, $size bytes"
