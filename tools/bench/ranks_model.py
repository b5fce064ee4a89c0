#!/usr/bin/env python3
"""ranks_model.py DIR [--out DIR] [--no-chart]: the model of scale of a run over several ranks.

Reads the run.json files of ranks_scaling.sh (DIR/<case>-dp<dp>-r<ranks>.json) and prints, as
markdown (also written to OUT/ranks-model.md, OUT defaulting to DIR):

1. the measurements: per run the particles, ranks, step time, force passes a step, and rank 0's
   exchange: halo particles, bytes sent and seconds per exchange (the MPI-Migrate and MPI-Halo phases);
2. the fit of the exchange time, t_x = a + b * bytes, over the runs on more than one rank;
3. the projection of strong and weak scaling to 8 GPUs of one node and to 64 nodes of 8 GPUs.

The model. A step of n particles on one rank takes c * n (c from the one-rank runs). Slabs cut
the domain along one axis, so a rank's halo is the particles within the reach of its two faces:
its bytes, h, do not depend on the number of ranks (rank 0, an end slab of an open axis, has one
face: the measured bytes are doubled for an interior rank). Over R ranks a step takes
    t(R) = c * n / R + p * (a + b * h + h / B + L)
with p exchanges a step; a and b the exchange's measured cost, fixed and per byte (marks,
partitions and packing where the particles are, the staging through the host and MPI between
ranks of one machine, or NCCL between their GPUs), which the engine pays wherever its ranks are; B the
link's bandwidth one way and L its latency: NVLink
4 (H100/H200: 450 GB/s each way, L 2 us) within a node, InfiniBand NDR (400 Gb/s: 50 GB/s, L 5
us) between nodes, where every exchange is taken at the slower link (a bound: only the two
slabs at a node's ends cross it). Strong scaling keeps n (the largest measured case) and stops
where a slab would be thinner than the reach; weak scaling keeps n / R (the slab axis grows with
R, so h stays). A slab holds at least one layer of the reach (`sph info --ranks N` says how many
layers a case has): the strong-scaling rows beyond that count are out of reach of slabs. The
exchange is not overlapped with the interior's forces in this model, as it
is not in the engine yet.
"""
import argparse
import json
import math
import os
import re
import sys

NVLINK4 = (450e9, 2e-6)  # bytes/s one way, latency s
IB_NDR = (50e9, 5e-6)
GPUS_PER_NODE = 8
NODES = 64


class ModelError(Exception):
    pass


def load(folder):
    runs = []
    pattern = re.compile(r"^(?P<case>.+)-dp(?P<dp>[0-9.eE+-]+)-r(?P<ranks>\d+)\.json$")
    for name in sorted(os.listdir(folder)):
        m = pattern.match(name)
        if not m:
            continue
        path = os.path.join(folder, name)
        try:
            with open(path) as f:
                r = json.load(f)
        except (OSError, ValueError) as e:
            raise ModelError(f"{path}: not a run report: {e}")
        if r.get("status") != "completed":
            raise ModelError(f"{path}: the run did not complete (status {r.get('status')!r})")
        extra = r.get("extra", {})
        ranks = int(extra.get("ranks", "1"))
        if ranks != int(m["ranks"]):
            raise ModelError(f"{path}: ran on {ranks} rank(s), its name says {m['ranks']}")
        steps = int(r["steps"])
        wall = float(extra.get("wall_seconds_excluding_output", r["wall_seconds"]))
        halo = next((p for p in r.get("phases", []) if p["name"] == "MPI-Halo"), None)
        # Migration has its own phase since the exchange was split; older reports hold it in MPI-Halo.
        migrate = next((p for p in r.get("phases", []) if p["name"] == "MPI-Migrate"), None)
        run = {
            "file": name, "case": m["case"], "dp": float(m["dp"]), "ranks": ranks,
            "particles": int(r["particles"]["total"]), "steps": steps, "step_s": wall / steps,
            "device": r.get("device", "?"),
        }
        if ranks > 1:
            if halo is None or not halo["calls"]:
                raise ModelError(f"{path}: a run over {ranks} ranks without the MPI-Halo phase (timers off?)")
            exchanges = int(extra["rank0_exchanges"])
            exchange = halo["seconds"] + (migrate["seconds"] if migrate else 0.0)
            run.update(passes=halo["calls"] / steps, exchange_s=exchange / halo["calls"],
                       halo_particles=float(extra["rank0_mean_halo_particles"]),
                       bytes=float(extra["rank0_bytes_sent"]) / max(exchanges, 1))
        runs.append(run)
    if not runs:
        raise ModelError(f"{folder}: no <case>-dp<dp>-r<ranks>.json run reports")
    return runs


def fit(runs):
    """Least squares t = a + b * bytes over the runs on several ranks."""
    pts = [(r["bytes"], r["exchange_s"]) for r in runs if r["ranks"] > 1]
    if len(pts) < 2:
        raise ModelError("the fit needs runs on more than one rank at two sizes at least")
    n = len(pts)
    mx = sum(x for x, _ in pts) / n
    my = sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    b = sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx > 0 else 0.0
    a = my - b * mx
    # Neither cost can be negative: on the boundary the other is fitted alone.
    if a < 0:
        sx2 = sum(x * x for x, _ in pts)
        a, b = 0.0, (sum(x * y for x, y in pts) / sx2 if sx2 > 0 else 0.0)
    if b < 0:
        a, b = my, 0.0
    return a, b


