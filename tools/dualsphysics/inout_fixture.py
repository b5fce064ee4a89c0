"""Turns a DualSPHysics run of an inlet/outlet case into its agreement fixture
(engine/tests/data/inout/NAME_dualsphysics.csv, read by engine/tests/run/test_inout_runs.cpp).

  python3 tools/dualsphysics/inout_fixture.py RUNDIR NAME COMMANDS > NAME_dualsphysics.csv

RUNDIR is DualSPHysics' output folder of a run with -svres (RunPARTs.csv) and velocity gauges
(GaugesVel_*.csv); COMMANDS the GenCase and DualSPHysics command lines that made it, for the head.
Rows: part;PART;time;np;excluded so far (NpSim and the running sum of NpOut), then
gauge;NAME;time;velx;velz for every 5th sample of each velocity gauge.
"""
import csv
import glob
import os
import sys


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    rundir, name, commands = argv[1:4]
    print(f"# DualSPHysics 5.4.355 CPU on {name}_Def.xml (GenCase particles): {commands}")
    print("# part rows: kind;part;time;np;excluded_total (RunPARTs.csv: NpSim, NpOut summed)")
    print("# gauge rows: kind;name;time;velx;velz (GaugesVel_NAME.csv, every 5th row)")
    rows = list(csv.reader(open(os.path.join(rundir, "RunPARTs.csv")), delimiter=";"))
    head = rows[0]
    col = {k: head.index(k) for k in ("Part", "TimeStep [s]", "NpSim", "NpOut")}
    out = 0
    for r in rows[1:]:
        if not r or r[0].startswith("#"):
            continue
        num = lambda k: r[col[k]].replace(",", "")
        out += int(num("NpOut"))
        print(f"part;{num('Part')};{float(num('TimeStep [s]')):g};{num('NpSim')};{out}")
    for path in sorted(glob.glob(os.path.join(rundir, "GaugesVel_*.csv"))):
        gauge = os.path.basename(path)[len("GaugesVel_"):-4]
        samples = list(csv.reader(open(path), delimiter=";"))[1:]
        for k in range(5, len(samples), 5):
            t, vx, _, vz = samples[k][:4]
            print(f"gauge;{gauge};{float(t):g};{float(vx):g};{float(vz):g}")


if __name__ == "__main__":
    main(sys.argv)
