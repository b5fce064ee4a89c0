#!/usr/bin/env python3
"""Turns the results of tools/bench/run.sh into a Markdown report with PNG charts.

usage: report.py RESULT_DIR [RESULT_DIR...] [--out DIR]
Writes DIR/report.md (default RESULT_DIR/report/) with: the runs that did not run and why; per
case the time in sort, list build, interaction and other for each strategy and precision (the
seed paper's Tables 3-5); list statistics, device memory and ns per particle-step (Table 6); the
verlet/cell speed-up; each phase against its floor; the DamBreak scaling ladder; and the charts
phases-<case>.png, speedup.png, ladder.png. Several folders are merged (a bench split over
sessions). A missing or malformed run file stops the report with a message naming it."""
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_charts  # noqa: E402
import bench_floors  # noqa: E402
from bench_data import GROUPS, BenchError, load, mean  # noqa: E402

PRECISIONS = ("single", "double")
# Verlet/cell speed-ups of the seed paper (Takada et al., GTX 980, single precision; DESIGN.md 5).
PAPER_SPEEDUP = {"DamBreak2D": 2.37, "DamBreak": 1.01, "Solids": 1.42, "WaveMake": 0.5}
MIB = 2.0 ** 20


def num(v, fmt="{:.3f}"):
    return "n/a" if v is None else fmt.format(v)


def numeric(cell):
    text = str(cell).replace(",", "").replace("~", "").rstrip("x%")
    try:
        float(text.split(" ")[0].split("-")[0] or "x")
        return True
    except ValueError:
        return text == "n/a"


