#include "floating/floating_bodies.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {
namespace {

// The local mkbound -> floating definition of every floating body.
std::map<int, const FloatingDef*> floatingMks(const CaseDefinition& c) {
  std::map<int, const FloatingDef*> m;
  for (const FloatingDef& f : c.floatings)
    for (int mk : f.mkBound) m[mk] = &f;
  return m;
}

// The material of DEM contact from <properties> names (DualSPHysics' keys).
template <typename T>
DemMaterial<T> demMaterial(const CaseDefinition& c, const std::string& names, const std::string& where) {
  const std::map<std::string, double> v = resolveMaterial(c.properties, names, where);
  auto need = [&](const char* key) {
    const auto it = v.find(key);
    if (it == v.end())
      throw InputError(fmt::format("{}the material \"{}\" has no {} (DEM needs Young_Modulus, PoissonRatio, "
                                   "Restitution_Coefficient and Kfric)",
                                   where, names, key));
    return it->second;
  };
  const double e = need("Young_Modulus"), nu = need("PoissonRatio");
  const double restitution = need("Restitution_Coefficient"), friction = need("Kfric");
  if (!(e > 0) || !(nu >= 0 && nu < 0.5) || !(restitution > 0 && restitution <= 1) || !(friction >= 0))
    throw InputError(fmt::format("{}the material \"{}\" is impossible (Young_Modulus {} must be > 0, PoissonRatio "
                                 "{} in [0, 0.5), Restitution_Coefficient {} in (0, 1], Kfric {} >= 0)",
                                 where, names, e, nu, restitution, friction));
  DemMaterial<T> m;
  m.tau = T((1 - nu * nu) / e);
  m.restitution = T(restitution);
  m.friction = T(friction);
  return m;
}

}  // namespace

ParticleOrder planParticleOrder(const CaseDefinition& c) {
  const auto fmks = floatingMks(c);
  std::vector<int> bodyOfMkIndex(c.mks.size(), -1);
  std::vector<int> floatingMkIndices;
  for (size_t k = 0; k < c.mks.size(); ++k) {
    if (c.mks[k].bound && fmks.count(c.mks[k].local)) {
      bodyOfMkIndex[k] = int(floatingMkIndices.size());
      floatingMkIndices.push_back(int(k));
    }
  }
  ParticleOrder o;
  if (floatingMkIndices.empty()) {
    o.nBound = c.nBound;
    return o;
  }
  const uint32_t n = uint32_t(c.positions.size());
  o.caseIndex.reserve(n);
  std::vector<std::vector<uint32_t>> perBody(floatingMkIndices.size());
  for (uint32_t i = 0; i < c.nBound; ++i) {
    const int b = bodyOfMkIndex[c.mkIndex[i]];
    if (b < 0)
      o.caseIndex.push_back(i);
    else
      perBody[b].push_back(i);
  }
  o.nBound = uint32_t(o.caseIndex.size());
  for (const auto& body : perBody) o.caseIndex.insert(o.caseIndex.end(), body.begin(), body.end());
  o.nFloating = uint32_t(o.caseIndex.size()) - o.nBound;
  for (uint32_t i = c.nBound; i < n; ++i) o.caseIndex.push_back(i);
  return o;
}

