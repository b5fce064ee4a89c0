// Which compiled variant of the pair loop a force pass runs, decided in one place for every
// strategy, CPU loop and CUDA kernel. The pair loop is a template on what varies per run, so that
// what a run does not need costs nothing per candidate:
//   K         the smoothing kernel (PhysicsConstants::kernel);
//   Periodic  some axis wraps (minimum-image distances; periodic.h, pairDeltaIf);
//   Coded     the pair reads both particles' code words (interactPairCoded,
//             floating_pair_physics.h): runs with floating bodies or mDBC2 walls, and the passes
//             below, which are coded too so that there are fewer variants;
//   Shift     the pass sums the shifting terms (ForceOutputs::shift requested);
//   Sps       the pass computes the SPS strain (ForceOutputs::spsStrain requested).
// Coded variants are compiled periodic only: they are rarer, and the open-box saving is small
// next to what they compute.
//
// A physics option still to come adds its flag here, to the pair loops' templates and to the
// loops' instantiations (each passes V::K, V::Periodic, ... on); the choice of variant stays here.
#pragma once

#include <type_traits>

#include "sph/plugin/particle_view.h"
#include "sph/plugin/physics_constants.h"

namespace sph::neighbours {

template <KernelKind K_, bool Periodic_, bool Coded_, bool Shift_, bool Sps_>
struct InteractionVariant {
  static constexpr KernelKind K = K_;
  static constexpr bool Periodic = Periodic_, Coded = Coded_, Shift = Shift_, Sps = Sps_;
  static_assert(!Coded || Periodic, "coded variants are compiled periodic only");
  static_assert((!Shift && !Sps) || Coded, "the shifting and SPS variants are coded");
};

// Calls fn(InteractionVariant<...>{}) with the variant this pass needs and returns what fn
// returns (the same type for every variant: a kernel pointer, or void). `slipWalls`: the pass
// reads the mDBC2 walls' tangential velocities (ParticleView::tangent).
template <typename T, typename Fn>
decltype(auto) dispatchInteraction(const PhysicsConstants<T>& c, const ForceOutputs<T>& out, bool slipWalls, Fn&& fn) {
  auto withKernel = [&](auto kernel) -> decltype(auto) {
    constexpr KernelKind K = decltype(kernel)::value;
    if (out.spsStrain)
      return out.shift ? fn(InteractionVariant<K, true, true, true, true>{})
                       : fn(InteractionVariant<K, true, true, false, true>{});
    if (out.shift) return fn(InteractionVariant<K, true, true, true, false>{});
    if (c.floating.any() || slipWalls) return fn(InteractionVariant<K, true, true, false, false>{});
    if (c.periodic.any()) return fn(InteractionVariant<K, true, false, false, false>{});
    return fn(InteractionVariant<K, false, false, false, false>{});
  };
  if (c.kernel == KernelKind::Cubic) return withKernel(std::integral_constant<KernelKind, KernelKind::Cubic>{});
  return withKernel(std::integral_constant<KernelKind, KernelKind::Wendland>{});
}

// Whether a force pass can compute each pair once: a plain pass, what interactPairMass's mirror
// requires (pair_physics.h; no floating body, mDBC2 wall, shifting or SPS sums). The others take
// every pair from both sides. `slipWalls` as for dispatchInteraction.
template <typename T>
bool pairOncePass(const PhysicsConstants<T>& c, const ForceOutputs<T>& out, bool slipWalls) {
  return !out.spsStrain && !out.shift && !c.floating.any() && !slipWalls;
}

// mDBC's boundary correction (mdbc_physics.h): the kernel, periodicity, and Slip (mDBC2: the
// ghost node's velocity too).
template <KernelKind K_, bool Periodic_, bool Slip_>
struct CorrectionVariant {
  static constexpr KernelKind K = K_;
  static constexpr bool Periodic = Periodic_, Slip = Slip_;
};

template <typename T, typename Fn>
decltype(auto) dispatchCorrection(const PhysicsConstants<T>& c, Fn&& fn) {
  const bool slip = c.boundary == BoundaryModel::MdbcNoSlip || c.boundary == BoundaryModel::MdbcFreeSlip;
  auto withKernel = [&](auto kernel) -> decltype(auto) {
    constexpr KernelKind K = decltype(kernel)::value;
    if (c.periodic.any())
      return slip ? fn(CorrectionVariant<K, true, true>{}) : fn(CorrectionVariant<K, true, false>{});
    return slip ? fn(CorrectionVariant<K, false, true>{}) : fn(CorrectionVariant<K, false, false>{});
  };
  if (c.kernel == KernelKind::Cubic) return withKernel(std::integral_constant<KernelKind, KernelKind::Cubic>{});
  return withKernel(std::integral_constant<KernelKind, KernelKind::Wendland>{});
}

}  // namespace sph::neighbours
