#include "motion/paddle_awas.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <utility>

namespace sph {

PaddleAwasControl::PaddleAwasControl(const WavePaddle& p, PaddleLaw law, double face, const SimParameters& sp)
    : paddle_(p), law_(std::move(law)), awas_(*p.awas), face_(face) {
  gaugeOffset_ = awas_.gaugeX.metres(sp.h, sp.dp);
  zMin_ = awas_.gaugeZMin.value_or(sp.domainMin.z);
  zMax_ = awas_.gaugeZMax.value_or(sp.domainMax.z);
  pointDp_ = awas_.gaugeDp * sp.dp;
  massFluid_ = sp.massFluid;
  massLimit_ = awas_.massLimitCoef.value_or(defaultSwlMassLimitCoef(sp.dim)) * sp.massFluid;
  coefU_ = std::sqrt(p.gravity / p.depth);
  // The theory's peak acceleration, as DualSPHysics states it ("peak theoretical"): the first
  // harmonic's for regular waves, the motion's largest over the run for irregular ones.
  if (const RegularPaddleLaw* regular = law_.regular()) {
    const double omega = 2 * std::numbers::pi / p.period;
    aceLimit_ = awas_.limitAce * regular->amplitude() * omega * omega;
  } else if (const IrregularPaddleLaw* irregular = law_.irregular()) {
    aceLimit_ = awas_.limitAce * irregular->peakAcceleration(sp.timeMax);
  } else {
    throw std::logic_error("PaddleAwasControl: active absorption is for regular or irregular waves");
  }
  if (awas_.correction) {
    // DualSPHysics' stroke and period of the correction: the paddle's own for regular waves; for
    // irregular ones those of a regular wave of height Hs and period Tp (gain included).
    double amplitude = 0;
    if (const RegularPaddleLaw* regular = law_.regular()) {
      amplitude = regular->amplitude();
    } else {
      WavePaddle r = p;
      r.waves = PaddleWaves::Regular;
      r.order = 1;
      amplitude = RegularPaddleLaw(r).amplitude();
    }
    driftLimit_ = awas_.correction->coefStroke * amplitude;
    driftDuration_ = awas_.correction->coefPeriod * p.period;
  }
  last_.measured = std::numeric_limits<double>::quiet_NaN();
}

double PaddleAwasControl::driftVelocity(double t, double xNext) {
  if (!awas_.correction) return 0.0;
  if (driftSign_ != 0 && t - driftStart_ >= driftDuration_) driftSign_ = 0;
  if (driftSign_ == 0 && std::abs(xNext) > driftLimit_) {
    driftStart_ = t;
    driftSign_ = xNext > 0 ? -1.0 : 1.0;
  }
  if (driftSign_ == 0) return 0.0;
  const double s = (t - driftStart_) / driftDuration_, power = awas_.correction->powerFunc;
  return driftSign_ * driftLimit_ * power / driftDuration_ * std::pow(1 - s, power - 1);
}

double PaddleAwasControl::measureSurface(double x, GaugeSource& gauges) {
  const GaugePoint p0{x, awas_.gaugeY, zMin_}, p2{x, awas_.gaugeY, zMax_};
  points_ = swlPoints(p0, p2, pointDp_);
  gauges.samplePoints(points_, samples_);
  const int pieces = int(points_.size()) - 1;
  return swlCrossing(p0, p2, pieces, massLimit_, [&](int k) { return samples_[size_t(k)].shepard * massFluid_; }).z;
}

double PaddleAwasControl::targetElevation(double x, double t) const {
  if (const RegularPaddleLaw* regular = law_.regular()) return regular->elevation(x, t, awas_.elevationOrder);
  return law_.irregular()->elevation(x, t, awas_.elevationOrder);
}

double PaddleAwasControl::step(double t, double dt, GaugeSource& gauges) {
  const double x0 = law_.at(t), x1 = law_.at(t + dt);
  Record r;
  r.t = t;
  r.dt = dt;
  r.displacement = x0 + absorbed_;
  r.uTarget = (x1 - x0) / dt;
  r.u = r.uTarget;
  r.measured = std::numeric_limits<double>::quiet_NaN();
  // Once the motion has ended the piston stays where absorption left it, as in DualSPHysics.
  if (t >= law_.end()) {
    r.ended = true;
    last_ = r;
    uLast_ = 0;
    return 0.0;
  }
  if (t >= awas_.start) {
    r.gaugeX = face_ + r.displacement + gaugeOffset_;
    r.measured = measureSurface(r.gaugeX, gauges) - awas_.swl;
    r.target = targetElevation(r.gaugeX - face_, t);
    r.uCorrection = coefU_ * (r.target - r.measured);
    r.u = r.uTarget + r.uCorrection;
    // The correction starts from where the step would take the piston, before the cap.
    r.uDrift = driftVelocity(t, r.displacement + r.u * dt);
    r.u += r.uDrift;
  }
  r.acceleration = (r.u - uLast_) / dt;
  // The cap holds the absorption's kicks, never the law itself before startawas.
  if (t >= awas_.start && aceLimit_ > 0 && std::abs(r.acceleration) > aceLimit_) {
    r.u = uLast_ + std::copysign(aceLimit_, r.acceleration) * dt;
    r.capped = true;
  }
  const double extra = (r.u - r.uTarget) * dt;
  absorbed_ += extra;
  uLast_ = r.u;
  last_ = r;
  return extra;
}

void PaddleAwasControl::save(CheckpointWriter& w, const std::string& key) const {
  w.putValue(key + ".absorbed", absorbed_);
  w.putValue(key + ".u", uLast_);
  if (!awas_.correction) return;
  w.putValue(key + ".drift.start", driftStart_);
  w.putValue(key + ".drift.sign", driftSign_);
}

void PaddleAwasControl::restore(const CheckpointReader& r, const std::string& key) {
  absorbed_ = r.value<double>(key + ".absorbed");
  uLast_ = r.value<double>(key + ".u");
  if (!awas_.correction) return;
  driftStart_ = r.value<double>(key + ".drift.start");
  driftSign_ = r.value<double>(key + ".drift.sign");
}

}  // namespace sph