std::vector<FloatingBodyDef> floatingBodies(const CaseDefinition& c, const SimParameters& p, const ParticleOrder& o) {
  const auto fmks = floatingMks(c);
  std::vector<FloatingBodyDef> bodies;
  uint32_t slot = 0;
  // Bodies in the order planParticleOrder() put them: by mk index.
  for (size_t k = 0; k < c.mks.size(); ++k) {
    const MkEntry& mk = c.mks[k];
    if (!mk.bound || !fmks.count(mk.local)) continue;
    const FloatingDef& f = *fmks.at(mk.local);
    const std::string where = fmt::format("{}:{}: <floating> mkbound {}: ", c.path, f.line, mk.local);
    if (mk.count == 0) throw InputError(where + "the body has no particles");
    FloatingBodyDef b;
    b.mkBound = mk.local;
    b.mkIndex = uint16_t(k);
    b.first = slot;
    b.count = mk.count;
    const double volume = double(mk.count) * std::pow(c.dp, p.dim);
    if (f.massBody)
      b.mass = *f.massBody;
    else if (f.rhopBody)
      b.mass = *f.rhopBody * volume;
    else
      b.mass = *f.relativeWeight * p.rho0 * volume;
    Vec3d sum;
    for (uint32_t s = 0; s < b.count; ++s) {
      const Vec3d& x = c.positions[o.caseOf(o.nBound + slot + s)];
      sum.x += x.x;
      sum.y += x.y;
      sum.z += x.z;
    }
    b.center = f.center.value_or(Vec3d{sum.x / b.count, sum.y / b.count, sum.z / b.count});
    const double mp = b.mass / b.count;
    for (uint32_t s = 0; s < b.count; ++s) {
      const Vec3d& x = c.positions[o.caseOf(o.nBound + slot + s)];
      const double d[3] = {x.x - b.center.x, x.y - b.center.y, x.z - b.center.z};
      b.inertia[0] += mp * (d[1] * d[1] + d[2] * d[2]);
      b.inertia[1] += mp * (d[0] * d[0] + d[2] * d[2]);
      b.inertia[2] += mp * (d[0] * d[0] + d[1] * d[1]);
      b.inertia[3] -= mp * d[0] * d[1];
      b.inertia[4] -= mp * d[0] * d[2];
      b.inertia[5] -= mp * d[1] * d[2];
    }
    if (f.inertia) {
      if (p.floatingMotion == FloatingMotion::Rigid)
        throw InputError(where + "FloatingMotion rigid works the inertia out from the particles every step: a given "
                                 "<inertia> needs the default FloatingMotion (dualsphysics)");
      for (int k = 0; k < 6; ++k) b.inertia[k] = (*f.inertia)[k];
    }
    b.pairMass = f.massPart ? *f.massPart : f.massPartDistributed ? b.mass / b.count : p.rho0 * std::pow(p.dp, p.dim);
    b.velIni = f.velIni;
    b.omegaIni = f.omegaIni;
    b.material = f.property;
    b.linearVel = f.linearVel;
    b.angularVel = f.angularVel;
    b.linearForce = f.linearForce;
    b.angularForce = f.angularForce;
    for (int a = 0; a < 3; ++a) {
      if (!f.translationFree[a]) b.fixedMove |= uint8_t(1u << a);
      if (!f.rotationFree[a]) b.fixedTurn |= uint8_t(1u << a);
    }
    if (p.rigidAlgorithm == 2 && f.property.empty())
      throw InputError(where + "RigidAlgorithm=2 (DEM) needs the body's material: add property=\"...\"");
    bodies.push_back(b);
    slot += b.count;
  }
  return bodies;
}

BodyDrive FloatingBodyDef::driveAt(double t) const {
  BodyDrive d{};
  // A series' components at t; a none (NaN) component is left out of `set`.
  const auto put = [t](const std::optional<TimeSeries3>& series, double* out, uint8_t* set) {
    if (!series) return;
    const Vec3d v = series->at(t);
    const double c[3] = {v.x, v.y, v.z};
    for (int k = 0; k < 3; ++k) {
      if (std::isnan(c[k])) continue;
      out[k] = c[k];
      if (set) *set |= uint8_t(1u << k);
    }
  };
  put(linearVel, d.vel, &d.setVel);
  put(angularVel, d.omega, &d.setOmega);
  put(linearForce, d.force, nullptr);
  put(angularForce, d.torque, nullptr);
  d.fixedMove = fixedMove;
  d.fixedTurn = fixedTurn;
  return d;
}

