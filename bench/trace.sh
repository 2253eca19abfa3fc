#!/usr/bin/env bash
# Trace reader throughput and memory: a >= 1 GB Kineto-style trace (bench/gen_trace.py, from the
# real PyTorch sample in tests/data) read by amdahl and by the obvious Python alternative
# (bench/trace_baseline.py: json.load + a dictionary of sums), side by side in one hyperfine run,
# then each once under /usr/bin/time for peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/amdahl ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
dir=${BENCH_DIR:-/tmp/amdahl-bench}
size_mb=${SIZE_MB:-1100}
mkdir -p "$dir"
trace=$dir/kineto_${size_mb}mb.json
[ -f "$trace" ] || python3 bench/gen_trace.py "$trace" "$size_mb"
bytes=$(stat -c %s "$trace")

hyperfine --warmup 1 --runs "${RUNS:-3}" --export-json "$dir/trace.json" \
  -n amdahl "build/amdahl eval $trace --format json" \
  -n python "python3 bench/trace_baseline.py $trace" >/dev/null

peak() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }
amdahl_kb=$(peak build/amdahl eval "$trace" --format json)
python_kb=$(peak python3 bench/trace_baseline.py "$trace")

python3 - "$dir/trace.json" "$bytes" "$amdahl_kb" "$python_kb" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
size, amdahl_kb, python_kb = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
a, p = results["amdahl"]["median"], results["python"]["median"]
print(f"trace: {size / 1e6:.0f} MB")
print(f"{'':8} {'median s':>9} {'MB/s':>8} {'peak MB':>9}")
print(f"{'amdahl':8} {a:9.2f} {size / 1e6 / a:8.0f} {amdahl_kb / 1024:9.0f}")
print(f"{'python':8} {p:9.2f} {size / 1e6 / p:8.0f} {python_kb / 1024:9.0f}")
print(f"amdahl is {p / a:.1f}x faster and uses {python_kb / amdahl_kb:.1f}x less memory")
PY
