#include "motion/boundary_motion.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "model/periodic_parameters.h"
#include "sph/plugin/errors.h"

namespace sph {

template <typename T>
void moveBoundariesCpu(const ParticleView<T>& p, const MotionTableView& m, int threads) {
  const int nt = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int64_t i = 0; i < int64_t(p.nBound); ++i)
    moveBoundaryParticle(uint32_t(i), p.pos, p.velrho, p.code, m, p.normal, p.motionAce, p.posLo);
}

template <typename T>
BoundaryMotion<T>::BoundaryMotion(const CaseDefinition& c, const SimParameters& p, Device d, int threads)
    : kinematics_(c.motions, c.motionFrames), device_(d), threads_(threads), nMk_(uint32_t(c.mks.size())),
      box_(makePeriodicBox<double>(p)) {
  if (c.motions.size() > size_t(INT16_MAX))
    throw InputError(fmt::format("{}: <motion>: {} moving objects, more than {} are not supported", c.path,
                                 c.motions.size(), INT16_MAX));
  std::vector<int16_t> slots(nMk_, int16_t(-1));
  for (size_t k = 0; k < c.motions.size(); ++k) slots.at(c.motions[k].mkIndex) = int16_t(k);
  slotOfMk_.allocate(d, nMk_, "the moving-object table");
  slotOfMk_.upload(slots, "uploading the moving-object table");
  transforms_.allocate(d, c.motions.size(), "the moving objects' transforms");
  host_.resize(c.motions.size());
  // Anchors: each object's centroid in the case (moving objects are boundary families).
  anchor_.assign(c.motions.size(), {0.0, 0.0, 0.0});
  std::vector<uint32_t> count(c.motions.size(), 0);
  for (uint32_t i = 0; i < c.nBound; ++i) {
    const int slot = slots[c.mkIndex[i]];
    if (slot < 0) continue;
    anchor_[slot][0] += c.positions[i].x;
    anchor_[slot][1] += c.positions[i].y;
    anchor_[slot][2] += c.positions[i].z;
    ++count[slot];
  }
  for (size_t k = 0; k < anchor_.size(); ++k)
    for (double& a : anchor_[k]) a /= std::max(count[k], 1u);
  // Multi-layer pistons: their layers from their particles' extent.
  mlLaws_.resize(c.motions.size());
  mlBase_.assign(c.motions.size(), 0);
  uint32_t cells = 0;
  for (size_t k = 0; k < c.motions.size(); ++k) {
    const std::optional<MlPiston>& piston = c.motions[k].mlPiston;
    if (!piston) continue;
    double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (uint32_t i = 0; i < c.nBound; ++i)
      if (slots[c.mkIndex[i]] == int16_t(k)) {
        lo[0] = std::min(lo[0], c.positions[i].y), hi[0] = std::max(hi[0], c.positions[i].y);
        lo[1] = std::min(lo[1], c.positions[i].z), hi[1] = std::max(hi[1], c.positions[i].z);
      }
    if (!(lo[1] <= hi[1]))
      throw InputError(fmt::format("{}:{}: <{}>: the piston (mkbound {}) has no particles", c.path, piston->line,
                                   piston->twoD ? "piston2d" : "piston1d", piston->mkbound));
    mlLaws_[k].emplace(*piston, p.dp, lo[1], hi[1], lo[0], hi[0], p.timeMax);
    mlBase_[k] = cells;
    cells += mlLaws_[k]->layersY() * mlLaws_[k]->layersZ();
  }
  if (cells > 0) {
    layerMovHost_.assign(cells, 0.0);
    layerVelHost_.assign(cells, 0.0);
    layerMov_.allocate(d, cells, "the multi-layer pistons' moves");
    layerVel_.allocate(d, cells, "the multi-layer pistons' velocities");
  }
  // Absorbing pistons: the face at rest is the largest x of their particles.
  awas_.resize(c.motions.size());
  paddleExtra_.assign(c.motions.size(), 0.0);
  for (size_t k = 0; k < c.motions.size(); ++k) {
    const std::optional<WavePaddle>& paddle = c.motions[k].paddle;
    if (!paddle || !paddle->awas) continue;
    double face = -std::numeric_limits<double>::infinity();
    for (uint32_t i = 0; i < c.nBound; ++i)
      if (slots[c.mkIndex[i]] == int16_t(k)) face = std::max(face, c.positions[i].x);
    if (!std::isfinite(face))
      throw InputError(fmt::format("{}:{}: <awas_zsurf>: the piston (mkbound {}) has no particles", c.path,
                                   paddle->awas->line, paddle->mkbound));
    awas_[k].emplace(*paddle, *kinematics_.paddleLaw(k), face, p);
    awasObjects_.push_back(k);
  }
}