template <typename T>
FloatingBodies<T>::FloatingBodies(const CaseDefinition& c, const SimParameters& p, const ParticleOrder& o, Device d,
                                  uint32_t capacity, int threads)
    : device_(d), threads_(threads), defs_(floatingBodies(c, p, o)), dem_(p.rigidAlgorithm == 2), dp_(T(p.dp)) {
  const uint32_t nb = uint32_t(defs_.size());
  std::vector<FloatingBody> bodies(nb);
  std::vector<double> centers(3 * size_t(nb));
  std::vector<SolidInfo<T>> solids(c.mks.size());
  for (uint32_t b = 0; b < nb; ++b) {
    const FloatingBodyDef& def = defs_[b];
    FloatingBody& body = bodies[b];
    const double v0[3] = {def.velIni.x, def.velIni.y, def.velIni.z};
    const double w0[3] = {def.omegaIni.x, def.omegaIni.y, def.omegaIni.z};
    const double c0[3] = {def.center.x, def.center.y, def.center.z};
    for (int k = 0; k < 3; ++k) {
      body.center[k] = centers[3 * b + k] = c0[k];
      body.vel[k] = v0[k];
      body.omega[k] = w0[k];
    }
    body.mass = def.mass;
    body.particleMass = def.mass / def.count;
    body.pairMass = def.pairMass;
    body.ownInertia = def.mass * p.dp * p.dp / 6.0;  // count * m_p * dp^2 / 6
    for (int k = 0; k < 6; ++k) body.inertia0[k] = def.inertia[k];
    for (int k = 0; k < 3; ++k) body.angles[k] = 0;
    body.first = def.first;
    body.count = def.count;
    SolidInfo<T>& s = solids[def.mkIndex];
    s.body = int32_t(b);
    s.pairMass = T(body.pairMass);
    s.bodyMass = T(def.mass);
    if (dem_) {
      const FloatingDef* f = floatingMks(c).at(def.mkBound);
      s.material = demMaterial<T>(c, def.material,
                                  fmt::format("{}:{}: <floating> mkbound {}: ", c.path, f->line, def.mkBound));
      s.hasMaterial = 1;
    }
  }
  if (dem_) {
    // Walls: every boundary mk that is not floating needs a material through <links>.
    for (const PropertiesDef::Link& l : c.properties.links)
      for (int mkLocal : l.mkBound)
        if (const size_t k = mkIndexOf(c, true, mkLocal); k < c.mks.size() && solids[k].body < 0) {
          solids[k].material = demMaterial<T>(c, l.property, fmt::format("{}:{}: <link>: ", c.path, l.line));
          solids[k].hasMaterial = 1;
        }
    for (size_t k = 0; k < c.mks.size(); ++k)
      if (c.mks[k].bound && c.mks[k].count > 0 && !solids[k].hasMaterial)
        throw InputError(fmt::format("{}: <properties>: RigidAlgorithm=2 (DEM) needs a material for every boundary, "
                                     "but mkbound {} has none: add <link mkbound=\"{}\" property=\"...\"/>",
                                     c.path, c.mks[k].local, c.mks[k].local));
  }
  bodies_.allocate(d, nb, "floating bodies");
  bodies_.upload(bodies, "uploading floating bodies");
  if (std::any_of(defs_.begin(), defs_.end(), [](const FloatingBodyDef& b) { return b.driven(); })) {
    drives_.allocate(d, nb, "floating body drives");
    timeDriven_ = std::any_of(defs_.begin(), defs_.end(), [](const FloatingBodyDef& b) {
      return b.linearVel || b.angularVel || b.linearForce || b.angularForce;
    });
    uploadDrives(0);
  }
  motions_.allocate(d, nb, "floating body motions");
  centerNow_.allocate(d, 3 * size_t(nb), "floating body centres");
  centerNow_.upload(centers, "uploading floating body centres");
  bodyContacts_.allocate(d, nb, "floating body contacts");
  bodyContacts_.upload(std::vector<uint32_t>(nb, 0), "clearing floating body contacts");
  slotIndex_.allocate(d, o.nFloating, "floating particle index");
  sums_.allocate(d, nb, "floating body sums");
  solids_.allocate(d, solids.size(), "floating body table");
  solids_.upload(solids, "uploading the floating body table");
  if (dem_) contacts_.allocate(d, capacity, "DEM contacts per particle");
  shape_.nBodies = nb;
  shape_.nFloating = o.nFloating;
  shape_.idFirst = o.nBound;
  shape_.gravity[0] = p.gravity.x;
  shape_.gravity[1] = p.gravity.y;
  shape_.gravity[2] = p.gravity.z;
  shape_.dim = p.dim;
  shape_.motion = p.floatingMotion;
  for (int k = 0; k < 3; ++k) {
    if (!p.periodic[k]) continue;
    shape_.box.min[k] = T(k == 0 ? p.domainMin.x : k == 1 ? p.domainMin.y : p.domainMin.z);
    shape_.box.length[k] = T(p.period(k));
  }
}

