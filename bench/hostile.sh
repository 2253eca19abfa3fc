#!/usr/bin/env bash
# The resource blow-ups a hostile tester reported, old binary against new, side by side:
#   plan     12 overlapping glob proposals per group (bench/gen_hostile.py plan_groups.json), and
#            25 such groups with efforts close to the savings (hard/plan_groups.json: the budget ends it)
#   rank     rank and plan with 30,000 proposals by exact name
#   suggest  "did you mean" against five 50,000-character names and 5,000 ~800-character ones
# usage: BEFORE=/tmp/amdahl-before/amdahl bash bench/hostile.sh [plan|rank|suggest ...]
# BEFORE defaults to /tmp/amdahl-before/amdahl (build main's binary there first); the new binary
# is a copy of build/amdahl. Prints hyperfine's comparison, then per command: peak RSS, the
# plan's "optimal:" line or the error line's length.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_DIR:-/tmp/amdahl-bench}
before=${BEFORE:-/tmp/amdahl-before/amdahl}
[[ -x build/amdahl ]] || { echo "build/amdahl not found: build first (see bench/README.md)" >&2; exit 1; }
[[ -x $before ]] || { echo "$before not found: build the old binary there, or set BEFORE" >&2; exit 1; }
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(plan rank suggest)

echo "load average: $(cut -d" " -f1-3 /proc/loadavg) (figures are noisy when this is high)"
mkdir -p "$out" && cp build/amdahl "$out/amdahl-after"
python3 bench/gen_hostile.py "$out" >/dev/null
# A hard one for the new planner too: 25 groups of 12, efforts close to the savings (67 KB).
python3 bench/gen_hostile.py "$out/hard" --seed 4 --plan-groups 25 --plan-per-letter 1 --plan-correlated --only plan >/dev/null

# compare NAME RUNS ARGS...: both binaries on the same arguments.
compare() {
  local name=$1 runs=$2
  shift 2
  local args=""
  for a in "$@"; do args+=" $(printf %q "$a")"; done
  echo
  echo "== $name:${args:0:160}$([[ ${#args} -gt 160 ]] && echo "... (${#args} characters)")"
  hyperfine -N -i --runs "$runs" --output=null --export-json "$out/$name.json" \
    -n before "$before$args" -n after "$out/amdahl-after$args" 2>&1 | grep -Ev '^ *$|Warning: Ignoring non-zero'
  for which in before after; do
    local bin=$before
    [[ $which == after ]] && bin=$out/amdahl-after
    /usr/bin/time -f %M -o "$out/$name.$which.rss" "$bin" "$@" >"$out/$name.$which.out" 2>"$out/$name.$which.err" || true
    local detail
    detail=$(grep -h "^optimal:" "$out/$name.$which.out" | sed 's/ \{2,\}/ /g' || true)
    [[ -s $out/$name.$which.err ]] && detail+="stderr: $(wc -c <"$out/$name.$which.err") bytes"
    printf '%-6s peak RSS %6d KB  %s\n' "$which" "$(tail -1 "$out/$name.$which.rss")" "$detail"
  done
}

for c in "${cases[@]}"; do
  case $c in
    plan)
      for by in count effort; do
        for target in 1.3 1.6; do
          compare "plan-$by-$target" "${RUNS:-3}" plan "$out/plan_groups.json" --target "$target" --by "$by"
        done
      done
      compare plan-hard "${RUNS:-3}" plan "$out/hard/plan_groups.json" --target 1.9 --by effort
      ;;
    rank)
      compare rank-30k "${RUNS:-3}" rank "$out/proposals_30k.json"
      compare plan-30k "${RUNS:-3}" plan "$out/proposals_30k.json" --target 2
      ;;
    suggest)
      compare suggest-50k "${SLOW_RUNS:-1}" eval "$out/long_names.json" -s "$(cat "$out/long_names.selector")=2"
      compare suggest-templated "${SLOW_RUNS:-1}" eval "$out/templated.json" -s "$(cat "$out/templated.selector")=2"
      ;;
    *) echo "unknown case '$c' (plan, rank or suggest)" >&2; exit 2 ;;
  esac
done
