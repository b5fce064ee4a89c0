#!/usr/bin/env python3
"""Makes the fixtures of the coarse validation tests in engine/tests (test_sloshing_validation,
test_ciemito_validation, test_cylinder_validation, test_floatingbox_validation) from DualSPHysics'
examples:

    python3 tools/validation/fixtures.py EXAMPLES engine/tests/data/validation [CASE ...]

EXAMPLES is DualSPHysics' examples folder; CASE is spheric10, ciemito, cylinder or floatingbox
(default: all).
Each case file is the example's own with a coarser dp, a shorter TimeMax, sparse parts, its data
files renamed after the fixture and the gauges of tools/validation/waves.py added; beside it go its
data files and the experiment's record over the time the test compares:

  * spheric10 (05_SloshingTank/CaseSloshingAcc): dp 0.008 (four times the example's), up to
    2.75 s (the first impact and 0.35 s after it), the pressure gauge every 0.2 ms;
    Spheric10_AccData.csv is waves.py's acceleration file (from CaseSloshingMotion's roll angle) up
    to 2.8 s, a row every 2 ms (the roll's period is 1.9 s); Spheric10_experiment.csv the pressure
    record from 2.2 to 2.8 s in time order.
  * ciemito (07_WavemakerFile/CaseWavemaker2D): dp 0.02 (four times), up to 4 s, the piston's
    measured motion and the experiment's three elevations up to 4.5 s, the structure unchanged.
  * cylinder (11_Floating/CaseFloatingSphereVal2D): dp 0.2 (eight times), up to 2.28 s (the 1 s
    FtPause and T = t sqrt(g/r) = 4 of the fall), the body's motion every 0.01 s; both references'
    displacements up to T = 4.5.
  * floatingbox (12_FloatingWaves/CaseFloatingWavesVal): dp 0.016 (eight times), up to 8.2 s (the
    experiment's record of the box ends at 8.14 s), the two wave probes and the box's motion every
    0.01 s, the flap's angles up to 8.3 s; FloatingBox_experiment.csv holds the record of the
    probes and of the box's heave, roll and sway up to 8.2 s as rows of (signal 0-4, time, value).
"""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import waves  # noqa: E402


def write_case(examples, out, case, name, dp, time_max, time_out, gauges, renames=()):
    """The example of waves.CASES[case] as OUT/NAME_Def.xml; returns the example's folder."""
    spec = waves.CASES[case]
    folder = os.path.join(examples, spec["folder"])
    with open(os.path.join(folder, spec["case"] + "_Def.xml")) as f:
        text = waves.patch_case(f.read(), gauges, time_max)
    replacements = [(r'<definition dp="[^"]*"', f'<definition dp="{dp}"'),
                    (r'(<parameter key="TimeOut" value=")[^"]*(")', r"\g<1>%g\2" % time_out)]
    replacements += [(re.escape(old), new) for old, new in renames]
    for pattern, repl in replacements:
        text, n = re.subn(pattern, repl, text, count=1)
        if n != 1:
            raise SystemExit(f"{case}: {pattern} not found in the example")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + "_Def.xml"), "w") as f:
        f.write(text)
    return folder


def write_rows(path, header, rows, fmt="%g"):
    with open(path, "w") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(";".join(fmt % v for v in r) + "\n")


def spheric10(examples, out):
    t_end = 2.8
    folder = write_case(examples, out, "sloshing", "Spheric10", 0.008, 2.75, 0.25,
                        [waves.pressure_gauge("P1", -0.4461, 0, 0.093, 0.0002)],
                        [("CaseSloshingAccData.csv", "Spheric10_AccData.csv")])
    spec = waves.CASES["sloshing"]
    rows = [r for r in waves.sloshing_acc_rows(os.path.join(folder, spec["motion_file"]), every=40) if r[0] <= t_end]
    write_rows(os.path.join(out, "Spheric10_AccData.csv"),
               "#Time;LinearAccX;LinearAccY;LinearAccZ;AngularAccX;AngularAccY;AngularAccZ", rows, "%.7g")
    et, ep = waves.sloshing_experiment(folder)
    write_rows(os.path.join(out, "Spheric10_experiment.csv"), "time [s];pressure [Pa]",
               [(t, p) for t, p in zip(et, ep) if 2.2 <= t <= t_end])


