#!/usr/bin/env bash
# Trace reader throughput and memory on two >= 1 GB Kineto-style traces (bench/gen_trace.py, from
# the real PyTorch sample in tests/data, and bench/gen_trace_varied.py, its jittered variant), in
# one hyperfine run: build/amdahl on the file (two threads split the file), the same read from
# standard input (one thread: no second way into a pipe), an older binary (BEFORE=path) when given,
# and the obvious Python alternative (bench/trace_baseline.py: json.load + a dictionary of sums).
# Then each once under /usr/bin/time for peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/amdahl ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
dir=${BENCH_DIR:-/tmp/amdahl-bench}
size_mb=${SIZE_MB:-1100}
mkdir -p "$dir"
amdahl=$dir/amdahl-under-test  # a copy: a rebuild during the run cannot change it
cp build/amdahl "$amdahl"
exact=$dir/kineto_${size_mb}mb.json
varied=$dir/kineto_varied_${size_mb}mb.json
[ -f "$exact" ] || python3 bench/gen_trace.py "$exact" "$size_mb"
[ -f "$varied" ] || python3 bench/gen_trace_varied.py "$varied" "$size_mb"

commands=()
for trace in "$exact" "$varied"; do
  tag=$(basename "$trace" .json)
  commands+=(-n "amdahl $tag" "$amdahl eval $trace --format json")
  commands+=(-n "amdahl-stdin $tag" "sh -c '$amdahl eval - --format json < $trace'")
  [ -z "${BEFORE:-}" ] || commands+=(-n "before $tag" "$BEFORE eval $trace --format json")
  [ -n "${SKIP_PYTHON:-}" ] || commands+=(-n "python $tag" "python3 bench/trace_baseline.py $trace")
done
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$dir/trace.json" "${commands[@]}" >/dev/null

peak() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }
{
  for trace in "$exact" "$varied"; do
    tag=$(basename "$trace" .json)
    echo "amdahl $tag $(peak "$amdahl" eval "$trace" --format json)"
    [ -z "${BEFORE:-}" ] || echo "before $tag $(peak "$BEFORE" eval "$trace" --format json)"
  done
} >"$dir/trace-peak.txt"

python3 - "$dir/trace.json" "$dir/trace-peak.txt" "$exact" "$varied" <<'PY'
import json, os, sys
results = json.load(open(sys.argv[1]))["results"]
peaks = dict(line.rsplit(" ", 1) for line in open(sys.argv[2]).read().splitlines())
sizes = {os.path.basename(p)[:-5]: os.path.getsize(p) for p in sys.argv[3:5]}
print(f"{'':40} {'median s':>9} {'MB/s':>7} {'peak MB':>8}")
for r in results:
    name = r["command"]
    size = sizes[name.split()[-1]]
    peak = peaks.get(name)
    peak_mb = f"{int(peak) / 1024:8.0f}" if peak else f"{'':>8}"
    print(f"{name:40} {r['median']:9.2f} {size / 1e6 / r['median']:7.0f} {peak_mb}")
PY
