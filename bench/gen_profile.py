#!/usr/bin/env python3
"""Write a large deterministic amdahl profile (CSV and/or JSON) outside the repo.

usage: bench/gen_profile.py [OUTDIR] [-n PHASES] [--format csv|json|both] [--seed S]
Files: OUTDIR/profile_<N>.csv (header name,kind,time_ms) and OUTDIR/profile_<N>.json.
"""
import argparse, json, os, random

KINDS = ("kernel", "copy", "sync", "overhead", "io")

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?", default="/tmp/amdahl-bench")
    ap.add_argument("-n", "--phases", type=int, default=1_000_000)
    ap.add_argument("--format", choices=("csv", "json", "both"), default="both")
    ap.add_argument("--seed", type=int, default=42)
    a = ap.parse_args()
    repo = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    out = os.path.realpath(a.outdir)
    if out == repo or out.startswith(repo + os.sep):
        ap.error(f"refusing to write into the repo ({out})")
    os.makedirs(out, exist_ok=True)

    rng = random.Random(a.seed)
    rows = [(f"phase_{i:06d}", rng.choice(KINDS), f"{rng.uniform(0.001, 100):.3f}") for i in range(a.phases)]
    base = os.path.join(out, f"profile_{a.phases}")
    if a.format in ("csv", "both"):
        with open(base + ".csv", "w") as f:
            f.write("name,kind,time_ms\n")
            f.writelines(f"{n},{k},{t}\n" for n, k, t in rows)
        print(base + ".csv")
    if a.format in ("json", "both"):
        with open(base + ".json", "w") as f:
            f.write('{"name": "synthetic %d-phase profile", "unit": "ms", "phases": [\n' % a.phases)
            f.write(",\n".join(f'{{"name": "{n}", "time": {t}, "kind": "{k}"}}' for n, k, t in rows))
            f.write("\n]}\n")
        print(base + ".json")

if __name__ == "__main__":
    main()
