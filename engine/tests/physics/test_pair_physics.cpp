// Properties of the per-pair physics that any sign or factor error would break.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

#include "sph/plugin/pair_physics.h"
#include "sph/plugin/sph_kernels.h"

namespace sph {
namespace {

PhysicsConstants<double> waterConstants(KernelKind k, DensityDiffusion ddt) {
  PhysicsConstants<double> c;
  const double dp = 0.01, h = 1.2 * std::sqrt(3.0) * dp;
  c.dim = 3;
  c.kernel = k;
  c.h = h;
  c.support = 2 * h;
  c.support2 = 4 * h * h;
  c.eta2 = 0.01 * h * h;
  c.kernelNorm = kernelNormalisation(k, 3, h);
  c.cubicWdp = kernelWValue(KernelKind::Cubic, cubicTensileSpacing(h), h, kernelNormalisation(KernelKind::Cubic, 3, h));
  c.rho0 = 1000;
  c.massFluid = c.massBound = c.rho0 * dp * dp * dp;
  c.c0 = 30;
  c.cteB = c.c0 * c.c0 * c.rho0 / 7;
  c.visco = 0.1;
  c.viscoBound = 0.1;
  c.ddt = ddt;
  c.ddtCoef = 2 * 0.1 * h * c.c0;
  c.gz = -9.81;
  c.ddtGz = c.rho0 * c.gz / c.cteB;
  foldDerivedConstants(c);
  return c;
}

Real4<double> withPressure(Real4<double> p, double rho, const PhysicsConstants<double>& c) {
  p.w = taitPressure(rho, c);
  return p;
}

// interactPair<K> for the kernel k the constants were folded for.
void pair(KernelKind k, const Real4<double>& pa, const Real4<double>& va, bool ba, const Real4<double>& pb,
          const Real4<double>& vb, bool bb, const PhysicsConstants<double>& c, PairAccum<double>& acc) {
  if (k == KernelKind::Cubic)
    interactPair<KernelKind::Cubic>(pa, va, ba, pb, vb, bb, c, acc);
  else
    interactPair<KernelKind::Wendland>(pa, va, ba, pb, vb, bb, c, acc);
}

TEST(PairPhysics, MomentumAndMassAreConservedPairwise) {
  for (KernelKind k : {KernelKind::Cubic, KernelKind::Wendland}) {
    const auto c = waterConstants(k, DensityDiffusion::Molteni);
    const Real4<double> va{0.3, -0.1, 0.2, 1003}, vb{-0.2, 0.05, -0.4, 998};
    const Real4<double> pa = withPressure({0.1, 0.2, 0.3, 0}, va.w, c);
    const Real4<double> pb = withPressure({0.11, 0.205, 0.29, 0}, vb.w, c);
    PairAccum<double> a, b;
    pair(k, pa, va, false, pb, vb, false, c, a);
    pair(k, pb, vb, false, pa, va, false, c, b);
    // Equal masses: the forces are equal and opposite to round-off.
    EXPECT_NEAR(a.ax, -b.ax, 1e-12 * std::abs(a.ax));
    EXPECT_NEAR(a.ay, -b.ay, 1e-12 * std::abs(a.ay) + 1e-15);
    EXPECT_NEAR(a.az, -b.az, 1e-12 * std::abs(a.az));
    // The approaching pair (v_ab . r_ab < 0) gets viscous dissipation; viscdt is symmetric.
    EXPECT_DOUBLE_EQ(a.viscdt, b.viscdt);
    // Density diffusion moves density from the denser particle to the lighter one.
    PhysicsConstants<double> noDdt = c;
    noDdt.ddt = DensityDiffusion::None;
    PairAccum<double> a0;
    pair(k, pa, va, false, pb, vb, false, noDdt, a0);
    EXPECT_LT(a.densityRate(), a0.densityRate());  // a is denser, so diffusion lowers its rate
  }
}

TEST(PairPhysics, FourtakasLeavesHydrostaticDensityAlone) {
  const auto c = waterConstants(KernelKind::Wendland, DensityDiffusion::Fourtakas);
  // Two particles at rest with exactly hydrostatic densities (Tait inverted), b 1.5 cm deeper.
  auto rhoAt = [&](double depth) { return c.rho0 * std::pow(1 + c.rho0 * 9.81 * depth / c.cteB, 1.0 / 7); };
  const Real4<double> va{0, 0, 0, rhoAt(0.5)}, vb{0, 0, 0, rhoAt(0.515)};
  PairAccum<double> a;
  interactPair<KernelKind::Wendland>(withPressure({0, 0, 0.5, 0}, va.w, c), va, false,
                                     withPressure({0.004, 0, 0.485, 0}, vb.w, c), vb, false, c, a);
  // Molteni's form diffuses the hydrostatic gradient away (the reason for Fourtakas' term).
  auto m = c;
  m.ddt = DensityDiffusion::Molteni;
  PairAccum<double> am;
  interactPair<KernelKind::Wendland>(withPressure({0, 0, 0.5, 0}, va.w, m), va, false,
                                     withPressure({0.004, 0, 0.485, 0}, vb.w, m), vb, false, m, am);
  EXPECT_GT(am.densityRate(), 1e-6);
  // Fourtakas' term removes the hydrostatic part linearised about rho0: the residual is the
  // curvature of Tait's law over the depth (0.5 m here, about 3% of the difference), so it must
  // be a small fraction of Molteni's; with the wrong sign it would double instead.
  EXPECT_LT(std::abs(a.densityRate()), 0.05 * am.densityRate());
}

// The single-precision series must match the exact power to float round-off wherever it is
// used (|u| < 0.05), for water's gamma and another; beyond that pow() takes over.
TEST(PairPhysics, HydrostaticSeriesMatchesThePowerLaw) {
  for (double gamma : {7.0, 1.4}) {
    PhysicsConstants<float> c;
    c.rho0 = 1000;
    c.invGamma = float(1 / gamma);
    setHydrostaticSeries(c, gamma);
    double worst = 0;
    for (int i = -600; i <= 600; ++i) {
      const double u = i * 1e-4;  // -0.06 .. 0.06
      if (i == 0) continue;
      const double exact = 1000 * (std::pow(1 + double(float(u)), 1 / gamma) - 1);
      const double got = hydrostaticDensityDifference(float(u), c);
      // Inside the series range: float round-off of a few terms. Outside: pow() of 1+u, whose
      // result is 1 + O(u) rounded to float (2.5 ulp of 1 = 3e-7 absolute, times rho0), so
      // its relative error grows like 1/u: the cancellation the series avoids.
      const double tol = std::abs(u) < 0.05 ? 4e-7 * std::abs(exact) : 3e-7 * c.rho0;
      EXPECT_NEAR(got, exact, tol) << "u=" << u << " gamma=" << gamma;
      if (std::abs(u) < 0.05) worst = std::max(worst, std::abs(got - exact) / std::abs(exact));
    }
    std::printf("gamma %.1f: worst relative error of the series %.2g\n", gamma, worst);
  }
}

TEST(PairPhysics, PressurePushesParticlesApartAndBoundaryOnlyGathersDensity) {
  const auto c = waterConstants(KernelKind::Wendland, DensityDiffusion::None);
  const Real4<double> v{0, 0, 0, 1010};
  PairAccum<double> a;
  interactPair<KernelKind::Wendland>(withPressure({0, 0, 0.02, 0}, v.w, c), v, false,
                                     withPressure({0, 0, 0.01, 0}, v.w, c), v, true, c, a);
  EXPECT_GT(a.az, 0);  // a fluid particle above a compressed wall particle is pushed up
  PairAccum<double> wall;
  const Real4<double> vf{0, 0, -0.5, 1000};
  interactPair<KernelKind::Wendland>(withPressure({0, 0, 0.01, 0}, v.w, c), v, true,
                                     withPressure({0, 0, 0.02, 0}, vf.w, c), vf, false, c, wall);
  EXPECT_EQ(wall.ax, 0);
  EXPECT_EQ(wall.az, 0);
  EXPECT_GT(wall.arho, 0);  // fluid approaching the wall compresses it
  PairAccum<double> none;
  interactPair<KernelKind::Wendland>(withPressure({0, 0, 0.01, 0}, v.w, c), v, true,
                                     withPressure({0, 0, 0.02, 0}, v.w, c), vf, true, c, none);
  EXPECT_EQ(none.arho, 0);
}

// Laminar viscosity (ViscoTreatment 3): m_b 4 nu (r.gradW)/((rho_a+rho_b)(r^2+eta^2)) v_ab for every
// pair, receding ones too, in place of the artificial term; equal and opposite for equal masses.
TEST(PairPhysics, LaminarViscosityIsLoAndShaosTerm) {
  auto c = waterConstants(KernelKind::Wendland, DensityDiffusion::None);
  c.viscosity = Viscosity::Laminar;
  c.visco = 1e-6;
  c.viscoBound = 1e-6;
  const Real4<double> va{0.3, -0.1, 0.2, 1003}, vb{0.5, -0.025, -0.025, 998};  // receding: v_ab.r_ab > 0
  const Real4<double> pa{0.1, 0.2, 0.3, 0}, pb{0.108, 0.203, 0.291, 0};     // no pressure: viscosity only
  PairAccum<double> a, b;
  interactPair<KernelKind::Wendland>(pa, va, false, pb, vb, false, c, a);
  interactPair<KernelKind::Wendland>(pb, vb, false, pa, va, false, c, b);
  const double dx = pa.x - pb.x, dy = pa.y - pb.y, dz = pa.z - pb.z, r2 = dx * dx + dy * dy + dz * dz;
  ASSERT_GT((va.x - vb.x) * dx + (va.y - vb.y) * dy + (va.z - vb.z) * dz, 0);
  const double fac = kernelGradValue(KernelKind::Wendland, std::sqrt(r2), c.h, c.kernelNorm);
  const double k = c.massFluid * 4 * 1e-6 * fac * r2 / ((va.w + vb.w) * (r2 + c.eta2));
  EXPECT_NEAR(a.ax, k * (va.x - vb.x), 1e-12 * std::abs(k * (va.x - vb.x)));
  EXPECT_NEAR(a.ay, k * (va.y - vb.y), 1e-12 * std::abs(k * (va.y - vb.y)));
  EXPECT_NEAR(a.az, k * (va.z - vb.z), 1e-12 * std::abs(k * (va.z - vb.z)));
  EXPECT_LT(a.ax * (va.x - vb.x), 0);  // it slows the relative motion
  EXPECT_NEAR(a.ax, -b.ax, 1e-12 * std::abs(a.ax));
  // The artificial term would leave a receding pair alone.
  c.viscosity = Viscosity::Artificial;
  PairAccum<double> art;
  interactPair<KernelKind::Wendland>(pa, va, false, pb, vb, false, c, art);
  EXPECT_EQ(art.ax, 0);
}

// DualSPHysics 5.4's continuity: drho_a/dt = rho_a sum_b (m_b/rho_b) v_ab . grad W, for fluid and
// boundary particles alike; with rho_a = 2 rho_b the rate doubles.
TEST(PairPhysics, ContinuityCarriesTheDensityRatio) {
  const auto c = waterConstants(KernelKind::Wendland, DensityDiffusion::None);
  const Real4<double> vb{0, 0, -0.5, 1000};
  for (bool boundA : {false, true}) {
    PairAccum<double> same, dense;
    const Real4<double> pa = withPressure({0, 0, 0.01, 0}, 1000, c), pb = withPressure({0, 0, 0.02, 0}, 1000, c);
    interactPair<KernelKind::Wendland>(pa, Real4<double>{0, 0, 0, 1000}, boundA, pb, vb, false, c, same);
    interactPair<KernelKind::Wendland>(pa, Real4<double>{0, 0, 0, 2000}, boundA, pb, vb, false, c, dense);
    EXPECT_GT(same.arho, 0);
    EXPECT_NEAR(dense.arho, 2 * same.arho, 1e-12 * same.arho) << "boundary a: " << boundA;
  }
}

// Density diffusion next to a DBC wall, as DualSPHysics 5.4 applies it: DensityDT 2 (Fourtakas,
// "inner") and 1 (Molteni) switch the whole term off for a fluid particle with a boundary
// neighbour; 3 (Fourtakas, "all") keeps its fluid pairs. No mode takes the boundary pair in.
TEST(PairPhysics, BoundaryNeighbourSwitchesDensityDiffusionAsDualSPHysics) {
  for (auto mode : {DensityDiffusion::Molteni, DensityDiffusion::Fourtakas, DensityDiffusion::FourtakasFull}) {
    const auto c = waterConstants(KernelKind::Wendland, mode);
    const Real4<double> va{0, 0, 0, 1001}, vf{0, 0, 0, 1004}, vw{0, 0, 0, 1010};
    const Real4<double> pa = withPressure({0, 0, 0.03, 0}, va.w, c);
    const Real4<double> pf = withPressure({0.01, 0, 0.03, 0}, vf.w, c);
    const Real4<double> pw = withPressure({0, 0, 0.02, 0}, vw.w, c);
    PairAccum<double> fluidOnly, withWall, wallOnly;
    interactPair<KernelKind::Wendland>(pa, va, false, pf, vf, false, c, fluidOnly);
    interactPair<KernelKind::Wendland>(pa, va, false, pf, vf, false, c, withWall);
    interactPair<KernelKind::Wendland>(pa, va, false, pw, vw, true, c, withWall);
    interactPair<KernelKind::Wendland>(pa, va, false, pw, vw, true, c, wallOnly);
    EXPECT_GT(fluidOnly.ddt, 0) << int(mode);  // the denser neighbour raises a's density
    EXPECT_EQ(wallOnly.ddt, 0) << int(mode);   // the wall pair never diffuses
    const bool kept = mode == DensityDiffusion::FourtakasFull;
    EXPECT_EQ(withWall.ddtSwitchedOff(), !kept) << int(mode);
    const double continuity = withWall.arho;
    EXPECT_DOUBLE_EQ(withWall.densityRate(), kept ? continuity + fluidOnly.ddt : continuity) << int(mode);
    // Parts of one particle's neighbours add up to the same switch (the strategies' lanes).
    PairAccum<double> parts = fluidOnly;
    parts.add(wallOnly);
    EXPECT_EQ(parts.ddtSwitchedOff(), withWall.ddtSwitchedOff());
    EXPECT_DOUBLE_EQ(parts.densityRate(), withWall.densityRate());
  }
}

// DualSPHysics keeps the wall neighbours' verdict on D_a only when the wall pairs gave the
// particle something: a free-surface particle (rho0, no pressure) at rest next to a wall at rest
// keeps its diffusion, as in DualSPHysics' first step; once the pair moves or the particle has
// a pressure, the wall switches it off.
TEST(PairPhysics, WallAtRestNextToAParticleWithoutPressureLeavesItsDiffusion) {
  const auto c = waterConstants(KernelKind::Wendland, DensityDiffusion::Fourtakas);
  const Real4<double> va{0, 0, 0, 1000}, vf{0, 0, 0, 1004}, vw{0, 0, 0, 1000};
  const Real4<double> pa = withPressure({0, 0, 0.03, 0}, va.w, c);
  const Real4<double> pf = withPressure({0.01, 0, 0.03, 0}, vf.w, c);
  const Real4<double> pw = withPressure({0, 0, 0.02, 0}, vw.w, c);
  ASSERT_EQ(pa.w, 0);
  ASSERT_EQ(pw.w, 0);
  PairAccum<double> atRest;
  interactPair<KernelKind::Wendland>(pa, va, false, pf, vf, false, c, atRest);
  interactPair<KernelKind::Wendland>(pa, va, false, pw, vw, true, c, atRest);
  EXPECT_FALSE(atRest.ddtSwitchedOff());
  EXPECT_GT(atRest.densityRate(), atRest.arho);
  PairAccum<double> moving;
  interactPair<KernelKind::Wendland>(pa, va, false, pf, vf, false, c, moving);
  interactPair<KernelKind::Wendland>(pa, va, false, pw, Real4<double>{0, 0, 0.01, 1000}, true, c, moving);
  EXPECT_TRUE(moving.ddtSwitchedOff());
  PairAccum<double> pressed;
  const Real4<double> vp{0, 0, 0, 1001};
  interactPair<KernelKind::Wendland>(withPressure(pa, vp.w, c), vp, false, pf, vf, false, c, pressed);
  interactPair<KernelKind::Wendland>(withPressure(pa, vp.w, c), vp, false, pw, vw, true, c, pressed);
  EXPECT_TRUE(pressed.ddtSwitchedOff());
}

// With mDBC walls (Boundary 2) DualSPHysics runs Molteni's term over the wall neighbour too, with
// the wall particle's mass, exactly as over a fluid neighbour of the same density; Fourtakas'
// terms stay as at DBC walls.
TEST(PairPhysics, MolteniDiffusesTowardsMdbcWalls) {
  for (auto mode : {DensityDiffusion::Molteni, DensityDiffusion::Fourtakas, DensityDiffusion::FourtakasFull}) {
    auto c = waterConstants(KernelKind::Wendland, mode);
    c.boundary = BoundaryModel::MdbcVel0;
    const Real4<double> va{0, 0, 0, 1001}, vw{0, 0, 0, 1010};
    const Real4<double> pa = withPressure({0, 0, 0.03, 0}, va.w, c);
    const Real4<double> pw = withPressure({0, 0, 0.02, 0}, vw.w, c);
    PairAccum<double> wall, likeFluid;
    interactPair<KernelKind::Wendland>(pa, va, false, pw, vw, true, c, wall);
    interactPairMass<KernelKind::Wendland>(pa, va, false, pw, vw, false, c.massBound, false, c, likeFluid);
    if (mode == DensityDiffusion::Molteni) {
      EXPECT_FALSE(wall.ddtSwitchedOff());
      EXPECT_GT(wall.ddt, 0);  // towards the denser wall
      EXPECT_DOUBLE_EQ(wall.ddt, likeFluid.ddt);
    } else {
      EXPECT_EQ(wall.ddt, 0) << int(mode);
      EXPECT_EQ(wall.ddtSwitchedOff(), mode != DensityDiffusion::FourtakasFull) << int(mode);
    }
  }
}

// interactPairMass<Mirror = true> gives b what b's own pass over a would give it (a pass that
// computes each pair once adds the mirror to b instead): every kernel, viscosity, density
// diffusion and boundary model, a fluid b and a wall b, a pair that approaches and one that does not.
TEST(PairPhysics, MirrorIsWhatTheNeighbourComputesItself) {
  for (KernelKind k : {KernelKind::Cubic, KernelKind::Wendland})
    for (auto mode : {DensityDiffusion::None, DensityDiffusion::Molteni, DensityDiffusion::Fourtakas,
                      DensityDiffusion::FourtakasFull})
      for (auto visc : {Viscosity::Artificial, Viscosity::Laminar})
        for (auto boundary : {BoundaryModel::Dbc, BoundaryModel::MdbcVel0})
          for (bool wallB : {false, true})
            for (double approach : {1.0, -1.0}) {
              auto c = waterConstants(k, mode);
              c.viscosity = visc;
              c.viscoBound = 0.05;  // walls' viscosity differs: b's terms must use a's pair's
              c.boundary = boundary;
              c.massBound = 0.7 * c.massFluid;
              const Real4<double> va{0.3 * approach, -0.1, 0.2, 1003}, vb{-0.2 * approach, 0.05, -0.4, 998};
              const Real4<double> pa = withPressure({0.1, 0.2, 0.3, 0}, va.w, c);
              const Real4<double> pb = withPressure({0.11, 0.205, 0.29, 0}, vb.w, c);
              const double massB = wallB ? c.massBound : c.massFluid;
              PairAccum<double> a, once, b;
              MirrorSums<double> m;
              auto both = [&](auto kernel) {
                constexpr KernelKind K = decltype(kernel)::value;
                interactPair<K>(pa, va, false, pb, vb, wallB, c, a);
                interactPairMass<K, true, true>(pa, va, false, pb, vb, wallB, massB, false, c, once, false,
                                                SymTensor<double>{}, static_cast<const Real4<double>*>(nullptr), &m);
                interactPair<K>(pb, vb, wallB, pa, va, false, c, b);
              };
              if (k == KernelKind::Cubic)
                both(std::integral_constant<KernelKind, KernelKind::Cubic>{});
              else
                both(std::integral_constant<KernelKind, KernelKind::Wendland>{});
              const std::string what = "kernel " + std::to_string(int(k)) + " ddt " + std::to_string(int(mode)) +
                                       " visc " + std::to_string(int(visc)) + " mdbc " +
                                       std::to_string(boundary != BoundaryModel::Dbc) + " wall " +
                                       std::to_string(wallB) + " approach " + std::to_string(approach);
              // a's own sums are those of the plain pair.
              EXPECT_EQ(once.ax, a.ax) << what;
              EXPECT_EQ(once.arho, a.arho) << what;
              EXPECT_EQ(once.ddt, a.ddt) << what;
              EXPECT_EQ(once.ddtOff, a.ddtOff) << what;
              EXPECT_EQ(once.viscdt, a.viscdt) << what;
              const double scale = std::max({std::abs(b.ax), std::abs(b.ay), std::abs(b.az), 1e-30});
              EXPECT_NEAR(m.ax, b.ax, 1e-14 * scale) << what;
              EXPECT_NEAR(m.ay, b.ay, 1e-14 * scale) << what;
              EXPECT_NEAR(m.az, b.az, 1e-14 * scale) << what;
              EXPECT_NEAR(m.arho, b.arho, 1e-14 * std::abs(b.arho)) << what;
              EXPECT_NEAR(m.ddt, b.ddt, 1e-14 * std::abs(b.ddt)) << what;
              EXPECT_NE(m.arho, 0.0) << what;
              if (!wallB && mode != DensityDiffusion::None) {
                EXPECT_NE(m.ddt, 0.0) << what;
              }
              if (!wallB) {
                EXPECT_NE(m.ax, 0.0) << what;
              }
              EXPECT_EQ(b.viscdt, a.viscdt) << what;  // why b needs none of it
            }
}

}  // namespace
}  // namespace sph
