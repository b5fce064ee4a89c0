#!/usr/bin/env python3
"""Makes the solitary-wave paddle fixtures of engine/tests/motion/test_solitary_paddles.cpp from DualSPHysics.

For each variant below, a copy of DualSPHysics' example CaseSolitaryWave_Boussinesq (one wave)
or CaseTripleSolitaryWave (several) gets the variant's <piston_solitary> parameters and a
<savemotion> of `time` seconds every 0.02 s; GenCase and DualSPHysics 5.4 run it for a moment
(-tmax:0.001), which is enough: DualSPHysics writes the paddle's whole law
(WavePaddle_mkb0010.csv) when it starts. The fixture keeps the time and position columns of the
rows from the paddle's start on, and a first comment line with the variant and the wave lengths,
generation times and strokes DualSPHysics printed.

    python3 tools/dualsphysics/solitary_paddle_fixtures.py EXAMPLES_DIR OUT_DIR

EXAMPLES_DIR: DualSPHysics' examples (the folder holding 16_SolitaryWaves). GENCASE and
DUALSPHYSICS name the binaries if they are not ../shared/tools/GenCase_linux64 and
../shared/tools/DualSPHysics5.4CPU_linux64.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wave_paddle_fixtures import motion_rows, paddle_csv, set_value, write_fixture  # noqa: E402  (the same runs, edits and files)

EXAMPLES = {"single": "16_SolitaryWaves/CaseSolitaryWave_Boussinesq_Def.xml",
            "multi": "16_SolitaryWaves/CaseTripleSolitaryWave_Def.xml"}

# name: (example, savemotion time, {element: value}); elements are <piston_solitary>'s children
# with a value attribute (added after <mkbound> when the example has none).
VARIANTS = {
    "solitary_boussinesq": ("single", 4, {"theory": 2}),
    "solitary_boussinesq_start_coef": ("single", 6, {"theory": 2, "start": 0.7, "durationcoef": 1.5,
                                                     "waveheight": 0.05, "depth": 0.3}),
    "solitary_kdv": ("single", 4, {"theory": 3}),
    "solitary_kdv_start_coef": ("single", 4, {"theory": 3, "start": 0.3, "durationcoef": 0.8,
                                              "waveheight": 0.2, "depth": 0.5}),
    "solitary_rayleigh": ("single", 4, {"theory": 1}),
    "solitary_rayleigh_coef": ("single", 6, {"theory": 1, "durationcoef": 1.3, "waveheight": 0.05, "depth": 0.3}),
    "solitary_triple_rayleigh": ("multi", 7, {"theory": 1}),
    "solitary_four_kdv": ("multi", 9, {"theory": 3, "waves": 4, "durationcoef2": 1.2, "waveheight4": 0.1,
                                       "startcoef4": 0.5}),
    "solitary_triple_boussinesq_gap": ("multi", 9, {"theory": 2, "startcoef2": 1.3, "startcoef3": 0.2,
                                                    "durationcoef": 0.9}),
}


def header_values(text, key):
    line = re.search(r"^%s\.*: *(.*)$" % key, text, re.M).group(1)
    return ";".join(v.strip() for v in line.split("[")[0].split(";"))


def make(examples, out, name, kind, time, values):
    xml = open(os.path.join(examples, EXAMPLES[kind])).read()
    for element, value in values.items():
        xml = set_value(xml, element, value)
    xml = re.sub(r"<savemotion [^>]*/>", '<savemotion time="%g" timedt="0.02" />' % time, xml, count=1)
    text = paddle_csv(xml)
    start = values.get("start", 0)
    rows = motion_rows(text)
    # Before a positive start DualSPHysics writes one row "0;0;0"; the law's rows follow.
    rows = [r for r in rows if float(r[0]) >= start and "." in r[0]]
    write_fixture(out, name, "DualSPHysics 5.4, piston_solitary %s; wave length %s m; generation time %s s; stroke %s m"
                  % (values, header_values(text, "WaveLength"), header_values(text, "GenerationTime"),
                     header_values(text, "Stroke")), rows)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    examples, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for name, (kind, time, values) in VARIANTS.items():
        make(examples, out, name, kind, time, values)
        print(name)


if __name__ == "__main__":
    main()
