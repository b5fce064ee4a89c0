"""Moving objects' particles of a DualSPHysics run, for the motion agreement test
(engine/tests/motion/test_motion_dualsphysics.cpp).

  python3 tools/dualsphysics/motion_fixture.py RUNDIR OUT.csv MK:FIRST-END[:EVERY] ...

For each saved part after the first (run with SavePosDouble 1, -sv:binx) and each moving block (mkbound MK,
particle ids FIRST..END-1 as GenCase's CASE.out lists them, every EVERY-th), writes
time;mk;id;x0;y0;z0;x;y;z: the part's time, the particle's position at the start (Part_0000) and then.
"""
import glob
import os
import sys

import jbinary


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    rundir, out = argv[1:3]
    blocks = []
    for arg in argv[3:]:
        mk, ids, *every = arg.split(":")
        first, end = (int(v) for v in ids.split("-"))
        blocks.append((int(mk), first, end, int(every[0]) if every else 1))
    parts = sorted(glob.glob(os.path.join(rundir, "data", "Part_*.bi4")))
    _, _, arrays = jbinary.particles(parts[0])
    start = dict(zip(arrays["Idp"], arrays["Posd"]))
    with open(out, "w") as f:
        f.write("# DualSPHysics 5.4.355 (CPU), positions in double precision (SavePosDouble 1)\n")
        f.write("time;mk;id;x0;y0;z0;x;y;z\n")
        for path in parts[1:]:
            _, part, arrays = jbinary.particles(path)
            pos = dict(zip(arrays["Idp"], arrays["Posd"]))
            for mk, first, end, every in blocks:
                for idp in range(first, end, every):
                    p0, p = start[idp], pos[idp]
                    f.write(f"{part['TimeStep']!r};{mk};{idp};" + ";".join(f"{v!r}" for v in (*p0, *p)) + "\n")


if __name__ == "__main__":
    main(sys.argv)
