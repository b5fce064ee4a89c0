// Case files for the motion tests: a small 2D tank (plane y = 0) with a piston of boundary
// particles (mkbound 1) at its left end, water in front of it, a floor and a far wall (mkbound 0).
#pragma once

#include <string>

#include <fmt/format.h>

#include "test_support.h"

namespace sph::test {

struct PistonTank {
  double dp = 0.02;
  double length = 0.6;   // water from x = 0 to length
  double depth = 0.2;    // water from z = 0 to depth
  double gap = 0;        // between the piston and the water
  int stepAlgorithm = 2;
  std::string motion;    // children of <motion>
  std::string commands;  // more <mainlist> commands, drawn last
  std::string extraParameters;
  std::string constants; // extra <constantsdef> children
  std::string special;   // children of <execution><special>
};

// The piston: 3 layers at x = -gap-2dp..-gap, from z = dp to above the water; the floor (z = 0)
// runs under and behind it, so the water cannot leak round the piston while it moves.
inline std::string pistonTankXml(const PistonTank& t) {
  return fmt::format(R"(<?xml version="1.0" encoding="UTF-8" ?>
<case>
  <casedef>
    <constantsdef>
      <gravity x="0" y="0" z="-9.81" />
      <rhop0 value="1000" />
      <rhopgradient value="2" />
      <hswl value="0" auto="true" />
      <gamma value="7" />
      <speedsystem value="0" auto="true" />
      <coefsound value="20" />
      <speedsound value="0" auto="true" />
      <coefh value="1.0" />
      <cflnumber value="0.2" />
      {constants}
    </constantsdef>
    <mkconfig boundcount="240" fluidcount="9" />
    <geometry>
      <definition dp="{dp}">
        <pointref x="0" y="0" z="0" />
        <pointmin x="-0.5" y="0" z="-0.1" />
        <pointmax x="{xmax}" y="0" z="{zmax}" />
      </definition>
      <commands>
        <mainlist>
          <setdrawmode mode="full" />
          <setmkfluid mk="0" />
          <drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="{length}" y="2" z="{depth}" /></drawbox>
          <setmkbound mk="0" />
          <drawbox><boxfill>bottom | right</boxfill>
            <point x="-0.3" y="-1" z="0" /><size x="{floor}" y="2" z="{wall}" /></drawbox>
          <setmkbound mk="1" />
          <drawbox><boxfill>solid</boxfill><point x="{px}" y="-1" z="{dp}" /><size x="{pw}" y="2" z="{ph}" /></drawbox>
          {commands}
        </mainlist>
      </commands>
    </geometry>
    <motion>
{motion}
    </motion>
  </casedef>
  <execution>
    <special>{special}</special>
    <parameters>
      <parameter key="StepAlgorithm" value="{alg}" />
      <parameter key="Kernel" value="2" />
      <parameter key="Visco" value="0.01" />
      <parameter key="DensityDT" value="2" />
      <parameter key="TimeMax" value="100" />
      <parameter key="TimeOut" value="100" />
      {extra}
      <simulationdomain>
        <posmin x="default" y="default" z="default" />
        <posmax x="default" y="default" z="default + 50%" />
      </simulationdomain>
    </parameters>
  </execution>
</case>
)",
                     fmt::arg("constants", t.constants), fmt::arg("dp", t.dp), fmt::arg("xmax", t.length + 0.5),
                     fmt::arg("zmax", 2 * t.depth + 0.5), fmt::arg("length", t.length), fmt::arg("depth", t.depth),
                     fmt::arg("floor", t.length + 0.3), fmt::arg("wall", t.depth + 0.2),
                     fmt::arg("px", -t.gap - 2 * t.dp), fmt::arg("pw", 2 * t.dp), fmt::arg("ph", t.depth + 0.2 - t.dp),
                     fmt::arg("motion", t.motion), fmt::arg("commands", t.commands),
                     fmt::arg("alg", t.stepAlgorithm), fmt::arg("extra", t.extraParameters),
                     fmt::arg("special", t.special));
}

}  // namespace sph::test
