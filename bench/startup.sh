#!/usr/bin/env bash
# Startup cost: amdahl on a small profile vs /bin/true, in one hyperfine run.
# Target: amdahl's median is at most 1 ms above /bin/true's.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x build/amdahl ]] || { echo "build/amdahl not found: build first (see bench/README.md)" >&2; exit 1; }
out=${BENCH_DIR:-/tmp/amdahl-bench}; mkdir -p "$out"
echo "load average: $(cut -d" " -f1-3 /proc/loadavg) (figures are noisy when this is high)"

cmd='build/amdahl eval examples/transformer_step.json -s attention_softmax=10 --format json'
hyperfine -N --warmup 20 --runs "${RUNS:-300}" --export-json "$out/startup.json" \
  -n amdahl "$cmd" -n true /bin/true

python3 - "$out/startup.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
a, t = r["amdahl"]["median"] * 1e3, r["true"]["median"] * 1e3
d = a - t
print(f"median amdahl {a:.3f} ms, /bin/true {t:.3f} ms, difference {d:.3f} ms "
      f"(target <= 1 ms: {'OK' if d <= 1 else 'MISSED'})")
PY
