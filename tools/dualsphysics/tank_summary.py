"""Summary of a DualSPHysics run of the still-water tank (engine/tests/data/dualsphysics/StillTank_Def.xml).

  python3 tools/dualsphysics/tank_summary.py RUNDIR DP > StillTank_summary.csv

For every saved part (Part_NNNN.bi4): the time, the fluid particles left, the lowest fluid particle
above the floor (in dp) and the mean Tait pressure of the floor particles in the middle of the tank
(0.1 < x < 0.3, 0.05 < y < 0.15; in rho0 |g| H with H = 0.2 m), the quantities test_still_tank.cpp
compares.
"""
import sys

import jbinary


def main(run, dp):
    print("time [s];fluid;lowest fluid [dp];floor pressure [rho g H]")
    for head, part, pos, rho, idp, nbound in jbinary.run_parts(run):
        b, rho0, gamma = head["B"], head["Rhop0"], head["Gamma"]
        fluid = [k for k in range(len(idp)) if idp[k] >= nbound]
        lowest = min(pos[k][2] for k in fluid)
        floor = [b * ((rho[k] / rho0) ** gamma - 1) for k in range(len(idp))
                 if idp[k] < nbound and pos[k][2] < 0.5 * dp and 0.1 < pos[k][0] < 0.3 and 0.05 < pos[k][1] < 0.15]
        print(f"{part['TimeStep']:.4f};{len(fluid)};{lowest / dp:.4f};{sum(floor) / len(floor) / (rho0 * 9.81 * 0.2):.4f}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], float(sys.argv[2]))
