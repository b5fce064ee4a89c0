#include "run/relaxation_zones.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>

#include "motion/paddle_irregular_law.h"
#include "motion/paddle_regular_law.h"
#include "output/output.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

constexpr double kPi = std::numbers::pi;

void setWeight(const RelaxZoneCommon& c, RelaxZoneStep& s) {
  s.coefDt = c.coefDt;
  s.psi = c.psi;
  s.beta = c.beta;
  relax::weightConstants(c.psi, c.beta, s.sub, s.div);
}

// What the zones of a band along x share: the weight, the band and the components' factors.
template <typename Zone>
void setBand(const Zone& z, RelaxZoneStep& s) {
  setWeight(z.common, s);
  s.centerX = z.centerX;
  s.widthHalf = z.width / 2;
  s.coefX = z.coefDir.x;
  s.coefZ = z.coefDir.z;
}

double endOf(const RelaxZoneCommon& c, double timeMax) {
  return c.duration > 0 ? c.start + c.duration : timeMax;
}

// A zone acts during the steps that start in [start, end).
bool acting(const RelaxZoneCommon& c, double end, double t) { return t >= c.start && t < end; }

}  // namespace

namespace {

// A row's velocity at height z: linear between its levels, the end levels' beyond them.
double profileAt(const double* z, const double* v, uint32_t n, double at) {
  if (at <= z[0]) return v[0];
  for (uint32_t i = 0; i + 1 < n; ++i)
    if (z[i] <= at && at < z[i + 1]) return v[i] + (v[i + 1] - v[i]) * ((at - z[i]) / (z[i + 1] - z[i]));
  return v[n - 1];
}

}  // namespace

RelaxationZones::RelaxationZones(const CaseRelaxationZones& c, double gravity, double timeMax, double dp)
    : gravity_(gravity) {
  for (const RelaxWaveZone& z : c.waves) {
    Wave w;
    w.zone = z;
    w.zone.waves.gravity = gravity;
    w.end = endOf(z.common, timeMax);
    w.omega = 2 * kPi / z.waves.period;
    w.k = waveNumber(z.waves.period, z.waves.depth, gravity);
    if (z.spectrum) {
      const IrregularPaddleLaw law(w.zone.waves);
      w.first = waveData_.size() / 4;
      w.count = law.waves().size();
      for (const IrregularPaddleLaw::Wave& c : law.waves()) {
        waveData_.push_back(c.k);
        waveData_.push_back(c.amplitude * c.omega);
        waveData_.push_back(c.omega);
        waveData_.push_back(c.phase);
      }
      w.zone.waves.irregular.serieIni = law.serieStart();
    }
    waves_.push_back(std::move(w));
  }
  for (const RelaxUniformZone& z : c.uniform) {
    uniform_.push_back(z);
    uniformEnd_.push_back(endOf(z.common, timeMax));
  }
  for (const RelaxExternalZone& z : c.external) {
    External x;
    x.zone = z;
    x.end = endOf(z.common, timeMax);
    const MlPistonData& f0 = z.velx.front();
    // The rows kept: 0 <= T <= the zone's end (an absolute time, as DualSPHysics compares them).
    std::vector<size_t> rows;
    for (size_t r = 0; r < f0.times.size(); ++r)
      if (f0.times[r] >= 0 && f0.times[r] <= x.end) rows.push_back(r);
    if (rows.size() < 2)
      throw InputError(fmt::format("<rzwaves_external_1d> (line {}): {} row(s) of {} between 0 and the zone's end "
                                   "{:g} s; at least two are needed",
                                   z.common.line, rows.size(), f0.file, x.end));
    for (size_t r : rows) x.times.push_back(f0.times[r]);
    const size_t nx = z.velx.size();
    x.npx1 = uint32_t(nx - 1);
    x.dpx = nx > 1 ? z.velx[1].posx - f0.posx : 1.0;
    x.pxmin = f0.posx + z.moveData.x;
    x.dpz = z.dpzCoef * dp;
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (const MlPistonData& f : z.velx) {
      const double* levels = f.z.data() + rows.front() * f.levels;
      lo = std::min(lo, levels[0]);
      hi = std::max(hi, levels[f.levels - 1]);
    }
    x.npz1 = uint32_t(std::max(0.0, std::floor((hi - lo) / x.dpz)));
    x.pzmin = lo + z.moveData.z;
    const size_t npz = x.npz1 + 1;
    x.nodes = nx * npz;
    const int parts = z.useVelz ? 2 : 1;
    x.first = waveData_.size();
    // Per row: the nodes' x velocities (and z ones), then the same averaged over <smooth> in z.
    std::vector<double> table;
    for (int averaged = 0; averaged < (z.smooth > 0 ? 2 : 1); ++averaged)
      for (size_t r : rows)
        for (int part = 0; part < parts; ++part)
          for (size_t i = 0; i < nx; ++i) {
            const MlPistonData& f = (part == 0 ? z.velx : z.velz)[i];
            std::vector<double> column(npz);
            for (size_t k = 0; k < npz; ++k)
              column[k] = profileAt(f.z.data() + r * f.levels, f.v.data() + r * f.levels, f.levels,
                                    lo + double(k) * x.dpz);
            if (averaged)
              for (size_t k = 0; k < npz; ++k) {
                const size_t a = k > size_t(z.smooth) ? k - size_t(z.smooth) : 0, b = std::min(npz - 1, k + size_t(z.smooth));
                double sum = 0;
                for (size_t q = a; q <= b; ++q) sum += column[q];
                table.push_back(sum / double(b - a + 1));
              }
            else
              table.insert(table.end(), column.begin(), column.end());
          }
    waveData_.insert(waveData_.end(), table.begin(), table.end());
    external_.push_back(std::move(x));
  }
}

