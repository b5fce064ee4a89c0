#include "paddle_awas.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace sph {

PaddleAwasControl::PaddleAwasControl(const WavePaddle& p, double face, const SimParameters& sp)
    : paddle_(p), law_(p), awas_(*p.awas), face_(face) {
  gaugeOffset_ = awas_.gaugeX.metres(sp.h, sp.dp);
  zMin_ = awas_.gaugeZMin.value_or(sp.domainMin.z);
  zMax_ = awas_.gaugeZMax.value_or(sp.domainMax.z);
  pointDp_ = awas_.gaugeDp * sp.dp;
  massFluid_ = sp.massFluid;
  massLimit_ = awas_.massLimitCoef.value_or(defaultSwlMassLimitCoef(sp.dim)) * sp.massFluid;
  coefU_ = std::sqrt(p.gravity / p.depth);
  const double omega = 2 * std::numbers::pi / p.period;
  // The first harmonic's peak acceleration, as DualSPHysics states it ("peak theoretical").
  aceLimit_ = awas_.limitAce * law_.amplitude() * omega * omega;
  last_.measured = std::numeric_limits<double>::quiet_NaN();
}

double PaddleAwasControl::measureSurface(double x, GaugeSource& gauges) {
  const GaugePoint p0{x, awas_.gaugeY, zMin_}, p2{x, awas_.gaugeY, zMax_};
  points_ = swlPoints(p0, p2, pointDp_);
  gauges.samplePoints(points_, samples_);
  const int pieces = int(points_.size()) - 1;
  return swlCrossing(p0, p2, pieces, massLimit_, [&](int k) { return samples_[size_t(k)].shepard * massFluid_; }).z;
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
  if (t >= awas_.start) {
    r.gaugeX = face_ + r.displacement + gaugeOffset_;
    r.measured = measureSurface(r.gaugeX, gauges) - awas_.swl;
    r.target = law_.elevation(r.gaugeX - face_, t, awas_.elevationOrder);
    r.uCorrection = coefU_ * (r.target - r.measured);
    r.u = r.uTarget + r.uCorrection;
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
}

void PaddleAwasControl::restore(const CheckpointReader& r, const std::string& key) {
  absorbed_ = r.value<double>(key + ".absorbed");
  uLast_ = r.value<double>(key + ".u");
}

}  // namespace sph
