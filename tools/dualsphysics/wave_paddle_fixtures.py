#!/usr/bin/env python3
"""Makes the wave-paddle fixtures of engine/tests/motion/test_wave_paddles.cpp from DualSPHysics itself.

For each variant below, a copy of DualSPHysics' example CasePistonBeach_REG (piston) or
CaseFlapBeach_REG (flap) gets the variant's paddle parameters and a <savemotion> of 3 periods
at 40 samples per period; GenCase and DualSPHysics 5.4 run it for a moment (-tmax:0.001), which
is enough: DualSPHysics writes the paddle's whole law (WavePaddle_mkb0010.csv) when it starts.
The fixture keeps the time and the position (m) or angle (rad) columns, and a first comment line
with the wave length DualSPHysics printed.

    python3 tools/dualsphysics/wave_paddle_fixtures.py EXAMPLES_DIR OUT_DIR

EXAMPLES_DIR: DualSPHysics' examples (the folder holding 08_WavesFlap and 09_WavesPiston).
GENCASE and DUALSPHYSICS name the binaries if they are not ../shared/tools/GenCase_linux64 and
../shared/tools/DualSPHysics5.4CPU_linux64.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED_TOOLS = os.path.join(HERE, "..", "..", "..", "shared", "tools")
GENCASE = os.environ.get("GENCASE", os.path.join(SHARED_TOOLS, "GenCase_linux64"))
DSPH = os.environ.get("DUALSPHYSICS", os.path.join(SHARED_TOOLS, "DualSPHysics5.4CPU_linux64"))

# name: (example, {element: value}); elements are the paddle's children with a value attribute.
VARIANTS = {
    "piston_order2_ramp": ("piston", {"waveorder": 2, "ramp": 1}),
    "piston_order1_shallow": ("piston", {"waveorder": 1, "ramp": 0, "waveheight": 0.05, "waveperiod": 3, "depth": 0.4}),
    "piston_start_duration_phase": ("piston", {"waveorder": 2, "ramp": 0.5, "start": 0.5, "duration": 3.3,
                                               "phase": 0.25, "waveheight": 0.1, "waveperiod": 1.5, "depth": 0.5}),
    "piston_gain": ("piston", {"waveorder": 2, "ramp": 0, "gainstroke": 1.5}),
    "flap_order2_ramp": ("flap", {"waveorder": 2, "ramp": 1}),
    "flap_order2_deep": ("flap", {"waveorder": 2, "ramp": 0, "waveheight": 0.2, "waveperiod": 2.5, "depth": 1.0}),
    "flap_order1_draft_up": ("flap", {"waveorder": 1, "ramp": 0, "variabledraft": 0.2}),
    "flap_order1_draft_down": ("flap", {"waveorder": 1, "ramp": 0, "variabledraft": -0.1}),
    "flap_order2_draft_up": ("flap", {"waveorder": 2, "ramp": 0, "variabledraft": 0.2}),
    "flap_order2_draft_down": ("flap", {"waveorder": 2, "ramp": 0, "variabledraft": -0.2}),
}
EXAMPLES = {"piston": "09_WavesPiston/CasePistonBeach_REG_Def.xml", "flap": "08_WavesFlap/CaseFlapBeach_REG_Def.xml"}


def set_value(xml, element, value):
    pattern = re.compile(r"<%s value=\"[^\"]*\"" % element)
    if pattern.search(xml):
        return pattern.sub('<%s value="%g"' % (element, value), xml, count=1)
    # not in the example: add it after <mkbound>
    return re.sub(r"(<mkbound value=\"10\"[^>]*/>)", r'\1<%s value="%g" />' % (element, value), xml, count=1)


def run_files(xml, names):
    """The files `names` of the run folder (and Run.out) of GenCase and DualSPHysics on the case file
    text `xml`, run for a moment: DualSPHysics writes the paddles' laws and series when it starts."""
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "Case_Def.xml"), "w") as f:
            f.write(xml)
        subprocess.run([GENCASE, "Case_Def", "gc/Case"], cwd=tmp, check=True, capture_output=True)
        subprocess.run([DSPH, "gc/Case", "run", "-cpu", "-ompthreads:2", "-tmax:0.001", "-sv:none"], cwd=tmp,
                       check=True, capture_output=True)
        return {n: open(os.path.join(tmp, "run", n)).read() for n in list(names) + ["Run.out"]}


def paddle_csv(xml):
    """The WavePaddle_mkb0010.csv DualSPHysics writes for the case file text `xml`."""
    return run_files(xml, ["WavePaddle_mkb0010.csv"])["WavePaddle_mkb0010.csv"]


def motion_rows(text):
    """The (time, position) text pairs of a WavePaddle_mkb*.csv's rows."""
    return [line.split(";")[:2] for line in text.splitlines() if line[:1].isdigit()]


def write_fixture(out, name, comment, rows):
    """OUT/NAME.csv: a comment line, then time;position rows as DualSPHysics printed them."""
    with open(os.path.join(out, name + ".csv"), "w") as f:
        f.write("# %s\n" % comment)
        for t, x in rows:
            f.write("%s;%s\n" % (t, x))


def make(examples, out, name, kind, values):
    xml = open(os.path.join(examples, EXAMPLES[kind])).read()
    for element, value in values.items():
        xml = set_value(xml, element, value)
    xml = re.sub(r"<savemotion [^>]*/>", '<savemotion periods="3" periodsteps="40" />', xml, count=1)
    text = paddle_csv(xml)
    length = re.search(r"WaveLength: ([0-9.eE+-]+)", text).group(1)
    write_fixture(out, name, "DualSPHysics 5.4, %s %s; wave length %s m" % (kind, values, length), motion_rows(text))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    examples, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name, (kind, values) in VARIANTS.items():
        make(examples, out, name, kind, values)
        print(name)


if __name__ == "__main__":
    main()
