#!/usr/bin/env bash
# Long runs of every fuzz target, one after another (SECONDS each, default 300), each on the corpus
# it grew before; logs in build-fuzz/plateau-TARGET.log. Then: fuzz/summarize.py build-fuzz/plateau-*.log
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
targets=(fuzz_json fuzz_csv fuzz_markdown fuzz_text fuzz_chrome_trace fuzz_nsys fuzz_rocprof fuzz_folded fuzz_speedup fuzz_cli)
for t in "${targets[@]}"; do
  fuzz/run.sh "$t" "$seconds" >"build-fuzz/plateau-$t.log" 2>&1
  echo "$t: exit $?"
done
