#!/usr/bin/env python3
"""Writes a large Kineto-style Chrome trace by repeating the events of a real PyTorch profiler
trace (tests/data/profilers/pytorch-chrome-trace) with shifted timestamps, streaming to disk.
usage: gen_trace.py OUT.json [SIZE_MB]   (default 1100 MB)"""
import json, sys, pathlib

root = pathlib.Path(__file__).resolve().parent.parent
sample = root / "tests/data/profilers/pytorch-chrome-trace/hta_base.json"
out_path = sys.argv[1]
target = int(sys.argv[2]) * 1_000_000 if len(sys.argv) > 2 else 1_100_000_000

events = json.loads(sample.read_text())["traceEvents"]
timed = [e for e in events if "ts" in e]
start = min(e["ts"] for e in timed)
span = max(e["ts"] + e.get("dur", 0) for e in timed) - start + 1000
lines = []
for e in timed:
    e = dict(e)
    e["ts"] -= start
    lines.append(e)

written = 0
with open(out_path, "w") as out:
    out.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "synthetic"}], "traceEvents": [\n')
    first = True
    shift = 0
    while written < target:
        chunk = []
        for e in lines:
            e2 = dict(e)
            e2["ts"] = e["ts"] + shift + 1_700_000_000_000_000
            chunk.append(json.dumps(e2))
        text = (",\n" if not first else "") + ",\n".join(chunk)
        first = False
        out.write(text)
        written += len(text)
        shift += span
    out.write('\n], "traceName": "synthetic"}\n')
print(f"wrote {out_path}: {written / 1e6:.0f} MB")
