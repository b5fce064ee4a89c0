#include "geometry/boundary_normals.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "geometry/particle_generator.h"

namespace sph {
namespace {

Vec3d operator+(const Vec3d& a, const Vec3d& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3d operator-(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3d operator*(const Vec3d& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double length(const Vec3d& a) { return std::sqrt(dot(a, a)); }

// One face as seen from a particle: the distance to its plane along its normal, and the point
// of the face nearest the projection (the projection itself when inside).
struct FaceView {
  Vec3d normal;
  double distance = 0;
  bool inside = false;
  Vec3d limit;  // nearest point of the face to the projection
};

// Position of x along edge e from 0 to 1, the edge's length, and how far inside [0, 1] (in
// length units; negative outside).
void alongEdge(double x, double len2, double& s, double& margin) {
  if (len2 <= 0) {  // a face of zero width along this edge (2D): every projection lies on it
    s = 0;
    margin = 0;
    return;
  }
  s = x / len2;
  const double len = std::sqrt(len2);
  margin = std::min(s, 1 - s) * len;
}

FaceView view(const Vec3d& p, const NormalFace& f, double tol) {
  FaceView v;
  v.normal = f.normal;
  v.distance = dot(f.corner - p, f.normal);
  const Vec3d q = p + f.normal * v.distance;
  const Vec3d rel = q - f.corner;
  double s, t, ms, mt;
  alongEdge(dot(rel, f.u), dot(f.u, f.u), s, ms);
  alongEdge(dot(rel, f.v), dot(f.v, f.v), t, mt);
  v.inside = ms >= -tol && mt >= -tol;
  v.limit = f.corner + f.u * std::clamp(s, 0.0, 1.0) + f.v * std::clamp(t, 0.0, 1.0);
  if (v.inside) v.limit = q;
  return v;
}

bool sameVector(const Vec3d& a, const Vec3d& b, double tol) {
  return std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol;
}

// The point where three planes (point, normal) meet; false when two are parallel.
bool planesMeet(const Vec3d pt[3], const Vec3d n[3], Vec3d& out) {
  const Vec3d c12{n[1].y * n[2].z - n[1].z * n[2].y, n[1].z * n[2].x - n[1].x * n[2].z,
                  n[1].x * n[2].y - n[1].y * n[2].x};
  const Vec3d c20{n[2].y * n[0].z - n[2].z * n[0].y, n[2].z * n[0].x - n[2].x * n[0].z,
                  n[2].x * n[0].y - n[2].y * n[0].x};
  const Vec3d c01{n[0].y * n[1].z - n[0].z * n[1].y, n[0].z * n[1].x - n[0].x * n[1].z,
                  n[0].x * n[1].y - n[0].y * n[1].x};
  const double det = dot(n[0], c12);
  if (std::fabs(det) < 1e-12) return false;
  out = (c12 * dot(n[0], pt[0]) + c20 * dot(n[1], pt[1]) + c01 * dot(n[2], pt[2])) * (1.0 / det);
  return true;
}

Vec3d normalOf(const Vec3d& p, const std::vector<NormalFace>& faces, double reach, double tol) {
  std::vector<FaceView> near;
  for (const NormalFace& f : faces) {
    const FaceView v = view(p, f, tol);
    // Only the distance to the plane limits the faces GenCase considers (a wall's outer corner
    // particle, farther than `reach` from the surface, still gets the corner's normal).
    if (v.distance > 0 && v.distance <= reach) near.push_back(v);
  }
  double insideMin = DBL_MAX;
  for (const FaceView& v : near)
    if (v.inside) insideMin = std::min(insideMin, v.distance);

  if (insideMin <= reach) {
    // The nearest faces with the projection inside, one per distinct normal.
    std::vector<FaceView> nearest;
    for (const FaceView& v : near) {
      if (!v.inside || std::fabs(v.distance - insideMin) > tol) continue;
      if (std::none_of(nearest.begin(), nearest.end(), [&](const FaceView& w) { return sameVector(w.normal, v.normal, tol); }))
        nearest.push_back(v);
    }
    if (nearest.size() > 1) {
      Vec3d mean{};
      for (const FaceView& v : nearest) mean = mean + v.normal * v.distance;
      mean = mean * (1.0 / double(nearest.size()));
      const double len = length(mean);
      // Along the mean, the distance to the nearest of the faces' planes.
      double along = DBL_MAX;
      for (const FaceView& v : nearest) {
        const double d = v.distance * v.distance / dot(mean, v.normal * v.distance) * len;
        if (d >= 0 && d < along) along = d;
      }
      if (along == DBL_MAX) along = 0;
      const Vec3d n = len > 0 ? mean * (along / len) : Vec3d{};
      if (length(n) <= 1.5 * reach) return n;
    }
    return nearest.front().limit - p;
  }
  if (near.empty()) return {};
  // No projection inside any face: the nearest limit point of each distinct normal.
  std::vector<FaceView> limits;
  for (const FaceView& v : near) {
    auto same = std::find_if(limits.begin(), limits.end(), [&](const FaceView& w) { return sameVector(w.normal, v.normal, tol); });
    if (same == limits.end())
      limits.push_back(v);
    else if (length(v.limit - p) < length(same->limit - p))
      *same = v;
  }
  // How many limit points lie (within tol) at the least distance, and whether they differ.
  // As GenCase, `distinct` is not cleared when a nearer point turns up.
  double dmin = DBL_MAX;
  size_t count = 0, first = 0;
  bool distinct = false;
  for (size_t k = 0; k < limits.size(); ++k) {
    const double d = length(limits[k].limit - p);
    if (std::fabs(d - dmin) <= tol) {
      ++count;
      if (!sameVector(limits[k].limit, limits[first].limit, tol)) distinct = true;
    } else if (d < dmin) {
      dmin = d;
      count = 1;
      first = k;
    }
  }
  if (count == 3 && distinct) {
    Vec3d pt[3], n[3];
    size_t m = 0;
    for (const FaceView& v : limits)
      if (m < 3 && std::fabs(length(v.limit - p) - dmin) <= tol) {
        pt[m] = p + v.normal * v.distance;
        n[m++] = v.normal;
      }
    Vec3d corner;
    if (planesMeet(pt, n, corner)) return corner - p;
  }
  size_t best = 0;
  for (size_t k = 1; k < limits.size(); ++k)
    if (length(limits[k].limit - p) < length(limits[best].limit - p)) best = k;
  return limits[best].limit - p;
}

}  // namespace

std::vector<NormalFace> boxNormalFaces(const Vec3d& lo, const Vec3d& hi, uint8_t faces, bool invert) {
  const Vec3d s = hi - lo;
  const double sign = invert ? -1.0 : 1.0;
  std::vector<NormalFace> out;
  auto add = [&](uint8_t bit, const Vec3d& corner, const Vec3d& u, const Vec3d& v, const Vec3d& outward) {
    // A face with one zero edge is a 2D case's wall seen edge-on, a segment: kept.
    if (!(faces & bit) || (dot(u, u) == 0 && dot(v, v) == 0)) return;
    out.push_back({corner, u, v, outward * sign});
  };
  const Vec3d ex{s.x, 0, 0}, ey{0, s.y, 0}, ez{0, 0, s.z};
  add(gen::kFaceLeft, lo, ey, ez, {-1, 0, 0});
  add(gen::kFaceRight, {hi.x, lo.y, lo.z}, ey, ez, {1, 0, 0});
  if (s.y > 0) {
    add(gen::kFaceFront, lo, ex, ez, {0, -1, 0});
    add(gen::kFaceBack, {lo.x, hi.y, lo.z}, ex, ez, {0, 1, 0});
  }
  add(gen::kFaceBottom, lo, ex, ey, {0, 0, -1});
  add(gen::kFaceTop, {lo.x, lo.y, hi.z}, ex, ey, {0, 0, 1});
  return out;
}

std::vector<Vec3d> ghostNormals(const std::vector<Vec3d>& positions, size_t count,
                                const std::vector<NormalFace>& faces, double reach, double dp) {
  const double tol = dp * 1e-4;
  std::vector<Vec3d> out(positions.size());
  for (size_t i = 0; i < count && i < positions.size(); ++i) out[i] = normalOf(positions[i], faces, reach, tol) * 2.0;
  return out;
}

}  // namespace sph
