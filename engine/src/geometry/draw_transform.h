// The transformation GenCase 5.0 applies to the points of every later drawing command: <move>,
// <rotateline>, <rotate> and <scale> compose into one affine matrix, reset by <matrixreset> and
// <resetdraw>, saved and restored by <matrixsave> / <matrixload>.
//
// Each command multiplies the current matrix on the right (M = M * T), so the command given last
// acts first on a shape's points: <move> then <rotateline> rotates the shape about the axis and
// then moves it. A rotation by `ang` degrees about the axis from p1 to p2 turns clockwise when
// seen looking from p2 towards p1 (left-handed: about +y, +x goes to +z). GenCase builds it as
// translate(p1) * Rx * Ry * Rz(ang) * Ry^-1 * Rx^-1 * translate(-p1), Rx and Ry bringing the axis
// onto z; the matrices are 4x4 and multiplied in full, in that order, so that points land on the
// same doubles as GenCase's (a snapped coordinate half-way between nodes goes the same way).
// <rotate ang x y z> is the same rotation about the axis from the origin to (x, y, z).
// <rotateadv> chains three rotations about the coordinate axes (DualSPHysics 5.4's Davenport
// rotations, as its matrix class builds them: one factor a non-zero angle, multiplied in turn).
#pragma once

#include <array>

#include "model/vec3d.h"

namespace sph::gen {

class DrawTransform {
 public:
  void move(const Vec3d& d);
  // The axis must have two distinct points (the caller checks).
  void rotateLine(double degrees, const Vec3d& p1, const Vec3d& p2);

  // <rotateadv ang1 ang2 ang3 axes intrinsic>: three rotations in turn about the axes named by
  // `axes` (each 'X', 'Y' or 'Z'), right-handed (+y goes to +z about +x). Intrinsic: R1 R2 R3, each
  // about the axis as the earlier ones left it; extrinsic: R3 R2 R1, each about the fixed axis.
  // A zero angle adds no factor, as GenCase skips it. About `center`: translate(center) R
  // translate(-center), built as one matrix before it joins the transformation.
  void rotateAxes(const double (&degrees)[3], const char (&axes)[3], bool intrinsic, const Vec3d& center);

  // <scale x y z>: the coordinates multiplied axis by axis (radii are not: GenCase scales the
  // points it transforms only).
  void scale(const Vec3d& factors);

  Vec3d apply(const Vec3d& p) const;
  // True when the 3x3 part is diagonal: a scale and a translation at most, no rotation.
  bool axisAligned() const;
  // True when the matrix only translates: its 3x3 part is exactly the identity.
  bool translationOnly() const;

 private:
  using Matrix = std::array<std::array<double, 4>, 4>;
  static Matrix identity();
  // a * b, each entry summed left to right over the four products (GenCase's order).
  static Matrix product(const Matrix& a, const Matrix& b);

  Matrix m_ = identity();
};

}  // namespace sph::gen
