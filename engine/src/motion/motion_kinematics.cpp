#include "motion/motion_kinematics.h"

#include <algorithm>
#include <numbers>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

bool circular(MovementType t) {
  return t == MovementType::Cir || t == MovementType::CirSinu || t == MovementType::CirAce;
}

// A positive angle turns by the right-hand rule about axisP2 -> axisP1: DualSPHysics 5.4's runs
// of mvrot, mvrotsinu, mvrotfile and mvcir agree with this to round-off, in 2D and about an
// oblique axis in 3D (engine/tests/data/dualsphysics/FileMotions_Def.xml, Rot3D_Def.xml).
RigidTransform turn(const Movement& m, double angle) { return RigidTransform::rotation(angle, m.axisP2, m.axisP1); }

// The file's value at time t: linear between the rows around it, the last row's after them (t is
// never before the first row: the movement reads the file from there). As DualSPHysics, t in
// (time[k-1], time[k]] takes rows k-1 and k, so at a time given twice the value is the first
// row's and jumps to the second's just after.
template <class V, class Lerp>
V tableAt(const std::vector<double>& time, const std::vector<V>& value, double t, Lerp lerp) {
  if (t <= time.front()) return value.front();
  if (t >= time.back()) return value.back();
  const size_t k = size_t(std::lower_bound(time.begin(), time.end(), t) - time.begin());  // time[k-1] < t <= time[k]
  return lerp(value[k - 1], value[k], (t - time[k - 1]) / (time[k] - time[k - 1]));
}

// mvfile: the position at the time tau into the movement, less the first row's.
Vec3d filePos(const MotionTable& f, double tau) {
  const Vec3d p = tableAt(f.time, f.pos, f.time.front() + tau, [](const Vec3d& a, const Vec3d& b, double w) {
    return Vec3d{a.x + w * (b.x - a.x), a.y + w * (b.y - a.y), a.z + w * (b.z - a.z)};
  });
  const Vec3d& p0 = f.pos.front();
  return {p.x - p0.x, p.y - p0.y, p.z - p0.z};
}

// mvrotfile: likewise, the angle.
double fileAngle(const MotionTable& f, double tau) {
  return tableAt(f.time, f.angle, f.time.front() + tau, [](double a, double b, double w) { return a + w * (b - a); }) -
         f.angle.front();
}

// The file's three angles at the time tau into the movement.
Vec3d fileAngles(const MotionTable& f, double tau) {
  return tableAt(f.time, f.angles, f.time.front() + tau, [](const Vec3d& a, const Vec3d& b, double w) {
    return Vec3d{a.x + w * (b.x - a.x), a.y + w * (b.y - a.y), a.z + w * (b.z - a.z)};
  });
}

// r = r s (3x3, row-major).
void multiply(double* r, const double* s) {
  double p[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p[3 * i + j] = r[3 * i] * s[j] + r[3 * i + 1] * s[3 + j] + r[3 * i + 2] * s[6 + j];
  std::copy(p, p + 9, r);
}

// The orientation of the angles a about m's axes (model/case_motion.h: Movement::axes), each
// axis turned by the right-hand rule (DualSPHysics' MatrixRotX, Y, Z).
void orientation(const Movement& m, const Vec3d& a, double* r) {
  const double ang[3] = {a.x, a.y, a.z};
  const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::copy(id, id + 9, r);
  for (int k = 0; k < 3; ++k) {
    const int i = m.intrinsic ? 2 - k : k;
    const double c = std::cos(ang[i]), s = std::sin(ang[i]);
    double q[9];
    switch (m.axes[i]) {
      case 'X': {
        const double x[9] = {1, 0, 0, 0, c, -s, 0, s, c};
        std::copy(x, x + 9, q);
        break;
      }
      case 'Y': {
        const double y[9] = {c, 0, s, 0, 1, 0, -s, 0, c};
        std::copy(y, y + 9, q);
        break;
      }
      default: {
        const double z[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
        std::copy(z, z + 9, q);
      }
    }
    multiply(r, q);
  }
}

}  // namespace

MotionKinematics::MotionKinematics(std::vector<MotionObject> objects, std::vector<MotionObject> frames)
    : objects_(std::move(objects)), nObjects_(objects_.size()) {
  for (MotionObject& f : frames) objects_.push_back(std::move(f));
  for (const MotionObject& o : objects_) {
    refBase_.push_back(refs_.size());
    for (const Movement& m : o.movements) {
      refs_.push_back(m.ref);
      centers_.push_back(m.center);
    }
  }
  // Parents first: by depth of nesting, in the case's order within a depth.
  std::vector<int> depth(objects_.size(), 0);
  for (size_t o = 0; o < objects_.size(); ++o)
    for (int p = objects_[o].parent; p >= 0 && depth[o] <= int(objects_.size()); p = objects_[size_t(p)].parent)
      ++depth[o];
  for (size_t o = 0; o < objects_.size(); ++o) order_.push_back(o);
  std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) { return depth[a] < depth[b]; });
  for (size_t o = 0; o < objects_.size(); ++o) {
    paddles_.emplace_back();
    if (objects_[o].paddle) paddles_.back().emplace(*objects_[o].paddle);
    for (const MotionBegin& b : objects_[o].begins) {
      Chain c;
      c.object = o;
      c.start = b.start;
      if (b.finish >= 0) c.stop = b.finish;
      const int mov = objects_[o].find(b.mov);
      if (mov < 0) continue;  // the reader refuses this; a hand-made object just never moves
      enter(c, mov, Handover{});
      chains_.push_back(c);
    }
  }
}

