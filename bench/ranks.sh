#!/usr/bin/env bash
# The reduce step of a multi-rank evaluation: eval --ranks over 1,024 rank profiles of 200 phases
# each (bench/gen_ranks.py), timed (best of 5). Target: under 1 s.
# Usage: bench/ranks.sh [BUILD_DIR] [RANKS] [PHASES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
ranks=${2:-1024}
phases=${3:-200}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$here/gen_ranks.py" "$dir" "$ranks" "$phases"
best=
for _ in 1 2 3 4 5; do
    start=$(date +%s.%N)
    "$build/amdahl" eval --ranks "$dir/rank*.json" -s '@rank7:kernel_3=2' -s 'kernel_1*=1.5' --format json >/dev/null
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
done
echo "eval --ranks: $ranks ranks x $phases phases: best of 5 ${best} s"