def ciemito(examples, out):
    t_end = 4.5
    folder = write_case(examples, out, "wavemaker2d", "Ciemito", 0.02, 4, 1, waves.CASES["wavemaker2d"]["gauges"],
                        [("CaseWavemaker2D_Structure.stl", "Ciemito_Structure.stl"),
                         ("CaseWavemaker2D_Piston_Movement.dat", "Ciemito_Piston_Movement.dat")])
    shutil.copyfile(os.path.join(folder, "CaseWavemaker2D_Structure.stl"), os.path.join(out, "Ciemito_Structure.stl"))
    with open(os.path.join(folder, "CaseWavemaker2D_Piston_Movement.dat")) as src, \
            open(os.path.join(out, "Ciemito_Piston_Movement.dat"), "w") as dst:
        for line in src:
            fields = line.split()
            try:
                if float(fields[0]) > t_end:
                    break
            except (IndexError, ValueError):
                pass
            dst.write(line)
    exp = waves.exp_columns(os.path.join(folder, "EXP_CaseWavemaker2D_CIEMito.txt"), [(0, 2), (0, 3), (0, 4)])
    write_rows(os.path.join(out, "Ciemito_experiment.csv"), "time [s];WG1 [m];WG2 [m];WG3 [m]",
               [(t, exp[0][1][k], exp[1][1][k], exp[2][1][k]) for k, t in enumerate(exp[0][0]) if t <= t_end])


def cylinder(examples, out):
    folder = write_case(examples, out, "floatingsphere2d", "Cylinder", 0.2, 2.28, 0.01, [])
    for ref, f in (("Fekken", "EXP_FloatingSphereVal2D_Displacement_Fekken2004.txt"),
                   ("MoyoGreenhow", "EXP_FloatingSphereVal2D_Displacement_Moyo&Greenhow2000.txt")):
        e = waves.exp_columns(os.path.join(folder, f), [(0, 1)])[0]
        write_rows(os.path.join(out, f"Cylinder_{ref}.csv"), "T [-];displacement [m]",
                   [(t, d) for t, d in zip(*e) if t <= 4.5])


def floatingbox(examples, out):
    t_end = 8.2
    folder = write_case(examples, out, "floatingwaves", "FloatingBox", 0.016, t_end, 0.01,
                        waves.CASES["floatingwaves"]["gauges"],
                        [("CaseFloatingWavesVal_Flap.dat", "FloatingBox_Flap.dat")])
    with open(os.path.join(folder, "CaseFloatingWavesVal_Flap.dat")) as src, \
            open(os.path.join(out, "FloatingBox_Flap.dat"), "w") as dst:
        for line in src:
            if float(line.split()[0]) > t_end + 0.1:
                break
            dst.write(line)
    exp = waves.exp_columns(os.path.join(folder, "EXP_FloatingWavesVal_Hadzic_et_al_2005.txt"),
                            [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)])
    write_rows(os.path.join(out, "FloatingBox_experiment.csv"),
               "signal (0 N1 [m], 1 N2 [m], 2 heave [m], 3 roll [deg], 4 sway [m]);time [s];value",
               [(k, t, v) for k, (ts, vs) in enumerate(exp) for t, v in zip(ts, vs) if t <= t_end], "%.9g")


CASES = {"spheric10": spheric10, "ciemito": ciemito, "cylinder": cylinder, "floatingbox": floatingbox}

if __name__ == "__main__":
    if len(sys.argv) < 3 or any(c not in CASES for c in sys.argv[3:]):
        sys.exit(__doc__)
    for c in sys.argv[3:] or list(CASES):
        CASES[c](sys.argv[1], sys.argv[2])
