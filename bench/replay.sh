#!/usr/bin/env bash
# Replay's speed and memory on a simulated trace of about a million events (bench/sim_trace.py),
# side by side in one hyperfine run: eval with the Amdahl model (read + sweep) and with
# --model replay (the same, plus the correlation ids, the graph and the replay). The difference
# of the medians is what replay costs. Then each once under /usr/bin/time for peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/amdahl ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
dir=${BENCH_DIR:-/tmp/amdahl-bench}
steps=${STEPS:-36000}
mkdir -p "$dir"
amdahl=$dir/amdahl-replay-under-test  # a copy: a rebuild during the run cannot change it
cp build/amdahl "$amdahl"
trace=$dir/sim_${steps}_steps.json
[ -f "$trace" ] || python3 bench/sim_trace.py "$trace" --steps "$steps"
events=$(grep -c '"ph": "X"' "$trace")
echo "trace: $trace, $events events, $(($(stat -c %s "$trace") / 1000000)) MB"
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$dir/replay.json" \
  -n amdahl "$amdahl eval $trace -s gemm=2 --format json" \
  -n replay "$amdahl eval $trace -s gemm=2 --model replay --format json" >/dev/null
peak() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }
amdahl_peak=$(peak "$amdahl" eval "$trace" -s gemm=2 --format json)
replay_peak=$(peak "$amdahl" eval "$trace" -s gemm=2 --model replay --format json)
python3 - "$dir/replay.json" "$events" "$amdahl_peak" "$replay_peak" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
events = int(sys.argv[2])
peaks = {"amdahl": int(sys.argv[3]) / 1024, "replay": int(sys.argv[4]) / 1024}
print(f"{'':8} {'median s':>9} {'peak MB':>8}")
for name in ("amdahl", "replay"):
    print(f"{name:8} {results[name]['median']:9.3f} {peaks[name]:8.0f}")
extra = results["replay"]["median"] - results["amdahl"]["median"]
print(f"replay's own cost: {extra:.3f} s for {events} events ({extra / events * 1e9:.0f} ns per event), "
      f"{peaks['replay'] - peaks['amdahl']:.0f} MB more")
PY
