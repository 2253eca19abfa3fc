#!/usr/bin/env bash
# Large profiles: amdahl vs a plain-Python baseline on a 1M-phase CSV and JSON.
# Prints hyperfine's comparison, then median time and peak RSS per command.
# Targets: amdahl CSV < 0.4 s and < 200 MB; amdahl JSON < 1 s.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x build/amdahl ]] || { echo "build/amdahl not found: build first (see bench/README.md)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 1; }
out=${BENCH_DIR:-/tmp/amdahl-bench}; n=${PHASES:-1000000}; spec=phase_000001=10

echo "load average: $(cut -d" " -f1-3 /proc/loadavg) (figures are noisy when this is high)"
# Snapshot the binary: a concurrent rebuild of build/ must not break or mix a minutes-long run.
mkdir -p "$out" && cp build/amdahl "$out/amdahl" && "$out/amdahl" --version >/dev/null
python3 bench/gen_profile.py "$out" -n "$n" >/dev/null
csv=$out/profile_$n.csv json=$out/profile_$n.json
ls -l "$csv" "$json"

declare -A cmds=(
  [amdahl-csv]="$out/amdahl eval $csv -s $spec --format json"
  [amdahl-json]="$out/amdahl eval $json -s $spec --format json"
  [python-csv]="python3 bench/baseline.py $csv $spec"
  [python-json]="python3 bench/baseline.py $json $spec"
)
names=(amdahl-csv amdahl-json python-csv python-json)

args=()
for k in "${names[@]}"; do args+=(-n "$k" "${cmds[$k]}"); done
hyperfine -N --warmup 1 --runs "${RUNS:-10}" --output=null --export-json "$out/large.json" "${args[@]}"

for k in "${names[@]}"; do    # peak RSS in KiB, one run each
  /usr/bin/time -f %M -o "$out/$k.rss" ${cmds[$k]} >/dev/null
done

python3 - "$out" "${names[@]}" <<'PY'
import json, sys
out, names = sys.argv[1], sys.argv[2:]
res = {r["command"]: r for r in json.load(open(f"{out}/large.json"))["results"]}
med = {k: r["median"] for k, r in res.items()}
cpu = {k: r["user"] + r["system"] for k, r in res.items()}  # mean CPU s: steadier than wall on a busy box
rss = {k: int(open(f"{out}/{k}.rss").read().split()[-1]) / 1024 for k in names}
print(f"\n{'command':<12} {'median s':>9} {'CPU s':>7} {'peak RSS MB':>12}")
for k in names:
    print(f"{k:<12} {med[k]:>9.3f} {cpu[k]:>7.3f} {rss[k]:>12.1f}")
for f in ("csv", "json"):
    a, p = f"amdahl-{f}", f"python-{f}"
    print(f"{f}: amdahl is {med[p]/med[a]:.1f}x faster (wall; {cpu[p]/cpu[a]:.1f}x in CPU time) "
          f"and {rss[p]/rss[a]:.1f}x smaller than Python")
ok = lambda c: "OK" if c else "MISSED"
print(f"targets: CSV < 0.4 s {ok(med['amdahl-csv'] < 0.4)}, CSV < 200 MB {ok(rss['amdahl-csv'] < 200)}, "
      f"JSON < 1 s {ok(med['amdahl-json'] < 1.0)}")
PY
