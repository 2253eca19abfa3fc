#!/usr/bin/env bash
# Runs one fuzz target from build-fuzz/ for SECONDS on its seeds and its growing corpus, with
# the dictionary that suits it. Usage: fuzz/run.sh TARGET SECONDS [libFuzzer options...]
# Crashes land in build-fuzz/findings/TARGET/; the corpus in build-fuzz/corpus/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1 seconds=$2; shift 2
# Absolute: fuzz_cli runs each command line in a directory of its own, so a crash or a timeout
# inside one would write a relative artifact path there, not into findings/.
build=$(realpath -m -- "${AMDAHL_FUZZ_BUILD:-build-fuzz}")
# Tables are mutated at most 4 KiB long: a table's rules (header, units, columns, rows, ranks)
# all show within a few rows, and at the seeds' 32 KiB a table target ran half as many inputs a
# second and found fewer edges in the same time (fuzz/RESULTS.md, 2026-12-03).
max_len=()
case $target in
  fuzz_json | fuzz_harness) dict=json ;;
  fuzz_chrome_trace) dict=trace ;;
  fuzz_csv | fuzz_markdown | fuzz_text | fuzz_nsys | fuzz_rocprof) dict=table max_len=(-max_len=4096) ;;
  fuzz_folded) dict=folded max_len=(-max_len=4096) ;;
  fuzz_speedup) dict=speedup ;;
  fuzz_cli) dict=cli ;;
  fuzz_gzip) dict=gzip ;;
  *) echo "unknown fuzz target '$target'" >&2; exit 2 ;;
esac
[ -d "$build/seeds/$target" ] || fuzz/seed.sh "$build/seeds" >/dev/null
mkdir -p "$build/corpus/$target" "$build/findings/$target"
# A corpus grown on another machine (fuzz/save-corpus.sh) is where a new one starts.
if [ -f "fuzz/corpus/$target.tar.xz" ] && [ -z "$(ls -A "$build/corpus/$target")" ]; then
  xz -dc "fuzz/corpus/$target.tar.xz" | tar -C "$build/corpus/$target" -xf -
fi
# The first directory receives new inputs; the seeds stay as they are.
exec "$build/fuzz/$target" "$build/corpus/$target" "$build/seeds/$target" \
  -dict="fuzz/dict/$dict.dict" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
  -artifact_prefix="$build/findings/$target/" -print_final_stats=1 "${max_len[@]}" "$@"