def table(header, rows):
    """A Markdown table; columns whose cells are all numbers (or n/a) are right-aligned."""
    right = [k > 0 and all(numeric(r[k]) for r in rows) for k in range(len(header))]
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(" ---: " if r else " --- " for r in right) + "|"]
    esc = lambda c: str(c).replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")  # noqa: E731
    out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def ordered(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


class Matrix:
    """The measured case x precision x strategy runs (group 'matrix') that completed."""

    def __init__(self, runs):
        self.runs = [r for r in runs if r.group == "matrix"]
        self.cases = ordered(r.case for r in self.runs)
        self.strategies = ordered(r.strategy for r in self.runs)
        self.precisions = [p for p in PRECISIONS if any(r.precision == p for r in self.runs)]

    def ok(self, case, precision, strategy):
        return [r for r in self.runs if r.ok and (r.case, r.precision, r.strategy) == (case, precision, strategy)]

    def phases(self, case, precision, strategy):
        """Mean seconds per group over repeats; 'other' includes the untimed host time."""
        runs = self.ok(case, precision, strategy)
        if not runs:
            return None
        g = {k: mean(r.group_seconds()[k] for r in runs) for k in GROUPS}
        g["untimed"] = mean(r.untimed_seconds() for r in runs)
        g["other"] += g["untimed"]
        g["total"] = mean(r.get("wall_seconds") for r in runs)
        return g

    def speedup(self, case, precision):
        """(mean, min, max) over repeats of ns per particle-step, cell over verlet, paired by repeat."""
        cell = {r.repeat: r for r in self.ok(case, precision, "cell")}
        verlet = {r.repeat: r for r in self.ok(case, precision, "verlet")}
        ratios = [cell[k].get("ns_per_particle_step") / verlet[k].get("ns_per_particle_step")
                  for k in sorted(cell.keys() & verlet.keys()) if verlet[k].get("ns_per_particle_step")]
        return (mean(ratios), min(ratios), max(ratios)) if ratios else None


def section_not_run(runs):
    bad = [r for r in runs if not r.ok]
    if not bad:
        return "All planned runs completed.\n"
    rows = [[r.group, r.case, r.strategy, r.precision, num(r.dp, "{:g}"), r.repeat, r.status, r.reason or "-"]
            for r in bad]
    return table(["group", "case", "strategy", "precision", "dp", "repeat", "status", "reason"], rows)


def section_phases(m, out_dir, charts):
    text = ("Seconds per phase group, mean over the repeats, and share of the wall time. *other* includes "
            "the host time outside the timed phases (given in parentheses).\n\n")
    for case in m.cases:
        cols = [(p, s) for p in m.precisions for s in m.strategies if m.phases(case, p, s)]
        if not cols:
            text += f"### {case}\n\nNo completed runs.\n\n"
            continue
        ph = {c: m.phases(case, *c) for c in cols}
        header = ["phase"] + [h for p, s in cols for h in (f"{s} {p} s", "%")]
        rows = []
        for g, label in (("sort", "sort"), ("list", "list build"), ("interaction", "interaction"),
                         ("other", "other"), ("total", "total")):
            row = [label]
            for c in cols:
                v, total = ph[c][g], ph[c]["total"]
                row += [f"{v:.3f}" + (f" ({ph[c]['untimed']:.3f})" if g == "other" else ""),
                        f"{100 * v / total:.1f}" if total else "n/a"]
            rows.append(row)
        text += f"### {case}\n\n" + table(header, rows) + "\n"
        bars = [(f"{s}\n{p}", ph[(p, s)]) for p, s in cols]
        png = f"phases-{case}.png"
        bench_charts.phase_bars(out_dir / png, case, bars)
        charts.append(png)
        text += f"![{case} phases]({png})\n\n"
    return text


def section_lists(m):
    rows = []
    for case in m.cases:
        for p in m.precisions:
            cell_mem = mean(r.get("peak_device_bytes") for r in m.ok(case, p, "cell"))
            for s in m.strategies:
                runs = m.ok(case, p, s)
                if not runs:
                    continue
                mem = mean(r.get("peak_device_bytes") for r in runs)
                st = lambda k: mean(r.stat(k) for r in runs)  # noqa: E731
                note = "lists did not fit: cell fallback" if any(r.fallback for r in runs) else ""
                rows.append([case, p, s, num(st("mean_list_length"), "{:.1f}"), num(st("rebuilds"), "{:.0f}"),
                             num(st("mean_rebuild_interval_steps"), "{:.2f}"), num(st("idle_ratio_last_lists")),
                             num(mean(bench_floors.in_range_per_particle(r) for r in runs), "{:.1f}"),
                             num(st("candidates_per_particle"), "{:.1f}"), f"{mem / MIB:.1f}",
                             num(mem / cell_mem if cell_mem else None, "{:.2f}x"),
                             num(mean(r.get("ns_per_particle_step") for r in runs)),
                             num(mean(r.get("steps") for r in runs), "{:.0f}"), note])
    header = ["case", "precision", "strategy", "mean list length", "rebuilds", "rebuild interval (steps)",
              "idle ratio", "in-range neighbours", "cell candidates", "peak device MiB", "memory vs cell",
              "ns per particle-step", "steps", "note"]
    return ("Verlet statistics as in the seed paper's Table 6 (mean list length over the rebuilds; idle ratio "
            "and in-range neighbours from the last lists), with the cell plugin's candidates per particle, "
            "peak device memory and ns per particle-step (wall time over particle-steps).\n\n"
            + table(header, rows))


def section_speedup(m, out_dir, charts):
    rows, speedups = [], {}
    for case in m.cases:
        for p in m.precisions:
            s = m.speedup(case, p)
            if s is None:
                continue
            speedups[(case, p)] = s
            ns = {k: mean(r.get("ns_per_particle_step") for r in m.ok(case, p, k)) for k in ("cell", "verlet")}
            rows.append([case, p, num(ns["cell"]), num(ns["verlet"]), f"{s[0]:.2f}x",
                         f"{s[1]:.2f}-{s[2]:.2f}", num(PAPER_SPEEDUP.get(case) if p == "single" else None, "{:.2f}x")])
    if not rows:
        return "No case has completed runs of both strategies.\n"
    bench_charts.speedup_bars(out_dir / "speedup.png", m.cases, m.precisions, speedups, PAPER_SPEEDUP)
    charts.append("speedup.png")
    return ("Speed-up = cell ns per particle-step / verlet ns per particle-step, one ratio per repeat (the "
            "two strategies' runs of a repeat ran back to back), mean and range.\n\n"
            + table(["case", "precision", "cell ns", "verlet ns", "speed-up", "range", "seed paper"], rows)
            + "\n![speed-up](speedup.png)\n")


def section_floors(m, calibration):
    if calibration is None:
        return ("No calibration in the results (sph_calibrate is built only with CUDA): no floors.\n")
    text = (f"Calibration ({calibration.get('device_name', '?')}, best of {calibration['samples']} "
            f"measurement(s), before and after the runs): FP32 {calibration['fp32_flops_per_second'] / 1e12:.1f} "
            f"TFLOP/s, FP64 {calibration['fp64_flops_per_second'] / 1e12:.1f} TFLOP/s (FMA = 2 flops), "
            f"device copy {calibration['copy_bytes_per_second'] / 1e12:.2f} TB/s (bytes read + written).\n\n"
            "Interaction floor = in-range pairs x flops per pair / FMA rate; sort and list floors = bytes that "
            "must move / copy bandwidth. *x floor* = measured / floor.\n\n")
    rows, notes = [], set()
    for case in m.cases:
        for p in m.precisions:
            cell = m.ok(case, p, "cell")
            fallback = mean(bench_floors.in_range_per_particle(r) for r in cell)
            for s in m.strategies:
                for r in m.ok(case, p, s)[:1]:
                    f = bench_floors.floors(r, calibration, fallback)
                    g = r.group_seconds()
                    if not f["ddt_known"]:
                        notes.add(f"{case}: DensityDT not readable from {r.get('case_path')}; Fourtakas assumed.")
                    ratio = lambda meas, fl: num(meas / fl if fl else None, "{:.1f}x")  # noqa: E731
                    rows.append([case, p, s, f"{f['kernel']}, {bench_floors.DDT_NAMES.get(f['ddt'], f['ddt'])}",
                                 f["flops_per_pair"], num(f["neighbours"], "{:.1f}"), num(f["pairs"], "{:.3g}"),
                                 f"{g['interaction']:.3f}", num(f["interaction_floor"], "{:.4f}"),
                                 ratio(g["interaction"], f["interaction_floor"]), f"{g['sort']:.3f}",
                                 num(f["sort_floor"], "{:.4f}"), ratio(g["sort"], f["sort_floor"]),
                                 f"{g['list']:.3f}", num(f["list_floor"], "{:.4f}"), ratio(g["list"], f["list_floor"])])
    header = ["case", "precision", "strategy", "physics", "flops/pair", "in-range per particle", "pairs",
              "interaction s", "floor s", "x floor", "sort s", "floor s", "x floor", "list s", "floor s", "x floor"]
    text += table(header, rows)
    text += ("\nPairs = in-range neighbours per particle at the end of the run x particles in the simulation at "
             "the end x force passes (CF-Forces calls). Missing from run.json: an in-range pair count summed over "
             "the run (both plugins report the last pass only), the pairs split by particle type, and DensityDT "
             "(read from the case file). Floors use the first repeat.\n")
    for n in sorted(notes):
        text += f"\n- {n}"
    return text + "\n"


def ladder_n(run, runs):
    """Particles of a ladder step: from its run.json, else from another run at the same dp, else
    scaled from a run at another dp (fluid as dp^-3, boundary as dp^-2; marked ~)."""
    if run.data:
        return run.particles, ""
    other = [r for r in runs if r.dp == run.dp and r.data]
    if other:
        return other[0].particles, ""
    ref = next((r for r in runs if r.data and r.dp), None)
    dp0, fluid, bound = (ref.dp, ref.get("particles")["fluid"], ref.get("particles")["bound"]) if ref else (
        0.0085, 128310, 43186)  # DamBreak as bundled (sph info testcases/DamBreak.xml)
    k = dp0 / run.dp
    return int(fluid * k ** 3 + bound * k ** 2), "~"


def section_ladder(runs, calibration, out_dir, charts):
    lad = [r for r in runs if r.group == "ladder"]
    if not lad:
        return "No ladder runs.\n"
    rows, series, failures, fits, estimated = [], {}, {}, {}, set()
    for r in sorted(lad, key=lambda r: (-r.dp, r.strategy)):
        n, approx = ladder_n(r, lad)
        if approx:
            estimated.add(n)
        fitted = r.ok and not r.fallback
        bpp = r.get("peak_device_bytes") / r.particles if r.data and r.get("peak_device_bytes") else None
        note = r.reason if not r.ok else ("lists did not fit: cell fallback" if r.fallback else "")
        rows.append([f"{r.dp:g}", f"{approx}{n:,}", r.strategy, r.status, num(r.get("steps"), "{}"),
                     num(r.get("ns_per_particle_step") if r.ok else None), num(bpp, "{:.0f}"),
                     num(r.get("peak_device_bytes") / MIB if r.data else None, "{:.0f}"), note or "-"])
        if fitted:
            series.setdefault(r.strategy, []).append((n, r.get("ns_per_particle_step"), bpp))
            if n > fits.get(r.strategy, (0, 0))[0]:
                fits[r.strategy] = (n, bpp)
        elif r.status in ("oom", "ok"):
            failures.setdefault(r.strategy, []).append(n)
    text = ("DamBreak at four or more particle spacings, single precision, a fixed number of steps each.\n\n"
            + table(["dp", "particles", "strategy", "status", "steps", "ns per particle-step",
                     "bytes per particle", "peak MiB", "note"], rows) + "\n")
    total = calibration.get("total_memory_bytes") if calibration else None
    for s in sorted({r.strategy for r in lad}):
        if s not in fits:
            text += f"- {s}: no ladder step completed.\n"
            continue
        n, bpp = fits[s]
        fail = sorted(x for x in failures.get(s, []) if x > n)
        line = f"- {s}: the largest that fitted: {n:,} particles ({num(bpp, '{:.0f}')} bytes per particle)"
        if fail:
            line += f"; {'~' if fail[0] in estimated else ''}{fail[0]:,} did not fit"
        else:
            line += "; every larger step tried also fitted"
        if total and bpp:
            line += f"; at that rate the {total / 2**30:.0f} GiB device holds about {total / bpp / 1e6:.0f} million"
        text += line + ".\n"
    bench_charts.ladder_lines(out_dir / "ladder.png", series, failures)
    charts.append("ladder.png")
    return text + "\n![ladder](ladder.png)\n"


def section_flops():
    rows = []
    for kernel in ("cubic", "wendland"):
        rows.append([kernel] + [bench_floors.flops_per_pair(kernel, d) for d in (0, 1, 2)])
    terms = table(["term (fluid-fluid pair, cubic, Fourtakas)", "flops"], bench_floors.flop_terms("cubic", 2))
    return ((bench_floors.__doc__.split("\n\n", 1)[1]).strip() + "\n\n" + terms + "\n"
            + table(["kernel", "no diffusion", "Molteni", "Fourtakas"], rows))


def report(folders, out_dir):
    meta, runs, calibration = load(folders)
    out_dir.mkdir(parents=True, exist_ok=True)
    m, charts = Matrix(runs), []
    info = ", ".join(f"{k} {v}" for k, v in meta.items() if v)
    parts = [f"# Benchmark report\n\nFrom {', '.join(str(f) for f in folders)}: {info}.\n",
             "## Runs that did not complete\n\n" + section_not_run(runs),
             "## Time per phase (seed paper Tables 3-5)\n\n" + section_phases(m, out_dir, charts),
             "## Lists, memory and throughput (Table 6)\n\n" + section_lists(m),
             "## Speed-up\n\n" + section_speedup(m, out_dir, charts),
             "## Floors\n\n" + section_floors(m, calibration),
             "## Scaling ladder\n\n" + section_ladder(runs, calibration, out_dir, charts),
             "## How the flops per pair are counted\n\n" + section_flops()]
    (out_dir / "report.md").write_text("\n".join(parts))
    return out_dir / "report.md", charts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=pathlib.Path, help="result folders of tools/bench/run.sh")
    ap.add_argument("--out", type=pathlib.Path, help="report folder (default: FIRST_FOLDER/report)")
    a = ap.parse_args(argv)
    try:
        path, charts = report(a.folders, a.out or a.folders[0] / "report")
    except BenchError as e:
        print(f"report.py: error: {e}", file=sys.stderr)
        return 1
    print(f"report.py: wrote {path} and {len(charts)} charts ({', '.join(charts)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
