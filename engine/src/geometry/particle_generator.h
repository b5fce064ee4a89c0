// Particle generation on a regular lattice (GenCase's job in DualSPHysics).
//
// The rules are GenCase 5.0's (v5.0.185), found by running it on synthetic and real cases and
// checked against its particles (engine/tests/data/gencase/, test_gencase_output):
//
// Lattice. Nodes sit at pointmin + (i, j, k) * dp (computed in double), i = 0 .. N-1 with
// N = floor((pointmax - pointmin) / dp) on each axis: a node exactly on pointmax is left out.
// <pointref> changes nothing. In 2D (pointmin.y == pointmax.y) the only plane is j = 0.
//
// Snapping. A coordinate x of a shape goes to the node index round((x - pointmin) / dp), rounding
// half-way values away from zero, in double (a box's far limit is point + size, added before
// rounding). So a limit half-way between nodes goes up: a box's far side outwards, its near side
// inwards. Shapes are clipped to the lattice.
//
// Drawing. Shapes are applied in command order onto one dense node array (2 bytes per node)
// that spans the union of the shapes' node ranges: a later shape overwrites earlier ones at the
// nodes it covers, and void shapes erase. A face of a box is the plane of nodes at that snapped
// limit (left/right = x min/max, front/back = y min/max, bottom/top = z min/max), spanning the
// snapped ranges of the other two axes; a face whose snapped range is a single node along one of
// those axes has no area and draws nothing (geometry/box_triangles.h). Prisms follow geometry/prism_shape.h.
//
// Transformation. The commands' <move>, <rotateline> and <rotate> place every shape's points
// (geometry/draw_transform.h) before snapping; a box under a rotation is drawn as triangles or as a prism
// (geometry/box_triangles.h); <drawextrude> draws triangles (geometry/extrude_shape.h).
//
// Solid boxes (<setdrawmode mode="solid">). GenCase draws the box as a prism standing on its
// bottom, whose bottom is cut into two triangles by the diagonal from (x max, y min) to
// (x min, y max), and draws that prism's inside: the nodes strictly between the snapped limits,
// plus, strictly between bottom and top, the nodes of the other faces within 0.6 dp of the
// vertical plane of that diagonal (its plane distance in metres, as for triangles; ties at
// exactly 0.6 dp fall either way in GenCase). So a thin box keeps a strip of each side face, near
// (x min, y max) on the left face and near (x max, y min) on the right one. A box whose bottom has
// no area (equal snapped x or y limits) draws nothing.
//
// Meshes (<drawfilestl>, <drawfilevtk>, <drawfileply>): each triangle's vertices are snapped to
// nodes and the triangle drawn by the rule of prism faces (geometry/triangle_nodes.h). Only the surface is
// drawn, whatever the draw mode and whether or not the mesh is closed; geometry/mesh_placement.h says
// where the file's vertices go.
//
// Fills. A fill (<fillbox>) sets, in command order like the shapes, the nodes reachable from its
// seed node (the snapped seed point) through nodes of its kind (empty, any boundary or any fluid
// node), stepping along the axes (6 neighbours, 4 in 2D), strictly inside its snapped box. It
// sets nothing when the seed node is not of its kind or not strictly inside the box. A fill
// through boundary nodes may be limited to the nodes of one boundary mk (<fillbox mkbound>).
//
// Lines. A line (<drawline>, each segment of <drawlines>) has its ends snapped to nodes A and B;
// it sets the nodes within the snapped ends' bounding box whose distance to the line through A and
// B (in metres, as for the cylinder's axis) is below `reach` dp (0.6 unless <setdpctes cteline>).
// Ends on one node draw nothing.
//
// Two particles per node (<lattice bound="2"> or fluid="2"). The nodes are decided as above; each
// node of such a family then gives two particles, node - dp/4 (1, 1, 1) and node + dp/4 (1, 1, 1)
// (in 2D the y of both stays the plane's), in that order. GenCase halves that family's mass.
//
// Order. The particles come one block per family (boundaries by mk, then fluids by mk), each in
// node order with x slowest and z fastest: GenCase's order for boxes and fills, so that particle
// ids are GenCase's Idp there. (GenCase lists a prism's particles in the order it draws them,
// faces first; that order is not reproduced, only the particles.)
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "geometry/node_pattern.h"
#include "geometry/prism_shape.h"
#include "model/case_model.h"

