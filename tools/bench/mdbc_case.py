#!/usr/bin/env python3
"""DamBreak with mDBC walls for the cost benchmark: Boundary 2 and the walls' surface (the tank's
inner faces half a dp inside its wall particles, the building's half a dp outside its own)."""
import re, sys
s = open(sys.argv[1]).read()
dp = float(re.search(r'<definition dp="([^"]+)"', s).group(1))
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
s = s.replace('<mainlist>', shapes + '<mainlist>\n<runlist name="Surfaces" />', 1)
s = s.replace('</geometry>', '</geometry>\n<normals><distanceh value="2.0" /><geometryfile file="[CaseName]_hdp_Actual.vtk" /></normals>', 1)
s = s.replace('<parameters>', '<parameters>\n<parameter key="Boundary" value="2" />', 1)
open(sys.argv[2], 'w').write(s)
