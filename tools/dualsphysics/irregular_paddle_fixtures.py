#!/usr/bin/env python3
"""Makes the irregular-wave paddle fixtures of engine/tests/motion/test_irregular_paddles.cpp from DualSPHysics.

For each variant below, a copy of DualSPHysics' example CasePistonBeach_IRREG (piston) or
CaseFlapBeach_IRREG (flap) gets the variant's <piston_spectrum>/<flap_spectrum> parameters (first
order unless the variant says), no <saveserie>, and a <savemotion> of 12 s every 0.02 s (a series that does not start at a
zero of the paddle's motion has a ramp: DualSPHysics stops when the paddle jumps at the start); GenCase and DualSPHysics 5.4 run it
for a moment (-tmax:0.001), which is enough: DualSPHysics writes the paddle's whole motion
(WavePaddle_mkb0010.csv) when it starts. The fixture keeps the time and the position (m) or angle
(rad) columns of the rows from the paddle's start on, and a first comment line with the variant,
the serie's start after autofit and the frequency range DualSPHysics printed.

    python3 tools/dualsphysics/irregular_paddle_fixtures.py EXAMPLES_DIR OUT_DIR

EXAMPLES_DIR: DualSPHysics' examples (the folder holding 08_WavesFlap and 09_WavesPiston).
GENCASE and DUALSPHYSICS name the binaries if they are not ../shared/tools/GenCase_linux64 and
../shared/tools/DualSPHysics5.4CPU_linux64.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wave_paddle_fixtures import motion_rows, paddle_csv, write_fixture  # noqa: E402  (the same runs and files)

EXAMPLES = {"piston": "09_WavesPiston/CasePistonBeach_IRREG_Def.xml", "flap": "08_WavesFlap/CaseFlapBeach_IRREG_Def.xml"}

# name: (example, {element: value or (attribute, value) pairs}); elements are the paddle's children.
VARIANTS = {
    # the example's 1024 stretched JONSWAP waves and its autofit from 560 s
    "irregular_piston_stretched_autofit": ("piston", {}),
    "irregular_piston_pm_regular": ("piston", {"spectrum": "pierson-moskowitz", "discretization": "regular",
                                               "waves": 50, "randomseed": 2, "serieini": (0, "false"),
                                               "ramptime": 2}),
    "irregular_piston_random_steep": ("piston", {"discretization": "random", "waves": 20, "randomseed": 7,
                                                 "peakcoef": 7, "waveperiod": 1.3, "waveheight": 0.1,
                                                 "serieini": (37.5, "true")}),
    "irregular_piston_cos_ramp_start": ("piston", {"discretization": "cosstretched", "waves": 40, "ramptime": 3,
                                                   "start": 2, "duration": 6, "gainstroke": 1.3,
                                                   "serieini": (10, "false")}),
    # the example as it is (50 stretched waves, autofit from 140 s)
    "irregular_flap_stretched_autofit": ("flap", {}),
    # second order: the example itself (1024 waves), a shallow piston, a flap with its hinge up and one
    # with it down
    "irregular_piston_order2": ("piston", {"waveorder": 2}),
    "irregular_piston_order2_shallow": ("piston", {"waveorder": 2, "discretization": "random", "waves": 30,
                                                   "depth": 0.3, "waveperiod": 3, "waveheight": 0.06,
                                                   "randomseed": 21, "serieini": (100, "true")}),
    "irregular_flap_order2_draft": ("flap", {"waveorder": 2, "discretization": "cosstretched", "waves": 40,
                                             "variabledraft": 0.1, "randomseed": 3, "serieini": (50, "true")}),
    "irregular_flap_order2_draft_down": ("flap", {"waveorder": 2, "discretization": "cosstretched", "waves": 40,
                                                  "variabledraft": -0.2, "randomseed": 3, "serieini": (50, "true")}),
    "irregular_flap_draft": ("flap", {"discretization": "regular", "waves": 30, "peakcoef": 2.5,
                                      "variabledraft": 0.1, "randomseed": 11, "serieini": (0, "false"),
                                      "ramptime": 1.5}),
}


def set_child(xml, element, value):
    """Sets <element value=...> (and autofit for a (value, autofit) pair), adding it after <mkbound>
    (the examples' comments hold '>', so only the attributes are replaced)."""
    number, autofit = value if isinstance(value, tuple) else (value, None)
    text = ("%s" if isinstance(number, str) else "%g") % number
    pattern = re.compile(r"<%s value=\"[^\"]*\"" % element)
    if pattern.search(xml):
        xml = pattern.sub('<%s value="%s"' % (element, text), xml, count=1)
        if autofit is not None:
            xml = re.sub(r'(<%s value="[^"]*" autofit=")[^"]*"' % element, r'\g<1>%s"' % autofit, xml, count=1)
        return xml
    extra = ' autofit="%s"' % autofit if autofit is not None else ""
    return re.sub(r"(<mkbound value=\"10\"[^>]*/>)", r'\1<%s value="%s"%s />' % (element, text, extra), xml, count=1)


def make(examples, out, name, kind, values):
    xml = open(os.path.join(examples, EXAMPLES[kind])).read()
    xml = set_child(xml, "waveorder", 1)
    for element, value in values.items():
        xml = set_child(xml, element, value)
    xml = re.sub(r"<saveserie [^>]*/>", "", xml, count=1)
    xml = re.sub(r"<savemotion [^>]*/>", '<savemotion time="12" timedt="0.02" />', xml, count=1)
    text = paddle_csv(xml)
    serie = re.search(r"Serie initial time: ([0-9.eE+-]+)", text).group(1)
    start = float(re.search(r"Start time: ([0-9.eE+-]+)", text).group(1))
    rows = [r for r in motion_rows(text) if "." in r[0] and float(r[0]) >= start]
    write_fixture(out, name, "DualSPHysics 5.4, %s %s; serie initial time %s s" % (kind, values, serie), rows)


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
