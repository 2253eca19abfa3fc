#!/usr/bin/env bash
# Small Chrome traces that are hard for the trace importer (bench/gen_blowups.py): thousands of
# streams running at once, deep nesting on one thread, B/E pairs closed out of order. For each
# case, `amdahl import` under /usr/bin/time (wall time, peak RSS, size of the profile written),
# for build/amdahl and, when given, an older binary; then one hyperfine run per case, both binaries
# side by side.
#   bench/trace_blowups.sh [OLD_BINARY]
# CASES="staggered:4000 nested:80000" picks cases; TIMEOUT (s, default 300) stops a run that blows up.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/amdahl ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
dir=${BENCH_DIR:-/tmp/amdahl-bench}
mkdir -p "$dir"
cases=${CASES:-"staggered:4000 staggered:12000 staggered-late:12000 nested:80000 be-crossed:40000 be-same-ts:40000"}
limit=${TIMEOUT:-300}
# Snapshots, so that a rebuild during the run cannot mix binaries, in a directory of this run's
# own: other scripts keep theirs in $dir too, and cp would write through their hard links.
snap=$(mktemp -d "$dir/trace_blowups.XXXXXX")
trap 'rm -rf "$snap"' EXIT
cp build/amdahl "$snap/amdahl-new"
binaries=(new)
if [ $# -ge 1 ]; then
  cp "$1" "$snap/amdahl-old"
  binaries=(old new)
fi
echo "load average: $(cut -d" " -f1-3 /proc/loadavg) (figures are noisy when this is high)"

# One run: prints "seconds peak_MB output_KB", or "timeout" / "failed".
measure() {  # binary, trace
  local out=$snap/out.json stats=$snap/time.txt
  rm -f "$out"
  if timeout "$limit" /usr/bin/time -f "%e %M" -o "$stats" "$snap/amdahl-$1" import "$2" -o "$out" 2>/dev/null; then
    read -r seconds kb <"$stats"
    echo "$seconds $((kb / 1024)) $(($(stat -c %s "$out") / 1024))"
  elif [ $? -eq 124 ]; then
    echo "timeout(${limit}s) - -"
  else
    echo "failed - -"
  fi
}

printf "%-18s %9s" case "trace KB"
for b in "${binaries[@]}"; do printf " | %-4s %8s %8s %10s" "$b" "s" "peak MB" "output KB"; done
echo
for c in $cases; do
  name=${c%%:*} n=${c##*:}
  trace=$dir/blowup_${name}_$n.json
  [ -f "$trace" ] || python3 bench/gen_blowups.py "$name" "$n" "$trace"
  printf "%-18s %9d" "$name $n" $(($(stat -c %s "$trace") / 1024))
  for b in "${binaries[@]}"; do
    read -r seconds mb kb <<<"$(measure "$b" "$trace")"
    printf " | %-4s %8s %8s %10s" "$b" "$seconds" "$mb" "$kb"
  done
  echo
done

if [ ${#binaries[@]} -eq 2 ] && command -v hyperfine >/dev/null; then
  for c in $cases; do
    name=${c%%:*} n=${c##*:}
    trace=$dir/blowup_${name}_$n.json
    hyperfine -N --style basic --runs "${RUNS:-3}" --export-json "$dir/blowup_hyperfine_${name}_$n.json" \
      -n "old $name $n" "$snap/amdahl-old import $trace -o $snap/out_old.json" \
      -n "new $name $n" "$snap/amdahl-new import $trace -o $snap/out_new.json"
  done
fi
