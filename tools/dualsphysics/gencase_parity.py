#!/usr/bin/env python3
"""GenCase's particles as a compact fixture: per case, dp and mk block, the particle count and a
hash of the particles' lattice nodes in GenCase's order.

    gencase_parity.py OUT.csv CASE_Def.xml:DP[,DP...] ...

For each case and dp it runs GenCase (GenCase_linux64 beside ../shared/tools, or $GENCASE) on a
copy of the case with <definition dp> replaced, reads CASE.bi4 and the mk blocks of CASE.xml,
checks that every particle lies on the quarter-dp grid (pointmin + q * dp / 4, to 1e-9 dp: the
lattice nodes, and the node -/+ dp/4 (1, 1, 1) of the two particles per node of <lattice> 2) and
writes one row per mk block:

    case,dp,mk,count,hash

`case` is the file name as given (the test loads it from the repository), `hash` the FNV-1a 64-bit
hash of the particles' grid indices as little-endian int64 triples, sorted (the set of particles:
within a block, GenCase lists a prism's particles in its drawing order, which the generator does
not follow). The indices are the nodes' (i, j, k) when every particle of the block is on a node,
else the quarter-dp (q_x, q_y, q_z) of each particle (a block of two particles per node; a
particle on the node instead of beside it changes the hash). The engine's generator must give the
same blocks in the same order with the same hashes (engine/tests/geometry/test_gencase_parity.cpp).
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import jbinary

HERE = os.path.dirname(os.path.abspath(__file__))
GENCASE = os.environ.get("GENCASE", os.path.join(HERE, "../../../shared/tools/GenCase_linux64"))


def fnv1a(data, h=0xcbf29ce484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def gencase(def_path, dp, work):
    case = os.path.basename(def_path)[:-len("_Def.xml")] if def_path.endswith("_Def.xml") else \
        os.path.splitext(os.path.basename(def_path))[0]
    text = open(def_path).read()
    text, n = re.subn(r'(<definition\b[^>]*\bdp=")[^"]*(")', r"\g<1>%r\g<2>" % dp, text, count=1)
    if n != 1:
        sys.exit(f"{def_path}: no <definition dp=...>")
    folder = os.path.dirname(os.path.abspath(def_path))
    for f in os.listdir(folder):  # files the case may name (materials, meshes)
        src = os.path.join(folder, f)
        if os.path.isfile(src) and f.endswith((".xml", ".stl", ".vtk", ".ply", ".csv", ".txt")):
            shutil.copy(src, work)
        elif os.path.isdir(src) and f == "materials":
            shutil.copytree(src, os.path.join(work, f))
            for m in os.listdir(src):  # GenCase looks for property files beside the case
                shutil.copy(os.path.join(src, m), work)
    open(os.path.join(work, case + "_Def.xml"), "w").write(text)
    r = subprocess.run([GENCASE, os.path.join(work, case + "_Def"), os.path.join(work, "out", case)],
                       capture_output=True, text=True, cwd=work)
    if r.returncode != 0:
        sys.exit(f"GenCase failed on {def_path} at dp {dp}:\n{r.stdout[-2000:]}")
    return os.path.join(work, "out", case)


def rows(def_path, dp):
    with tempfile.TemporaryDirectory() as work:
        out = gencase(def_path, dp, work)
        root = ET.parse(out + ".xml").getroot()
        pmin = root.find("casedef/geometry/definition/pointmin")
        # "#-10*Dp": GenCase's expressions over Dp, which is all pointmin uses in these cases.
        pmin = [eval(v[1:], {"__builtins__": {}}, {"Dp": dp}) if v.startswith("#") else float(v)
                for v in (pmin.get(a).strip() for a in "xyz")]
        _, _, arrays = jbinary.particles(out + ".bi4")
        pos = arrays.get("Posd") or arrays["Pos"]
        ids = arrays["Idp"]
        by_id = [None] * len(ids)
        for p, i in zip(pos, ids):
            by_id[i] = p
        quarters = []
        for p in by_id:
            q = [round((p[a] - pmin[a]) / (dp / 4)) for a in range(3)]
            if any(abs(p[a] - (pmin[a] + q[a] * dp / 4)) > 1e-9 * dp for a in range(3)):
                sys.exit(f"{def_path} dp {dp}: particle at {p} is neither on a lattice node nor dp/4 beside one")
            quarters.append(q)
        for block in root.find("execution/particles"):
            if block.tag not in ("fixed", "moving", "floating", "fluid"):
                continue
            begin, count = int(block.get("begin")), int(block.get("count"))
            grid = quarters[begin:begin + count]
            if all(x % 4 == 0 for q in grid for x in q):
                grid = [[x // 4 for x in q] for q in grid]
            h = 0xcbf29ce484222325
            for ijk in sorted(grid):
                h = fnv1a(struct.pack("<3q", *ijk), h)
            yield (block.get("mk"), count, "%016x" % h)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    lines = ["case,dp,mk,count,hash"]
    for arg in sys.argv[2:]:
        path, dps = arg.rsplit(":", 1)
        for dp in dps.split(","):
            for mk, count, h in rows(path, float(dp)):
                lines.append(f"{path},{dp},{mk},{count},{h}")
            print(f"{path} dp {dp}: done", file=sys.stderr)
    open(sys.argv[1], "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