def projection(runs, a, b):
    """Strong and weak scaling efficiencies, per rank count, for the largest measured case."""
    ones = [r for r in runs if r["ranks"] == 1]
    many = [r for r in runs if r["ranks"] > 1]
    if not ones or not many:
        raise ModelError("the projection needs one-rank runs and runs on several ranks")
    big = max(ones, key=lambda r: r["particles"])
    c = big["step_s"] / big["particles"]
    same = [r for r in many if r["dp"] == big["dp"]] or many
    face = max(same, key=lambda r: r["ranks"])
    h = 2 * face["bytes"]  # an interior slab's two faces
    p = face["passes"]
    out = []
    for ranks in [1, 2, 4, 8, 16, 64, 512]:
        bw, lat = NVLINK4 if ranks <= GPUS_PER_NODE else IB_NDR
        tx = 0.0 if ranks == 1 else p * (a + b * h + h / bw + lat)
        strong = c * big["particles"] / ranks + tx
        weak = c * big["particles"] + tx
        out.append({"ranks": ranks, "link": "-" if ranks == 1 else ("NVLink 4" if ranks <= GPUS_PER_NODE else "IB NDR"),
                    "strong_eff": (c * big["particles"]) / (ranks * strong),
                    "weak_eff": (c * big["particles"]) / weak, "exchange_s": tx})
    return big, c, h, p, out


def markdown(runs, a, b, proj):
    big, c, h, p, rows = proj
    lines = ["| run | particles | ranks | step ms | exchanges a step | halo particles (rank 0) | kB an exchange | "
             "exchange ms |", "|---|---|---|---|---|---|---|---|"]
    for r in runs:
        if r["ranks"] == 1:
            lines.append(f"| {r['file']} | {r['particles']} | 1 | {1e3 * r['step_s']:.3f} | - | - | - | - |")
        else:
            lines.append(f"| {r['file']} | {r['particles']} | {r['ranks']} | {1e3 * r['step_s']:.3f} | "
                         f"{r['passes']:.0f} | {r['halo_particles']:.0f} | {r['bytes'] / 1e3:.1f} | "
                         f"{1e3 * r['exchange_s']:.3f} |")
    rate = f"{1 / b / 1e9:.2f} GB/s" if b > 0 else "no cost a byte measured"
    lines += ["", f"Exchange fit: t = {1e6 * a:.1f} us + {1e9 * b:.3f} ns a byte ({rate} as the ranks measured it: "
                  "through the host and MPI, or by NCCL).",
              f"Largest case: {big['particles']} particles, {1e9 * c:.3f} ns a particle-step on one rank; an interior "
              f"slab exchanges {h / 1e3:.1f} kB, {p:.0f} times a step.", "",
              "| ranks | link | exchange ms a step | strong scaling efficiency | weak scaling efficiency |",
              "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['ranks']} | {r['link']} | {1e3 * r['exchange_s']:.3f} | {100 * r['strong_eff']:.1f}% | "
                     f"{100 * r['weak_eff']:.1f}% |")
    return "\n".join(lines) + "\n"


def chart(runs, a, b, proj, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    many = [r for r in runs if r["ranks"] > 1]
    xs = [r["bytes"] / 1e6 for r in many]
    left.scatter(xs, [1e3 * r["exchange_s"] for r in many], label="measured (rank 0)")
    top = max(xs) * 1.1
    left.plot([0, top], [1e3 * a, 1e3 * (a + b * top * 1e6)], "k--", label="fit a + b bytes")
    left.set_xlabel("MB sent an exchange")
    left.set_ylabel("ms an exchange")
    left.set_title("Exchange time against halo size")
    left.legend()
    rows = proj[4]
    ranks = [r["ranks"] for r in rows]
    right.semilogx(ranks, [100 * r["strong_eff"] for r in rows], "o-", base=2, label="strong (largest case)")
    right.semilogx(ranks, [100 * r["weak_eff"] for r in rows], "s-", base=2, label="weak (its size a rank)")
    right.axvline(GPUS_PER_NODE, color="grey", lw=0.8)
    right.text(GPUS_PER_NODE * 1.1, 5, "NVLink 4 | IB NDR", color="grey")
    right.set_ylim(0, 105)
    right.set_xlabel("GPUs")
    right.set_ylabel("efficiency %")
    right.set_title("Projected scaling (exchange not overlapped)")
    right.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--out")
    ap.add_argument("--no-chart", action="store_true")
    args = ap.parse_args(argv)
    out = args.out or args.dir
    try:
        runs = load(args.dir)
        a, b = fit(runs)
        proj = projection(runs, a, b)
    except ModelError as e:
        print(f"ranks_model: {e}", file=sys.stderr)
        return 1
    text = markdown(runs, a, b, proj)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "ranks-model.md"), "w") as f:
        f.write(text)
    print(text, end="")
    if not args.no_chart:
        chart(runs, a, b, proj, os.path.join(out, "ranks-model.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
