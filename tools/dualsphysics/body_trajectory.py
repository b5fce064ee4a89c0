"""The trajectory of one floating body in a DualSPHysics run, from its saved parts.

  python3 tools/dualsphysics/body_trajectory.py RUNDIR ID_FIRST ID_END OUT.csv

For every RUNDIR/data/Part_*.bi4: the time, then the mean position and velocity of the particles
with ids in [ID_FIRST, ID_END) (GenCase's "Floating" id range of the body in CASE.out), written
to OUT.csv (time;cx;cy;cz;vx;vy;vz). The mean of a rigid body's particles is its centre when the
centre is their mean at the start, as GenCase computes it.
"""
import glob
import os
import sys

import jbinary


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    run, lo, hi, out = argv[1], int(argv[2]), int(argv[3]), argv[4]
    with open(out, "w") as f:
        f.write("time;cx;cy;cz;vx;vy;vz\n")
        for path in sorted(glob.glob(os.path.join(run, "data", "Part_*.bi4"))):
            _, part, a = jbinary.particles(path)
            pos = a["Posd"] if "Posd" in a else a["Pos"]
            s = [0.0] * 6
            n = 0
            for k, i in enumerate(a["Idp"]):
                if lo <= i < hi:
                    for c in range(3):
                        s[c] += pos[k][c]
                        s[3 + c] += a["Vel"][k][c]
                    n += 1
            if n == 0:
                sys.exit(f"{path}: no particle with an id in [{lo}, {hi})")
            f.write(f"{part['TimeStep']!r};" + ";".join(f"{v / n:.9g}" for v in s) + "\n")


if __name__ == "__main__":
    main(sys.argv)
