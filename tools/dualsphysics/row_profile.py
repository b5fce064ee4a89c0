"""Mean x velocity of each fluid row (rows of height dp) of a DualSPHysics part: the Poiseuille profile.

  python3 tools/dualsphysics/row_profile.py PART.bi4 DP > Poiseuille_profile.csv
"""
import sys

import jbinary


def main(path, dp):
    head, part, a = jbinary.particles(path)
    nbound = head["CaseNp"] - head["CaseNfluid"]
    rows = {}
    for k, idp in enumerate(a["Idp"]):
        if idp >= nbound:
            rows.setdefault(round(a["Pos"][k][2] / (0.5 * dp)), []).append(a["Vel"][k][0])
    print(f"# DualSPHysics 5.4.355 (CPU), time {part['TimeStep']!r} s, step {part['Step']}")
    print("z [m];vx [m/s]")
    for key in sorted(rows):
        print(f"{key * 0.5 * dp:.9g};{sum(rows[key]) / len(rows[key]):.9g}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], float(sys.argv[2]))
