#!/usr/bin/env bash
# gzip input: which inflater, and what reading a .json.gz costs end to end.
#   1. The candidates alone (build/inflate_bench: zlib and isa-l's igzip streaming, libdeflate on
#      the whole file in memory) and zcat, on a gzipped >= 1 GB Kineto-style trace.
#   2. amdahl on the .json.gz, side by side with `zcat FILE | amdahl eval -` and with amdahl on the
#      plain file, in one hyperfine run, then each once under /usr/bin/time for peak memory.
# Two traces: gen_trace.py's (the real sample's events repeated exactly: gzip -6 gets 34x, the
# best case for any inflater) and gen_trace_varied.py's (jittered times, numbered ids: 17x, nearer
# a real capture). MB/s are of uncompressed JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/amdahl ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
[ -x build/inflate_bench ] || { echo "build/inflate_bench needs zlib1g-dev and libdeflate-dev (apt-get install zlib1g-dev libdeflate-dev), then a rebuild" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
dir=${BENCH_DIR:-/tmp/amdahl-bench}
size_mb=${SIZE_MB:-1100}
runs=${RUNS:-5}
mkdir -p "$dir"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# Copies, so that a concurrent rebuild cannot change what is measured.
cp build/amdahl "$dir/amdahl-gzip"
cp build/inflate_bench "$dir/inflate_bench"
amdahl=$dir/amdahl-gzip

peak() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }
peak_shell() { /usr/bin/time -f "%M" bash -c "$1" 2>&1 >/dev/null | tail -1; }

for kind in exact varied; do
  if [ "$kind" = exact ]; then
    trace=$dir/kineto_${size_mb}mb.json
    [ -f "$trace" ] || python3 bench/gen_trace.py "$trace" "$size_mb"
  else
    trace=$dir/kineto_varied_${size_mb}mb.json
    [ -f "$trace" ] || python3 bench/gen_trace_varied.py "$trace" "$size_mb"
  fi
  [ -f "$trace.gz" ] || gzip -n -6 -k "$trace"
  bytes=$(stat -c %s "$trace")
  echo
  echo "== $kind: $trace ($((bytes / 1000000)) MB, $(($(stat -c %s "$trace.gz") / 1000000)) MB gzipped)"

  hyperfine --warmup 1 --runs "$runs" --export-json "$dir/gzip-inflaters-$kind.json" \
    -n zlib "$dir/inflate_bench zlib $trace.gz" \
    -n isa-l "$dir/inflate_bench isal $trace.gz" \
    -n libdeflate "$dir/inflate_bench libdeflate $trace.gz" \
    -n zcat "zcat $trace.gz" >/dev/null
  hyperfine --warmup 1 --runs "$runs" --export-json "$dir/gzip-amdahl-$kind.json" \
    -n "amdahl FILE.gz" "$amdahl eval $trace.gz --format json" \
    -n "zcat FILE.gz | amdahl -" "zcat $trace.gz | $amdahl eval - --format json" \
    -n "amdahl FILE (plain)" "$amdahl eval $trace --format json" >/dev/null

  declare -A kb=(
    [zlib]=$(peak "$dir/inflate_bench" zlib "$trace.gz")
    [isa-l]=$(peak "$dir/inflate_bench" isal "$trace.gz")
    [libdeflate]=$(peak "$dir/inflate_bench" libdeflate "$trace.gz")
    [zcat]=$(peak zcat "$trace.gz")
    ["amdahl FILE.gz"]=$(peak "$amdahl" eval "$trace.gz" --format json)
    ["zcat FILE.gz | amdahl -"]=$(peak_shell "zcat $trace.gz | $amdahl eval - --format json")
    ["amdahl FILE (plain)"]=$(peak "$amdahl" eval "$trace" --format json)
  )
  args=()
  for name in "${!kb[@]}"; do args+=("$name=${kb[$name]}"); done
  python3 - "$bytes" "$dir/gzip-inflaters-$kind.json" "$dir/gzip-amdahl-$kind.json" "${args[@]}" <<'PY'
import json, sys
size = int(sys.argv[1])
peaks = dict(a.split("=", 1) for a in sys.argv[4:])
# On a shared machine the wall time depends on the load; the CPU time (user + system, hyperfine's
# means) much less: both are printed, each with its MB/s.
print(f"{'':26} {'median s':>9} {'MB/s':>7} {'CPU s':>7} {'MB/CPU s':>9} {'peak MB':>8}")
for path in sys.argv[2:4]:
    for r in json.load(open(path))["results"]:
        name, median, cpu = r["command"], r["median"], r["user"] + r["system"]
        print(f"{name:26} {median:9.2f} {size / 1e6 / median:7.0f} {cpu:7.2f} {size / 1e6 / cpu:9.0f}"
              f" {int(peaks[name]) / 1024:8.0f}")
PY
done