// Makes `mov` the running movement of c (its start time already set); `prev` is what the
// previous movement ended with, for sinusoids without <phase> and accelerations without <velini>.
void MotionKinematics::enter(Chain& c, int mov, const Handover& prev) const {
  c.mov = mov;
  const Movement& m = objects_[c.object].movements[size_t(mov)];
  c.phase = m.type == MovementType::RectSinu ? (m.phaseFromPrevious ? prev.phase : m.phase) : Vec3d{};
  const bool sinuRot = m.type == MovementType::RotSinu || m.type == MovementType::CirSinu;
  const bool aceRot = m.type == MovementType::RotAce || m.type == MovementType::CirAce;
  c.phaseRot = sinuRot ? (m.phaseFromPrevious ? prev.phaseRot : m.phaseRot) : 0.0;
  c.vel = m.type == MovementType::RectAce ? (m.velFromPrevious ? prev.vel : m.vel) : Vec3d{};
  c.angVel = aceRot ? (m.velFromPrevious ? prev.angVel : m.angVel) : 0.0;
  c.refStart = circular(m.type) ? refs_[refIndex(c, mov)] : Vec3d{};
}

// The state movement m (running in c) hands on when it has run its whole duration. Only the kind
// that can continue it passes on each quantity: phases between sinusoids of the same kind,
// velocities from uniform or accelerated movements of the same kind (DualSPHysics resets the
// rest to zero when a movement starts). Rotations and circular movements are one kind: an angle.
MotionKinematics::Handover MotionKinematics::handover(const Movement& m, const Chain& c) const {
  Handover h;
  const double d = m.duration;
  switch (m.type) {
    case MovementType::RectSinu:
      // DualSPHysics advances a sinusoid's phase only on axes with a non-zero amplitude.
      h.phase = {c.phase.x + (m.ampl.x != 0 ? kTwoPi * m.freq.x * d : 0),
                 c.phase.y + (m.ampl.y != 0 ? kTwoPi * m.freq.y * d : 0),
                 c.phase.z + (m.ampl.z != 0 ? kTwoPi * m.freq.z * d : 0)};
      break;
    case MovementType::RotSinu:
    case MovementType::CirSinu:
      h.phaseRot = c.phaseRot + kTwoPi * m.freqRot * d;
      break;
    case MovementType::Rect:
      h.vel = m.vel;
      break;
    case MovementType::RectAce:
      h.vel = {c.vel.x + m.ace.x * d, c.vel.y + m.ace.y * d, c.vel.z + m.ace.z * d};
      break;
    case MovementType::Rot:
    case MovementType::Cir:
      h.angVel = m.angVel;
      break;
    case MovementType::RotAce:
    case MovementType::CirAce:
      h.angVel = c.angVel + m.aceAng * d;
      break;
    case MovementType::Wait:
    case MovementType::Null:
    case MovementType::RectFile:
    case MovementType::RotFile:
    case MovementType::RotAdvFile:
    case MovementType::PathFile:
      break;
  }
  return h;
}

// Where the reference point of circular movement m (running in c) is at the time tau into it:
// turned from where it started by the angle of the matching rotation law.
Vec3d MotionKinematics::refPoint(const Movement& m, const Chain& c, double tau) {
  double angle = 0;
  switch (m.type) {
    case MovementType::Cir:
      angle = m.angVel * tau;
      break;
    case MovementType::CirSinu:
      angle = m.amplRot * (std::sin(c.phaseRot + kTwoPi * m.freqRot * tau) - std::sin(c.phaseRot));
      break;
    case MovementType::CirAce:
      angle = tau * (c.angVel + 0.5 * m.aceAng * tau);
      break;
    default:
      return c.refStart;
  }
  return turn(m, angle).apply(c.refStart);
}

