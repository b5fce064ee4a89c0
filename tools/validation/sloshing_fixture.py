#!/usr/bin/env python3
"""Makes the fixture of engine/tests/test_sloshing_validation.cpp from DualSPHysics' example
05_SloshingTank (SPHERIC benchmark 10):

    python3 tools/validation/sloshing_fixture.py EXAMPLES engine/tests/data/validation

EXAMPLES is DualSPHysics' examples folder. Writes
  * Spheric10_Def.xml: CaseSloshingAcc_Def.xml at dp 0.008 (four times the example's), up to
    2.75 s (the first impact and 0.35 s after it), parts every 0.25 s, the acceleration file
    renamed and the pressure gauge of tools/validation/waves.py at the wall sensor, every 0.2 ms;
  * Spheric10_AccData.csv: the acceleration file of waves.py (from CaseSloshingMotion's roll
    angle) up to 2.8 s, a row every 2 ms (the roll's period is 1.9 s);
  * Spheric10_experiment.csv: the experiment's pressure record from 2.2 to 2.8 s, in time order.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import waves  # noqa: E402

T_END = 2.8


def main(examples, out):
    spec = waves.CASES["sloshing"]
    folder = os.path.join(examples, spec["folder"])
    with open(os.path.join(folder, spec["case"] + "_Def.xml")) as f:
        text = waves.patch_case(f.read(), [waves.pressure_gauge("P1", -0.4461, 0, 0.093, 0.0002)], 2.75)
    replacements = [(r'<definition dp="[^"]*"', '<definition dp="0.008"'),
                    (r'(<parameter key="TimeOut" value=")[^"]*(")', r"\g<1>0.25\2"),
                    (r'(<acctimesfile value=")[^"]*(")', r"\g<1>Spheric10_AccData.csv\2")]
    for pattern, repl in replacements:
        text, n = re.subn(pattern, repl, text, count=1)
        if n != 1:
            raise SystemExit(f"{pattern}: not found in the example")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "Spheric10_Def.xml"), "w") as f:
        f.write(text)
    rows = [r for r in waves.sloshing_acc_rows(os.path.join(folder, spec["motion_file"]), every=40) if r[0] <= T_END]
    with open(os.path.join(out, "Spheric10_AccData.csv"), "w") as f:
        f.write("#Time;LinearAccX;LinearAccY;LinearAccZ;AngularAccX;AngularAccY;AngularAccZ\n")
        for r in rows:
            f.write(";".join("%.7g" % v for v in r) + "\n")
    et, ep = waves.sloshing_experiment(folder)
    with open(os.path.join(out, "Spheric10_experiment.csv"), "w") as f:
        f.write("time [s];pressure [Pa]\n")
        for t, p in zip(et, ep):
            if 2.2 <= t <= T_END:
                f.write(f"{t:g};{p:g}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
