// Active wave absorption of a piston (model/case_wave_paddles.h, PaddleAwas), as DualSPHysics 5.4's
// AWAS-Zsurf does it (Altomare et al. 2017, Coastal Engineering 127; every relation below was
// checked against the AWASData.csv and AWASFreeSurf files DualSPHysics writes):
//
//  * a swl gauge (gauges/gauge_sampler.h) stands gaugex in front of the piston's face and moves with
//    it: x = face at rest + piston displacement + gaugex, from gaugezmin to gaugezmax in steps of
//    gaugedp dp, the surface where the kernel-summed mass drops below coefmasslimit m;
//  * each step [t, t + dt] from startawas on, after the fluid has moved, the piston's velocity is
//      u = (X(t + dt) - X(t)) / dt + sqrt(g / d) (eta_T - eta_M),
//    X the law of the regular or irregular waves (motion/paddle_regular_law.h, motion/paddle_irregular_law.h),
//    eta_T the theory's elevation at the gauge at t (first or second order by <elevation>; for
//    irregular waves the bound difference-frequency waves are the second order), eta_M the
//    measured surface less swl;
//  * from startawas on, u changes by at most limitace times the theory's peak acceleration
//    from the step before (before, u is the law's own velocity): S/2 w^2 for regular waves, the
//    largest acceleration of the motion up to the end of the run for irregular ones;
//  * the piston moves by u dt: the law's displacement plus (u - (X(t + dt) - X(t)) / dt) dt;
//  * with a drift <correction>, when the step would take the piston past the limit L =
//    coefstroke S/2 from its rest position while no correction runs, a correction starts: for
//    Tc = coefperiod T from that step, u gets -sign(x) L p/Tc (1 - s/Tc)^(p - 1) (s the time since
//    it started, p powerfunc) before the cap, which brings the piston back by L over Tc;
//  * once the paddle's motion ends (<duration>) the piston stops absorbing and stays.
// The host runs it in double precision, one gauge line a step (a GPU run sums it on the device).
#pragma once

#include <cstdint>
#include <vector>

#include "gauges/gauge_sampler.h"
#include "model/case_wave_paddles.h"
#include "model/sim_parameters.h"
#include "motion/paddle_law.h"
#include "output/checkpoint.h"

namespace sph {

class PaddleAwasControl {
 public:
  // `face`: the piston's face at rest along +x (the largest x of its particles); `law`: the
  // paddle's law, a copy of the one that moves it (sharing its second-order samples).
  PaddleAwasControl(const WavePaddle& p, PaddleLaw law, double face, const SimParameters& sp);
  PaddleAwasControl(const WavePaddle& p, double face, const SimParameters& sp)
      : PaddleAwasControl(p, PaddleLaw(p), face, sp) {}

  // The extra displacement (m, along the piston's direction) of the step [t, t + dt], on top of
  // the law's: measures the surface with `gauges` from startawas on.
  double step(double t, double dt, GaugeSource& gauges);

  // What the last step measured and did (for the AWAS data file and the tests).
  struct Record {
    double t = 0, dt = 0;
    double displacement = 0;      // of the piston at t (law + absorption)
    double gaugeX = 0;            // where the gauge stood
    double measured = 0;          // eta_M (m from swl); NaN before startawas
    double target = 0;            // eta_T
    double uTarget = 0, uCorrection = 0, u = 0;
    double uDrift = 0;            // the drift correction's velocity (in u)
    double acceleration = 0;      // (u - u of the step before) / dt before the cap
    bool capped = false;
    bool ended = false;           // after the motion's end: nothing measured or done (no row written)
  };
  const Record& last() const { return last_; }
  double absorbed() const { return absorbed_; }  // the displacement absorption added so far
  double driftLimit() const { return driftLimit_; }  // m from rest; 0 without a drift correction

  void save(CheckpointWriter& w, const std::string& key) const;
  void restore(const CheckpointReader& r, const std::string& key);

 private:
  // The measured surface (z) on the gauge line at x.
  double measureSurface(double x, GaugeSource& gauges);
  // The theory's elevation at the distance x in front of the piston's rest position.
  double targetElevation(double x, double t) const;
  // The drift correction's velocity for the step [t, t + dt] that would end at xNext; starts a
  // correction when xNext is past the limit and none runs.
  double driftVelocity(double t, double xNext);

  WavePaddle paddle_;
  PaddleLaw law_;
  PaddleAwas awas_;
  double face_, gaugeOffset_, zMin_, zMax_, pointDp_, massLimit_, massFluid_, coefU_, aceLimit_;
  // The drift correction (none without <correction>): its limit (m) and duration Tc (s), and the
  // running correction's start and sign (0: none runs).
  double driftLimit_ = 0, driftDuration_ = 0;
  double driftStart_ = 0, driftSign_ = 0;
  double absorbed_ = 0;  // the absorption's displacement so far
  double uLast_ = 0;     // the piston's velocity over the last step
  Record last_;
  std::vector<GaugePoint> points_;
  std::vector<PointSample> samples_;
};

// What the output writes of an absorbing piston (run/run_output.h, OUT/awas.csv).
struct AwasState {
  int mkbound = 0;
  int saveData = 0;  // <savedata>: 3 a row per step, 1 and 2 a row per output time, 0 none
  PaddleAwasControl::Record last;
};

}  // namespace sph
