"""Turns a DualSPHysics run into the fixtures of the agreement tests (engine/tests/data/dualsphysics).

  python3 tools/dualsphysics/make_fixtures.py RUNDIR NAME OUTDIR [STEP[:EVERY] ...]

RUNDIR is a DualSPHysics run with -svsteps:1 (a part per step) and -svres:1 (RunPARTs.csv).
Writes OUTDIR/NAME_steps.csv (the time after every step) and, for each STEP, OUTDIR/NAME_state_STEP.csv
with every EVERY-th particle (by id; all by default): id;x;y;z;vx;vy;vz;rho in float precision.
Step 0 is the initial state (GenCase's particles). The tests match particles by their position at step 0.
Needs DualSPHysics and GenCase only to make the run (see README.md there), not to run the tests.
"""
import csv
import os
import sys

import jbinary


def write_state(path, bi4, every, note):
    _, part, arrays = jbinary.particles(bi4)
    pos = arrays["Posd"] if "Posd" in arrays else arrays["Pos"]
    with open(path, "w") as f:
        f.write(f"# {note}; time {part['TimeStep']!r} s, step {part['Step']}\n")
        f.write("id;x;y;z;vx;vy;vz;rho\n")
        for k, idp in enumerate(arrays["Idp"]):
            if idp % every:
                continue
            p, v = pos[k], arrays["Vel"][k]
            f.write(f"{idp};{p[0]:.9g};{p[1]:.9g};{p[2]:.9g};{v[0]:.9g};{v[1]:.9g};{v[2]:.9g};{arrays['Rhop'][k]:.9g}\n")


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    rundir, name, outdir = argv[1:4]
    os.makedirs(outdir, exist_ok=True)
    rows = list(csv.reader(open(os.path.join(rundir, "RunPARTs.csv")), delimiter=";"))
    col = rows[0].index("TimeStep [s]")
    with open(os.path.join(outdir, f"{name}_steps.csv"), "w") as f:
        f.write("step;time [s]\n")
        for r in rows[1:]:
            if not r or r[0].startswith("#"):
                continue
            f.write(f"{r[0]};{float(r[col])!r}\n")
    for arg in argv[4:]:
        step, _, every = arg.partition(":")
        step, every = int(step), int(every or 1)
        bi4 = os.path.join(rundir, "data", f"Part_{step:04d}.bi4")
        note = "DualSPHysics 5.4.355 (CPU), " + ("GenCase's particles" if step == 0 else "after the step")
        write_state(os.path.join(outdir, f"{name}_state_{step}.csv"), bi4, every, note)


if __name__ == "__main__":
    main(sys.argv)
