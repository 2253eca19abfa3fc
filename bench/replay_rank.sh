#!/usr/bin/env bash
# rank --model replay on a simulated trace of about a million events (bench/sim_trace.py), this
# build and an older one (BEFORE=path, required) side by side in one hyperfine run: every target of
# every lane (14 with events: 13 names and the blocking copy), each replayed at 2x and at infinity,
# and with --grid 2,4,8,inf four times more (84 replays). Also eval --model replay (one replay),
# the cost every rank pays first. Then each once under /usr/bin/time for peak memory, and the
# ratios of the medians (before / now). Only side-by-side figures count: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/amdahl ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
[ -n "${BEFORE:-}" ] || { echo "give the older binary: BEFORE=path/to/amdahl bash $0" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
dir=${BENCH_DIR:-/tmp/amdahl-bench}
steps=${STEPS:-36000}
mkdir -p "$dir"
now=$dir/amdahl-rank-under-test  # copies: a rebuild during the run cannot change them
before=$dir/amdahl-rank-before
cp build/amdahl "$now"
cp "$BEFORE" "$before"
trace=$dir/sim_${steps}_steps.json
[ -f "$trace" ] || python3 bench/sim_trace.py "$trace" --steps "$steps"
events=$(grep -c '"ph": "X"' "$trace")
echo "trace: $trace, $events events, $(($(stat -L -c %s "$trace") / 1000000)) MB"

declare -A args=(
  [eval]="eval $trace -s gemm=2 --model replay --format json"
  [rank]="rank $trace --model replay --lane all -k 2 --format json"
  [rank-grid]="rank $trace --model replay --lane all -k 2 --grid 2,4,8,inf --format json"
)
cases=(eval rank rank-grid)
commands=()
for c in "${cases[@]}"; do
  commands+=(-n "before $c" "$before ${args[$c]}" -n "now $c" "$now ${args[$c]}")
done
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$dir/replay_rank.json" "${commands[@]}" >/dev/null

# The same answer, byte for byte, from both.
for c in rank-grid; do
  "$before" ${args[$c]} >"$dir/replay_rank_before.out" 2>/dev/null
  "$now" ${args[$c]} >"$dir/replay_rank_now.out" 2>/dev/null
  cmp -s "$dir/replay_rank_before.out" "$dir/replay_rank_now.out" && echo "$c: same output" ||
    echo "$c: THE OUTPUTS DIFFER ($dir/replay_rank_before.out, $dir/replay_rank_now.out)"
done

peak() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }
{
  for c in "${cases[@]}"; do
    # shellcheck disable=SC2086
    echo "before $c $(peak "$before" ${args[$c]})"
    # shellcheck disable=SC2086
    echo "now $c $(peak "$now" ${args[$c]})"
  done
} >"$dir/replay_rank_peak.txt"

python3 - "$dir/replay_rank.json" "$dir/replay_rank_peak.txt" "${cases[@]}" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
peaks = dict(line.rsplit(" ", 1) for line in open(sys.argv[2]).read().splitlines())
print(f"{'':10} {'before s':>9} {'now s':>9} {'ratio':>6} {'before MB':>10} {'now MB':>7}")
for case in sys.argv[3:]:
    b, n = results[f"before {case}"]["median"], results[f"now {case}"]["median"]
    pb, pn = int(peaks[f"before {case}"]) / 1024, int(peaks[f"now {case}"]) / 1024
    print(f"{case:10} {b:9.3f} {n:9.3f} {b / n:5.2f}x {pb:10.0f} {pn:7.0f}")
g = {w: results[f"{w} rank-grid"]["median"] - results[f"{w} rank"]["median"] for w in ("before", "now")}
print(f"56 more replays (--grid 2,4,8,inf): before {g['before']:.3f} s ({g['before'] / 56 * 1e3:.1f} ms each), "
      f"now {g['now']:.3f} s ({g['now'] / 56 * 1e3:.1f} ms each)")
PY