RelaxZoneStep RelaxationZones::externalStep(const External& x, double t, const double* waves) const {
  const RelaxExternalZone& z = x.zone;
  RelaxZoneStep s;
  s.kind = RelaxKind::External;
  setBand(z, s);
  s.pxmin = x.pxmin;
  s.pzmin = x.pzmin;
  s.dpx = x.dpx;
  s.dpz = x.dpz;
  s.npx1 = x.npx1;
  s.npz1 = x.npz1;
  s.useVelz = z.useVelz ? 1 : 0;
  const double td = t - z.common.start;
  const std::vector<double>& T = x.times;
  size_t r = 0;  // T[r] < td <= T[r + 1], or r = 0 at the first row
  while (r + 2 < T.size() && td > T[r + 1]) ++r;
  const double f = td <= T[0] ? 0.0 : (td - T[r]) / (T[r + 1] - T[r]);
  const size_t parts = z.useVelz ? 2 : 1, row = parts * x.nodes, rows = T.size();
  const double* plain = waves + x.first;
  const double* averaged = plain + rows * row;
  const double *a = plain + r * row, *b = plain + (r + 1) * row;
  if (z.smooth > 0) {
    a = td <= T[0] ? averaged : plain + (r + 1) * row;
    b = td <= T[0] ? averaged : averaged + (r + 1) * row;
  }
  s.extA = a;
  s.extB = b;
  s.extAz = a + x.nodes;
  s.extBz = b + x.nodes;
  s.extF = f;
  return s;
}

