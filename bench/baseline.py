#!/usr/bin/env python3
"""Plain-Python baseline for `amdahl eval FILE -s NAME=FACTOR --format json`.

usage: bench/baseline.py FILE NAME=FACTOR   (FILE: .csv with name,kind,time_ms, or .json)
Computes baseline total, new time, speedup and per-phase rows; writes JSON to stdout.
"""
import csv, json, sys

def load(path):
    if path.endswith(".json"):
        with open(path) as f:
            return [(p["name"], p.get("kind", ""), float(p["time"])) for p in json.load(f)["phases"]]
    with open(path, newline="") as f:
        return [(r["name"], r["kind"], float(r["time_ms"])) for r in csv.DictReader(f)]

def main():
    path, spec = sys.argv[1], sys.argv[2]
    target, factor = spec.rsplit("=", 1)
    factor = float(factor)
    phases = load(path)
    total = new_total = 0.0
    rows = []
    for name, kind, t in phases:
        fac = factor if name == target else 1.0
        nt = t / fac
        total += t
        new_total += nt
        rows.append({"name": name, "kind": kind, "time": t, "factor": fac, "new_time": nt, "saved": t - nt})
    for r in rows:
        r["share"] = r["time"] / total
    result = {"command": "eval", "source": path, "baseline_time": total, "new_time": new_total,
              "speedup": total / new_total, "time_saved": total - new_total, "phases": rows}
    # json.dumps without indent uses the C encoder (json.dump / indent= fall back to pure Python).
    sys.stdout.write(json.dumps(result) + "\n")

if __name__ == "__main__":
    main()
