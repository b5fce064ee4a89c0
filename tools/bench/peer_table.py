#!/usr/bin/env python3
"""The table and chart of tools/bench/peer.sh: per case, DualSPHysics' GPU build and each of our
configurations on the same particles and step count: loop seconds, speed-up over DualSPHysics and
over our cell plugin, our force pass in ns per particle and pass, device memory and its ratio to
our cell plugin's.

    python3 tools/bench/peer_table.py RESULT_DIR [--no-chart]

Reads RESULT_DIR/CASE/dsph/Run.out and RESULT_DIR/CASE/CONFIG.json; writes RESULT_DIR/peer.md
(also printed) and RESULT_DIR/peer.png.
"""
import json
import re
import sys
from pathlib import Path

CONFIG_ORDER = ["cell", "cell-twice", "cell-once", "verlet", "verlet-indices", "verlet-twice", "verlet-once", "verlet-clusters", "verlet-bitmask"]
CASE_ORDER = ["DamBreak", "WaveMake", "Spheric2Dam_100K", "Spheric2Dam_01M", "Spheric2Dam_04M", "Spheric2Dam_13M"]


def run_out(path):
    """What DualSPHysics' Run.out says about the run: loop seconds, steps, particles, GPU bytes."""
    text = Path(path).read_text(errors="replace")

    def value(label):
        m = re.search(r"^" + re.escape(label) + r"\.*: *([0-9][0-9,]*(?:\.[0-9]+)?)", text, re.M)
        return float(m.group(1).replace(",", "")) if m else None

    seconds, steps = value("Simulation Runtime"), value("Steps of simulation")
    if seconds is None or steps is None:
        raise ValueError(f"{path}: no 'Simulation Runtime' or 'Steps of simulation' (did the run finish?)")
    memory = (value("GPU Memory") or 0) + (value("GPU Memory (for cells)") or 0)
    # "Maximum number of particles" is what its arrays were sized for (with over-allocation).
    particles = value("Particles of simulation (initial)") or value("Maximum number of particles") or 0
    return {"seconds": seconds, "steps": int(steps), "particles": int(particles), "bytes": memory}


def load(folder):
    """{case: {"dsph": run_out dict or None, "ours": {config: run.json dict}}}"""
    cases = {}
    for d in sorted(p for p in Path(folder).iterdir() if p.is_dir()):
        ours = {f.stem: json.loads(f.read_text()) for f in sorted(d.glob("*.json")) if f.stem in CONFIG_ORDER}
        dsph = run_out(d / "dsph" / "Run.out") if (d / "dsph" / "Run.out").is_file() else None
        if ours or dsph:
            cases[d.name] = {"dsph": dsph, "ours": ours}
    return cases


def ordered(names, order):
    return sorted(names, key=lambda n: (order.index(n) if n in order else len(order), n))


def force_ns(run):
    """Our force pass in ns per particle and pass (phase CF-Forces), or None without timers."""
    force = [p for p in run.get("phases", []) if p["name"] == "CF-Forces"]
    n = run["particles"]["total"]
    if not force or not force[0]["calls"] or not n:
        return None
    return force[0]["seconds"] / force[0]["calls"] / n * 1e9