template <typename T>
std::vector<typename BoundaryMotion<T>::Absorber> BoundaryMotion<T>::absorbers() const {
  std::vector<Absorber> out;
  for (size_t k : awasObjects_) out.push_back({&*kinematics_.objects()[k].paddle, &*awas_[k]});
  return out;
}

template <typename T>
void BoundaryMotion<T>::apply(double t, double dt, const ParticleView<T>& p, GaugeSource* gauges) {
  if (!(dt > 0)) return;
  if (absorbs() && !gauges) throw RunError("an absorbing piston (<awas_zsurf>) moved without its gauge");
  for (size_t k : awasObjects_) paddleExtra_[k] = awas_[k]->step(t, dt, *gauges);
  const std::vector<ObjectStep> steps = kinematics_.advance(t, dt, absorbs() ? &paddleExtra_ : nullptr);
  // A multi-layer piston sets its particles' velocities every step.
  const bool moved = !layerMovHost_.empty() ||
                     std::any_of(steps.begin(), steps.end(), [](const ObjectStep& s) { return s.moved; });
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
    std::array<double, 3>& a = anchor_[k];
    std::copy(a.begin(), a.end(), m.anchor);
    a = {r.r[0] * m.anchor[0] + r.r[1] * m.anchor[1] + r.r[2] * m.anchor[2] + r.b[0],
         r.r[3] * m.anchor[0] + r.r[4] * m.anchor[1] + r.r[5] * m.anchor[2] + r.b[1],
         r.r[6] * m.anchor[0] + r.r[7] * m.anchor[1] + r.r[8] * m.anchor[2] + r.b[2]};
  }
  // Multi-layer pistons: each cell moves by X(t + dt) - X(t), from X = 0 in the run's first step
  // (motion/ml_piston_law.h).
  for (size_t k = 0; k < mlLaws_.size(); ++k) {
    if (!mlLaws_[k]) continue;
    const MlPistonLaw& law = *mlLaws_[k];
    const std::vector<double> x1 = law.displacement(t + dt), v1 = law.velocity(t + dt);
    const std::vector<double> x0 = t > 0 ? law.displacement(t) : std::vector<double>(x1.size(), 0.0);
    for (size_t q = 0; q < x1.size(); ++q) {
      layerMovHost_[mlBase_[k] + q] = x1[q] - x0[q];
      layerVelHost_[mlBase_[k] + q] = v1[q];
    }
    MotionTransform& m = host_[k];
    m.layers = law.layersZ();
    m.layersY = law.layersY();
    m.layerBase = mlBase_[k];
    m.layerY0 = law.ymin();
    m.layerZ0 = law.zmin();
    m.layerDp = law.dp();
  }
  if (!layerMovHost_.empty()) {
    layerMov_.upload(layerMovHost_, "uploading the multi-layer pistons' moves");
    layerVel_.upload(layerVelHost_, "uploading the multi-layer pistons' velocities");
  }
  transforms_.upload(host_, "uploading the moving objects' transforms");
  const MotionTableView view{slotOfMk_.data(), nMk_,           transforms_.data(),
                             box_,             layerMov_.data(), layerVel_.data()};
  if (device_ == Device::Gpu)
    moveBoundariesGpu(p, view);
  else
    moveBoundariesCpu(p, view, threads_);
}

template <typename T>
void BoundaryMotion<T>::save(CheckpointWriter& w) const {
  kinematics_.save(w);
  w.putVector("motion.anchors", anchor_);
  w.putValue("motion.moved_last_step", uint8_t(movedLastStep_));
  for (size_t k : awasObjects_) awas_[k]->save(w, fmt::format("motion.awas.{}", k));
}

template <typename T>
void BoundaryMotion<T>::restore(const CheckpointReader& r) {
  kinematics_.restore(r);
  std::vector<std::array<double, 3>> anchors = r.vector<std::array<double, 3>>("motion.anchors");
  if (anchors.size() != anchor_.size())
    throw InputError(fmt::format("{}: the checkpoint holds {} moving objects, the case {}", r.path().string(),
                                 anchors.size(), anchor_.size()));
  anchor_ = std::move(anchors);
  movedLastStep_ = r.value<uint8_t>("motion.moved_last_step") != 0;
  for (size_t k : awasObjects_) awas_[k]->restore(r, fmt::format("motion.awas.{}", k));
}

template class BoundaryMotion<float>;
template class BoundaryMotion<double>;
template void moveBoundariesCpu<float>(const ParticleView<float>&, const MotionTableView&, int);
template void moveBoundariesCpu<double>(const ParticleView<double>&, const MotionTableView&, int);

}  // namespace sph
