#!/usr/bin/env python3
"""Makes the fixture of engine/tests/test_ciemito_validation.cpp from DualSPHysics' example
07_WavemakerFile (the CIEMito flume, Altomare et al. 2017):

    python3 tools/validation/ciemito_fixture.py EXAMPLES engine/tests/data/validation

EXAMPLES is DualSPHysics' examples folder. Writes
  * Ciemito_Def.xml: CaseWavemaker2D_Def.xml at dp 0.02 (four times the example's), up to 4 s,
    parts every 1 s, its data files renamed and the swl gauges of tools/validation/waves.py at
    the experiment's three wave gauges;
  * Ciemito_Piston_Movement.dat: the piston's measured motion up to 4.5 s;
  * Ciemito_Structure.stl: the example's structure, unchanged;
  * Ciemito_experiment.csv: the experiment's elevations at the three gauges up to 4.5 s.
"""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import waves  # noqa: E402

T_END = 4.5


def main(examples, out):
    spec = waves.CASES["wavemaker2d"]
    folder = os.path.join(examples, spec["folder"])
    with open(os.path.join(folder, spec["case"] + "_Def.xml")) as f:
        text = waves.patch_case(f.read(), spec["gauges"], 4)
    replacements = [(r'<definition dp="[^"]*"', '<definition dp="0.02"'),
                    (r'(<parameter key="TimeOut" value=")[^"]*(")', r"\g<1>1\2"),
                    (r'CaseWavemaker2D_Structure\.stl', "Ciemito_Structure.stl"),
                    (r'CaseWavemaker2D_Piston_Movement\.dat', "Ciemito_Piston_Movement.dat")]
    for pattern, repl in replacements:
        text, n = re.subn(pattern, repl, text, count=1)
        if n != 1:
            raise SystemExit(f"{pattern}: not found in the example")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "Ciemito_Def.xml"), "w") as f:
        f.write(text)
    shutil.copyfile(os.path.join(folder, "CaseWavemaker2D_Structure.stl"), os.path.join(out, "Ciemito_Structure.stl"))
    with open(os.path.join(folder, "CaseWavemaker2D_Piston_Movement.dat")) as src, \
            open(os.path.join(out, "Ciemito_Piston_Movement.dat"), "w") as dst:
        for line in src:
            fields = line.split()
            try:
                if float(fields[0]) > T_END:
                    break
            except (IndexError, ValueError):
                pass
            dst.write(line)
    exp = waves.exp_columns(os.path.join(folder, "EXP_CaseWavemaker2D_CIEMito.txt"), [(0, 2), (0, 3), (0, 4)])
    with open(os.path.join(out, "Ciemito_experiment.csv"), "w") as f:
        f.write("time [s];WG1 [m];WG2 [m];WG3 [m]\n")
        for k, t in enumerate(exp[0][0]):
            if t > T_END:
                break
            f.write(f"{t:g};{exp[0][1][k]:g};{exp[1][1][k]:g};{exp[2][1][k]:g}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
