#include "boundary_motion.h"

#include <omp.h>

#include <algorithm>

#include <fmt/format.h>

#include "sph/errors.h"

namespace sph {

template <typename T>
void moveBoundariesCpu(const ParticleView<T>& p, const MotionTableView& m, int threads) {
  const int nt = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t i = 0; i < int64_t(p.nBound); ++i) moveBoundaryParticle(uint32_t(i), p.pos, p.velrho, p.code, m);
}

template <typename T>
BoundaryMotion<T>::BoundaryMotion(const CaseDefinition& c, Device d, int threads)
    : kinematics_(c.motions), device_(d), threads_(threads), nMk_(uint32_t(c.mks.size())) {
  if (c.motions.size() > size_t(INT16_MAX))
    throw InputError(fmt::format("{}: <motion>: {} moving objects, more than {} are not supported", c.path,
                                 c.motions.size(), INT16_MAX));
  std::vector<int16_t> slots(nMk_, int16_t(-1));
  for (size_t k = 0; k < c.motions.size(); ++k) slots.at(c.motions[k].mkIndex) = int16_t(k);
  slotOfMk_.allocate(d, nMk_, "the moving-object table");
  slotOfMk_.upload(slots, "uploading the moving-object table");
  transforms_.allocate(d, c.motions.size(), "the moving objects' transforms");
  host_.resize(c.motions.size());
}

template <typename T>
void BoundaryMotion<T>::apply(double t, double dt, const ParticleView<T>& p) {
  if (!(dt > 0)) return;
  const std::vector<ObjectStep> steps = kinematics_.advance(t, dt);
  const bool moved = std::any_of(steps.begin(), steps.end(), [](const ObjectStep& s) { return s.moved; });
  // Nothing moves now and every velocity was already cleared: no pass.
  if (!moved && !movedLastStep_) return;
  movedLastStep_ = moved;
  for (size_t k = 0; k < steps.size(); ++k) {
    const RigidTransform& r = steps[k].transform;
    MotionTransform& m = host_[k];
    std::copy(r.r, r.r + 9, m.r);
    std::copy(r.b, r.b + 3, m.b);
    m.invDt = 1.0 / dt;
    m.linear = r.linear ? 1u : 0u;
  }
  transforms_.upload(host_, "uploading the moving objects' transforms");
  const MotionTableView view{slotOfMk_.data(), nMk_, transforms_.data()};
  if (device_ == Device::Gpu)
    moveBoundariesGpu(p, view);
  else
    moveBoundariesCpu(p, view, threads_);
}

template class BoundaryMotion<float>;
template class BoundaryMotion<double>;
template void moveBoundariesCpu<float>(const ParticleView<float>&, const MotionTableView&, int);
template void moveBoundariesCpu<double>(const ParticleView<double>&, const MotionTableView&, int);

}  // namespace sph
