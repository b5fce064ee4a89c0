"""PNG charts of the benchmark report (matplotlib, Agg backend: no display needed)."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PHASE_COLOURS = {"sort": "#4C72B0", "list": "#DD8452", "interaction": "#55A868", "other": "#8C8C8C"}
PHASE_LABELS = {"sort": "sort", "list": "list build", "interaction": "interaction", "other": "other"}
STRATEGY_MARKERS = {"cell": "o", "verlet": "s"}
STRATEGY_COLOURS = {"cell": "C0", "verlet": "C1"}


def phase_bars(path, case, bars):
    """Stacked bars of seconds per phase group. bars: [(label, {group: seconds})]."""
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(bars), 4.2))
    x = range(len(bars))
    bottom = [0.0] * len(bars)
    for g, colour in PHASE_COLOURS.items():
        values = [b[1][g] for b in bars]
        ax.bar(x, values, bottom=bottom, color=colour, label=PHASE_LABELS[g], width=0.6)
        bottom = [a + b for a, b in zip(bottom, values)]
    ax.set_xticks(list(x), [b[0] for b in bars])
    ax.set_ylabel("seconds (mean over repeats)")
    ax.set_title(f"{case}: time per phase")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def speedup_bars(path, cases, precisions, speedups, paper):
    """Grouped bars of the verlet/cell speed-up. speedups[(case, precision)] = (mean, lo, hi)."""
    fig, ax = plt.subplots(figsize=(2 + 1.6 * len(cases), 4.2))
    width = 0.8 / max(1, len(precisions))
    for k, prec in enumerate(precisions):
        xs, ys, errs = [], [], [[], []]
        for i, case in enumerate(cases):
            s = speedups.get((case, prec))
            if s:
                xs.append(i + (k - (len(precisions) - 1) / 2) * width)
                ys.append(s[0])
                errs[0].append(s[0] - s[1])
                errs[1].append(s[2] - s[0])
        ax.bar(xs, ys, width=width, yerr=errs, capsize=3, label=f"{prec} precision")
    px = [i for i, c in enumerate(cases) if c in paper]
    if px:
        ax.plot(px, [paper[cases[i]] for i in px], "k_", markersize=22, mew=2, label="seed paper (GTX 980, single)")
    ax.axhline(1.0, color="k", lw=0.8, ls=":")
    ax.set_xticks(range(len(cases)), cases)
    ax.set_ylabel("speed-up, verlet over cell (ns per particle-step)")
    ax.set_title("Verlet lists against the cell-linked list")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def ladder_lines(path, series, failures):
    """ns per particle-step and bytes per particle against N, one line per strategy.
    series[strategy] = [(n, ns, bytes_per_particle)]; failures[strategy] = [n] (out of memory
    or lists that did not fit), drawn as crosses on the axis."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4.2))
    for strategy, pts in sorted(series.items()):
        pts = sorted(pts)
        m, c = STRATEGY_MARKERS.get(strategy, "^"), STRATEGY_COLOURS.get(strategy, "C2")
        a1.plot([p[0] for p in pts], [p[1] for p in pts], marker=m, color=c, label=strategy)
        a2.plot([p[0] for p in pts], [p[2] for p in pts], marker=m, color=c, label=strategy)
    for strategy, ns in sorted(failures.items()):
        for ax in (a1, a2):
            ax.plot(ns, [0] * len(ns), "x", ms=10, mew=2, clip_on=False, color=STRATEGY_COLOURS.get(strategy, "C2"),
                    label=f"{strategy}: did not fit" if ax is a1 else None)
    for ax, label in ((a1, "ns per particle-step"), (a2, "peak device bytes per particle")):
        ax.set_xscale("log")
        ax.set_xlabel("particles")
        ax.set_ylabel(label)
        ax.set_ylim(bottom=0)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("DamBreak scaling ladder (single precision)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
