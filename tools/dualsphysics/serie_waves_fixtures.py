#!/usr/bin/env python3
"""Makes the fixtures of the irregular series' waves (<saveseriewaves>) and length
(<calcserielength>) of engine/tests/motion/test_irregular_paddles.cpp from DualSPHysics.

For each variant below, a copy of DualSPHysics' example CasePistonBeach_IRREG gets the variant's
<piston_spectrum> parameters, a <saveseriewaves> and a <calcserielength>; GenCase and
DualSPHysics 5.4 run it for a moment (-tmax:0.001), which is enough: it writes the series' waves
(WavePaddle_mkb0010_SerieWaves_o1.csv and _o2.csv) and prints the series' length when it starts.
The fixture serie_waves_NAME.csv holds, after a comment line with the variant and the length
DualSPHysics printed, the rows order;wave;timeini;height;period of both files.

    python3 tools/dualsphysics/serie_waves_fixtures.py EXAMPLES_DIR OUT_DIR

EXAMPLES_DIR: DualSPHysics' examples (the folder holding 09_WavesPiston). GENCASE and DUALSPHYSICS
name the binaries if they are not ../shared/tools/GenCase_linux64 and
../shared/tools/DualSPHysics5.4CPU_linux64.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from irregular_paddle_fixtures import EXAMPLES, set_child  # noqa: E402  (the same example and edits)
from wave_paddle_fixtures import run_files  # noqa: E402

# name: ({element: value}, saveseriewaves (timemin, timemax, xpos), calcserielength timemax)
VARIANTS = {
    "serie_waves_first": ({"waves": 50, "randomseed": 1234}, (0, 100, 0), 1000),
    "serie_waves_second": ({"waveorder": 2, "waves": 30, "discretization": "random", "randomseed": 7,
                            "waveperiod": 1.5}, (10, 60, 1.0), 300),
}


def make(examples, out, name, values, waves, length):
    xml = open(os.path.join(examples, EXAMPLES["piston"])).read()
    xml = set_child(xml, "waveorder", 1)
    for element, value in values.items():
        xml = set_child(xml, element, value)
    xml = re.sub(r"<saveserie [^>]*/>", "", xml, count=1)
    xml = re.sub(r"<savemotion [^>]*/>", '<saveseriewaves timemin="%g" timemax="%g" xpos="%g" />'
                 '<calcserielength timemax="%g" />' % (waves + (length,)), xml, count=1)
    names = ["WavePaddle_mkb0010_SerieWaves_o%d.csv" % order for order in (1, 2)]
    files = run_files(xml, names)
    printed = re.search(r"Serie length: (.*)", files["Run.out"]).group(1).strip()
    rows = []
    for order, file in zip((1, 2), names):
        lines = files[file].splitlines()
        header = lines.index("wave;timeini [s];height [m];period [s]")
        rows += ["%d;%s" % (order, ";".join(v.strip() for v in r.split(";"))) for r in lines[header + 1:] if r]
    with open(os.path.join(out, name + ".csv"), "w") as f:
        f.write("# DualSPHysics 5.4, piston_spectrum %s, saveseriewaves %s; serie length: %s\n" % (values, waves, printed))
        f.write("order;wave;timeini [s];height [m];period [s]\n")
        f.write("\n".join(rows) + "\n")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    examples, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name, (values, waves, length) in VARIANTS.items():
        make(examples, out, name, values, waves, length)
        print(name)


if __name__ == "__main__":
    main()
