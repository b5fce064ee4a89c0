// Host particle sets, the host reorderer and contexts for the cell plugin tests.
#include <algorithm>
#include <cmath>
#include <random>

#include "cell_test_support.h"
#include "sph/plugin/particle_code.h"

namespace celltest {

template <typename T>
void HostParticles<T>::add(double x, double y, double z, bool bound) {
  pos.push_back(Real4<T>{T(x), T(y), T(z), T(0)});
  velrho.push_back(Real4<T>{T(0), T(0), T(0), T(1000)});
  code.push_back(sph::code::make(bound, 0));
  id.push_back(uint32_t(id.size()));
  if (bound) ++nBound;
}

template <typename T>
sph::ParticleView<T> HostParticles<T>::view() {
  sph::ParticleView<T> v;
  v.pos = pos.data();
  v.velrho = velrho.data();
  v.code = code.data();
  v.id = id.data();
  v.n = size();
  v.nBound = nBound;
  v.normal = normal.empty() ? nullptr : normal.data();
  v.tangent = tangent.empty() ? nullptr : tangent.data();
  return v;
}

template <typename T>
template <typename U>
HostParticles<U> HostParticles<T>::as() const {
  HostParticles<U> o;
  for (const auto& p : pos) o.pos.push_back(Real4<U>{U(p.x), U(p.y), U(p.z), U(p.w)});
  for (const auto& v : velrho) o.velrho.push_back(Real4<U>{U(v.x), U(v.y), U(v.z), U(v.w)});
  for (const auto& v : normal) o.normal.push_back(Real4<U>{U(v.x), U(v.y), U(v.z), U(v.w)});
  for (const auto& v : tangent) o.tangent.push_back(Real4<U>{U(v.x), U(v.y), U(v.z), U(v.w)});
  o.code = code;
  o.id = id;
  o.nBound = nBound;
  return o;
}

template struct HostParticles<float>;
template struct HostParticles<double>;
template HostParticles<float> HostParticles<double>::as<float>() const;
template HostParticles<double> HostParticles<double>::as<double>() const;

namespace {

template <typename V>
void gather(std::vector<V>& v, const uint32_t* perm, uint32_t n) {
  std::vector<V> old(v.begin(), v.begin() + n);
  for (uint32_t i = 0; i < n; ++i) v[i] = old[perm[i]];
}

}  // namespace

template <typename T>
void HostReorderer<T>::apply(const uint32_t* perm, uint32_t n) {
  gather(p_.pos, perm, n);
  gather(p_.velrho, perm, n);
  gather(p_.code, perm, n);
  gather(p_.id, perm, n);
  if (!p_.normal.empty()) gather(p_.normal, perm, n);
  if (!p_.tangent.empty()) gather(p_.tangent, perm, n);
  ++calls;
}

template class HostReorderer<float>;

template class HostReorderer<double>;

sph::StrategyContext makeContext(Device device, Precision precision, int dim, double support, const Domain& d,
                                 CellMode mode, sph::ParticleReorderer* reorderer, bool trimRows) {
  sph::StrategyContext ctx;
  ctx.device = device;
  ctx.precision = precision;
  ctx.dim = dim;
  ctx.h = support / 2;
  ctx.support = support;
  for (int k = 0; k < 3; ++k) {
    ctx.domainMin[k] = d.min[k];
    ctx.domainMax[k] = d.max[k];
  }
  ctx.threads = 2;  // CI machines have two cores
  ctx.reorderer = reorderer;
  ctx.options["CellMode"] = sph::cell::cellModeName(mode);
  ctx.options["CellRows"] = trimRows ? "reachable" : "all";
  return ctx;
}

HostParticles<double> randomParticles(int dim, uint32_t n, uint32_t nBound, const Domain& d, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  double ext[3], centre[3][3];
  for (int k = 0; k < 3; ++k) ext[k] = d.max[k] - d.min[k];
  for (int c = 0; c < 3; ++c)  // cluster centres, two of them in the otherwise empty part x > 0.55
    for (int k = 0; k < 3; ++k) centre[c][k] = d.min[k] + ext[k] * (k == 0 ? 0.3 + 0.25 * c : 0.2 + 0.3 * u(rng));
  HostParticles<double> p;
  for (uint32_t i = 0; i < n; ++i) {
    double x[3];
    const double kind = u(rng);
    for (int k = 0; k < 3; ++k) {
      if (kind < 0.35)  // dense cluster
        x[k] = centre[i % 3][k] + 0.03 * ext[k] * g(rng);
      else if (kind < 0.95)  // uniform in the lower part of x, leaving x > 0.55 empty
        x[k] = d.min[k] + ext[k] * u(rng) * (k == 0 ? 0.55 : 1.0);
      else  // up to 15% outside the domain on either side
        x[k] = d.min[k] + ext[k] * (1.3 * u(rng) - 0.15);
    }
    if (dim == 2) x[1] = 0.5 * (d.min[1] + d.max[1]);
    p.add(x[0], x[1], x[2], i < nBound);
  }
  return p;
}

HostParticles<double> latticeParticles(int dim, int nx, int ny, int nz, double dp, const double origin[3],
                                       int boundLayers) {
  HostParticles<double> p;
  if (dim == 2) ny = 1;
  for (int pass = 0; pass < 2; ++pass)  // boundary first
    for (int z = pass == 0 ? 0 : boundLayers; z < (pass == 0 ? std::min(boundLayers, nz) : nz); ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x)
          p.add(origin[0] + x * dp, origin[1] + y * dp, origin[2] + z * dp, pass == 0);
  return p;
}

sph::PeriodicBox<double> periodicBox(const Domain& d, unsigned mask) {
  sph::PeriodicBox<double> b;
  for (int k = 0; k < 3; ++k) {
    if (!(mask >> k & 1u)) continue;
    b.min[k] = d.min[k];
    b.length[k] = d.max[k] - d.min[k];
  }
  return b;
}

template <typename T>
sph::PeriodicBox<T> boxAs(const sph::PeriodicBox<double>& b) {
  sph::PeriodicBox<T> o;
  for (int k = 0; k < 3; ++k) {
    o.min[k] = T(b.min[k]);
    o.length[k] = T(b.length[k]);
  }
  return o;
}
template sph::PeriodicBox<float> boxAs(const sph::PeriodicBox<double>&);
template sph::PeriodicBox<double> boxAs(const sph::PeriodicBox<double>&);

void setPeriodic(sph::StrategyContext& ctx, unsigned mask) {
  for (int k = 0; k < 3; ++k) ctx.periodic[k] = (mask >> k & 1u) != 0;
}

template <typename T>
void wrapPositions(HostParticles<T>& p, const sph::PeriodicBox<double>& box) {
  const sph::PeriodicBox<T> b = boxAs<T>(box);
  for (auto& q : p.pos) sph::wrapPosition(q, b);
}
template void wrapPositions(HostParticles<float>&, const sph::PeriodicBox<double>&);
template void wrapPositions(HostParticles<double>&, const sph::PeriodicBox<double>&);

HostParticles<double> periodicRandomParticles(int dim, uint32_t n, uint32_t nBound, const Domain& d, unsigned mask,
                                              double band, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  const sph::PeriodicBox<double> box = periodicBox(d, mask);
  std::vector<int> periodicAxes;
  for (int k = 0; k < 3; ++k)
    if (box.periodic(k) && !(dim == 2 && k == 1)) periodicAxes.push_back(k);
  HostParticles<double> p;
  for (uint32_t i = 0; i < n; ++i) {
    double x[3];
    const double kind = u(rng);
    for (int k = 0; k < 3; ++k) {
      const double ext = d.max[k] - d.min[k];
      if (kind < 0.25)  // dense cluster around the minimum corner
        x[k] = d.min[k] + 0.04 * ext * g(rng);
      else if (kind < 0.97 || box.periodic(k))
        x[k] = d.min[k] + ext * u(rng);
      else  // outside the domain of an open axis
        x[k] = d.min[k] + ext * (1.3 * u(rng) - 0.15);
    }
    if (kind >= 0.25 && kind < 0.6 && !periodicAxes.empty()) {  // a slab at one face of a periodic axis
      const int k = periodicAxes[i % periodicAxes.size()];
      const double depth = band * u(rng);
      x[k] = (u(rng) < 0.5) ? d.min[k] + depth : d.max[k] - depth;
    }
    if (dim == 2) x[1] = 0.5 * (d.min[1] + d.max[1]);
    Real4<double> q{x[0], x[1], x[2], 0.0};
    sph::wrapPosition(q, box);
    p.add(q.x, q.y, q.z, i < nBound);
  }
  return p;
}

std::vector<uint64_t> pairsById(const std::vector<sph::cell::IndexPair>& pairs, const std::vector<uint32_t>& id) {
  std::vector<uint64_t> out;
  out.reserve(pairs.size());
  for (const auto& q : pairs) out.push_back(uint64_t(id[q.a]) << 32 | id[q.b]);
  std::sort(out.begin(), out.end());
  return out;
}


Domain domainAround(const HostParticles<double>& p, double margin) {
  Domain d;
  for (int k = 0; k < 3; ++k) {
    d.min[k] = 1e30;
    d.max[k] = -1e30;
  }
  for (const auto& q : p.pos) {
    const double x[3] = {q.x, q.y, q.z};
    for (int k = 0; k < 3; ++k) {
      d.min[k] = std::min(d.min[k], x[k] - margin);
      d.max[k] = std::max(d.max[k], x[k] + margin);
    }
  }
  return d;
}

}  // namespace celltest
