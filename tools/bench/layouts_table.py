#!/usr/bin/env python3
"""The table of tools/bench/verlet_layouts.sh: per case, cell and each Verlet list layout, from
the run.json files NAME-STRATEGY[-LAYOUT]-rN.json in a result folder (median over repeats).

    python3 tools/bench/layouts_table.py RESULT_DIR
"""
import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

NAME = re.compile(r"^(?P<case>[^-]+)-(?P<config>cell|verlet-[a-z]+)-r\d+\.json$")


def load(folder):
    runs = defaultdict(list)  # (case, config) -> run.json dicts
    for f in sorted(Path(folder).glob("*.json")):
        m = NAME.match(f.name)
        if m:
            runs[(m["case"], m["config"])].append(json.loads(f.read_text()))
    return runs


def median(runs, key):
    return statistics.median(r[key] for r in runs)


def table(runs):
    cases = sorted({case for case, _ in runs}, key=lambda c: ["DamBreak", "DamBreak2D", "WaveMake", "Solids"].index(c)
                   if c in ["DamBreak", "DamBreak2D", "WaveMake", "Solids"] else 99)
    lines = ["| case | configuration | wall s | speed-up over cell | peak device MiB | memory / cell | "
             "mean list length | list MiB (last) | rebuild interval (steps) | steps |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    device = ""
    for case in cases:
        cell = runs.get((case, "cell"))
        for config in ["cell", "verlet-indices", "verlet-bitmask", "verlet-clusters"]:
            rs = runs.get((case, config))
            if not rs:
                continue
            device = rs[0].get("device_name", device)
            if any(r["status"] != "completed" for r in rs):
                lines.append(f"| {case} | {config} | {rs[0]['status']}: {rs[0].get('error')} | | | | | | | |")
                continue
            wall, peak = median(rs, "wall_seconds"), median(rs, "peak_device_bytes")
            stats = rs[0].get("strategy_stats", {})
            speed = f"{median(cell, 'wall_seconds') / wall:.2f}x" if cell else ""
            ratio = f"{peak / median(cell, 'peak_device_bytes'):.2f}x" if cell else ""
            length = f"{stats['mean_list_length']:.1f}" if "mean_list_length" in stats else ""
            listed = f"{stats['list_bytes_last'] / 2**20:.1f}" if "list_bytes_last" in stats else ""
            interval = f"{stats['mean_rebuild_interval_steps']:.1f}" if "mean_rebuild_interval_steps" in stats else ""
            lines.append(f"| {case} | {config} | {wall:.2f} | {speed} | {peak / 2**20:.1f} | {ratio} | {length} | "
                         f"{listed} | {interval} | {rs[0]['steps']} |")
    return f"Device: {device}\n\n" + "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: layouts_table.py RESULT_DIR")
    runs = load(sys.argv[1])
    if not runs:
        sys.exit(f"layouts_table.py: no NAME-CONFIG-rN.json run files in {sys.argv[1]}")
    print(table(runs))
