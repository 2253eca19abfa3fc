#!/usr/bin/env python3
"""Summarizes libFuzzer logs (fuzz/plateau.sh writes them) as a Markdown table: executions,
speed, coverage (edges "cov" and features "ft") at the start and the end, when coverage last
grew, and (from plateau.sh's closing "plateau:" line) since when, in seconds of wall time from the
start, edge coverage had been flat and for how long, so a reader can judge whether a run plateaued.

usage: fuzz/summarize.py build-fuzz/plateau-*.log
"""
import re
import sys

PLATEAU = re.compile(r"^plateau: \S+ cov \d+ flat for (\d+) s \(flat since (\d+) s\), (?:stopped|ended) at (\d+) s")
LINE = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+) corp: (\d+)/\S+.*?exec/s: (\d+)")


def summarize(path):
    start = end = None
    last_cov_growth = None  # execution number of the last line that raised cov
    cov_seen = None
    execs = rate = None
    crashed = False
    flat = None  # (flat for, flat since, wall time) in seconds, from plateau.sh
    for line in open(path, errors="replace"):
        if "ERROR: libFuzzer" in line or "==ERROR" in line or "SUMMARY: " in line:
            crashed = True
        p = PLATEAU.match(line)
        if p:
            flat = (int(p.group(1)), int(p.group(2)), int(p.group(3)))
        m = LINE.match(line)
        if m:
            n, kind, cov, ft, corp, eps = m.groups()
            n, cov, ft, corp, eps = int(n), int(cov), int(ft), int(corp), int(eps)
            if kind == "INITED":
                start = (cov, ft, corp)
                cov_seen = cov
            if cov_seen is not None and cov > cov_seen:
                last_cov_growth, cov_seen = n, cov
            end = (cov, ft, corp)
        if line.startswith("stat::number_of_executed_units:"):
            execs = int(line.split()[-1])
        if line.startswith("stat::average_exec_per_sec:"):
            rate = int(line.split()[-1])
    name = re.sub(r"^(.*/)?plateau\d*-|\.log$", "", path)
    if start is None or end is None or execs is None:
        return f"| {name} | (no complete run in the log) |"
    seconds = flat[2] if flat else execs / rate if rate else 0  # wall time, corpus load included, when known
    if last_cov_growth is None:
        growth = "never (flat from the start)"
    else:
        growth = f"{last_cov_growth / rate:.0f} s" if rate else "?"
    status = "FINDING" if crashed else "clean"
    flat_since = f"{flat[1]} s (flat {flat[0]} s)" if flat else "?"
    return (f"| {name} | {seconds:.0f} s | {execs:,} | {rate:,} | {start[0]} → {end[0]} | "
            f"{start[1]} → {end[1]} | {end[2]} | {growth} | {flat_since} | {status} |")


print("| target | time | executions | exec/s | cov (edges) | ft (features) | corpus | cov last grew at | flat since "
      "| result |")
print("| --- | ---: | ---: | ---: | --- | --- | ---: | --- | --- | --- |")
for path in sys.argv[1:]:
    print(summarize(path))
