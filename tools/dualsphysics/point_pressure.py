"""The pressure at a point in every saved part of a DualSPHysics run, computed as this engine's
`pressure` gauge computes it (docs/case-format.md, Gauges): sum_j V_j W_ij p_j / sum_j V_j W_ij over the fluid
particles j, with V_j = m_j / rho_j, Wendland's kernel and p_j the Tait pressure
B ((rho_j / rho0)^gamma - 1). DualSPHysics has no such gauge (its examples use MeasureTool on the
parts); this puts its pressure beside ours with the same interpolation.

  python3 tools/dualsphysics/point_pressure.py RUNDIR X Y Z > pressure.csv

Writes `time [s];press [Pa];shepard [-]` (the pressure is 0 where no fluid particle is within 2h,
as the gauge writes it). Needs only Python 3.
"""
import math
import sys

import jbinary


def main(run, point):
    print("time [s];press [Pa];shepard [-]")
    for head, part, pos, rho, idp, nbound in jbinary.run_parts(run):
        b, rho0, gamma, h, mass = head["B"], head["Rhop0"], head["Gamma"], head["H"], head["MassFluid"]
        two_d = head["Data2d"] != 0
        alpha = 7.0 / (4.0 * math.pi * h * h) if two_d else 21.0 / (16.0 * math.pi * h ** 3)
        num = den = 0.0
        for k in range(len(idp)):
            if idp[k] < nbound:
                continue
            dx, dz = pos[k][0] - point[0], pos[k][2] - point[2]
            dy = 0.0 if two_d else pos[k][1] - point[1]
            r2 = dx * dx + dy * dy + dz * dz
            if r2 >= 4 * h * h:
                continue
            q = math.sqrt(r2) / h
            w = alpha * (1 - 0.5 * q) ** 4 * (2 * q + 1)
            v = mass / rho[k]
            num += v * w * b * ((rho[k] / rho0) ** gamma - 1)
            den += v * w
        press = num / den if den > 0 else 0.0
        print(f"{part['TimeStep']:.6f};{press:.4f};{den:.6f}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(sys.argv[1], [float(v) for v in sys.argv[2:5]])
