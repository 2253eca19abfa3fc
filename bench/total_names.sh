#!/usr/bin/env bash
# Profiles whose every phase is named like a total ("k_sum_N"): each such phase is tested for
# being the sum of the others, which once summed all phases per phase (quadratic: 50,000 rows
# took 18 s). Times `amdahl eval` on a CSV and a JSON of N such phases in one hyperfine run, for
# build/amdahl and, when given, an older binary side by side.
#   bench/total_names.sh [OLD_BINARY]        N=50000 by default; RUNS=5
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/amdahl ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
dir=${BENCH_DIR:-/tmp/amdahl-bench}
n=${N:-50000}
mkdir -p "$dir"
echo "load average: $(cut -d" " -f1-3 /proc/loadavg) (figures are noisy when this is high)"
python3 - "$dir" "$n" <<'PY'
import json, sys
out, n = sys.argv[1], int(sys.argv[2])
with open(f"{out}/total_names_{n}.csv", "w") as f:
    f.write("name,time (ms)\n" + "".join(f"k_sum_{i},1\n" for i in range(n)))
with open(f"{out}/total_names_{n}.json", "w") as f:
    json.dump({"unit": "ms", "phases": [{"name": f"k_sum_{i}", "time": 1} for i in range(n)]}, f)
PY
snap=$(mktemp -d "$dir/total_names.XXXXXX")
trap 'rm -rf "$snap"' EXIT
cp build/amdahl "$snap/new"
commands=()
[ $# -ge 1 ] && cp "$1" "$snap/old"
for binary in ${1:+old} new; do
  for ext in csv json; do commands+=("$snap/$binary eval $dir/total_names_$n.$ext"); done
done
hyperfine -N --runs "${RUNS:-5}" --style basic "${commands[@]}"
