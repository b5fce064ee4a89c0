#!/usr/bin/env python3
"""Makes the active-absorption fixtures of engine/tests/motion/test_awas_agreement.cpp from DualSPHysics.

DualSPHysics' example CasePistonWallAWAS_REG (folder 10_WavesPistonAWAS) is coarsened to dp 0.04
(3,897 particles) and run for 0.6 s with a part every 0.01 s; DualSPHysics 5.4 writes the
piston's displacement x(t), the elevation z(t) its gauge measured and the target elevation at
every part (AWASData.csv, <savedata> 3). Two fixtures:

  * AwasTank2D: the example's regular waves, the ramp shortened to 0.1 periods and the absorption
    started at 0.25 s; AwasTank2D_awas.csv holds time, x, z (z is -swl before the absorption
    starts, when nothing is measured);
  * AwasIrregular2D: the same tank and absorption with irregular waves instead (a JONSWAP
    <piston_spectrum> of Hs 0.15 m and Tp 2 s, 50 stretched waves, second order, starting at
    0.05 s with a 0.15 s ramp, absorbing from the ramp's end, the default); AwasIrregular2D_awas.csv
    holds time, x, z, target, and AwasIrregular2D_elevation.csv the theory's elevation 1 m in front
    of the piston (WavePaddle_mkb0010.csv: time, first order, second order); the peak acceleration
    DualSPHysics printed goes into that file's header;
  * AwasDrift2D: AwasTank2D with DualSPHysics' drift correction on (<correction coefstroke="1.01"
    coefperiod="0.25" powerfunc="2">) and run to 1.9 s, so that the piston, drifting under the
    absorption, passes 1.01 S/2 at about 1.27 s and is brought back over the next 0.5 s;
    AwasDrift2D_awas.csv holds time, x, z as AwasTank2D's.

    python3 tools/dualsphysics/awas_fixture.py EXAMPLES_DIR OUT_DIR

EXAMPLES_DIR: DualSPHysics' examples (the folder holding 10_WavesPistonAWAS). GENCASE and
DUALSPHYSICS name the binaries if they are not ../shared/tools/GenCase_linux64 and
../shared/tools/DualSPHysics5.4CPU_linux64.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
GENCASE = os.environ.get("GENCASE", os.path.join(ROOT, "..", "shared", "tools", "GenCase_linux64"))
DUALSPHYSICS = os.environ.get("DUALSPHYSICS", os.path.join(ROOT, "..", "shared", "tools", "DualSPHysics5.4CPU_linux64"))

# (text in the example, its replacement): each must occur exactly once.
EDITS = [
    ('<definition dp="0.02">', '<definition dp="0.04">'),
    ('<ramp value="1"', '<ramp value="0.1"'),
    ('<startawas value="6"', '<startawas value="0.25"'),
    ('<savedata value="1"', '<savedata value="3"'),
    ('key="TimeMax" value="50"', 'key="TimeMax" value="0.6"'),
    ('key="TimeOut" value="0.05"', 'key="TimeOut" value="0.01"'),
]

# The irregular fixture's paddle, in place of the example's <piston> (its <awas_zsurf> kept
# without <startawas>).
SPECTRUM = """<piston_spectrum>
                    <mkbound value="10" />
                    <waveorder value="2" />
                    <start value="0.05" />
                    <duration value="0" />
                    <depth value="0.66" />
                    <pistondir x="1" y="0" z="0" />
                    <spectrum value="jonswap" />
                    <discretization value="stretched" />
                    <waveheight value="0.15" />
                    <waveperiod value="2" />
                    <peakcoef value="3.3" />
                    <waves value="50" />
                    <randomseed value="1234" />
                    <serieini value="560" autofit="true" />
                    <ramptime value="0.15" />
                    <savemotion time="0.6" timedt="0.01" xpos="1.0" zpos="-0.26" />
                    {awas}
                </piston_spectrum>"""


def edited_example(examples):
    text = open(os.path.join(examples, "10_WavesPistonAWAS", "CasePistonWallAWAS_REG_Def.xml")).read()
    for old, new in EDITS:
        if text.count(old) != 1:
            sys.exit(f"the example does not hold {old!r} exactly once")
        text = text.replace(old, new)
    return text


def irregular(text):
    piston = re.search(r"<piston>.*?</piston>", text, re.S).group(0)
    awas = re.search(r"<awas_zsurf>.*?</awas_zsurf>", piston, re.S).group(0)
    awas = re.sub(r"<startawas[^>]*/>\s*", "", awas)
    return text.replace(piston, SPECTRUM.format(awas=awas))


def run(out, name, text):
    """Writes OUT/NAME_Def.xml, runs GenCase and DualSPHysics on it; returns the run's folder's
    files as {name: text}."""
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + "_Def.xml"), "w") as f:
        f.write(text)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(out, name + "_Def.xml"), tmp)
        subprocess.run([GENCASE, name + "_Def", "gen/" + name], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([DUALSPHYSICS, "gen/" + name, "run", "-cpu", "-sv:none"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        return {f: open(os.path.join(tmp, "run", f)).read() for f in os.listdir(os.path.join(tmp, "run"))
                if f.endswith((".csv", ".out"))}


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    examples, out = argv[1], argv[2]
    text = edited_example(examples)
    files = run(out, "AwasTank2D", text)
    with open(os.path.join(out, "AwasTank2D_awas.csv"), "w") as f:
        f.write("# DualSPHysics 5.4.355 (CPU), AWASData.csv of AwasTank2D_Def.xml: the piston's displacement and the\n")
        f.write("# elevation its gauge measured (-swl before startawas), at every part\n")
        f.write("time [s];x [m];z [m]\n")
        for r in files["AWASData.csv"].splitlines()[1:]:
            v = r.split(";")
            f.write(f"{v[0]};{v[2]};{v[4]}\n")

    drift = text
    for old, new in (('<_correction coefstroke="1.8" coefperiod="1" powerfunc="3"',
                      '<correction coefstroke="1.01" coefperiod="0.25" powerfunc="2"'),
                     ('key="TimeMax" value="0.6"', 'key="TimeMax" value="1.9"')):
        if drift.count(old) != 1:
            sys.exit(f"the example does not hold {old!r} exactly once")
        drift = drift.replace(old, new)
    files = run(out, "AwasDrift2D", drift)
    with open(os.path.join(out, "AwasDrift2D_awas.csv"), "w") as f:
        f.write("# DualSPHysics 5.4.355 (CPU), AWASData.csv of AwasDrift2D_Def.xml: the piston's displacement and the\n")
        f.write("# elevation its gauge measured (-swl before startawas), at every part; its drift corrections:\n")
        for line in files["Run.out"].splitlines():
            if line.startswith("**Drift Correction>"):
                f.write(f"# {line}\n")
        f.write("time [s];x [m];z [m]\n")
        for r in files["AWASData.csv"].splitlines()[1:]:
            v = r.split(";")
            f.write(f"{v[0]};{v[2]};{v[4]}\n")

    files = run(out, "AwasIrregular2D", irregular(text))
    with open(os.path.join(out, "AwasIrregular2D_awas.csv"), "w") as f:
        f.write("# DualSPHysics 5.4.355 (CPU), AWASData.csv of AwasIrregular2D_Def.xml: the piston's displacement, the\n")
        f.write("# elevation its gauge measured (-swl before startawas) and the target elevation (0 before), at every part\n")
        f.write("time [s];x [m];z [m];target [m]\n")
        for r in files["AWASData.csv"].splitlines()[1:]:
            v = r.split(";")
            f.write(f"{v[0]};{v[2]};{v[4]};{v[7] if len(v) > 7 else 0}\n")
    peak = re.search(r"peak theoretical: ([0-9.]+)", files["Run.out"]).group(1)
    lines = files["WavePaddle_mkb0010.csv"].splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("Time [s]"))
    with open(os.path.join(out, "AwasIrregular2D_elevation.csv"), "w") as f:
        f.write("# DualSPHysics 5.4.355 (CPU), WavePaddle_mkb0010.csv of AwasIrregular2D_Def.xml: the theory's elevation\n")
        f.write(f"# at xpos 1 m, first and second order; its AWAS printed a peak theoretical acceleration of {peak} m/s^2\n")
        f.write("time [s];first order [m];second order [m]\n")
        for r in lines[header + 1:]:
            v = r.split(";")
            f.write(f"{v[0]};{v[2]};{v[3]}\n")


if __name__ == "__main__":
    main(sys.argv)