namespace sph::gen {

enum BoxFace : uint8_t {
  kFaceLeft = 1 << 0,    // x min
  kFaceRight = 1 << 1,   // x max
  kFaceFront = 1 << 2,   // y min
  kFaceBack = 1 << 3,    // y max
  kFaceBottom = 1 << 4,  // z min
  kFaceTop = 1 << 5,     // z max
};
inline constexpr uint8_t kAllFaces = 0x3F;

struct LatticeSpec {
  double dp = 0;
  Vec3d pointMin, pointMax;
  bool twoD = false;
  // Two particles per node for boundary / fluid families (GenCase's lattice 2; see above).
  bool boundPairs = false, fluidPairs = false;
  uint64_t maxNodes = 0;  // the most nodes the drawn shapes may span (0: memory decides)
  double runBytesPerParticle = 0;  // host bytes a particle of the run will take besides its own
};

// GenCase's <setdpctes> distances, in dp: how near a node must be to a shape's surface.
struct DrawReach {
  double line = 0.6;            // cteline
  double sphere = 0.6;          // ctesphere
  double cylinderSide = 0.6;    // ctecylindertube
  double cylinderCap = 0.6;     // ctecylindercover
};

// What a <fillbox> fills through (<modefill>).
enum class FillKind : uint8_t { Void, Bound, Fluid };

// Inclusive node-index range; empty when lo > hi on any axis.
struct NodeBox {
  int64_t lo[3] = {0, 0, 0};
  int64_t hi[3] = {-1, -1, -1};
  bool empty() const { return lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]; }
};

struct GeneratedParticles {
  // One block per family in the order of `mks`, each in lattice order, x slowest and z fastest
  // (GenCase's order).
  std::vector<Vec3d> positions;
  std::vector<uint16_t> mkIndex;  // index into mks
  std::vector<MkEntry> mks;       // used families: boundary by mk, then fluid by mk
  uint32_t nBound = 0;
  uint32_t nFluid = 0;
  double peakBytes = 0;  // the lattice and the positions, held together at the end
};

class NodeGrid;  // the generator's dense node array (geometry/particle_generator.cpp)

class ParticleGenerator {
 public:
  explicit ParticleGenerator(const LatticeSpec& spec);

  // The family drawn by later shapes; registered on first use. Returns its id (>= 1).
  uint16_t family(bool bound, int local);

  // Particle patterns (geometry/node_pattern.h): every shape drawn from now on keeps the
  // pattern's particle places (`pattern`: an index of addPattern, -1 none) and gives its empty
  // places the background: left as they are (Keep), emptied (Void) or given `backgroundFamily`.
  enum class Background : uint8_t { Keep, Void, Family };
  int addPattern(NodePattern p);
  int patternIndex(const std::string& name) const;  // case-insensitive; -1: none
  void usePattern(int pattern, Background background, uint16_t backgroundFamily);

  // Records a box from `lo` to `hi` (world coordinates, any order). `faces` is a BoxFace mask;
  // `solid` fills the whole box instead. family 0 erases (void).
  void drawBox(const Vec3d& lo, const Vec3d& hi, bool solid, uint8_t faces, uint16_t family);
  // Records the inside of the box as GenCase's "solid" draw mode draws it (see "Solid boxes").
  void drawBoxInterior(const Vec3d& lo, const Vec3d& hi, uint16_t family);

  // Records a prism of 2n world vertices (geometry/prism_shape.h): the faces whose bits are set in `faces`
  // (bit f-1 for face f) and, with `interior`, the nodes strictly inside. family 0 erases.
  // Returns an empty string, or why the points make no prism.
  std::string drawPrism(const std::vector<Vec3d>& points, uint64_t faces, bool interior, uint16_t family);

  // Records a triangle mesh (world coordinates; see "Meshes" above). family 0 erases.
  void drawMesh(const std::vector<std::array<Vec3d, 3>>& triangles, uint16_t family);

  // Records a pyramid (GenCase's <drawpyramid>): the apex and 3 or 4 base points (world
  // coordinates), snapped to nodes. Faces (bits of `faces`): bit 0 the base (a quadrilateral cut
  // along b0-b2), bit i the side (apex, b_i-1, b_i), the last closing back to b0; each drawn as a
  // mesh triangle. With `interior`, the nodes strictly inside every face's plane (the planes
  // through the snapped vertices in metres, inside being the centroid's side): GenCase 5.0's
  // inside, exactly, for its triangular and square pyramids. family 0 erases.
  void drawPyramid(const Vec3d& apex, const std::vector<Vec3d>& base, uint64_t faces, bool interior, uint16_t family);

  // Records a sphere as GenCase draws it: centre c snapped to a node, Rs = round(radius / dp). Its
  // surface (Surface) is the nodes at distance d from c (node units) with |d - Rs| < reach (0.6
  // unless <setdpctes ctesphere>); the whole sphere (Full) the surface and the nodes with
  // d dp <= radius (with the default reach, d < Rs + 0.6); the inside (Inside, draw mode
  // "solid") the nodes whose distance to c in metres, sqrt(dx^2 + dy^2 + dz^2), is at most the
  // radius as given.
  enum class SphereDraw : uint8_t { Full, Surface, Inside };
  void drawSphere(const Vec3d& centre, double radius, SphereDraw what, uint16_t family, double reach = 0.6);

