#!/usr/bin/env python3
"""Makes the multi-layer piston fixtures of engine/tests/motion/test_ml_pistons.cpp from DualSPHysics.

Each variant is a small case (NAME_Def.xml: a piston of mk 10 with <mvnull>, a little fluid, DtFixed)
with its velocity file(s); GenCase and DualSPHysics 5.4 run it with a part every 0.01 s:

    GenCase_linux64 RUN/Pis_Def RUN/out/Pis -save:all     (the velocity files copied to RUN/out)
    DualSPHysics5.4CPU_linux64 RUN/out/Pis RUN/run -cpu -sv:binx

The fixture NAME_piston.csv keeps every EVERY-th part: time;id;x;y;z;vx of each piston particle
(those of the first part with x below XMAX), in double precision (SavePosDouble).

    python3 tools/dualsphysics/ml_piston_fixtures.py RUNDIR NAME XMAX EVERY > NAME_piston.csv
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jbinary  # noqa: E402


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    run, name, xmax, every = argv[1], argv[2], float(argv[3]), int(argv[4])
    parts = sorted(glob.glob(os.path.join(run, "data", "Part_*.bi4")))
    _, _, first = jbinary.particles(parts[0])
    pos0 = first["Posd"] if "Posd" in first else first["Pos"]
    piston = {idp for idp, p in zip(first["Idp"], pos0) if p[0] < xmax}
    print(f"# DualSPHysics 5.4.355 CPU on {name}_Def.xml: the piston's particles every {every} parts")
    print("time;id;x;y;z;vx")
    for k, path in enumerate(parts):
        if k % every:
            continue
        _, part, a = jbinary.particles(path)
        pos = a["Posd"] if "Posd" in a else a["Pos"]
        for idp, p, v in zip(a["Idp"], pos, a["Vel"]):
            if idp in piston:
                print(f"{part['TimeStep']!r};{idp};{p[0]!r};{p[1]!r};{p[2]!r};{v[0]!r}")


if __name__ == "__main__":
    main(sys.argv)
