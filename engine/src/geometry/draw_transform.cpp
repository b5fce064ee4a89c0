// GenCase's drawing transformation; the rule is stated in geometry/draw_transform.h.
#include "geometry/draw_transform.h"

#include <cmath>

namespace sph::gen {
namespace {

// Degrees to radians as GenCase multiplies them (the double nearest pi / 180).
constexpr double kRadiansPerDegree = 0.017453292519943295769;

}  // namespace

DrawTransform::Matrix DrawTransform::identity() {
  Matrix m{};
  for (int i = 0; i < 4; ++i) m[i][i] = 1;
  return m;
}

DrawTransform::Matrix DrawTransform::product(const Matrix& a, const Matrix& b) {
  Matrix r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] + a[i][3] * b[3][j];
  return r;
}

void DrawTransform::move(const Vec3d& d) {
  Matrix t = identity();
  t[0][3] = d.x;
  t[1][3] = d.y;
  t[2][3] = d.z;
  m_ = product(m_, t);
}

void DrawTransform::rotateLine(double degrees, const Vec3d& p1, const Vec3d& p2) {
  const double rad = degrees * kRadiansPerDegree;
  const Vec3d v{p2.x - p1.x, p2.y - p1.y, p2.z - p1.z};
  const double len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  const double lenYz = std::sqrt(v.y * v.y + v.z * v.z);
  Matrix r = identity();  // translate(p1)
  r[0][3] = p1.x;
  r[1][3] = p1.y;
  r[2][3] = p1.z;
  // Rx turns the axis into the xz plane (a quarter turn when it lies along x), Ry onto z.
  Matrix rx = identity(), rxInv = identity();
  const double c = lenYz == 0 ? 0.0 : v.z / lenYz, s = lenYz == 0 ? 1.0 : v.y / lenYz;
  rx[1][1] = c;
  rx[1][2] = s;
  rx[2][1] = -s;
  rx[2][2] = c;
  rxInv[1][1] = c;
  rxInv[1][2] = -s;
  rxInv[2][1] = s;
  rxInv[2][2] = c;
  Matrix ry = identity(), ryInv = identity();
  ry[0][0] = lenYz / len;
  ry[0][2] = v.x / len;
  ry[2][0] = -v.x / len;
  ry[2][2] = lenYz / len;
  ryInv[0][0] = lenYz / len;
  ryInv[0][2] = -v.x / len;
  ryInv[2][0] = v.x / len;
  ryInv[2][2] = lenYz / len;
  Matrix rz = identity();
  rz[0][0] = std::cos(rad);
  rz[0][1] = std::sin(rad);
  rz[1][0] = -std::sin(rad);
  rz[1][1] = std::cos(rad);
  Matrix back = identity();  // translate(-p1)
  back[0][3] = -p1.x;
  back[1][3] = -p1.y;
  back[2][3] = -p1.z;
  for (const Matrix* f : {&rx, &ry, &rz, &ryInv, &rxInv, &back}) r = product(r, *f);
  m_ = product(m_, r);
}

void DrawTransform::rotateAxes(const double (&degrees)[3], const char (&axes)[3], bool intrinsic, const Vec3d& center) {
  auto about = [](char axis, double deg) {
    const double rad = deg * kRadiansPerDegree;
    const double c = std::cos(rad), s = std::sin(rad);
    const int i = axis == 'X' ? 1 : 0, j = axis == 'Z' ? 1 : 2;  // the plane the rotation turns
    Matrix r = identity();
    r[i][i] = c;
    r[j][j] = c;
    // About y the sine's signs are the other way round: +z goes to +x (right-handed).
    r[i][j] = axis == 'Y' ? s : -s;
    r[j][i] = axis == 'Y' ? -s : s;
    return r;
  };
  Matrix r = identity();
  r[0][3] = center.x;
  r[1][3] = center.y;
  r[2][3] = center.z;
  Matrix turn = identity();
  for (int k = 0; k < 3; ++k) {
    const int f = intrinsic ? k : 2 - k;
    if (degrees[f] != 0) turn = product(turn, about(axes[f], degrees[f]));
  }
  r = product(r, turn);
  Matrix back = identity();
  back[0][3] = -center.x;
  back[1][3] = -center.y;
  back[2][3] = -center.z;
  m_ = product(m_, product(r, back));
}

void DrawTransform::scale(const Vec3d& f) {
  Matrix t = identity();
  t[0][0] = f.x;
  t[1][1] = f.y;
  t[2][2] = f.z;
  m_ = product(m_, t);
}

bool DrawTransform::axisAligned() const {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != j && m_[i][j] != 0.0) return false;
  return true;
}

Vec3d DrawTransform::apply(const Vec3d& p) const {
  return {m_[0][0] * p.x + m_[0][1] * p.y + m_[0][2] * p.z + m_[0][3],
          m_[1][0] * p.x + m_[1][1] * p.y + m_[1][2] * p.z + m_[1][3],
          m_[2][0] * p.x + m_[2][1] * p.y + m_[2][2] * p.z + m_[2][3]};
}

bool DrawTransform::translationOnly() const {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (m_[i][j] != (i == j ? 1.0 : 0.0)) return false;
  return true;
}

}  // namespace sph::gen
