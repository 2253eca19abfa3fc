#!/usr/bin/env python3
"""Writes Chrome traces that are small but hard for a trace sweep (bench/trace_blowups.sh).
usage: gen_blowups.py CASE N OUT.json
  staggered     N kernels on N streams, kernel i starting at i us and all running to N us: N
                distinct sets of phases running at once, of 1, 2, ..., N phases
  staggered-late  the same with kernel i starting at i^2 us: each set runs longer than the one
                before, so the longest sets are the last and largest
  nested        N X spans nested on one thread (span i from i to 2N - i), 64 names
  be-crossed    N B/E pairs on one thread, closed in the order they opened (B 0..N-1, then E 0..N-1,
                each E naming its B), so every E closes the oldest open B
  be-same-ts    N E events listed before their B events at one instant: N zero-length pairs"""
import json, sys


def event(ph, name, ts, tid, cat="cpu_op", dur=None):
    e = {"ph": ph, "cat": cat, "name": name, "pid": 0, "tid": tid, "ts": ts}
    if dur is not None:
        e["dur"] = dur
    return json.dumps(e, separators=(",", ":"))


def events(case, n):
    if case == "staggered":
        for i in range(n):
            yield event("X", f"kernel_{i}", i, i, "kernel", n - i)
    elif case == "staggered-late":
        end = (n - 1) ** 2 + 2 * n
        for i in range(n):
            yield event("X", f"kernel_{i}", i * i, i, "kernel", end - i * i)
    elif case == "nested":
        for i in range(n):
            yield event("X", f"frame_{i % 64}", i, 1, dur=2 * (n - i))
    elif case == "be-crossed":
        for i in range(n):
            yield event("B", f"span_{i}", i, 1)
        for i in range(n):
            yield event("E", f"span_{i}", n + i, 1)
    elif case == "be-same-ts":
        yield event("X", "outer", 0, 1, dur=2)
        for i in range(n):
            yield event("E", f"span_{i}", 1, 1)
        for i in range(n):
            yield event("B", f"span_{i}", 1, 1)
    else:
        sys.exit(f"unknown case '{case}' (staggered, staggered-late, nested, be-crossed, be-same-ts)")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    case, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(path, "w") as out:
        out.write('{"traceEvents": [\n')
        out.write(",\n".join(events(case, n)))
        out.write("\n]}\n")


main()
