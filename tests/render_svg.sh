#!/usr/bin/env bash
# Renders every chart the README shows (docs/img/*.svg) and one chart of each kind made now by the
# built binary from the examples, with rsvg-convert (Debian: librsvg2-bin), and fails on a render
# error. Exits 77, which ctest reports as skipped, when rsvg-convert is not installed.
#
#   tests/render_svg.sh AMDAHL_BINARY SOURCE_DIR
set -euo pipefail
amdahl=$1
cd "$2"
if ! command -v rsvg-convert >/dev/null; then
  echo "SKIPPED: rsvg-convert is not installed (Debian package librsvg2-bin)" >&2
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One chart of each kind, from the examples (stdout is not looked at).
"$amdahl" eval examples/transformer_step.json -s attention_softmax=10 -s 'gemm_*=2' --plot "$work/eval.svg" >/dev/null
"$amdahl" law -f 0.6 -k 4 --plot "$work/law.svg" >/dev/null
"$amdahl" law -f 0.5 --target 3 --plot "$work/law_unreachable.svg" >/dev/null
"$amdahl" rank examples/transformer_step.json -k 10 --only kind:kernel --plot "$work/rank.svg" >/dev/null
"$amdahl" plan examples/transformer_step.json --target 2 -k 10 --only kind:kernel --plot "$work/plan.svg" >/dev/null
"$amdahl" plan examples/transformer_step.json --target 4 -k 10 --only kind:kernel --plot "$work/plan_unreachable.svg" >/dev/null
"$amdahl" scale -p 0.95 -n 1..1024 --overhead log:0.005 --plot "$work/scale.svg" >/dev/null
"$amdahl" fit examples/scaling_runs.csv --overhead log --predict 256,1024 --plot "$work/fit.svg" >/dev/null
"$amdahl" compare examples/compare/before.json examples/compare/after.json --plot "$work/compare.svg" >/dev/null
"$amdahl" eval tests/data/profilers/handmade/replay_sim_3steps.json -s gemm=2 --model replay --plot "$work/replay.svg" >/dev/null 2>&1

failed=0
for svg in "$work"/*.svg docs/img/*.svg; do
  [ -e "$svg" ] || continue
  if ! rsvg-convert --width 800 --output "$work/out.png" "$svg" 2>"$work/err"; then
    echo "render failed: $svg: $(cat "$work/err")" >&2
    failed=1
  elif ! [ -s "$work/out.png" ]; then
    echo "render failed: $svg: empty PNG" >&2
    failed=1
  fi
done
exit $failed
