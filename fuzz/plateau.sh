#!/usr/bin/env bash
# Runs fuzz targets one after another, each on the corpus it grew before, until its edge coverage
# (libFuzzer's "cov:") plateaus: a target stops once cov has not grown for FLAT seconds (default
# 600, counted from the end of the corpus load), or after CAP seconds in all (default 1500).
# Logs in build-fuzz/plateau-TARGET.log, each ending in a "plateau:" line that says which it was.
# Then: fuzz/summarize.py build-fuzz/plateau-*.log
#
# usage: fuzz/plateau.sh [--flat SECONDS] [--cap SECONDS] [TARGET...]   (default: every target)
# Run it under nice on a shared machine; each target uses one core.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${AMDAHL_FUZZ_BUILD:-build-fuzz}
flat=600 cap=1500
while [ $# -gt 0 ]; do
  case $1 in
    --flat) flat=$2; shift 2 ;;
    --cap) cap=$2; shift 2 ;;
    *) break ;;
  esac
done
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_json fuzz_csv fuzz_markdown fuzz_text fuzz_chrome_trace fuzz_nsys
  fuzz_rocprof fuzz_folded fuzz_speedup fuzz_cli fuzz_gzip fuzz_harness)

# The last cov: libFuzzer printed (INITED, NEW, REDUCE, pulse, DONE lines), or nothing yet.
last_cov() { grep -aoE '^#[0-9]+[[:space:]]+[A-Z]*[a-z]*[[:space:]]+cov: [0-9]+' "$1" | tail -n 1 | awk '{print $NF}'; }

for t in "${targets[@]}"; do
  log="$build/plateau-$t.log"
  started=$(date +%s)
  fuzz/run.sh "$t" "$cap" >"$log" 2>&1 &
  pid=$!  # run.sh execs the fuzzer: this is its pid
  inited="" grew="" best=-1 stopped=""
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    cov=$(last_cov "$log")
    [ -n "$cov" ] || continue  # still loading the corpus
    now=$(date +%s)
    [ -n "$inited" ] || inited=$now
    if [ "$cov" -gt "$best" ]; then best=$cov grew=$now; fi
    if [ $((now - grew)) -ge "$flat" ] && [ -z "$stopped" ]; then
      stopped=$now
      kill -INT "$pid"  # libFuzzer prints its final stats and exits
    fi
  done
  wait "$pid"
  code=$?
  end=$(date +%s)
  if [ -z "$inited" ]; then
    echo "plateau: $t exit $code before the corpus was loaded" >>"$log"
  elif [ -n "$stopped" ]; then
    echo "plateau: $t cov $best flat for $((end - grew)) s (flat since $((grew - started)) s), stopped at $((end - started)) s (limit $flat s flat)" >>"$log"
  else
    echo "plateau: $t cov $best flat for $((end - grew)) s (flat since $((grew - started)) s), ended at $((end - started)) s without a plateau (exit $code, cap $cap s)" >>"$log"
  fi
  echo "$t: exit $code, $(tail -n 1 "$log")"
done
