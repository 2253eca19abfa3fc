#!/usr/bin/env bash
# Two builds of amdahl side by side in one hyperfine run each: start-up on a small profile, and a
# 1M-phase CSV and JSON eval. For a change that must not make amdahl slower:
#   bench/compare_builds.sh OLD_BINARY NEW_BINARY
# Prints hyperfine's medians and the NEW/OLD ratio for each case.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: bench/compare_builds.sh OLD_BINARY NEW_BINARY}
new=${2:?usage: bench/compare_builds.sh OLD_BINARY NEW_BINARY}
out=${BENCH_DIR:-/tmp/amdahl-bench}; n=${PHASES:-1000000}; spec=phase_000001=10
mkdir -p "$out"
# Snapshots: a rebuild during a minutes-long run must not mix binaries.
cp "$old" "$out/amdahl-old"; cp "$new" "$out/amdahl-new"
echo "load average: $(cut -d" " -f1-3 /proc/loadavg) (figures are noisy when this is high)"
python3 bench/gen_profile.py "$out" -n "$n" >/dev/null
csv=$out/profile_$n.csv json=$out/profile_$n.json

run() {  # name, runs, warmup, arguments after the binary
    local name=$1 runs=$2 warmup=$3; shift 3
    hyperfine -N --warmup "$warmup" --runs "$runs" --output=null --export-json "$out/$name.json" \
        -n old "$out/amdahl-old $*" -n new "$out/amdahl-new $*" >/dev/null
    python3 - "$out/$name.json" "$name" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
o, n = r["old"]["median"], r["new"]["median"]
unit, scale = ("ms", 1e3)
print(f"{sys.argv[2]:<10} old {o*scale:9.3f} {unit}  new {n*scale:9.3f} {unit}  "
      f"new/old {n/o:.3f}  difference {(n-o)*scale:+.3f} {unit}")
PY
}
run startup "${STARTUP_RUNS:-300}" 20 eval examples/transformer_step.json -s attention_softmax=10 --format json
run csv-1M "${RUNS:-10}" 1 eval "$csv" -s "$spec" --format json
run json-1M "${RUNS:-10}" 1 eval "$json" -s "$spec" --format json
