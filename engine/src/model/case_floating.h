// Floating bodies (<floatings>) and the material properties of DEM contact (<properties>) of a
// DualSPHysics case, as read from the XML. Mass, centre and inertia that the XML leaves out are
// computed from the body's particles when the simulation starts.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/time_series3.h"
#include "model/vec3d.h"

namespace sph {

// One <floating>: the boundary mks (local mkbound values) whose particles form one rigid body.
struct FloatingDef {
  std::vector<int> mkBound;
  std::optional<double> relativeWeight;  // body density / rho0
  std::optional<double> massBody;        // kg (<massbody value>)
  std::optional<double> rhopBody;        // kg/m^3 (<rhopbody value>)
  std::optional<Vec3d> center;           // <center>: otherwise the particles' centroid
  // <inertia x y z> (the diagonal) or <inertiafull> (symmetric): the inertia about the centre
  // (xx, yy, zz, xy, xz, yz), otherwise GenCase's from the particles.
  std::optional<std::array<double, 6>> inertia;
  // <masspart value>: the mass of each particle of the body in the pair terms and force sums
  // (GenCase's default: rho0 dp^d, as the fluid's); "distributed_bodymass": the body's mass over its
  // particles.
  std::optional<double> massPart;
  bool massPartDistributed = false;
  Vec3d velIni, omegaIni;                // <linearvelini> or <velini>, <angularvelini> or <omegaini> (rad/s)
  std::string property;                  // material name(s), "a + b" overrides left to right
  // <linearvel>, <angularvel>: velocities imposed over time (a NaN component is free);
  // <linearforce>, <angularforce>: external force (N) and torque (N m) over time.
  std::optional<TimeSeries3> linearVel, angularVel, linearForce, angularForce;
  // <translationDOF>, <rotationDOF>: false restricts the motion along / about that world axis.
  bool translationFree[3] = {true, true, true}, rotationFree[3] = {true, true, true};
  int line = 0;
};

// A material: DualSPHysics' DEM keys (Young_Modulus, PoissonRatio, Restitution_Coefficient,
// Kfric, and "_User" overrides of them) as name -> value.
struct MaterialDef {
  std::map<std::string, double> values;
  std::string source;  // file:line it was read from
};

// <properties>: materials by name (from <propertyfile> and inline <property> elements) and the
// <links> that give boundary mks a material.
struct PropertiesDef {
  std::map<std::string, MaterialDef> materials;
  struct Link {
    std::vector<int> mkBound;
    std::string property;
    int line = 0;
  };
  std::vector<Link> links;
};

// The resolved material of a body or wall: the '+'-joined names applied left to right, each
// key overriding the previous one, and "<Key>_User" overriding "<Key>". Throws InputError naming
// `where` for an unknown material name.
std::map<std::string, double> resolveMaterial(const PropertiesDef& p, const std::string& names,
                                              const std::string& where);

}  // namespace sph