// The transform of movement m (running since c.start) between the absolute times ta < tb.
RigidTransform MotionKinematics::piece(const Movement& m, const Chain& c, double ta, double tb) {
  const double a = ta - c.start, b = tb - c.start;  // time within the movement
  auto sinuStep = [&](double ampl, double freq, double phase) {
    return ampl * (std::sin(phase + kTwoPi * freq * b) - std::sin(phase + kTwoPi * freq * a));
  };
  // v0 tau + ace tau^2 / 2 between tau = a and b, factored so that a short piece late in a long
  // movement does not lose digits to the difference of two large squares.
  auto aceStep = [&](double v0, double ace) { return (b - a) * (v0 + 0.5 * ace * (a + b)); };
  switch (m.type) {
    case MovementType::Rect:
      return RigidTransform::translation(m.vel.x * (tb - ta), m.vel.y * (tb - ta), m.vel.z * (tb - ta));
    case MovementType::RectSinu:
      return RigidTransform::translation(sinuStep(m.ampl.x, m.freq.x, c.phase.x),
                                         sinuStep(m.ampl.y, m.freq.y, c.phase.y),
                                         sinuStep(m.ampl.z, m.freq.z, c.phase.z));
    case MovementType::Rot:
      return turn(m, m.angVel * (tb - ta));
    case MovementType::RotSinu:
      return turn(m, sinuStep(m.amplRot, m.freqRot, c.phaseRot));
    case MovementType::RectAce:
      return RigidTransform::translation(aceStep(c.vel.x, m.ace.x), aceStep(c.vel.y, m.ace.y),
                                         aceStep(c.vel.z, m.ace.z));
    case MovementType::RotAce:
      return turn(m, aceStep(c.angVel, m.aceAng));
    case MovementType::RectFile: {
      const Vec3d pa = filePos(*m.table, a), pb = filePos(*m.table, b);
      return RigidTransform::translation(pb.x - pa.x, pb.y - pa.y, pb.z - pa.z);
    }
    case MovementType::RotFile:
      return turn(m, fileAngle(*m.table, b) - fileAngle(*m.table, a));
    case MovementType::Cir:
    case MovementType::CirSinu:
    case MovementType::CirAce: {
      const Vec3d pa = refPoint(m, c, a), pb = refPoint(m, c, b);
      return RigidTransform::translation(pb.x - pa.x, pb.y - pa.y, pb.z - pa.z);
    }
    case MovementType::Wait:
    case MovementType::Null:
    case MovementType::RotAdvFile:
    case MovementType::PathFile:
      break;  // advancedFilePiece
  }
  return RigidTransform{};
}

// mvrotadvfile, mvpathfile over the times a < b into the movement (see the header).
RigidTransform MotionKinematics::advancedFilePiece(const Chain& c, const Movement& m, double a, double b) {
  double ra[9], rb[9];
  orientation(m, fileAngles(*m.table, a), ra);
  orientation(m, fileAngles(*m.table, b), rb);
  RigidTransform t;
  t.linear = false;
  // R = rb ra^T
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) t.r[3 * i + j] = rb[3 * i] * ra[3 * j] + rb[3 * i + 1] * ra[3 * j + 1] + rb[3 * i + 2] * ra[3 * j + 2];
  Vec3d d{};
  Vec3d& centre = centers_[refIndex(c, c.mov)];
  if (m.type == MovementType::PathFile) {
    const Vec3d pa = filePos(*m.table, a), pb = filePos(*m.table, b);
    d = {pb.x - pa.x, pb.y - pa.y, pb.z - pa.z};
    if (m.moveCenter) centre = {centre.x + d.x, centre.y + d.y, centre.z + d.z};
  }
  // x' = c + R (x + d - c): b = c + R (d - c).
  const double v[3] = {d.x - centre.x, d.y - centre.y, d.z - centre.z};
  const double cc[3] = {centre.x, centre.y, centre.z};
  for (int i = 0; i < 3; ++i) t.b[i] = cc[i] + t.r[3 * i] * v[0] + t.r[3 * i + 1] * v[1] + t.r[3 * i + 2] * v[2];
  return t;
}

void MotionKinematics::carry(size_t o, const RigidTransform& p) {
  for (size_t k = 0; k < objects_[o].movements.size(); ++k) {
    Movement& m = objects_[o].movements[k];
    m.axisP1 = p.apply(m.axisP1);
    m.axisP2 = p.apply(m.axisP2);
    refs_[refBase_[o] + k] = p.apply(refs_[refBase_[o] + k]);
  }
  for (Chain& c : chains_)
    if (c.object == o && c.mov >= 0 && circular(objects_[o].movements[size_t(c.mov)].type))
      c.refStart = p.apply(c.refStart);
}

void MotionKinematics::save(CheckpointWriter& w) const {
  w.putVector("motion.chains", chains_);
  w.putVector("motion.refs", refs_);
  std::vector<Vec3d> axes;
  for (const MotionObject& o : objects_)
    for (const Movement& m : o.movements) {
      axes.push_back(m.axisP1);
      axes.push_back(m.axisP2);
    }
  w.putVector("motion.axes", axes);
  w.putVector("motion.centers", centers_);
}

