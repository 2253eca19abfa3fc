#!/usr/bin/env python3
"""Write the inputs of the resource blow-up reports (plan, rank, did-you-mean) outside the repo.

usage: bench/gen_hostile.py OUTDIR [--seed S] [--plan-groups G] [--plan-per-letter N]
Files:
  plan_groups.json   1,664 phases (60 KB) in 4 groups of 52 letters x 8 phases; 12 overlapping glob
                     proposals a group: 11 disjoint ranges (`g3_[C-H]?`) and one over the whole
                     group (`g3_*`), so 2,048 ways to use each group; efforts with decimals:
                     `amdahl plan plan_groups.json --target 1.6 --by effort` (and --by count)
  proposals_30k.json 30,000 phases and 30,000 proposals, one per phase by exact name:
                     `amdahl rank proposals_30k.json`, `amdahl plan proposals_30k.json --target 2`
  long_names.json    five phases with 50,000-character names; long_names.selector holds a
                     misspelling of one: `amdahl eval long_names.json -s "$(cat long_names.selector)=2"`
  templated.json     5,000 templated kernel names of ~800 characters; templated.selector likewise
"""
import argparse, json, os, random, string

LETTERS = string.ascii_uppercase + string.ascii_lowercase  # 52 phases a group, in ASCII (glob range) order


def plan_groups(rng, groups=4, per_letter=8, proposals=12, correlated=False):
    phases, props = [], []

    def effort(time, factor, low, high):
        # Random, or (correlated) close to the time it saves plus a constant: a hard knapsack,
        # where no proposal is much better value than another and the bound prunes little.
        if correlated:
            return round((time - time / factor) / 10 * rng.uniform(0.98, 1.02) + 2, 2)
        return round(rng.uniform(low, high), 2)

    for g in range(groups):
        times = {}
        for c in LETTERS:
            for i in range(per_letter):
                t = round(rng.uniform(0.1, 10), 3)
                times[c] = times.get(c, 0) + t
                phases.append({"name": f"g{g}_{c}{i}", "time": t})
        # 11 disjoint intervals of the group's letters and one glob over the whole group that
        # overlaps them all: 2,048 ways to use the group.
        cuts = sorted(rng.sample(range(1, 52), proposals - 1))
        bounds = list(zip([0] + cuts, cuts + [52]))
        for i, (s, e) in enumerate(bounds[: proposals - 1]):
            glob = f"g{g}_[{LETTERS[s]}-{LETTERS[e - 1]}]?"
            factor = rng.choice([1.5, 2, 3, 4, 8])
            time = sum(times[c] for c in LETTERS[s:e])
            props.append({"name": f"g{g}p{i:02d}", "target": glob, "factor": factor,
                          "effort": effort(time, factor, 0.5, 10)})
        factor = rng.choice([1.2, 1.5, 2])
        props.append({"name": f"g{g}all", "target": f"g{g}_*", "factor": factor,
                      "effort": effort(sum(times.values()), factor, 5, 30)})
    return {"name": "12 overlapping glob proposals per group", "unit": "ms", "phases": phases, "proposals": props}


def proposals_30k(rng, n=30_000):
    phases = [{"name": f"phase_{i:06d}", "kind": "kernel", "time": round(rng.uniform(0.01, 10), 3)} for i in range(n)]
    props = [{"name": f"p{i:06d}", "target": f"phase_{i:06d}", "factor": rng.choice([2, 4, 10]),
              "effort": rng.randint(1, 9)} for i in range(n)]
    return {"name": "30,000 proposals", "unit": "ms", "phases": phases, "proposals": props}


def misspell(rng, name, edits=3):
    chars = list(name)
    for _ in range(edits):
        i = rng.randrange(len(chars))
        chars[i] = "x" if chars[i] != "x" else "y"
    return "".join(chars)


def long_names(rng, n=5, length=50_000):
    names = ["".join(rng.choice(string.ascii_lowercase) for _ in range(length)) for _ in range(n)]
    profile = {"unit": "ms", "phases": [{"name": x, "time": 1 + i} for i, x in enumerate(names)]}
    return profile, misspell(rng, names[2])


def templated(rng, n=5_000):
    types = ["float", "double", "cutlass::half_t", "cutlass::bfloat16_t", "int8_t"]
    layouts = ["cutlass::layout::RowMajor", "cutlass::layout::ColumnMajor"]
    names = set()
    while len(names) < n:
        args = ", ".join(
            f"cutlass::gemm::GemmShape<{rng.choice([64, 128, 256])}, {rng.choice([64, 128, 256])}, "
            f"{rng.choice([16, 32, 64])}>" for _ in range(4))
        name = (f"void cutlass::Kernel<cutlass::gemm::kernel::Gemm<cutlass::gemm::threadblock::MmaPipelined<{args}, "
                f"{rng.choice(types)}, {rng.choice(layouts)}, {rng.choice(types)}, {rng.choice(layouts)}, "
                f"cutlass::epilogue::threadblock::Epilogue<{rng.choice(types)}, {rng.randint(1, 8)}>, "
                f"cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<{rng.randint(1, 8)}>, false>>"
                f"(cutlass::gemm::kernel::Gemm<{rng.choice(types)}>::Params)")
        name += "_" * max(0, 800 - len(name))  # pad to ~800 characters
        names.add(name)
    names = sorted(names)
    profile = {"unit": "us", "phases": [{"name": x, "kind": "kernel", "time": 1} for x in names]}
    return profile, misspell(rng, names[n // 2])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?", default="/tmp/amdahl-bench")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--plan-groups", type=int, default=4)
    ap.add_argument("--plan-per-letter", type=int, default=8)
    ap.add_argument("--only", choices=("plan", "30k", "long", "templated"), action="append",
                    help="write only these files (repeatable; default all)")
    ap.add_argument("--plan-correlated", action="store_true",
                    help="efforts close to each proposal's saving (a hard knapsack) instead of random")
    a = ap.parse_args()
    repo = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    out = os.path.realpath(a.outdir)
    if out == repo or out.startswith(repo + os.sep):
        ap.error(f"refusing to write into the repo ({out})")
    os.makedirs(out, exist_ok=True)

    def write(name, data):
        path = os.path.join(out, name)
        with open(path, "w") as f:
            if isinstance(data, str):
                f.write(data)
            else:
                json.dump(data, f)
        print(path, os.path.getsize(path), "bytes")

    # One generator per file, so that each file stays the same whatever the options for the others.
    rng = lambda name: random.Random(f"{a.seed}:{name}")
    wanted = lambda name: not a.only or name in a.only
    if wanted("plan"):
        write("plan_groups.json", plan_groups(rng("plan"), a.plan_groups, a.plan_per_letter, correlated=a.plan_correlated))
    if wanted("30k"):
        write("proposals_30k.json", proposals_30k(rng("30k")))
    if wanted("long"):
        profile, selector = long_names(rng("long"))
        write("long_names.json", profile)
        write("long_names.selector", selector)
    if wanted("templated"):
        profile, selector = templated(rng("templated"))
        write("templated.json", profile)
        write("templated.selector", selector)


if __name__ == "__main__":
    main()
