#!/usr/bin/env python3
"""Like gen_trace.py (the real PyTorch sample's events repeated with shifted timestamps), but with
the variety of a real capture, so that it compresses as real traces do (gzip -6: about 10x, where
gen_trace.py's exact repeats give 34x and flatter the inflater): each repeat jitters every
duration and start by up to 10% (seeded) and numbers its ids (External id, correlation, Profiler
Event Index) onwards. usage: gen_trace_varied.py OUT.json [SIZE_MB] [--seed S]   (default 1100 MB)"""
import json, pathlib, random, sys

args = [a for a in sys.argv[1:] if not a.startswith("--seed")]
seed = next((int(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--seed=")), 1)
root = pathlib.Path(__file__).resolve().parent.parent
if pathlib.Path(args[0]).resolve().is_relative_to(root):
    sys.exit("gen_trace_varied.py: write outside the repository (e.g. /tmp/amdahl-bench)")
sample = root / "tests/data/profilers/pytorch-chrome-trace/hta_base.json"
target = int(args[1]) * 1_000_000 if len(args) > 1 else 1_100_000_000
rng = random.Random(seed)

events = [e for e in json.loads(sample.read_text())["traceEvents"] if "ts" in e]
start = min(e["ts"] for e in events)
span = max(e["ts"] + e.get("dur", 0) for e in events) - start + 1000
id_keys = ("External id", "correlation", "Profiler Event Index", "Ev Idx")
id_step = 1 + max((e.get("args", {}).get(k, 0) for e in events for k in id_keys
                   if isinstance(e.get("args", {}).get(k, 0), int)), default=0)

written = 0
with open(args[0], "w") as out:
    out.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "synthetic"}], "traceEvents": [\n')
    repeat = 0
    while written < target:
        chunk = []
        for e in events:
            e2 = dict(e)
            offset = e["ts"] - start
            e2["ts"] = 1_700_000_000_000_000 + repeat * span + offset + rng.randint(0, max(1, offset // 10))
            if "dur" in e:
                e2["dur"] = max(0, e["dur"] + rng.randint(-e["dur"] // 10, e["dur"] // 10))
            if "args" in e:
                a = dict(e["args"])
                for k in id_keys:
                    if isinstance(a.get(k), int):
                        a[k] += repeat * id_step
                e2["args"] = a
            chunk.append(json.dumps(e2))
        text = (",\n" if repeat else "") + ",\n".join(chunk)
        out.write(text)
        written += len(text)
        repeat += 1
    out.write('\n], "traceName": "synthetic"}\n')
print(f"wrote {args[0]}: {written / 1e6:.0f} MB")
