#!/usr/bin/env python3
"""DamBreak with mDBC walls for the cost benchmark (tools/bench/RESULTS.md).

    mdbc_case.py IN.xml OUT.xml [SLIPMODE]     (SLIPMODE 0: the same walls with DBC)

mDBC needs walls of several particle layers (the ghost node of the outermost one lies 2.5 dp
inside the water): the one-layer tank of DamBreak lets the water through. So the copy draws the
tank as walls of three layers (the one of the original case and two outside it) and the building
as a solid block, and adds Boundary 2 (SlipMode 1 unless given) and the walls' surface for
GenCase's normals: the tank's inner faces half a dp inside its walls, the building's half a dp
outside its own."""
import re
import sys

s = open(sys.argv[1]).read()
slip = sys.argv[3] if len(sys.argv) > 3 else "1"
dp = float(re.search(r'<definition dp="([^"]+)"', s).group(1))
w = 2 * dp  # two more layers outside the tank's own


def box(x0, y0, z0, x1, y1, z1):
    return (f'<drawbox><boxfill>solid</boxfill><point x="{x0}" y="{y0}" z="{z0}" />'
            f'<endpoint x="{x1}" y="{y1}" z="{z1}" /></drawbox>\n')


tank = re.search(r'<drawbox>\s*<boxfill>bottom \| left \| right \| front \| back</boxfill>.*?</drawbox>', s, re.S)
walls = (box(-w, -w, -w, 1.6 + w, 0.67 + w, 0) + box(-w, -w, 0, 0, 0.67 + w, 0.4) +
         box(1.6, -w, 0, 1.6 + w, 0.67 + w, 0.4) + box(0, -w, 0, 1.6, 0, 0.4) + box(0, 0.67, 0, 1.6, 0.67 + w, 0.4))
s = s[:tank.start()] + walls + s[tank.end():]
# The building: a solid block instead of its faces (its volume is cleared just before).
s = re.sub(r'<boxfill>top \| left \| right \| front \| back</boxfill>', '<boxfill>solid</boxfill>', s)
shapes = '''<list name="Surfaces">
<setactive drawpoints="0" drawshapes="1" />
<setshapemode>actual | bound</setshapemode>
<setmkbound mk="0" />
<setnormalinvert invert="true" />
<drawbox><boxfill>bottom | left | right | front | back</boxfill><point x="0" y="0" z="0" /><size x="1.6" y="0.67" z="0.4" /><layers vdp="-0.5" /></drawbox>
<setnormalinvert invert="false" />
<drawbox><boxfill>top | left | right | front | back</boxfill><point x="0.9" y="0.24" z="0" /><size x="0.12" y="0.12" z="0.45" /><layers vdp="0.5" /></drawbox>
<shapeout file="hdp" />
<resetdraw />
</list>
'''
if slip != "0":
    s = s.replace('<mainlist>', shapes + '<mainlist>\n<runlist name="Surfaces" />', 1)
    s = s.replace('</geometry>', '</geometry>\n<normals><distanceh value="2.0" /><geometryfile file="[CaseName]_hdp_Actual.vtk" /></normals>', 1)
    s = s.replace('<parameters>', f'<parameters>\n<parameter key="Boundary" value="2" />\n<parameter key="SlipMode" value="{slip}" />', 1)
open(sys.argv[2], 'w').write(s)
