#!/usr/bin/env python3
"""Makes the active-absorption fixture of engine/tests/test_awas_agreement.cpp from DualSPHysics.

DualSPHysics' example CasePistonWallAWAS_REG (folder 10_WavesPistonAWAS) is coarsened to dp 0.04
(3,897 particles), its ramp shortened to 0.1 periods and its absorption started at 0.25 s, and run
for 0.6 s with a part every 0.01 s; DualSPHysics 5.4 writes the piston's displacement x(t) and
the elevation z(t) its gauge measured at every part (AWASData.csv, <savedata> 3). The fixture is
the case (AwasTank2D_Def.xml) and those columns (AwasTank2D_awas.csv: time, x, z; z is -swl
before the absorption starts, when nothing is measured).

    python3 tools/dualsphysics/awas_fixture.py EXAMPLES_DIR OUT_DIR

EXAMPLES_DIR: DualSPHysics' examples (the folder holding 10_WavesPistonAWAS). GENCASE and
DUALSPHYSICS name the binaries if they are not ../shared/tools/GenCase_linux64 and
../shared/tools/DualSPHysics5.4CPU_linux64.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
GENCASE = os.environ.get("GENCASE", os.path.join(ROOT, "..", "shared", "tools", "GenCase_linux64"))
DUALSPHYSICS = os.environ.get("DUALSPHYSICS", os.path.join(ROOT, "..", "shared", "tools", "DualSPHysics5.4CPU_linux64"))

# (text in the example, its replacement): each must occur exactly once.
EDITS = [
    ('<definition dp="0.02">', '<definition dp="0.04">'),
    ('<ramp value="1"', '<ramp value="0.1"'),
    ('<startawas value="6"', '<startawas value="0.25"'),
    ('<savedata value="1"', '<savedata value="3"'),
    ('key="TimeMax" value="50"', 'key="TimeMax" value="0.6"'),
    ('key="TimeOut" value="0.05"', 'key="TimeOut" value="0.01"'),
]


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    examples, out = argv[1], argv[2]
    text = open(os.path.join(examples, "10_WavesPistonAWAS", "CasePistonWallAWAS_REG_Def.xml")).read()
    for old, new in EDITS:
        if text.count(old) != 1:
            sys.exit(f"the example does not hold {old!r} exactly once")
        text = text.replace(old, new)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "AwasTank2D_Def.xml"), "w") as f:
        f.write(text)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(out, "AwasTank2D_Def.xml"), tmp)
        subprocess.run([GENCASE, "AwasTank2D_Def", "gen/AwasTank2D"], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([DUALSPHYSICS, "gen/AwasTank2D", "run", "-cpu", "-sv:none"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        rows = open(os.path.join(tmp, "run", "AWASData.csv")).read().splitlines()[1:]
    with open(os.path.join(out, "AwasTank2D_awas.csv"), "w") as f:
        f.write("# DualSPHysics 5.4.355 (CPU), AWASData.csv of AwasTank2D_Def.xml: the piston's displacement and the\n")
        f.write("# elevation its gauge measured (-swl before startawas), at every part\n")
        f.write("time [s];x [m];z [m]\n")
        for r in rows:
            v = r.split(";")
            f.write(f"{v[0]};{v[2]};{v[4]}\n")


if __name__ == "__main__":
    main(sys.argv)
