// Kernel normalisation and gradient by numerical quadrature (Simpson, 20000 intervals: its
// error, O(dr^4) times the fourth derivative, is far below the 1e-4 asked for; the cubic
// spline's second derivative jumps at q = 1, so the interval count is even over each piece).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "sph/plugin/sph_kernels.h"

namespace sph {
namespace {

double simpson(const std::function<double(double)>& f, double a, double b, int n) {
  const double dx = (b - a) / n;
  double s = f(a) + f(b);
  for (int i = 1; i < n; ++i) s += f(a + i * dx) * (i % 2 ? 4 : 2);
  return s * dx / 3;
}

struct KernelCase {
  KernelKind kind;
  int dim;
};

class KernelQuadrature : public ::testing::TestWithParam<KernelCase> {};

TEST_P(KernelQuadrature, IntegratesToOne) {
  const auto [kind, dim] = GetParam();
  const double h = 0.037;
  const double aD = kernelNormalisation(kind, dim, h);
  // 3D: 4 pi int W r^2 dr; 2D: 2 pi int W r dr.
  auto f = [&](double r) {
    const double w = kernelWValue(kind, r, h, aD);
    return dim == 3 ? 4 * kPi * w * r * r : 2 * kPi * w * r;
  };
  EXPECT_NEAR(simpson(f, 0, 2 * h, 20000), 1.0, 1e-4);
}

TEST_P(KernelQuadrature, GradientMomentIsMinusOne) {
  // int x_k dW/dx_k dV = -1 for each axis k (integration by parts of a normalised kernel):
  // with grad W = F(r) r_vec that is (1/dim) int F r^2 dV.
  const auto [kind, dim] = GetParam();
  const double h = 0.02;
  const double aD = kernelNormalisation(kind, dim, h);
  auto f = [&](double r) {
    const double F = r > 0 ? kernelGradValue(kind, r, h, aD) : 0.0;
    return dim == 3 ? (4 * kPi / 3) * F * r * r * r * r : kPi * F * r * r * r;
  };
  EXPECT_NEAR(simpson(f, 0, 2 * h, 20000), -1.0, 1e-4);
}

TEST_P(KernelQuadrature, GradientFactorIsDerivativeOfW) {
  const auto [kind, dim] = GetParam();
  const double h = 1.0;
  const double aD = kernelNormalisation(kind, dim, h);
  for (double r = 0.05; r < 2 * h; r += 0.0373) {
    const double e = 1e-6;
    const double dWdr = (kernelWValue(kind, r + e, h, aD) - kernelWValue(kind, r - e, h, aD)) / (2 * e);
    // Central differences: error ~ e^2 W''' ~ 1e-12; 1e-7 relative to aD leaves room for round-off.
    EXPECT_NEAR(kernelGradValue(kind, r, h, aD) * r, dWdr, 1e-7 * aD) << "r=" << r;
  }
  EXPECT_EQ(kernelWValue(kind, 2 * h, h, aD), 0.0);
  EXPECT_EQ(kernelWValue(kind, 2.5 * h, h, aD), 0.0);
}

// The pair loop's folded forms equal the reference formulas (double: to round-off).
TEST_P(KernelQuadrature, FoldedFormsMatchTheReference) {
  const auto [kind, dim] = GetParam();
  const double h = 0.0147, dp = h / (1.2 * std::sqrt(3.0));
  PhysicsConstants<double> c;
  c.kernel = kind;
  c.h = h;
  c.kernelNorm = kernelNormalisation(kind, dim, h);
  c.cubicWdp = kernelWValue(KernelKind::Cubic, dp, h, kernelNormalisation(KernelKind::Cubic, dim, h));
  foldKernelConstants(c);
  for (double r = 1e-4; r < 2 * h; r += 3.7e-4) {
    const double ref = kernelGradValue(kind, r, h, c.kernelNorm);
    const double got = kind == KernelKind::Cubic ? gradFactorFolded<KernelKind::Cubic>(r, c)
                                                 : gradFactorFolded<KernelKind::Wendland>(r, c);
    EXPECT_NEAR(got, ref, 1e-12 * std::abs(ref)) << "r=" << r;
    if (kind == KernelKind::Cubic) {
      const double w = kernelWValue(KernelKind::Cubic, r, h, c.kernelNorm) / c.cubicWdp;
      EXPECT_NEAR(cubicWOverWdp(r, c), w, 1e-12 * w + 1e-300) << "r=" << r;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelQuadrature,
                         ::testing::Values(KernelCase{KernelKind::Cubic, 3}, KernelCase{KernelKind::Cubic, 2},
                                           KernelCase{KernelKind::Wendland, 3}, KernelCase{KernelKind::Wendland, 2}),
                         [](const auto& info) {
                           return std::string(info.param.kind == KernelKind::Cubic ? "Cubic" : "Wendland") +
                                  std::to_string(info.param.dim) + "D";
                         });

TEST(KernelFloat, MatchesDouble) {
  const double h = 0.0147, aD = kernelNormalisation(KernelKind::Wendland, 3, h);
  for (double r = 0.001; r < 2 * h; r += 0.001) {
    const float wf = kernelW<KernelKind::Wendland>(float(r), float(h), float(aD));
    EXPECT_NEAR(wf, kernelWValue(KernelKind::Wendland, r, h, aD), 1e-5 * aD);
  }
}

}  // namespace
}  // namespace sph
