#include "output/part_filter.h"

#include <cmath>

namespace sph {
namespace {

// The filters that follow a body, in the order test() meets them (depth first).
void followers(const OutputFilter& f, std::vector<const OutputFilter*>& out) {
  if (f.followMkBound) out.push_back(&f);
  for (const OutputFilter& c : f.children) followers(c, out);
}

}  // namespace

PartFilter::PartFilter(const CaseOutputParts& filters, const CaseDefinition& c,
                       const std::vector<Vec3d>& centres)
    : filters_(filters) {
  for (size_t k = 0; k < c.mks.size(); ++k) {
    const MkEntry& m = c.mks[k];
    unsigned type = OutputFilter::kTypeFluid;
    if (m.bound) {
      type = floatingOf(c, m.local) ? OutputFilter::kTypeFloating : OutputFilter::kTypeFixed;
      for (const MotionObject& o : c.motions)
        if (o.mkIndex == k) type = OutputFilter::kTypeMoving;
    }
    typeOfMk_[m.mk] = type;
  }
  for (size_t b = 0; b < c.floatings.size(); ++b)
    for (int mk : c.floatings[b].mkBound) bodyOfMkBound_[mk] = int(b);
  std::vector<const OutputFilter*> follow;
  followers(filters_.root, follow);
  for (const OutputFilter* f : follow) {
    const int b = bodyOfMkBound_.at(*f->followMkBound);
    startCentre_[*f->followMkBound] = centres.at(size_t(b));
  }
}

bool PartFilter::filters(int part) const { return filters_.ignoreParts <= 0 || part % filters_.ignoreParts != 0; }

bool PartFilter::test(const OutputFilter& f, const double p[3], int mk, const std::vector<Vec3d>& moved) const {
  using Kind = OutputFilter::Kind;
  if (f.kind == Kind::Group) return block(f, p, mk, moved);
  if (f.kind == Kind::Type) {
    const auto it = typeOfMk_.find(mk);
    return it != typeOfMk_.end() && (f.types & it->second) != 0;
  }
  if (f.kind == Kind::Mk) {
    for (int m : f.mks)
      if (m == mk) return true;
    return false;
  }
  // A followed filter moves with its body's centre (translation only, as DualSPHysics).
  Vec3d shift{};
  if (f.followMkBound) shift = moved[size_t(bodyOfMkBound_.at(*f.followMkBound))];
  const Vec3d x{p[0] - shift.x, p[1] - shift.y, p[2] - shift.z};
  switch (f.kind) {
    case Kind::Pos:
      return x.x >= f.lo.x && x.y >= f.lo.y && x.z >= f.lo.z && x.x <= f.hi.x && x.y <= f.hi.y && x.z <= f.hi.z;
    case Kind::Plane: {
      const double d = dot(f.normal, sub(x, f.point));
      return d >= 0 && d <= f.distance;
    }
    case Kind::Sphere: {
      const Vec3d centre = f.centreGiven ? f.point : startCentre_.at(*f.followMkBound);
      const Vec3d r = sub(x, centre);
      return dot(r, r) <= f.radius * f.radius;
    }
    default: {  // Cylinder: between the end planes, within the radius of the axis
      const Vec3d axis = sub(f.point2, f.point);
      const double length = norm(axis);
      const Vec3d u = length > 0 ? scale(axis, 1 / length) : Vec3d{0, 0, 1};
      const Vec3d r = sub(x, f.point);
      const double along = dot(r, u);
      if (!(along >= 0 && along <= length)) return false;
      const Vec3d across = sub(r, scale(u, along));
      return dot(across, across) <= f.radius * f.radius;
    }
  }
}

bool PartFilter::block(const OutputFilter& g, const double p[3], int mk, const std::vector<Vec3d>& moved) const {
  bool selected = g.preselectAll;
  for (const OutputFilter& f : g.children) {
    // An OR cannot unset the selection, an AND cannot set it: the test is skipped then.
    if (selected != f.combineAnd) continue;
    const bool t = test(f, p, mk, moved) != f.negate;
    selected = f.combineAnd ? selected && t : selected || t;
  }
  return selected;
}

void PartFilter::apply(ParticleSnapshot& s, const std::vector<Vec3d>& centres) const {
  std::vector<Vec3d> moved(centres.size());
  for (const auto& [mkBound, start] : startCentre_) {
    const size_t b = size_t(bodyOfMkBound_.at(mkBound));
    moved[b] = sub(centres.at(b), start);
  }
  size_t w = 0;
  for (size_t i = 0; i < s.count(); ++i) {
    const double* p = &s.pos[3 * i];
    if (!block(filters_.root, p, s.mk[i], moved)) continue;
    for (int a = 0; a < 3; ++a) {
      s.pos[3 * w + a] = s.pos[3 * i + a];
      s.vel[3 * w + a] = s.vel[3 * i + a];
    }
    s.rho[w] = s.rho[i];
    s.press[w] = s.press[i];
    s.type[w] = s.type[i];
    s.mk[w] = s.mk[i];
    s.id[w] = s.id[i];
    ++w;
  }
  s.pos.resize(3 * w);
  s.vel.resize(3 * w);
  s.rho.resize(w);
  s.press.resize(w);
  s.type.resize(w);
  s.mk.resize(w);
  s.id.resize(w);
}

}  // namespace sph
