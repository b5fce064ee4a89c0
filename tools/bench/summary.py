#!/usr/bin/env python3
"""Prints one line per run.json given (or found under the folders given): case, strategy
settings, steps, wall time, ns per particle-step, force-pass time, sort time per step and the
time outside the timed phases (untimed runs, --no-timers, show their wall time and whether steps
were replayed as CUDA graphs).  Usage: tools/bench/summary.py RUN_JSON_OR_DIR..."""
import json
import pathlib
import re
import sys


def runs(args):
    for a in args:
        p = pathlib.Path(a)
        yield from sorted(p.glob("**/*.json")) if p.is_dir() else [p]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(f"{'file':34} {'steps':>6} {'wall s':>7} {'ns/p-s':>7} {'force us':>9} {'sort us':>8} {'list us':>8} "
          f"{'untimed s':>9} {'rebuild every':>13} {'list len':>8} {'idle':>6} {'MiB':>7} {'replayed':>8}")
    for f in runs(sys.argv[1:]):
        try:
            d = json.loads(f.read_text())
        except (OSError, json.JSONDecodeError) as e:
            sys.exit(f"{f}: {e}")
        phases = d.get("phases", [])
        force = [p for p in phases if p["name"] == "CF-Forces"]
        sort = sum(p["seconds"] for p in phases if p["group"] == "sort")
        lst = sum(p["seconds"] for p in phases if p["group"] == "list")
        st = d.get("strategy_stats", {})
        timed = sum(p["seconds"] for p in phases)
        steps = d.get("steps", 0) or 1
        graphs = d.get("extra", {}).get("step_graphs", "")
        replayed = re.search(r"(\d+) steps replayed", graphs)
        force_us = force[0]["seconds"] / force[0]["calls"] * 1e6 if force else 0
        print(f"{f.name:34} {d.get('steps', 0):>6} {d['wall_seconds']:>7.2f} {d['ns_per_particle_step']:>7.2f} "
              f"{force_us:>9.1f} {sort / steps * 1e6:>8.1f} {lst / steps * 1e6:>8.1f} {d['wall_seconds'] - timed:>9.2f} "
              f"{st.get('mean_rebuild_interval_steps', 0):>13.2f} {st.get('mean_list_length', 0):>8.1f} "
              f"{st.get('idle_ratio_last_lists', 0):>6.3f} {d.get('peak_device_bytes', 0) / 2**20:>7.1f} "
              f"{int(replayed.group(1)) / steps if replayed else 0:>8.2f}")


if __name__ == "__main__":
    main()
