"""Compares this engine's VTK parts with DualSPHysics' parts of the same particles, step by step.

  python3 tools/dualsphysics/compare_parts.py DSRUN OURS [STEP ...] [--worst]

DSRUN: a DualSPHysics run with a part per step (-svsteps:1 -sv:binx); its data/Part_0000.bi4 is
the initial state. OURS: the output folder of `sph run CASE.xml --steps N --time-out 1e-9`
(a VTK part per step). For each step (default: every step both have), prints the largest and
mean differences of position, velocity and density over boundary and fluid particles, matched
by their initial positions. This is how a formula that differs from DualSPHysics' shows up:
after one step the differences must be DualSPHysics' float rounding (~1e-8 m, ~1e-6 m/s,
~1e-4 kg/m^3); a term that differs leaves a pattern in the particles it touches (print them
with --worst). Needs numpy.
"""
import glob
import os
import sys

import numpy as np

import jbinary


def read_vtk(path):
    """Positions, velocities, density and Idp of one of this engine's legacy binary VTK parts."""
    data = open(path, "rb").read()
    pos = 0

    def line():
        nonlocal pos
        end = data.index(b"\n", pos)
        text, pos = data[pos:end].decode(), end + 1
        return text

    def skip_newline():
        nonlocal pos
        if data[pos:pos + 1] == b"\n":
            pos += 1

    def array(dtype, count):
        nonlocal pos
        a = np.frombuffer(data, dtype=dtype, count=count, offset=pos)
        pos += a.nbytes
        skip_newline()
        return a.astype(float)

    for _ in range(4):
        line()
    _, n, kind = line().split()
    n = int(n)
    out = {"pos": array(">f8" if kind == "double" else ">f4", 3 * n).reshape(n, 3)}
    line()
    array(">i4", 2 * n)  # vertices
    line()
    line()
    out["vel"] = array(">f4", 3 * n).reshape(n, 3)
    line()  # FIELD
    types = {"float": ">f4", "unsigned_char": "u1", "int": ">i4", "unsigned_int": ">u4"}
    for _ in range(5):
        name, _, _, kind = line().split()
        out[name] = array(types[kind], n)
    return out


def read_bi4(path):
    head, part, a = jbinary.particles(path)
    pos = np.array(a["Posd"] if "Posd" in a else a["Pos"], dtype=float)
    return {"pos": pos, "vel": np.array(a["Vel"], dtype=float), "Rhop": np.array(a["Rhop"], dtype=float),
            "Idp": np.array(a["Idp"], dtype=float), "nbound": head["CaseNp"] - head["CaseNfluid"]}


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    dsrun, ours = argv[1], argv[2]
    worst = "--worst" in argv
    ds_parts = sorted(glob.glob(os.path.join(dsrun, "data", "Part_*.bi4")))
    our_parts = sorted(glob.glob(os.path.join(ours, "vtk", "Part_*.vtk")))
    steps = [int(a) for a in argv[3:] if a.isdigit()] or range(min(len(ds_parts), len(our_parts)))
    key = lambda p: tuple(np.round(p * 1e6).astype(np.int64))
    d0, o0 = read_bi4(ds_parts[0]), read_vtk(our_parts[0])
    ds_of = {key(p): int(i) for p, i in zip(d0["pos"], d0["Idp"])}
    twin = {int(i): ds_of[key(p)] for p, i in zip(o0["pos"], o0["Idp"])}
    for s in steps:
        d, o = read_bi4(ds_parts[s]), read_vtk(our_parts[s])
        row = {int(i): k for k, i in enumerate(d["Idp"])}
        order = np.array([row[twin[int(i)]] for i in o["Idp"]])
        bound = d["Idp"][order] < d["nbound"]
        text = []
        for name, ds_key in (("pos", "pos"), ("vel", "vel"), ("Rhop", "Rhop")):
            diff = np.abs(o[name] - d[ds_key][order]).reshape(len(order), -1).max(axis=1)
            text.append(f"{name}: walls {diff[bound].max(initial=0):.3g}, fluid {diff[~bound].max(initial=0):.3g} "
                        f"(mean {diff[~bound].mean():.3g})")
            if worst and name == "vel":
                for k in np.argsort(-diff)[:10]:
                    print("   ", d["pos"][order][k], "ours", o["vel"][k], "DualSPHysics", d["vel"][order][k])
        print(f"step {s}: " + " | ".join(text))


if __name__ == "__main__":
    main(sys.argv)