RigidTransform MotionKinematics::paddleStep(const WavePaddle& p, const PaddleLaw& law, double ta, double tb,
                                            double extra) {
  const double step = law.at(tb) - law.at(ta) + extra;
  if (p.type == PaddleType::Flap) return RigidTransform::rotation(step, p.axis0, p.axis1);
  return RigidTransform::translation(p.direction.x * step, p.direction.y * step, p.direction.z * step);
}

void MotionKinematics::restore(const CheckpointReader& r) {
  std::vector<Chain> chains = r.vector<Chain>("motion.chains");
  if (chains.size() != chains_.size())
    throw InputError(fmt::format("{}: the checkpoint holds {} motion chains, the case {}", r.path().string(),
                                 chains.size(), chains_.size()));
  std::vector<Vec3d> refs = r.vector<Vec3d>("motion.refs");
  if (refs.size() != refs_.size())
    throw InputError(fmt::format("{}: the checkpoint holds {} motion reference points, the case {}",
                                 r.path().string(), refs.size(), refs_.size()));
  chains_ = std::move(chains);
  refs_ = std::move(refs);
  // Axes carried by a parent and centres moved along a path (absent from checkpoints of cases
  // where neither can move).
  if (r.has("motion.axes")) {
    const std::vector<Vec3d> axes = r.vector<Vec3d>("motion.axes");
    if (axes.size() != 2 * refs_.size())
      throw InputError(fmt::format("{}: the checkpoint holds {} motion axis points, the case {}", r.path().string(),
                                   axes.size(), 2 * refs_.size()));
    size_t k = 0;
    for (MotionObject& o : objects_)
      for (Movement& m : o.movements) {
        m.axisP1 = axes[k++];
        m.axisP2 = axes[k++];
      }
  }
  if (r.has("motion.centers")) {
    std::vector<Vec3d> centers = r.vector<Vec3d>("motion.centers");
    if (centers.size() != centers_.size())
      throw InputError(fmt::format("{}: the checkpoint holds {} motion centres, the case {}", r.path().string(),
                                   centers.size(), centers_.size()));
    centers_ = std::move(centers);
  }
}

// Runs chain c over [t, t1], composing its pieces into s.
void MotionKinematics::runChain(Chain& c, double t, double t1, ObjectStep& s) {
  while (c.mov >= 0) {
    const Movement& m = objects_[c.object].movements[size_t(c.mov)];
    const double end = std::min(c.start + m.duration, c.stop);
    const double a = std::max(t, c.start), b = std::min(t1, end);
    if (b > a && m.type != MovementType::Wait && m.type != MovementType::Null) {
      const bool advanced = m.type == MovementType::RotAdvFile || m.type == MovementType::PathFile;
      s.transform = s.transform.then(advanced ? advancedFilePiece(c, m, a - c.start, b - c.start) : piece(m, c, a, b));
      s.moved = true;
      if (circular(m.type)) refs_[refIndex(c, c.mov)] = refPoint(m, c, b - c.start);
    }
    if (t1 < end) break;  // still running at the end of the step
    if (end >= c.stop || m.next < 0) {
      c.mov = -1;
      break;
    }
    // Hand over to `next` at `end`, passing on the phase or velocity reached.
    const Handover h = handover(m, c);
    c.start += m.duration;
    const int next = objects_[c.object].find(m.next);
    if (next < 0) {
      c.mov = -1;
      break;
    }
    enter(c, next, h);
  }
}

std::vector<ObjectStep> MotionKinematics::advance(double t, double dt, const std::vector<double>* paddleExtra) {
  std::vector<ObjectStep> all(objects_.size());
  for (size_t o = 0; o < nObjects_; ++o) all[o].mkIndex = objects_[o].mkIndex;
  const double t1 = t + dt;
  for (size_t o : order_) {
    const int parent = objects_[o].parent;
    const bool carried = parent >= 0 && all[size_t(parent)].moved;
    if (carried) carry(o, all[size_t(parent)].transform);
    for (Chain& c : chains_)
      if (c.object == o) runChain(c, t, t1, all[o]);
    if (paddles_[o]) {
      const WavePaddle& p = *objects_[o].paddle;
      // At rest before its start and after its end.
      if (t1 > p.start && t < paddles_[o]->end()) {
        const double extra = paddleExtra ? (*paddleExtra)[o] : 0.0;
        all[o].transform = all[o].transform.then(paddleStep(p, *paddles_[o], t, t1, extra));
        all[o].moved = true;
      }
    }
    if (carried) {
      all[o].transform = all[size_t(parent)].transform.then(all[o].transform);
      all[o].moved = true;
    }
  }
  all.resize(nObjects_);
  return all;
}

}  // namespace sph
