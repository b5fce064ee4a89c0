// DualSPHysics' time-step rule (physics/time_step.h) term by term, which pass sets which step's dt, and
// the velocity bound with DtAllParticles (the CPU reduction of run/engine_ops.h).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "physics/time_step.h"
#include "run/engine_ops.h"

namespace sph {
namespace {

DtRule rule() {
  DtRule r;
  r.cfl = 0.2;
  r.h = 0.01;
  r.c0 = 20;
  r.dtIni = r.h / r.c0;
  r.dtMin = 1e-9;
  return r;
}

TEST(TimeStep, EachTermOfTheRule) {
  const DtRule r = rule();
  uint32_t hit = 0;
  // At rest: the sound speed alone, CFL h / c0.
  EXPECT_DOUBLE_EQ(variableDt(0, 0, 0, r, &hit), 0.2 * 0.01 / 20);
  // A flow faster than c0/10 replaces c0 by 10 |v| (DualSPHysics' bound on the flow speed).
  EXPECT_DOUBLE_EQ(variableDt(0, 0, 3.0 * 3.0, r, &hit), 0.2 * 0.01 / 30);
  EXPECT_DOUBLE_EQ(variableDt(0, 0, 1.0, r, &hit), 0.2 * 0.01 / 20);  // 10 |v| = 10 < c0
  // The viscous term adds h max v.r/(r^2+eta^2) to the speed.
  EXPECT_DOUBLE_EQ(variableDt(0, 500, 0, r, &hit), 0.2 * 0.01 / (20 + 0.01 * 500));
  // The force term: sqrt(h/|f|) when shorter.
  const double f = 1e6;
  EXPECT_DOUBLE_EQ(variableDt(f * f, 0, 0, r, &hit), 0.2 * std::sqrt(0.01 / f));
  EXPECT_EQ(hit, 0u);
  // DtMin is a floor, and says so.
  DtRule m = r;
  m.dtMin = 1e-3;
  EXPECT_DOUBLE_EQ(variableDt(0, 0, 0, m, &hit), 1e-3);
  EXPECT_EQ(hit, 1u);
  // DtFixed replaces the variable step; DtMin still bounds it from below, as in DualSPHysics.
  DtRule fixed = r;
  fixed.dtFixed = 7e-5;
  EXPECT_DOUBLE_EQ(variableDt(f * f, 500, 9, fixed, &hit), 7e-5);
  EXPECT_EQ(hit, 0u);
  fixed.dtMin = 8e-5;
  EXPECT_DOUBLE_EQ(variableDt(f * f, 500, 9, fixed, &hit), 8e-5);
  EXPECT_EQ(hit, 1u);
}

TEST(TimeStep, SymplecticStepsAdvanceByThePreviousStepsSmallerPassDt) {
  const DtRule r = rule();
  StepScalars s;
  // Step 1: DtIni, whatever its passes give; they set step 2's dt.
  applyPassDt(s, 3e-5, 0, DtPass::Predictor, true, r);
  EXPECT_DOUBLE_EQ(s.dt, r.dtIni);
  applyPassDt(s, 2e-5, 0, DtPass::Corrector, true, r);
  EXPECT_DOUBLE_EQ(s.dt, r.dtIni);
  EXPECT_DOUBLE_EQ(s.dtNext, 2e-5);
  // Step 2 advances by 2e-5; its predictor's dt is the smaller this time.
  applyPassDt(s, 1e-5, 0, DtPass::Predictor, false, r);
  EXPECT_DOUBLE_EQ(s.dt, 2e-5);
  applyPassDt(s, 4e-5, 1, DtPass::Corrector, false, r);
  EXPECT_DOUBLE_EQ(s.dtNext, 1e-5);
  EXPECT_EQ(s.dtMinHit, 1u);
  // A diverged pass must not hide behind the other's dt.
  applyPassDt(s, 1e-5, 0, DtPass::Predictor, false, r);
  applyPassDt(s, std::nan(""), 0, DtPass::Corrector, false, r);
  EXPECT_TRUE(std::isnan(s.dtNext));
  // The Verlet integrator's pass sets its own step's dt.
  StepScalars v;
  applyPassDt(v, 5e-5, 0, DtPass::Verlet, true, r);
  EXPECT_DOUBLE_EQ(v.dt, 5e-5);
}

TEST(TimeStep, DtAllParticlesBoundsTheSpeedOfWallsToo) {
  // A piston particle (boundary, 0) at 5 m/s beside still water (1): only DtAllParticles sees it.
  std::vector<Real4<double>> ace(2, Real4<double>{0, 0, 0, 0}), velrho{{5, 0, 0, 1000}, {0, 0, 0, 1000}};
  std::vector<double> viscdt(2, 0.0);
  auto ops = makeCpuOps<double>(1);
  DtRule r = rule();
  ops->computeDt(ace.data(), viscdt.data(), velrho.data(), 1, 2, r, DtPass::Verlet, false);
  EXPECT_DOUBLE_EQ(ops->finishStep().dt, 0.2 * 0.01 / 20);
  r.velocityOfAll = true;
  ops->computeDt(ace.data(), viscdt.data(), velrho.data(), 1, 2, r, DtPass::Verlet, false);
  EXPECT_DOUBLE_EQ(ops->finishStep().dt, 0.2 * 0.01 / 50);
}

// A halo copy (runs over several ranks): its sums are incomplete and its owner's rank counts its
// force and speed, but a pass that computes each pair once may have given it the only viscdt
// of a pair, which the time step must see.
TEST(TimeStep, AHaloCopyGivesItsViscdtAlone) {
  const Real4<double> ace[1] = {{300, 0, 0, 0}}, velrho[1] = {{9, 0, 0, 1000}};
  const double viscdt[1] = {42};
  const uint32_t copy[1] = {code::make(false, 1) | code::kHaloBit};
  const DtTerms t = particleDtTerms<double>(0, 0, ace, viscdt, velrho, true, copy);
  EXPECT_EQ(t.viscdt, 42);
  EXPECT_EQ(t.ace2, 0);
  EXPECT_EQ(t.vel2, 0);
  const uint32_t own[1] = {code::make(false, 1)};
  const DtTerms o = particleDtTerms<double>(0, 0, ace, viscdt, velrho, true, own);
  EXPECT_EQ(o.viscdt, 42);
  EXPECT_EQ(o.ace2, 300.0 * 300.0);
  EXPECT_EQ(o.vel2, 81);
}

}  // namespace
}  // namespace sph