template <typename T>
void FloatingBodies<T>::uploadDrives(double time) {
  std::vector<BodyDrive> drives(defs_.size());
  for (size_t b = 0; b < defs_.size(); ++b) drives[b] = defs_[b].driveAt(time);
  drives_.upload(drives, "uploading the imposed motion of floating bodies");
  drivesTime_ = time;
}

template <typename T>
FloatingPass<T> FloatingBodies<T>::pass() const {
  FloatingPass<T> f = shape_;
  f.bodies = bodies_.data();
  f.drives = drives_.size() ? drives_.data() : nullptr;
  f.motions = motions_.data();
  f.centerNow = centerNow_.data();
  f.bodyContacts = bodyContacts_.data();
  f.sums = sums_.data();
  f.slotIndex = slotIndex_.data();
  f.solids = solids_.data();
  f.particleContacts = contacts_.data();
  return f;
}

template <typename T>
FloatingPairTable<T> FloatingBodies<T>::pairTable() const {
  FloatingPairTable<T> t;
  t.solids = solids_.data();
  t.bodyContacts = bodyContacts_.data();
  t.dp = dp_;
  t.dem = dem_ ? 1 : 0;
  t.dualsphysics = shape_.motion == FloatingMotion::DualSPHysics ? 1 : 0;
  return t;
}

template <typename T>
void FloatingBodies<T>::index(const ParticleView<T>& p) {
  if (device_ == Device::Gpu)
    indexFloatingGpu(p, pass());
  else
    indexFloatingCpu(p, pass(), threads_);
}

template <typename T>
void FloatingBodies<T>::advance(const ParticleView<T>& p, const Real4<T>* ace, const Real4<T>* src,
                                const Real4<T>* srcVel, const double* dt, BodyStep kind, bool paused, double time) {
  if (timeDriven_ && time != drivesTime_) uploadDrives(time);
  const FloatingPass<T> f = pass();
  if (device_ == Device::Gpu)
    sumFloatingGpu(p, ace, src, f);
  else
    sumFloatingCpu(p, ace, src, f);
  if (combine_) {
    std::vector<BodySums> sums = sums_.download(defs_.size(), "downloading the sums of floating bodies");
    combine_(sums);
    sums_.upload(sums, "uploading the sums of floating bodies over every rank");
  }
  if (device_ == Device::Gpu)
    advanceFloatingGpu(p, src, srcVel, f, dt, kind, paused);
  else
    advanceFloatingCpu(p, src, srcVel, f, dt, kind, paused, threads_);
}

template <typename T>
std::vector<FloatingBodyState> FloatingBodies<T>::states() const {
  const std::vector<FloatingBody> b = bodies_.download(defs_.size(), "downloading floating bodies");
  std::vector<FloatingBodyState> out(b.size());
  for (size_t k = 0; k < b.size(); ++k) {
    out[k].mkBound = defs_[k].mkBound;
    for (int a = 0; a < 3; ++a) {
      out[k].center[a] = b[k].center[a];
      out[k].vel[a] = b[k].vel[a];
      out[k].omega[a] = b[k].omega[a];
    }
  }
  return out;
}

template <typename T>
template <typename Self, typename F>
void FloatingBodies<T>::checkpointArrays(Self& s, F&& f) {
  const size_t nb = s.defs_.size();
  f("floating.bodies", s.bodies_, nb);
  f("floating.motions", s.motions_, nb);
  f("floating.center_now", s.centerNow_, 3 * nb);
  f("floating.body_contacts", s.bodyContacts_, nb);
}

template <typename T>
void FloatingBodies<T>::save(CheckpointWriter& w) const {
  checkpointArrays(*this, [&](const char* name, const auto& a, size_t count) { w.putArray(name, a, count); });
}

template <typename T>
void FloatingBodies<T>::restore(const CheckpointReader& r) {
  checkpointArrays(*this, [&](const char* name, auto& a, size_t count) { r.getArray(name, a, count); });
}

template <typename T>
size_t FloatingBodies<T>::bytes() const {
  return bodies_.bytes() + drives_.bytes() + motions_.bytes() + centerNow_.bytes() + bodyContacts_.bytes() +
         slotIndex_.bytes() + contacts_.bytes() + solids_.bytes() + sums_.bytes();
}

template class FloatingBodies<float>;
template class FloatingBodies<double>;

}  // namespace sph
