#!/usr/bin/env python3
"""The obvious Python alternative to `amdahl eval TRACE`: json.load the whole trace, then sum the
durations of device events per name in a dictionary (no overlap handling at all)."""
import json, sys
from collections import defaultdict

with open(sys.argv[1]) as f:
    trace = json.load(f)
events = trace["traceEvents"] if isinstance(trace, dict) else trace
sums = defaultdict(float)
for e in events:
    if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
        sums[e["name"]] += e.get("dur", 0)
total = sum(sums.values())
json.dump({"total": total, "phases": len(sums)}, sys.stdout)
print()