  // Records GenCase's <drawellipsoid>: the foci (world coordinates, snapped to nodes) and the sum
  // of distances `sumR`; `what` as for a sphere: the nodes with sum <= sumR (Inside), those with
  // |sum - sumR| < reach dp (Surface; reach is <setdpctes ctesphere>), or both (Full).
  void drawEllipsoid(const Vec3d& focus1, const Vec3d& focus2, double sumR, SphereDraw what, uint16_t family,
                     double reach);

  // GenCase's redraw commands (family 0 erases): the nodes of `box` (world coordinates; the nodes
  // its limits snap to left out) or of the whole lattice (box null) that hold `from` (a family id;
  // 0 the empty nodes; kAnyNode every node) take `family`.
  static constexpr int kAnyNode = -1;
  void redraw(const std::optional<std::pair<Vec3d, Vec3d>>& box, int from, uint16_t family);

  // GenCase's <redrawnear> and <redrawnearbox>: `times` passes, each giving `family` to the nodes
  // of the target kind (0 empty, 1 fluid, 2 boundary; of mk targetLocal when >= 0) that are
  // border + d for a border node (that kind and mk) and a direction d of `directions` (bit
  // (dx + 1) * 9 + (dy + 1) * 3 + (dz + 1) of the 27 offsets), the border taken anew each pass;
  // the targets strictly inside `box` (world coordinates, its limit nodes left out) when given.
  struct NearRule {
    int targetKind = 0, targetLocal = -1, borderKind = 0, borderLocal = -1;
    uint32_t directions = 0;
    int times = 1;
  };
  void redrawNear(const std::optional<std::pair<Vec3d, Vec3d>>& box, const NearRule& rule, uint16_t family);

  // GenCase's <fillpoint>: from the node nearest `seed`, through the whole lattice, stepping along
  // the axes, the nodes of the kinds `kinds` admits (bits: 1 empty, 2 fluid, 4 boundary; a kind's
  // mk limited to fluidLocal or boundLocal when >= 0), or, with `invert`, those it does not admit,
  // take `family`.
  void fillFrom(const Vec3d& seed, uint8_t kinds, bool invert, int fluidLocal, int boundLocal, uint16_t family);
  // GenCase's <fillprism>: the same fill through the nodes a prism of these 2n points draws in
  // solid mode (its interior, geometry/prism_shape.h) only. Returns why the points make no prism,
  // or an empty string.
  std::string fillPrism(const Vec3d& seed, const std::vector<Vec3d>& points, uint8_t kinds, bool invert,
                        int fluidLocal, int boundLocal, uint16_t family);


  // Records a cylinder (GenCase's rule): the axis ends `a` and `b` snapped to nodes (positions ca,
  // cb), Rs = round(radius / dp); lp is a node's distance to the axis line. Between the caps
  // means strictly on the inner side of both cap planes (through ca and cb, normal along the
  // axis). The side: between the caps and |lp - Rs dp| < reach.cylinderSide dp; a cap:
  // lp <= radius and within reach.cylinderCap dp of its plane; the interior: between the caps
  // and lp <= radius. `faces` has bit 0 for the cap at `a`, bit 1 for the cap at `b`, bit 2 for
  // the side.
  void drawCylinder(const Vec3d& a, const Vec3d& b, double radius, uint64_t faces, bool interior, uint16_t family,
                    const DrawReach& reach = {});

  // Records a line from `a` to `b` (the rule above); `reach` in dp.
  void drawLine(const Vec3d& a, const Vec3d& b, uint16_t family, double reach = 0.6);

  // Records GenCase's <drawwave>: the nodes of the box [lo, hi] (snapped as a box) below the free
  // surface of a solitary wave, z < level + height sech^2(k (x - x0)) (a node on the surface is left
  // out, as GenCase leaves it).
  void drawWave(const Vec3d& lo, const Vec3d& hi, double level, double height, double k, double x0, uint16_t family);

  // Records a fill from `seed` through nodes of `kind` inside the box from `lo` to `hi` (world
  // coordinates, any order) with `family` (see above). With `boundLocal` >= 0 a fill through
  // boundary nodes runs through the nodes of boundary mk `boundLocal` only. The nodes the box's
  // limits snap to are left out (GenCase's <setboxlimitmode mode="inner">) unless `withLimits`.
  void fillBox(const Vec3d& seed, const Vec3d& lo, const Vec3d& hi, FillKind kind, uint16_t family,
               int boundLocal = -1, bool withLimits = false);

