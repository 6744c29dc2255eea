#!/usr/bin/env python3
"""Prints line coverage per target of Sources/ from an llvm-cov JSON summary, and fails when the core target
falls below the floor given on the command line.

usage: coverage-report.py SUMMARY_JSON CORE_FLOOR_PERCENT
"""
import json
import os
import sys

summary_path, floor = sys.argv[1], float(sys.argv[2])
with open(summary_path) as handle:
    data = json.load(handle)

root = os.path.abspath("Sources") + os.sep
targets = {}
for entry in data["data"][0]["files"]:
    name = os.path.abspath(entry["filename"])
    if not name.startswith(root):
        continue
    target = name[len(root):].split(os.sep)[0]
    lines = entry["summary"]["lines"]
    covered, count = targets.get(target, (0, 0))
    targets[target] = (covered + lines["covered"], count + lines["count"])

print(f"{'target':<28} {'lines':>8} {'covered':>8} {'%':>7}")
for target, (covered, count) in sorted(targets.items()):
    print(f"{target:<28} {count:>8} {covered:>8} {100 * covered / max(count, 1):>6.1f}%")

# The core's least covered files, for review.
core_files = []
for entry in data["data"][0]["files"]:
    name = os.path.abspath(entry["filename"])
    if name.startswith(root + "RetroSwift" + os.sep):
        lines = entry["summary"]["lines"]
        core_files.append((lines["percent"], name[len(root):], lines["count"] - lines["covered"]))
print("\nleast covered files of the RetroSwift target:")
for percent, name, uncovered in sorted(core_files)[:5]:
    print(f"  {percent:6.1f}%  {uncovered:>4} lines uncovered  {name}")

core_covered, core_count = targets.get("RetroSwift", (0, 0))
core = 100 * core_covered / max(core_count, 1)
if core < floor:
    print(f"the RetroSwift target covers {core:.1f}% of its lines, below the floor of {floor:.1f}%", file=sys.stderr)
    sys.exit(1)
