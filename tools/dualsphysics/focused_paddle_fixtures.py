#!/usr/bin/env python3
"""Makes the focused-paddle fixtures of engine/tests/motion/test_focused_paddles.cpp from DualSPHysics.

Each variant is a small 2D flume (engine/tests/data/dualsphysics/FocusedPaddle_Def.xml) whose
<piston_focused> has the variant's parameters and a <savemotion>; GenCase and DualSPHysics 5.4 run
it for a moment, which is enough: DualSPHysics writes the paddle's whole motion
(WavePaddle_mkb0010.csv) when it starts:

    GenCase_linux64 RUN/C_Def RUN/out/C -save:all
    DualSPHysics5.4CPU_linux64 RUN/out/C RUN/run -cpu -tmax:0.001 -sv:none

The fixture NAME.csv holds a first line "# " and the <piston_focused> element on one line, then
time;position rows (every EVERY-th row of DualSPHysics' file, from the paddle's start on).

    python3 tools/dualsphysics/focused_paddle_fixtures.py RUNS OUT_DIR NAME[:EVERY] ...

RUNS holds a folder per variant NAME with C_Def.xml and run/WavePaddle_mkb0010.csv.
"""
import os
import re
import sys


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    runs, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    for arg in argv[3:]:
        name, _, every = arg.partition(":")
        every = int(every or 1)
        xml = open(os.path.join(runs, name, "C_Def.xml")).read()
        block = re.search(r"<piston_focused>.*?</piston_focused>", xml, re.S).group(0)
        block = re.sub(r"\s*\n\s*", "", block)
        rows = []
        for line in open(os.path.join(runs, name, "run", "WavePaddle_mkb0010.csv")):
            cells = line.strip().split(";")
            try:
                rows.append((float(cells[0]), float(cells[1]), cells[0], cells[1]))
            except (ValueError, IndexError):
                continue
        start = float(re.search(r'<start value="([^"]+)"', block).group(1)) if "<start " in block else 0.0
        kept = [r for r in rows if r[0] >= start - 1e-9]
        with open(os.path.join(out, f"Focused_{name}.csv"), "w") as f:
            f.write(f"# {block}\n")
            for k, r in enumerate(kept):
                if k % every == 0 or k == len(kept) - 1:
                    f.write(f"{r[2]};{r[3]}\n")


if __name__ == "__main__":
    main(sys.argv)
