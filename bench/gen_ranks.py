#!/usr/bin/env python3
"""Writes RANKS rank profiles of PHASES phases each (JSON, 10 phases a barrier segment) into DIR,
for bench/ranks.sh: gen_ranks.py DIR [RANKS] [PHASES]. Times vary by rank, so the critical rank
differs from segment to segment."""
import json, pathlib, random, sys

out = pathlib.Path(sys.argv[1])
ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
phases = int(sys.argv[3]) if len(sys.argv) > 3 else 200
out.mkdir(parents=True, exist_ok=True)
rng = random.Random(16)
base = [rng.uniform(0.05, 5.0) for _ in range(phases)]
for r in range(ranks):
    profile = {
        "name": f"rank{r}",
        "unit": "ms",
        "phases": [
            {"name": f"kernel_{p}", "segment": f"segment_{p // 10}", "time": round(base[p] * rng.uniform(0.9, 1.1), 6)}
            for p in range(phases)
        ],
    }
    (out / f"rank{r}.json").write_text(json.dumps(profile))