  // Runs the recorded shapes and emits the particles. mk = local + mkBoundFirst (boundary) or
  // local + mkFluidFirst (fluid).
  GeneratedParticles generate(int mkBoundFirst, int mkFluidFirst) const;

  // Node range of the lattice and of a world-space box under the snapping rule (for tests).
  const NodeBox& lattice() const { return lattice_; }
  NodeBox snap(const Vec3d& lo, const Vec3d& hi) const;
  // The nodes strictly inside a world box: snapped, then its limit nodes left out (a 2D case's y
  // plane kept).
  NodeBox strictlyInside(const std::pair<Vec3d, Vec3d>& box) const;
  // The snapped index of coordinate x on axis a, clamped to one node beyond the lattice.
  int64_t snapIndex(double x, int a) const;
  // The same without the clamp (within +-2^40), for prism vertices and sphere centres.
  int64_t nodeIndex(double x, int a) const;
  Vec3d nodePosition(int64_t i, int64_t j, int64_t k) const;

 private:
  struct Family {
    bool bound;
    int local;
  };
  enum class Kind : uint8_t { Box, Interior, Prism, Fill, Sphere, Cylinder, Mesh, Line, Convex, Ellipsoid, Redraw, Near, Wave };
  struct Op {
    Kind kind;
    NodeBox box;  // the snapped box; for a prism, its snapped vertices' range
    bool solid = false;
    uint64_t faces = 0;
    uint16_t family = 0;
    int prism = -1;                // index into prisms_, or meshes_ for a mesh
    bool prismInterior = false;
    FillKind fillKind = FillKind::Void;
    int fillBoundLocal = -1;
    // <fillpoint> (fillKinds != 0): the kinds it runs through (1 empty, 2 fluid, 4 boundary), or
    // all others with fillInvert; a fluid mk limit. <redraw*>: redrawFrom.
    uint8_t fillKinds = 0;
    bool fillInvert = false;
    int fillFluidLocal = -1;
    int redrawFrom = 0;
    Vec3d focus[2] = {};  // an ellipsoid's snapped foci, in metres
    int pattern = -1;     // the particle pattern it is drawn with (patterns_), and its background
    Background background = Background::Keep;
    uint16_t backgroundFamily = 0;
    int64_t seed[3] = {0, 0, 0};  // node index; a sphere's centre; a solid box's low corner
    double radius = 0;             // a sphere's, in nodes; a cylinder's, in metres
    double radiusGiven = 0;        // a sphere's, in metres
    SphereDraw sphere = SphereDraw::Full;
    double reach = 0.6, capReach = 0.6;  // in dp: a line's, a sphere's, a cylinder's side; its caps
    // A cylinder's or line's second node (the first is `seed`); a solid box's high corner.
    int64_t axisEnd[3] = {0, 0, 0};
  };

  // The prism of world points `points` snapped to nodes (geometry/prism_shape.h); why they make
  // none, or an empty string.
  std::string snappedPrism(const std::vector<Vec3d>& points, PrismShape& prism) const;
  void paint(NodeGrid& grid, const Op& op) const;       // with the op's pattern
  void paintShape(NodeGrid& grid, const Op& op) const;
  std::optional<NodeBox> drawnSpan() const;
  std::vector<uint16_t> familyOrder(const std::vector<uint64_t>& count) const;
  void placeParticles(const NodeGrid& grid, const NodeBox& span, std::vector<uint64_t>& planeCount,
                      const std::vector<uint64_t>& perNode, const std::vector<uint16_t>& finalIndex,
                      GeneratedParticles& out) const;

  LatticeSpec spec_;
  NodeBox lattice_;
  std::vector<Family> families_;  // id - 1
  std::vector<Op> ops_;
  std::vector<NodePattern> patterns_;
  int pattern_ = -1;
  Background background_ = Background::Keep;
  uint16_t backgroundFamily_ = 0;
  void push(Op op);  // with the pattern in use
  std::vector<PrismShape> prisms_;
  std::vector<std::vector<std::array<Vec3d, 3>>> meshes_;  // snapped vertices (node indices)
  std::vector<NearRule> nearRules_;  // <redrawnear>, by Op::prism
  struct WaveSurface {
    double level, height, k, x0;
  };
  std::vector<WaveSurface> waves_;  // <drawwave>, by Op::prism
  // Convex solids (pyramids): each face's plane in metres with the sign of its inner side.
  std::vector<std::vector<std::pair<WorldPlane, double>>> convexes_;
};

}  // namespace sph::gen