RelaxZoneStep RelaxationZones::waveStep(const Wave& w, double t, const double* waves) const {
  const RelaxWaveZone& z = w.zone;
  const WavePaddle& p = z.waves;
  RelaxZoneStep s;
  setBand(z, s);
  s.swl = z.swl;
  s.depth = p.depth;
  const double tau = t - z.common.start;
  const double k = w.k, kd = k * p.depth;
  s.sinhKd = std::sinh(kd);
  if (z.drift != 0) {
    // The Stokes drift of the regular waves of the zone's height and period.
    s.driftC = z.drift * w.omega * k * p.height * p.height / (8 * s.sinhKd * s.sinhKd);
    s.driftK2 = 2 * k;
  }
  if (z.spectrum) {
    s.kind = RelaxKind::Spectrum;
    s.waves = waves + 4 * w.first;
    s.count = uint32_t(w.count);
    s.tau = p.irregular.serieIni + tau;
    s.ramp = p.irregular.rampTime > 0 ? waveRamp(tau / p.irregular.rampTime) : 1.0;
    return s;
  }
  s.kind = RelaxKind::Regular;
  s.k = k;
  s.aw = w.omega * p.height / 2;
  s.theta0 = w.omega * tau + p.phase;
  if (p.order == 2) {
    // Stokes' second order: 3/4 (pi H / L)^2 c, c = w / k the celerity.
    const double steep = p.height * k / 2;
    s.second = 0.75 * steep * steep * w.omega / k;
    s.sinhKd4 = std::pow(s.sinhKd, 4);
  }
  s.ramp = p.rampPeriods > 0 ? waveRamp(tau / (p.rampPeriods * p.period)) : 1.0;
  return s;
}

void RelaxationZones::stepZones(double t, const double* waves, std::vector<RelaxZoneStep>& out) const {
  out.clear();
  for (const Wave& w : waves_)
    if (acting(w.zone.common, w.end, t)) out.push_back(waveStep(w, t, waves));
  // External zones act while their data last (DualSPHysics' data before the first row kept give
  // an infinite target: not followed).
  for (const External& x : external_) {
    const double td = t - x.zone.common.start;
    if (t >= x.zone.common.start && td >= x.times.front() && td <= x.times.back()) out.push_back(externalStep(x, t, waves));
  }
  for (size_t i = 0; i < uniform_.size(); ++i) {
    const RelaxUniformZone& z = uniform_[i];
    if (!acting(z.common, uniformEnd_[i], t)) continue;
    RelaxZoneStep s;
    s.kind = RelaxKind::Uniform;
    setWeight(z.common, s);
    const Vec3d* e = z.edge;
    double centre[3] = {z.origin.x, z.origin.y, z.origin.z};
    for (int a = 0; a < 3; ++a) {
      const double len = std::sqrt(e[a].x * e[a].x + e[a].y * e[a].y + e[a].z * e[a].z);
      s.size[a] = len;
      const double u[3] = {e[a].x / len, e[a].y / len, e[a].z / len};
      for (int j = 0; j < 3; ++j) {
        s.axes[a][j] = u[j];
        centre[j] += u[j] * len / 2;
      }
    }
    for (int j = 0; j < 3; ++j) {
      s.origin[j] = j == 0 ? z.origin.x : j == 1 ? z.origin.y : z.origin.z;
      s.center[j] = centre[j];
      s.dir[j] = z.sign * s.axes[z.axis][j];
    }
    s.widthHalf = s.size[z.axis] / 2;
    double v = z.velocity;
    if (!z.times.empty()) {
      // Linear between the rows, held beyond the first and the last.
      const std::vector<double>& ts = z.times;
      if (t <= ts.front()) v = z.values.front();
      else if (t >= ts.back()) v = z.values.back();
      else {
        size_t j = 1;
        while (ts[j] < t) ++j;
        const double f = (t - ts[j - 1]) / (ts[j] - ts[j - 1]);
        v = z.values[j - 1] + f * (z.values[j] - z.values[j - 1]);
      }
    }
    for (int j = 0; j < 3; ++j) s.velocity[j] = v * s.dir[j];
    out.push_back(s);
  }
}

