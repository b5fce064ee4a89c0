// Inlet/outlet zones (model/case_inout.h) per particle, header-only for the CPU loops and the
// CUDA kernels of inout/: what happens to a fluid particle at the end of a step (DualSPHysics'
// JSphInOut::CreateListCpu and ComputeStepCpu), where a new buffer particle goes, and the velocity
// and density a zone imposes on its buffer (SetAnalyticalDataCpu).
//
// A zone's plane lies between its buffer and the domain; s(x) = dir . (x - planePoint) is > 0 on
// the domain's side. A buffer particle that crosses it (s >= 0 no more behind: depth < 0) becomes
// ordinary fluid and, as the zone's refilling says, leaves a new buffer particle `width` (layers
// dp) behind it; one deeper than `width` has left through the back and is removed. Fluid that
// enters a zone whose input is checked (inputtreatment 1 or 2, or remove above zsurf) is
// converted into buffer or removed.
#pragma once

#include <cmath>
#include <cstdint>

#include "physics/mesh_data_physics.h"
#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/real4.h"

namespace sph {

// One zone as the per-particle passes read it (double precision: positions of either precision
// are compared in double).
struct InOutZoneData {
  double dir[3] = {0, 0, 0};    // unit, into the domain
  double plane[3] = {0, 0, 0};  // a point on the plane
  double width = 0;             // layers dp: how deep the buffer reaches behind the plane
  double boxMin[3] = {0, 0, 0}, boxMax[3] = {0, 0, 0};  // the buffer's box (entry test)
  double zsurf = HUGE_VAL;      // at the time the pass runs (+inf: none); see inOutZsurfAt
  // A calculated zsurf across a 3D zone (model/case_inout.h): zsurfColumns > 1 values, where the
  // particles live; a position takes the column nearest its foot on the line from zsurfOrigin
  // along zsurfAxis (the step between columns divided by dp^2, so that the dot product counts
  // columns).
  uint32_t zsurfColumns = 0;
  double zsurfOrigin[2] = {0, 0}, zsurfAxis[2] = {0, 0};
  const double* zsurfColumn = nullptr;
  uint32_t input = 0;           // InOutInput: 0 free, 1 convert, 2 remove
  bool checkInput = false;      // fluid entering is converted or removed (input != 0 or removeZsurf)
  bool refillFull = false;      // refilling 0: a crossing particle is always replaced
  bool refillAdvanced = false;  // refilling 2: no replacement; columns refilled from the plane (inOutRefillReach)
  uint32_t refillFirst = 0, refillCount = 0;  // refilling 2: the zone's points in the refill point list
  uint32_t newCode = 0;         // the code of a buffer particle it creates (before code::toInOut)
  bool removeZsurf = false;     // buffer particles above zsurf are removed
  bool useBox = true;           // the entry test also asks for the box
  // Velocity: the profile (0 uniform, 1 linear, 2 parabolic) at the table's rows bracketing the
  // pass's time, ta <= t <= tb, each a polynomial in z: c[0] + c[1] z + c[2] z^2.
  uint32_t velocity = 0;        // 0: imposed (fixed or variable); 1: extrapolated (not imposed here)
  double ca[3] = {0, 0, 0}, cb[3] = {0, 0, 0};
  double ta = 0, tb = 0;
  uint32_t density = 0;         // 0 constant (rho0), 1 hydrostatic, 2 extrapolated (not imposed here)
  // <jetcircle>: within `jetReach` (dp) behind the plane the velocity aims from the particle to
  // jetCentre + jetFraction (p - its foot on the axis' plane line), DualSPHysics' UpdateSpecialVel.
  uint32_t jet = 0;
  double jetCentre[3] = {0, 0, 0};
  double jetFraction = 0, jetReach = 0;
  // <gridveldata> (velocity mode 3): the x velocity (and z, when kept) interpolated in time between
  // the grid's rows gridA (at gridTa) and gridB (at gridTb), then bilinearly in x and z as
  // DualSPHysics' JSphInOutGridData does (the cell index truncated and clamped to the grid, the
  // weight taken from the unclamped position, so that points before the grid's first column
  // extrapolate); each row holds nx nz x velocities, then as many z ones.
  uint32_t grid = 0;
  uint32_t gridNx = 1, gridNz = 1;
  uint32_t gridVelz = 0;        // the z velocity is imposed (else 0)
  double gridX0 = 0, gridZ0 = 0, gridDpx = 1, gridDpz = 1, gridTa = 0, gridTb = 0;
  const float* gridA = nullptr;  // where the particles live
  const float* gridB = nullptr;
  // <meshdata> (velocity mode 3, DualSPHysics' JMeshTDatasDsVel): the frames meshA and meshB
  // around the time mixed at meshF, then interpolated at the position (physics/
  // mesh_data_physics.h): a magnitude along the zone's direction, or a vector.
  uint32_t mesh = 0;
  MeshInterp meshInterp;
  const float* meshA = nullptr;  // where the particles live
  const float* meshB = nullptr;
  float meshF = 0;
};

struct InOutParams {
  const InOutZoneData* zones = nullptr;  // where the particles live
  uint32_t count = 0;
  double time = 0;        // the time the velocities are imposed at
  double rho0 = 1000;
  double coefHydro = 0;   // rho0 (-g_z) / B
  double invGamma = 1.0 / 7;
};

SPH_HD inline double inOutSigned(const InOutZoneData& z, double x, double y, double w) {
  return z.dir[0] * (x - z.plane[0]) + z.dir[1] * (y - z.plane[1]) + z.dir[2] * (w - z.plane[2]);
}

// The zone's zsurf at horizontal position (x, y): its column's (DualSPHysics'
// GetCurrentZsurfNonUniform: the nearest column, the first or last beyond the ends), or the
// zone's one value.
SPH_HD inline double inOutZsurfAt(const InOutZoneData& z, double x, double y) {
  if (z.zsurfColumns < 2) return z.zsurf;
  const double s = (x - z.zsurfOrigin[0]) * z.zsurfAxis[0] + (y - z.zsurfOrigin[1]) * z.zsurfAxis[1] + 0.5;
  const uint32_t c = s <= 0 ? 0u : s >= double(z.zsurfColumns - 1) ? z.zsurfColumns - 1 : uint32_t(s);
  return z.zsurfColumn[c];
}

// Behind the plane and, with the box limit, inside the buffer's box (DualSPHysics' InZone).
SPH_HD inline bool inOutInZone(const InOutZoneData& z, double x, double y, double w) {
  if (z.useBox && !(x >= z.boxMin[0] && x <= z.boxMax[0] && y >= z.boxMin[1] && y <= z.boxMax[1] && w >= z.boxMin[2] &&
                    w <= z.boxMax[2]))
    return false;
  return inOutSigned(z, x, y, w) < 0;
}

// What the end-of-step pass does with one fluid particle.
enum class InOutAction : uint32_t {
  None = 0,
  Remove = 1,         // removed from the run (not an exclusion)
  ToFluid = 2,        // a buffer particle that crossed the plane: ordinary fluid now
  ToFluidSpawn = 3,   // the same, leaving a new buffer particle behind it
  ToBuffer = 4,       // fluid that entered a converting zone: buffer of that zone now
};

// The action for particle code `c` at (x, y, w); *zone gets the zone concerned.
SPH_HD inline InOutAction inOutClassify(uint32_t c, double x, double y, double w, const InOutParams& p,
                                        uint32_t* zone) {
  if (code::isInOut(c)) {
    const uint32_t k = code::inOutZone(c);
    *zone = k;
    const InOutZoneData& z = p.zones[k];
    const double depth = -inOutSigned(z, x, y, w);
    const bool below = w <= inOutZsurfAt(z, x, y);
    if (depth > z.width || (z.removeZsurf && !below)) return InOutAction::Remove;
    if (depth < 0)
      return !z.refillAdvanced && (z.refillFull || below) ? InOutAction::ToFluidSpawn : InOutAction::ToFluid;
    return InOutAction::None;
  }
  for (uint32_t k = 0; k < p.count; ++k) {
    const InOutZoneData& z = p.zones[k];
    if (!z.checkInput || !inOutInZone(z, x, y, w)) continue;
    *zone = k;
    if (z.input == 2 || (z.removeZsurf && !(w <= inOutZsurfAt(z, x, y)))) return InOutAction::Remove;
    return z.input == 1 ? InOutAction::ToBuffer : InOutAction::None;
  }
  return InOutAction::None;
}

SPH_HD inline double inOutProfile(const double c[3], double w) { return c[0] + w * (c[1] + w * c[2]); }

// Advanced refilling (refilling 2, DualSPHysics' ComputeStepFilling): each point of the zone on
// its plane (a first-layer point dp/2 forward) gets a new buffer particle when its column has
// room: `reach` is the largest depth behind the plane, over the zone's buffer particles whose foot
// on the plane lies within dp of the point, of the particle's depth plus sqrt(dp^2 - r^2) (r: the
// foot's distance from the point); 0 when none is that close, and the new particle goes dp behind
// the plane; it goes `reach` behind when that is less than the zone's width, else none.
// The contribution of a buffer particle at x to the point pt (negative: none).
SPH_HD inline double inOutRefillReach(const InOutZoneData& z, const double x[3], const double pt[3], double dp) {
  const double s = inOutSigned(z, x[0], x[1], x[2]);
  double r2 = 0;
  for (int a = 0; a < 3; ++a) {
    const double d = pt[a] - (x[a] - s * z.dir[a]);
    r2 += d * d;
  }
  if (!(r2 < dp * dp)) return -1;
  return -s + sqrt(dp * dp - r2);
}

// Zone z's grid velocity at (x, w) and time t; `offset` picks the x (0) or z (nx nz) values.
SPH_HD inline double inOutGridVelocity(const InOutZoneData& z, double t, double x, double w, uint32_t offset) {
  const double f = (t <= z.gridTa || z.gridTa == z.gridTb) ? 0.0 : t >= z.gridTb ? 1.0 : (t - z.gridTa) / (z.gridTb - z.gridTa);
  auto at = [&](uint32_t k) {
    const double a = z.gridA[offset + k], b = z.gridB[offset + k];
    return a + f * (b - a);
  };
  const int nx1 = int(z.gridNx) - 1, nz1 = int(z.gridNz) - 1;
  const double px = (x - z.gridX0) / z.gridDpx, pz = (w - z.gridZ0) / z.gridDpz;
  int cx = int(px), cz = int(pz);
  cx = cx < 0 ? 0 : cx > nx1 ? nx1 : cx;
  cz = cz < 0 ? 0 : cz > nz1 ? nz1 : cz;
  const double fx = px - cx, fz = pz - cz;
  const uint32_t cp = z.gridNz * uint32_t(cx) + uint32_t(cz);
  const double v00 = at(cp);
  const double v01 = cz < nz1 ? at(cp + 1) : v00;
  const double v10 = cx < nx1 ? at(cp + z.gridNz) : v00;
  const double v11 = cx < nx1 ? (cz < nz1 ? at(cp + z.gridNz + 1) : v10) : v01;
  const double v0 = fz * (v01 - v00) + v00, v1 = fz * (v11 - v10) + v10;
  return fx * (v1 - v0) + v0;
}

// The velocity (along the zone's direction, or a jet's) and density zone k imposes at x. The
// extrapolated ones (InOutZoneData::velocity 1, density 2) are not the zone's to impose: the
// caller keeps the particle's.
SPH_HD inline void inOutImposed(const InOutZoneData& z, const InOutParams& p, const double x[3], double v[3],
                                double* rho) {
  const double w = x[2];
  const double zsurf = inOutZsurfAt(z, x[0], x[1]);
  double speed = 0;
  // Refilling 0 keeps the buffer above zsurf still (DualSPHysics' SetAnalyticalData).
  if (!z.refillFull || w <= zsurf) {
    const double va = inOutProfile(z.ca, w), vb = inOutProfile(z.cb, w);
    const double t = p.time;
    speed = (t <= z.ta || z.ta == z.tb) ? va : t >= z.tb ? vb : va + (t - z.ta) / (z.tb - z.ta) * (vb - va);
  }
  for (int a = 0; a < 3; ++a) v[a] = speed * z.dir[a];
  if (z.grid) {  // DualSPHysics sets (vx, 0, vz): along x whatever the zone's direction
    v[0] = inOutGridVelocity(z, p.time, x[0], w, 0);
    v[1] = 0;
    v[2] = z.gridVelz ? inOutGridVelocity(z, p.time, x[0], w, z.gridNx * z.gridNz) : 0.0;
  }
  if (z.mesh) {
    float m[3] = {0, 0, 0};
    meshInterpolate(z.meshInterp, z.meshA, z.meshB, z.meshF, x[0], x[1], w, m);
    for (int a = 0; a < 3; ++a) v[a] = z.meshInterp.components == 1 ? double(float(z.dir[a]) * m[0]) : double(m[a]);
  }
  const double s = inOutSigned(z, x[0], x[1], x[2]);
  if (z.jet && s > -z.jetReach) {
    // The particle's offset from the zone's axis, shrunk onto the jet's circle ahead.
    double aim[3], length2 = 0;
    for (int a = 0; a < 3; ++a) {
      const double foot = z.plane[a] + z.dir[a] * s;
      aim[a] = z.jetCentre[a] + (x[a] - foot) * z.jetFraction - x[a];
      length2 += aim[a] * aim[a];
    }
    const double scale = length2 > 0 ? speed / sqrt(length2) : 0.0;
    for (int a = 0; a < 3; ++a) v[a] = aim[a] * scale;
  }
  if (z.density == 1) {
    // The Tait equation inverted for the hydrostatic pressure below zsurf, never below rho0
    // (no suction above it).
    const double r = pow(1.0 + p.coefHydro * (zsurf - w), p.invGamma);
    *rho = p.rho0 * (r < 1.0 || r != r ? 1.0 : r);
  } else {
    *rho = p.rho0;
  }
}

}  // namespace sph
