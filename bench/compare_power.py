#!/usr/bin/env python3
"""How often `amdahl compare --fail-if-slower 2%` fails: falsely (no change, A/A) and rightly (a
+4.2% regression), by simulation, with the real binary on real files (one profile per run, a quoted
glob per side, as docs/ci.md's workflow does).

    python3 bench/compare_power.py [--amdahl build/amdahl] [--trials 200] [--runs 5,9,15,20,30]
                                   [--models independent,alternating] [--modes unpaired,paired]

(--modes unpaired runs an older amdahl, one without --paired, for comparison.)

Two noise models, both multiplicative on a five-phase step of 100 ms:
- independent (the issue's): every run has its own factor, N(1, 2%), shared by its phases, and every
  phase its own jitter, N(1, 1%). Nothing pairs the runs.
- alternating: runs alternate before, after, before, after on a machine whose state drifts, so the
  two runs of a pair share a factor N(1, 2%); each run adds N(1, 0.5%) and each phase N(1, 1%).
  This is what --paired is for.
For each model, run count and gate mode (unpaired, --paired) it prints the share of A/A trials that
failed the gate (false failures) and of +4.2% trials that failed it (detections), and the mean
minimum detectable change amdahl reported. Seeded: the same figures on every run.
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

PHASES = [("embed", 8.0), ("gemm", 46.1), ("attention", 28.0), ("layernorm", 6.4), ("optimizer", 11.5)]
REGRESSION = 1.042
GATE = "2%"


def write_run(path, factor, phase_jitter, rng, scale):
    phases = {name: round(ms * scale * factor * rng.gauss(1, phase_jitter), 6) for name, ms in PHASES}
    with open(path, "w") as f:
        json.dump({"unit": "ms", "phases": phases}, f)


def trial(amdahl, workdir, rng, n, model, scale, paired):
    for side in ("before", "after"):
        for old in glob.glob(os.path.join(workdir, side, "*.json")):
            os.remove(old)
    for i in range(n):
        if model == "independent":
            b_factor, a_factor = rng.gauss(1, 0.02), rng.gauss(1, 0.02)
        else:
            machine = rng.gauss(1, 0.02)
            b_factor, a_factor = machine * rng.gauss(1, 0.005), machine * rng.gauss(1, 0.005)
        write_run(os.path.join(workdir, "before", f"run{i:03}.json"), b_factor, 0.01, rng, 1.0)
        write_run(os.path.join(workdir, "after", f"run{i:03}.json"), a_factor, 0.01, rng, scale)
    args = [amdahl, "compare", os.path.join(workdir, "before", "*.json"), os.path.join(workdir, "after", "*.json"),
            "--fail-if-slower", GATE, "--format", "json"]
    if paired:
        args.append("--paired")
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"amdahl failed ({result.returncode}): {result.stderr}")
    report = json.loads(result.stdout)
    return result.returncode == 1, report.get("min_detectable_change")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--amdahl", default="build/amdahl")
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--runs", default="5,9,15,20,30")
    parser.add_argument("--models", default="independent,alternating")
    parser.add_argument("--modes", default="unpaired,paired")
    args = parser.parse_args()
    runs = [int(n) for n in args.runs.split(",")]
    rng = random.Random(20261201)
    print(f"--fail-if-slower {GATE}; a regression of +{(REGRESSION - 1) * 100:.1f}%; {args.trials} trials each")
    print()
    print("| noise model | runs a side | mode | false failures (A/A) | detects +4.2% | detectable change |")
    print("| --- | ---: | --- | ---: | ---: | ---: |")
    rates = {}  # (model, n, paired) -> (false failure rate, detection rate)
    with tempfile.TemporaryDirectory() as workdir:
        for side in ("before", "after"):
            os.mkdir(os.path.join(workdir, side))
        for model in args.models.split(","):
            for n in runs:
                for paired in [mode == "paired" for mode in args.modes.split(",")]:
                    false_failures = detections = 0
                    detectable = []
                    for _ in range(args.trials):
                        failed, mdc = trial(args.amdahl, workdir, rng, n, model, 1.0, paired)
                        false_failures += failed
                        failed, mdc = trial(args.amdahl, workdir, rng, n, model, REGRESSION, paired)
                        detections += failed
                        if mdc is not None:
                            detectable.append(mdc)
                    rates[(model, n, paired)] = (false_failures / args.trials, detections / args.trials)
                    mode = "--paired" if paired else "unpaired"
                    mean_mdc = sum(detectable) / len(detectable) * 100 if detectable else float("nan")
                    print(f"| {model} | {n} | {mode} | {false_failures / args.trials * 100:.1f}% "
                          f"| {detections / args.trials * 100:.1f}% | {mean_mdc:.1f}% |", flush=True)

    # The targets of issue 15, on the independent model, unpaired.
    print()
    worst_false = max((rate[0] for rate in rates.values()), default=0)
    for n, wanted in ((9, 0.45), (20, 0.85)):
        if ("independent", n, False) in rates:
            got = rates[("independent", n, False)][1]
            print(f"target: detects +4.2% at {n} runs a side >= {wanted * 100:.0f}%: {got * 100:.1f}% "
                  f"{'met' if got >= wanted else 'NOT MET'}")
    print(f"target: false failures <= 1%: at most {worst_false * 100:.1f}% {'met' if worst_false <= 0.01 else 'NOT MET'}")


if __name__ == "__main__":
    main()