void RelaxationZones::writeSaveMotions(const std::string& dir, double timeOut) const {
  for (size_t id = 0; id < waves_.size(); ++id) {
    const Wave& w = waves_[id];
    const RelaxWaveZone& z = w.zone;
    if (!z.saveMotion || z.spectrum) continue;
    const WavePaddle& p = z.waves;
    const double span = z.motion.timeOr(w.end), dt = z.motion.dtOr(timeOut);
    const double zpos = z.motion.zpos.value_or(-p.depth / 2);
    std::string text = fmt::format(
        "Type of wave: Regular\nMovement direction: (1:0:0)\nCenter: ({:g}:0:0) (width: {:g})\n"
        "Start time: {:g}  (end: {:g})\nGravity: {:g} [m/s^2]\nDepth: {:g}\nCoefDir: ({:g}:{:g}:{:g})\n"
        "CoefDt: {:g}\nDriftCorrection: {:g}\nInitialPhase: {:g} times PI\nInitialRamp: {:g} periods\n"
        "WaveOrder: {}\nWaveHeight: {:g} [m]\nWavePeriod: {:g} [s]\nWaveLength: {:g}\n"
        "SaveMotion: [time:{:g} [s]  dt:{:g} [s]  xpos:{:g} [m]  zpos:{:g} [m]]\n\n"
        "Time [s];Elevation_o1 [m];Elevation_o2 [m];Velx_o1 [m/s];Velz_o1 [m/s];Velx_o2 [m/s];Velz_o2 [m/s]\n",
        z.centerX, z.width, z.common.start, w.end, gravity_, p.depth, z.coefDir.x, z.coefDir.y, z.coefDir.z,
        z.common.coefDt, z.drift, p.phase / kPi, p.rampPeriods, p.order == 2 ? "2nd" : "1st", p.height, p.period,
        2 * kPi / w.k, span, dt, z.motion.xpos, zpos);
    // DualSPHysics' rows: a row of zeros at 0 when the zone starts later, then start, start + dt,
    // ... for `span` seconds; the theory at xpos (from x = 0, not from the zone's centre) and
    // zpos below the still-water level, ramped; zeros once the zone has ended.
    if (z.common.start > 0) text += "0;0;0;0;0;0;0\n";
    const double k = w.k, kd = k * p.depth, sh = std::sinh(kd);
    const double eta2 = p.height * p.height * k * std::cosh(kd) * (2 + std::cosh(2 * kd)) / (16 * sh * sh * sh);
    const double steep = p.height * k / 2;
    const double second = 0.75 * steep * steep * w.omega / k, sh4 = std::pow(sh, 4);
    const double dz = p.depth + zpos;
    const long rows = long(std::floor(span / dt + 1e-9));
    for (long i = 0; i <= rows; ++i) {
      const double tr = z.common.start + double(i) * dt, tau = tr - z.common.start;
      double e1 = 0, e2 = 0, u1 = 0, w1 = 0, u2 = 0, w2 = 0;
      if (tr <= w.end) {
        const double r = p.rampPeriods > 0 ? waveRamp(tau / (p.rampPeriods * p.period)) : 1.0;
        const double th = w.omega * tau + p.phase - k * z.motion.xpos;
        const double aw = w.omega * p.height / 2;
        e1 = r * p.height / 2 * std::cos(th);
        e2 = e1 + r * eta2 * std::cos(2 * th);
        u1 = r * aw * std::cosh(k * dz) / sh * std::cos(th);
        w1 = -r * aw * std::sinh(k * dz) / sh * std::sin(th);
        u2 = u1 + r * second * std::cosh(2 * k * dz) * std::cos(2 * th) / sh4;
        w2 = w1 - r * second * std::sinh(2 * k * dz) * std::sin(2 * th) / sh4;
      }
      text += fmt::format("{:.6f};{:.6f};{:.6f};{:.6f};{:.6f};{:.6f};{:.6f}\n", tr, e1, e2, u1, w1, u2, w2);
    }
    writeTextFileAtomic(dir + fmt::format("/RelaxZone_id{}.csv", id), text);
  }
}

}  // namespace sph
