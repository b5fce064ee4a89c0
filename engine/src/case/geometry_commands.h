// GenCase's drawing commands: the <mainlist> and the <list>s it runs with <runlist>. Drawing
// commands put particles into a gen::ParticleGenerator and, while <setactive drawshapes="1">,
// record their shapes: the boundary surfaces mDBC's normals are computed from
// (geometry/boundary_normals.h), kept per file name as GenCase's <shapeout> would write them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "case/xml_reader.h"
#include "geometry/boundary_normals.h"
#include "geometry/draw_transform.h"
#include "geometry/particle_generator.h"

namespace sph {

// GenCase's variable commands, wherever they appear (<mainlist>, a <list>, <predefinition>):
// <newvarcte>, <newvar>, <setvar> (name="expression" attributes), <newvarstrcte>, <newvarstr>,
// <setvarstr> (name="text" attributes), <delvar vars>, <varssave>, <varsload>. False when `e` is
// none of them.
bool runVariableCommand(const XmlReader& xml, const XMLElement* e, CaseVariables& vars);

class GeometryCommands {
 public:
  // `lists`: the <list> elements by name; mk numbers are checked against the counts.
  GeometryCommands(const XmlReader& xml, CaseVariables& variables, std::string caseName, double dp, int boundCount,
                   int fluidCount,
                   std::map<std::string, const XMLElement*> lists, gen::ParticleGenerator& generator);

  // Runs the commands of a <mainlist> or <list>.
  void run(const XMLElement* list);

  // Shapes written by <shapeout file="F">, under the name GenCase gives that file
  // ("CASE_F_Actual.vtk"), and the shapes still pending at the end of the commands.
  const std::map<std::string, std::vector<NormalFace>>& shapeFiles() const { return shapeFiles_; }

 private:
  void command(const XMLElement* e);
  bool drawSettingsCommand(const XMLElement* e);
  bool listCommand(const XMLElement* e);
  bool familyCommand(const XMLElement* e);
  bool transformCommand(const XMLElement* e);
  bool drawCommand(const XMLElement* e);
  bool recordCommand(const XMLElement* e);
  void drawBox(const XMLElement* e);
  void readBoxFill(const XMLElement* e, bool& solid, uint8_t& faces) const;
  void recordBoxShapes(const XMLElement* e, const Vec3d& lo, const Vec3d& hi, uint8_t shapeFaces,
                       const std::vector<double>& layers);
  void drawPrism(const XMLElement* e) const;
  void fillBox(const XMLElement* e) const;
  void drawSphere(const XMLElement* e) const;
  void drawCylinder(const XMLElement* e) const;
  void drawMeshFile(const XMLElement* e) const;
  void drawLines(const XMLElement* e);
  void drawTriangles(const XMLElement* e) const;
  void drawPyramid(const XMLElement* e) const;
  void drawEllipsoid(const XMLElement* e) const;
  void drawWave(const XMLElement* e) const;
  void redrawCommand(const XMLElement* e);
  void redrawNear(const XMLElement* e);
  void fillPoint(const XMLElement* e) const;
  int familyOfAttribute(const XMLElement* e, int whenNone);
  void drawExtrude(const XMLElement* e) const;
  void rotate(const XMLElement* e);
  void rotateAdvanced(const XMLElement* e);
  std::pair<Vec3d, Vec3d> unrotatedBox(const XMLElement* e) const;
  void drawRotatedBox(const XMLElement* e, const Vec3d& lo, const Vec3d& hi, bool solid, uint8_t faces,
                      const std::vector<double>& layers) const;
  std::vector<double> layerList(const XMLElement* e) const;
  void setDpCtes(const XMLElement* e);
  void nextMk(const XMLElement* e, bool bound);
  void selectFamily(const XMLElement* e, bool bound, int mk);
  std::vector<Vec3d> localPoints(const XMLElement* e) const;
  std::vector<Vec3d> placed(std::vector<Vec3d> points) const;
  void requireUnrotated(const XMLElement* e, const char* what) const;
  uint64_t maskBits(const XMLElement* e, int faceCount) const;
  uint64_t faceBits(uint64_t masked) const;
  bool drawsInterior(uint64_t masked) const;
  void requireFamily(const XMLElement* e) const;
  void requirePointsOnly(const XMLElement* e) const;
  void variables(const XMLElement* e);

  const XmlReader& xml_;
  CaseVariables& variables_;
  std::string caseName_;
  double dp_;
  int boundCount_, fluidCount_;
  std::map<std::string, const XMLElement*> lists_;
  gen::ParticleGenerator& generator_;
  int depth_ = 0;  // nested <runlist>s

  // Drawing state, as GenCase keeps it across lists.
  std::optional<uint16_t> family_;  // 0 = void
  std::optional<int> mkBound_;      // the mkbound of family_ while it is a boundary one
  std::optional<int> mkFluid_;      // the mkfluid of family_ while it is a fluid one
  // The particle pattern shapes are drawn with and its background (geometry/node_pattern.h),
  // saved and restored with the mk.
  struct PatternState {
    int pattern = -1;
    gen::ParticleGenerator::Background background = gen::ParticleGenerator::Background::Keep;
    uint16_t backgroundFamily = 0;
  };
  PatternState pattern_;
  void usePattern(const PatternState& p);
  bool patternCommand(const XMLElement* e);
  struct SavedMk {
    std::optional<uint16_t> family;
    std::optional<int> mkBound, mkFluid;
    PatternState pattern;
  };
  std::vector<SavedMk> savedMks_;   // <mksave> and <statesave> (one stack, as GenCase)
  // <statesave>'s own parts of GenCase's state: the draw mode and the box limit mode.
  struct SavedModes {
    int drawMode;
    bool boxLimitsIncluded;
  };
  std::vector<SavedModes> savedModes_;
  bool boxLimitsIncluded_ = false;  // <setboxlimitmode mode="full">
  std::optional<Vec3d> lineEnd_;    // where <drawlineto> starts: the end of the last line, or <setlinebegin>
  gen::DrawReach reach_;            // <setdpctes>
  std::vector<gen::DrawReach> savedReach_;  // <dpctessave>, restored by <dpctesload>
  gen::DrawTransform transform_;    // <move>, <rotateline>, <rotate>
  std::vector<gen::DrawTransform> savedTransforms_;  // <matrixsave>, restored by <matrixload>
  Vec3d everywhereLo_, everywhereHi_;  // a box whose inside is the whole lattice
  enum class DrawMode { Full, Face, Solid };
  // <setdrawmode>: face draws solids' faces only, solid their insides only (GenCase's mode until a
  // <setdrawmode>, and again after <resetdraw>).
  DrawMode drawMode_ = DrawMode::Solid;
  bool drawPoints_ = true, drawShapes_ = false;  // <setactive>
  bool normalInvert_ = false;       // <setnormalinvert>
  bool shapesActual_ = false;       // <setshapemode> includes "actual"
  std::vector<NormalFace> pending_;  // shapes since the last <shapeout>
  std::map<std::string, std::vector<NormalFace>> shapeFiles_;
};

}  // namespace sph
