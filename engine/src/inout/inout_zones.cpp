#include "inout/inout_zones.h"

#include <cmath>
#include <vector>

namespace sph {

void inOutProfileCoefficients(InOutProfile profile, const InOutVelocityRow& r, double c[3]) {
  c[0] = c[1] = c[2] = 0;
  if (profile == InOutProfile::Uniform) {
    c[0] = r.v[0];
  } else if (profile == InOutProfile::Linear) {  // the line through (z, v) and (z2, v2), not clamped
    const double m = (r.v[1] - r.v[0]) / (r.z[1] - r.z[0]);
    c[0] = r.v[0] - m * r.z[0];
    c[1] = m;
  } else {  // the parabola through the three points (Lagrange's form, expanded), not clamped
    for (int i = 0; i < 3; ++i) {
      const double zj = r.z[(i + 1) % 3], zk = r.z[(i + 2) % 3];
      const double w = r.v[i] / ((r.z[i] - zj) * (r.z[i] - zk));
      c[2] += w;
      c[1] -= w * (zj + zk);
      c[0] += w * zj * zk;
    }
  }
}

InOutZones::InOutZones(const CaseInOut& io, double dp, double rho0, double cteB, double gamma, double gz,
                       double massFluid, bool twoD, Device d)
    : defs_(io.zones), rho0_(rho0), coefHydro_(rho0 * -gz / cteB), invGamma_(1.0 / gamma) {
  host_.resize(defs_.size());
  // DualSPHysics' mesh gauge of a calculated zsurf: the surface where the mass drops below 0.4
  // (2D) or 0.5 (3D) particle masses.
  massFluid_ = massFluid;
  massLimit_ = massFluid * (twoD ? 0.4 : 0.5);
  calculated_.assign(defs_.size(), HUGE_VAL);
  columnBase_.assign(defs_.size(), 0);
  for (size_t k = 0; k < defs_.size(); ++k) {
    const InOutZoneDef& z = defs_[k];
    columnBase_[k] = columnsHost_.size();
    if (z.zsurfSeries && z.zsurfColumns > 1) {  // the columns of a zsurf from mesh data, set by at()
      columnsHost_.insert(columnsHost_.end(), z.zsurfColumns, HUGE_VAL);
      continue;
    }
    if (z.zsurfMode != InOutZsurfMode::Calculated) continue;
    calculated_[k] = z.zsurf.front().zsurf;  // <zsurf0> until the first step
    for (const Vec3d& p : z.zsurfGauge) zsurfPoints_.push_back({p.x, p.y, p.z});
    if (z.zsurfColumns > 1) columnsHost_.insert(columnsHost_.end(), z.zsurfColumns, calculated_[k]);
  }
  if (!columnsHost_.empty()) {
    columnsDev_.allocate(d, columnsHost_.size(), "the inlet/outlet zones' zsurf columns");
    columnsDev_.upload(columnsHost_, "uploading the inlet/outlet zones' zsurf columns");
  }
  std::vector<InOutMirror> mirrorsHost(defs_.size());
  for (size_t k = 0; k < defs_.size(); ++k) {
    const InOutZoneDef& z = defs_[k];
    InOutZoneData& h = host_[k];
    h.width = z.layers * dp;
    const Vec3d* v[] = {&z.unitDirection, &z.planePoint, &z.boxMin, &z.boxMax};
    double* out[] = {h.dir, h.plane, h.boxMin, h.boxMax};
    for (int j = 0; j < 4; ++j) {
      out[j][0] = v[j]->x;
      out[j][1] = v[j]->y;
      out[j][2] = v[j]->z;
    }
    h.input = uint32_t(z.input);
    h.removeZsurf = z.removeAboveZsurf;
    h.checkInput = z.input != InOutInput::Free || z.removeAboveZsurf;
    h.refillFull = z.refilling == InOutRefilling::SimpleFull;
    h.refillAdvanced = z.refilling == InOutRefilling::Advanced;
    if (h.refillAdvanced) {
      // DualSPHysics' inlet points: the first layer's, dp/2 forward onto the plane.
      h.refillFirst = uint32_t(refillZone_.size());
      h.refillCount = uint32_t(z.points.size());
      for (const Vec3d& p : z.points) {
        refillPointsHost_.push_back(p.x + z.unitDirection.x * dp / 2);
        refillPointsHost_.push_back(p.y + z.unitDirection.y * dp / 2);
        refillPointsHost_.push_back(p.z + z.unitDirection.z * dp / 2);
        refillZone_.push_back(uint32_t(k));
      }
    }
    h.useBox = io.useBoxLimit;
    const bool columns = (z.zsurfMode == InOutZsurfMode::Calculated || z.zsurfSeries) && z.zsurfColumns > 1;
    if (columns) {
      h.zsurfColumns = z.zsurfColumns;
      const double dp2 = z.zsurfAcross.x * z.zsurfAcross.x + z.zsurfAcross.y * z.zsurfAcross.y;
      const Vec3d foot = z.zsurfSeries ? z.zsurfSeries->origin : z.zsurfGauge.front();
      h.zsurfOrigin[0] = foot.x;
      h.zsurfOrigin[1] = foot.y;
      h.zsurfAxis[0] = z.zsurfAcross.x / dp2;
      h.zsurfAxis[1] = z.zsurfAcross.y / dp2;
      h.zsurfColumn = columnsDev_.data() + columnBase_[k];
    }
    h.density = z.densityMode == InOutDensityMode::Hydrostatic ? 1 : z.densityMode == InOutDensityMode::Extrapolated ? 2 : 0;
    h.velocity = z.velocityMode == InOutVelocityMode::Extrapolated ? 1 : 0;
    gridBase_.push_back(gridHost_.size());
    if (z.grid) {
      const InOutVelocityGrid& g = *z.grid;
      h.grid = 1;
      h.gridNx = g.nx;
      h.gridNz = g.nz;
      h.gridVelz = g.velz && !g.resetVelz;
      h.gridX0 = g.x0;
      h.gridZ0 = g.z0;
      h.gridDpx = g.dpx;
      h.gridDpz = g.dpz;
      gridHost_.insert(gridHost_.end(), g.values.begin(), g.values.end());
    }
    meshBase_.push_back(meshHost_.size());
    if (z.meshVelocity) {
      h.mesh = 1;
      h.meshInterp = meshInterpolation(*z.meshVelocity);
      meshHost_.insert(meshHost_.end(), z.meshVelocity->values.begin(), z.meshVelocity->values.end());
    }
    if (z.jet) {
      // The zone's circle: the jet narrows from its radius to the jet's over the distance ahead.
      const InOutShapeDef& circle = z.shapes[1];
      h.jet = 1;
      h.jetFraction = z.jetRadius / circle.radius;
      h.jetReach = dp;
      h.jetCentre[0] = z.planePoint.x + z.unitDirection.x * z.jetDistance;
      h.jetCentre[1] = z.planePoint.y + z.unitDirection.y * z.jetDistance;
      h.jetCentre[2] = z.planePoint.z + z.unitDirection.z * z.jetDistance;
    }
    InOutMirror& m = mirrorsHost[k];
    for (int a = 0; a < 3; ++a) {
      m.plane[a] = h.plane[a];
      m.dir[a] = h.dir[a];
    }
    m.density = h.density == 2;
    m.velocity = h.velocity == 1;
    extrapolates_ = extrapolates_ || m.density || m.velocity;
  }
  mirrors_.allocate(d, defs_.size(), "the inlet/outlet zones' mirror planes");
  mirrors_.upload(mirrorsHost, "uploading the inlet/outlet zones' mirror planes");
  determLimit_ = io.determLimit;
  const double full = double(io.fullBuffers());
  initialRoom_ = uint32_t(io.memoryResize0 * full);
  laterRoom_ = uint32_t(io.memoryResize1 * full);
  if (laterRoom_ == 0 && io.memoryResize1 > 0) laterRoom_ = 1;
  dev_.allocate(d, defs_.size(), "the inlet/outlet zones");
  refillRate_ = io.refillingRate;
  dp_ = dp;
  if (!refillZone_.empty()) {
    refillPointsDev_.allocate(d, refillPointsHost_.size(), "the inlet/outlet refilling points");
    refillPointsDev_.upload(refillPointsHost_, "uploading the inlet/outlet refilling points");
    refillReachDev_.allocate(d, refillZone_.size(), "the inlet/outlet refilling reaches");
  }
  if (!gridHost_.empty()) {
    gridDev_.allocate(d, gridHost_.size(), "the inlet/outlet velocity grids");
    gridDev_.upload(gridHost_, "uploading the inlet/outlet velocity grids");
  }
  if (!meshHost_.empty()) {
    meshDev_.allocate(d, meshHost_.size(), "the inlet/outlet velocity mesh data");
    meshDev_.upload(meshHost_, "uploading the inlet/outlet velocity mesh data");
  }
}

// Each calculated zone's columns, each from its lowest point up: the surface lies where the mass
// m sum V W first drops below the limit after being above it, linearly between the two points
// around it; at the top point when it never drops, at the lowest when no point is wet
// (DualSPHysics' JGaugeMesh).
void InOutZones::setZsurfFromGauge(const std::vector<double>& shepard) {
  size_t at = 0;
  for (size_t k = 0; k < defs_.size(); ++k) {
    const InOutZoneDef& z = defs_[k];
    if (z.zsurfMode != InOutZsurfMode::Calculated) continue;
    const size_t n = z.zsurfGauge.size() / z.zsurfColumns;
    // Every column starts at the same height and goes up by the same step.
    const double z0 = z.zsurfGauge.front().z, step = n > 1 ? z.zsurfGauge[1].z - z0 : 0.0;
    for (uint32_t col = 0; col < z.zsurfColumns; ++col) {
      double massPre = 0, frac = 0;
      size_t surf = 0;
      for (size_t c = 0; c < n && !surf; ++c) {
        const double mass = massFluid_ * shepard[at + c];
        if (mass > massLimit_) massPre = mass;
        if (mass < massLimit_ && massPre != 0) {
          frac = (massLimit_ - massPre) / (mass - massPre);
          surf = c;
        }
      }
      double zs = z0;
      if (surf) zs += step * (double(surf) - 1 + frac);
      else if (massPre != 0) zs += step * double(n - 1);
      if (col == 0) calculated_[k] = zs;
      if (z.zsurfColumns > 1) {
        columnsHost_[columnBase_[k] + col] = zs;
        columnsChanged_ = true;
      }
      at += n;
    }
  }
}

std::vector<double> InOutZones::zsurfColumnsNow(uint32_t zone) const {
  const InOutZoneDef& z = defs_[zone];
  if (z.zsurfColumns < 2) return {calculated_[zone]};
  const auto first = columnsHost_.begin() + std::ptrdiff_t(columnBase_[zone]);
  return {first, first + z.zsurfColumns};
}

void InOutZones::refillPlan(const std::vector<double>& reach, std::vector<InOutNewParticle>& out) const {
  out.clear();
  for (size_t k = 0; k < refillZone_.size(); ++k) {
    const uint32_t zi = refillZone_[k];
    InOutZoneData z = host_[zi];
    if (z.zsurfColumns > 1) z.zsurfColumn = columnsHost_.data() + columnBase_[zi];  // read here, on the host
    const double* pt = &refillPointsHost_[3 * k];
    if (!(pt[2] <= inOutZsurfAt(z, pt[0], pt[1]))) continue;  // above the zone's zsurf: not refilled
    const double depth = reach[k] == 0 ? dp_ : reach[k];
    if (!(depth < z.width)) continue;  // the column is full
    InOutNewParticle n;
    for (int a = 0; a < 3; ++a) n.x[a] = pt[a] - depth * z.dir[a];
    n.zone = zi;
    n.code = z.newCode;
    out.push_back(n);
  }
}

void InOutZones::setNewParticleCode(uint32_t code) {
  for (InOutZoneData& h : host_) h.newCode = code;
  uploaded_ = false;
}

InOutParams InOutZones::at(double t) {
  bool changed = !uploaded_;
  for (size_t k = 0; k < defs_.size(); ++k) {
    const InOutZoneDef& z = defs_[k];
    InOutZoneData& h = host_[k];
    InOutZoneData next = h;
    next.zsurf = z.zsurfMode == InOutZsurfMode::Calculated ? calculated_[k] : zsurfAt(z, t);
    if (z.zsurfSeries && z.zsurfColumns > 1)
      for (uint32_t c = 0; c < z.zsurfColumns; ++c) {
        const double v = zsurfColumnAt(*z.zsurfSeries, t, c);
        double& now = columnsHost_[columnBase_[k] + c];
        if (v != now) {
          now = v;
          columnsChanged_ = true;
        }
      }
    if (z.meshVelocity) {
      const MeshFrames f = meshFramesAt(*z.meshVelocity, t + z.meshVelocityTime0);
      const float* base = meshDev_.data() + meshBase_[k];
      next.meshA = base + f.a * z.meshVelocity->valuesPerTime();
      next.meshB = base + f.b * z.meshVelocity->valuesPerTime();
      next.meshF = f.f;
      if (!(next.zsurf == h.zsurf && next.meshA == h.meshA && next.meshB == h.meshB && next.meshF == h.meshF)) {
        h = next;
        changed = true;
      }
      continue;
    }
    // The table's rows around t (the first or last row alone outside it).
    if (z.grid) {
      // The grid's rows around t (the first or last alone outside them), where the particles live.
      const std::vector<double>& times = z.grid->times;
      size_t a = 0, b = 0;
      if (times.size() > 1 && t > times.front()) {
        if (t >= times.back()) {
          a = b = times.size() - 1;
        } else {
          b = 1;
          while (times[b] <= t) ++b;
          a = b - 1;
        }
      }
      const size_t perTime = size_t(z.grid->nx) * z.grid->nz * (z.grid->velz ? 2 : 1);
      next.gridA = gridDev_.data() + gridBase_[k] + a * perTime;
      next.gridB = gridDev_.data() + gridBase_[k] + b * perTime;
      next.gridTa = times[a];
      next.gridTb = times[b];
      if (!(next.zsurf == h.zsurf && next.gridA == h.gridA && next.gridB == h.gridB)) {
        h = next;
        changed = true;
      }
      continue;
    }
    const std::vector<InOutVelocityRow>& rows = z.velocity;
    if (rows.empty()) {  // extrapolated: nothing to interpolate
      if (next.zsurf != h.zsurf) {
        h.zsurf = next.zsurf;
        changed = true;
      }
      continue;
    }
    size_t a = 0, b = 0;
    if (rows.size() > 1 && t > rows.front().time) {
      if (t >= rows.back().time) {
        a = b = rows.size() - 1;
      } else {
        b = 1;
        while (rows[b].time < t) ++b;
        a = b - 1;
      }
    }
    inOutProfileCoefficients(z.profile, rows[a], next.ca);
    inOutProfileCoefficients(z.profile, rows[b], next.cb);
    next.ta = rows[a].time;
    next.tb = rows[b].time;
    const auto same3 = [](const double* x, const double* y) { return x[0] == y[0] && x[1] == y[1] && x[2] == y[2]; };
    if (!(next.zsurf == h.zsurf && next.ta == h.ta && next.tb == h.tb && same3(next.ca, h.ca) && same3(next.cb, h.cb))) {
      h = next;
      changed = true;
    }
  }
  if (changed) {
    dev_.upload(host_, "uploading the inlet/outlet zones");
    uploaded_ = true;
  }
  if (columnsChanged_) {
    columnsDev_.upload(columnsHost_, "uploading the inlet/outlet zones' zsurf columns");
    columnsChanged_ = false;
  }
  InOutParams p;
  p.zones = dev_.data();
  p.count = count();
  p.time = t;
  p.rho0 = rho0_;
  p.coefHydro = coefHydro_;
  p.invGamma = invGamma_;
  return p;
}

}  // namespace sph
