#!/usr/bin/env python3
"""Narrows a failing random_frames frame down to the meshes that cause it, in parallel.

usage: scripts/random_frames_narrow.py JOBS N DEADLINE_S -- build/bench/random_frames --seed S \
           --frames F --focus-frame F-1 [--keep-views A:B] [--avoid ...]

N is the largest mesh count of the stages drawn in the focus frame (random_frames --describe
prints them). Runs delta debugging (ddmin) over --keep-meshes lists of 0..N-1, JOBS probes at a
time, until one set is minimal or DEADLINE_S seconds have passed, and prints each narrowing step
and the result ("RESULT minimal: LIST" with its failure line). Each probe is one random_frames
process: the frames before the focus frame are replayed without readbacks, so a probe costs
little more than the focus frame itself."""
import subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
jobs, n, deadline = int(sys.argv[1]), int(sys.argv[2]), time.time() + float(sys.argv[3])
base = sys.argv[sys.argv.index('--') + 1:]
cache = {}
def spec(keep):
    return ",".join(map(str, sorted(keep))) if keep else "none"
def run(keep):
    k = spec(keep)
    if k in cache: return cache[k]
    out = subprocess.run(base + ["--keep-meshes", k, "--quiet"], capture_output=True, text=True)
    lines = [l for l in (out.stdout + out.stderr).splitlines() if l.startswith("FAIL")]
    cache[k] = lines
    return lines
def par(sets):
    with ThreadPoolExecutor(jobs) as ex:
        return list(ex.map(run, sets))
cur = list(range(n))
r = par([cur, []])
print("all:", r[0][:1], "| none:", r[1][:1], flush=True)
if not r[0]: print("RESULT: does not fail with all meshes kept"); sys.exit(0)
if r[1]: print("RESULT: fails with no mesh kept"); sys.exit(0)
gran = jobs
while len(cur) > 1 and time.time() < deadline:
    gran = min(max(gran, 2), len(cur))
    size = (len(cur) + gran - 1) // gran
    chunks = [cur[i:i + size] for i in range(0, len(cur), size)]
    comps = [[m for m in cur if m not in c] for c in chunks]
    res = par(chunks + (comps if len(chunks) > 2 else []))
    hit = next((chunks[i] for i in range(len(chunks)) if res[i]), None)
    if hit is None and len(chunks) > 2:
        hit = next((comps[i] for i in range(len(comps)) if res[len(chunks) + i]), None)
        if hit is not None:
            cur = hit; gran = max(gran - 1, 2); print("complement ->", spec(cur), flush=True); continue
    if hit is not None:
        cur = hit; gran = 2 if len(cur) <= jobs else jobs; print("chunk ->", spec(cur), flush=True); continue
    if gran >= len(cur): break
    gran = min(len(cur), gran * 2 if gran * 2 <= jobs * 2 else jobs * 2)
print("RESULT minimal:", spec(cur), run(cur)[:1], flush=True)