def rows(cases):
    """One row per case and configuration (DualSPHysics first), as dicts."""
    out = []
    for case in ordered(cases, CASE_ORDER):
        dsph, ours = cases[case]["dsph"], cases[case]["ours"]
        cell = ours.get("cell")
        cell_ok = cell and cell["status"] == "completed"
        cell_bytes = cell["peak_device_bytes"] if cell_ok else None
        cell_seconds = cell["wall_seconds"] if cell_ok and cell["wall_seconds"] > 0 else None
        if dsph:
            out.append({"case": case, "config": "DualSPHysics", "particles": dsph["particles"], "steps": dsph["steps"],
                        "seconds": dsph["seconds"], "speedup": 1.0, "force_ns": None, "bytes": dsph["bytes"],
                        "vs_cell": cell_seconds / dsph["seconds"] if cell_seconds else None,
                        "bytes_vs_cell": dsph["bytes"] / cell_bytes if cell_bytes else None, "status": "completed"})
        for config in ordered(ours, CONFIG_ORDER):
            r = ours[config]
            row = {"case": case, "config": config, "particles": r["particles"]["total"], "steps": r["steps"],
                   "status": r["status"], "error": r.get("error")}
            if r["status"] == "completed":
                row.update(seconds=r["wall_seconds"], force_ns=force_ns(r), bytes=r["peak_device_bytes"],
                           speedup=dsph["seconds"] / r["wall_seconds"] if dsph and r["wall_seconds"] > 0 else None,
                           vs_cell=cell_seconds / r["wall_seconds"] if cell_seconds and r["wall_seconds"] > 0 else None,
                           bytes_vs_cell=r["peak_device_bytes"] / cell_bytes if cell_bytes else None)
                if dsph and r["steps"] != dsph["steps"]:
                    row["note"] = f"{r['steps']} steps against DualSPHysics' {dsph['steps']}"
            out.append(row)
    return out


def table(cases):
    device = next((r["device_name"] for c in cases.values() for r in c["ours"].values() if r.get("device_name")), "")
    lines = [f"Device: {device or 'unknown'}", "",
             "| case | code | particles | steps | loop s | speed-up over DualSPHysics | speed-up over our cell | "
             "force pass ns/particle/pass | device GiB | memory / our cell |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]

    def f(v, fmt):
        return "" if v is None else format(v, fmt)

    for r in rows(cases):
        if r["status"] != "completed":
            lines.append(f"| {r['case']} | {r['config']} | {r['particles']:,} | {r['steps']:,} | "
                         f"{r['status']}: {r.get('error')} | | | | | |")
            continue
        note = f" ({r['note']})" if r.get("note") else ""
        lines.append(f"| {r['case']} | {r['config']} | {r['particles']:,} | {r['steps']:,}{note} | {r['seconds']:.2f} | "
                     f"{f(r['speedup'], '.2f')}{'x' if r['speedup'] is not None else ''} | "
                     f"{f(r['vs_cell'], '.2f')}{'x' if r['vs_cell'] is not None else ''} | {f(r['force_ns'], '.3f')} | "
                     f"{r['bytes'] / 2**30:.2f} | {f(r['bytes_vs_cell'], '.2f')}{'x' if r['bytes_vs_cell'] else ''} |")
    return "\n".join(lines) + "\n"


def chart(cases, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = [r for r in rows(cases) if r["config"] != "DualSPHysics" and r.get("speedup")]
    if not data:
        return False
    names = ordered({r["case"] for r in data}, CASE_ORDER)
    configs = ordered({r["config"] for r in data}, CONFIG_ORDER)
    width = 0.8 / len(configs)
    fig, ax = plt.subplots(figsize=(1.6 + 1.6 * len(names), 4.2))
    for k, config in enumerate(configs):
        xs, ys = [], []
        for i, case in enumerate(names):
            r = next((r for r in data if r["case"] == case and r["config"] == config), None)
            if r:
                xs.append(i + (k - (len(configs) - 1) / 2) * width)
                ys.append(r["speedup"])
        bars = ax.bar(xs, ys, width, label=config)
        ax.bar_label(bars, fmt="%.2f", fontsize=7)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(names)), names, fontsize=8)
    ax.set_ylabel("speed-up over DualSPHysics 5.4 GPU")
    ax.set_title("Same particles, same steps, one GPU")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main(argv):
    args = [a for a in argv if a != "--no-chart"]
    if len(args) != 1:
        sys.exit("usage: peer_table.py RESULT_DIR [--no-chart]")
    folder = Path(args[0])
    cases = load(folder)
    if not cases:
        sys.exit(f"peer_table.py: no CASE/dsph/Run.out or CASE/CONFIG.json in {folder}")
    text = table(cases)
    (folder / "peer.md").write_text(text)
    print(text, end="")
    if "--no-chart" not in argv and chart(cases, folder / "peer.png"):
        print(f"chart: {folder / 'peer.png'}")


if __name__ == "__main__":
    main(sys.argv[1:])
