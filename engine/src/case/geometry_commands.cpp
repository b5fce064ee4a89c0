#include "case/geometry_commands.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "geometry/box_triangles.h"
#include "geometry/extrude_shape.h"
#include "geometry/mesh_file.h"
#include "geometry/mesh_placement.h"
#include "geometry/polygon_triangles.h"
#include "geometry/prism_shape.h"
#include "model/number_text.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

// <runlist> nesting GenCase cases use is 1 or 2 deep; deeper is a list running itself.
constexpr int kMaxListDepth = 16;

}  // namespace

GeometryCommands::GeometryCommands(const XmlReader& xml, CaseVariables& variables, std::string caseName, double dp,
                                   int boundCount, int fluidCount, std::map<std::string, const XMLElement*> lists,
                                   gen::ParticleGenerator& generator)
    : xml_(xml),
      variables_(variables),
      caseName_(std::move(caseName)),
      dp_(dp),
      boundCount_(boundCount),
      fluidCount_(fluidCount),
      lists_(std::move(lists)),
      generator_(generator) {
  const gen::NodeBox& l = generator.lattice();
  everywhereLo_ = generator.nodePosition(l.lo[0] - 1, l.lo[1] - 1, l.lo[2] - 1);
  everywhereHi_ = generator.nodePosition(l.hi[0] + 1, l.hi[1] + 1, l.hi[2] + 1);
}

void GeometryCommands::run(const XMLElement* list) {
  for (const XMLElement* e = list->FirstChildElement(); e; e = e->NextSiblingElement())
    if (!skipped(e)) command(e);
}

// The draw settings: shape and draw modes, what is drawn, normals, <resetdraw>. False when `e` is none of them.
bool GeometryCommands::drawSettingsCommand(const XMLElement* e) {
  const std::string_view name = e->Name();
  if (name == "setshapemode") {
    // The shape mode says how <shapeout> writes shapes; only exact ("actual") shapes make the
    // boundary surface of mDBC's normals.
    shapesActual_ = false;
    for (const std::string& t : splitTokens(e->GetText() ? e->GetText() : "")) {
      if (t != "real" && t != "actual" && t != "dp" && t != "bound" && t != "fluid" && t != "void")
        xml_.fail(e, fmt::format("unknown shape mode \"{}\" (expected real, actual, dp, bound, fluid, void)", t));
      shapesActual_ = shapesActual_ || t == "actual" || t == "real";
    }
  } else if (name == "setdrawmode") {
    const std::string mode = splitTokens(xml_.attr(e, "mode")).front();
    if (mode != "full" && mode != "face" && mode != "solid")
      xml_.fail(e, fmt::format("unknown draw mode \"{}\" (expected full, face or solid)", mode));
    drawMode_ = mode == "face" ? DrawMode::Face : (mode == "solid" ? DrawMode::Solid : DrawMode::Full);
  } else if (name == "setboxlimitmode") {
    // Whether <fillbox> reaches the nodes its limits snap to (full) or stops inside them (inner,
    // GenCase's default); GenCase 5.0 draws boxes the same either way.
    xml_.onlyChildren(e, {});
    const std::string mode = splitTokens(xml_.attr(e, "mode")).front();
    if (mode != "inner" && mode != "full") xml_.fail(e, fmt::format("mode=\"{}\" must be inner or full", mode));
    boxLimitsIncluded_ = mode == "full";
  } else if (name == "setactive") {
    drawPoints_ = xml_.boolean(e, "drawpoints", drawPoints_);
    drawShapes_ = xml_.boolean(e, "drawshapes", drawShapes_);
  } else if (name == "setnormalinvert") {
    normalInvert_ = xml_.boolean(e, "invert", false);
  } else if (name == "resetdraw") {
    // GenCase: back to points only, no transformation, and its first draw mode, solid.
    drawPoints_ = true;
    drawShapes_ = false;
    normalInvert_ = false;
    transform_ = {};
    drawMode_ = DrawMode::Solid;
    reach_ = {};
  } else {
    return false;
  }
  return true;
}

// Lists, shape output and variables: <runlist>, <shapeout>, <newvar...>. False when `e` is none of them.
bool GeometryCommands::listCommand(const XMLElement* e) {
  const std::string_view name = e->Name();
  if (name == "runlist") {
    const std::string list = xml_.attr(e, "name");
    const auto it = lists_.find(list);
    if (it == lists_.end()) xml_.fail(e, fmt::format("no <list name=\"{}\"> in <commands>", list));
    if (depth_ >= kMaxListDepth) xml_.fail(e, fmt::format("<runlist> nested more than {} deep (a list running itself?)", kMaxListDepth));
    // times="N" runs the list N times (its <move>s accumulate, drawing a row of copies).
    const int times = e->Attribute("times") ? xml_.integer(e, "times") : 1;
    if (times < 0 || times > 1000000) xml_.fail(e, fmt::format("times=\"{}\" must be between 0 and 1000000", times));
    ++depth_;
    for (int n = 0; n < times; ++n) run(it->second);
    --depth_;
  } else if (name == "shapeout") {
    // GenCase writes the shapes drawn since the last <shapeout> to CASE_FILE_Actual.FORMAT
    // (vtk unless format says vtp, vtu or stl); reset="false" keeps them for the next one too.
    // savenormal only adds normals to that file. <normals> reads these shapes by the file's name.
    const char* file = e->Attribute("file");
    std::string format = e->Attribute("format") ? e->Attribute("format") : "vtk";
    std::transform(format.begin(), format.end(), format.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (format != "vtk" && format != "vtp" && format != "vtu" && format != "stl")
      xml_.fail(e, fmt::format("format=\"{}\" is not vtk, vtp, vtu or stl", format));
    if (file && *file && !pending_.empty()) {
      std::vector<NormalFace>& out = shapeFiles_[fmt::format("{}_{}_Actual.{}", caseName_, file, format)];
      out.insert(out.end(), pending_.begin(), pending_.end());
    }
    if (xml_.boolean(e, "reset", true)) pending_.clear();
  } else if (name == "newvarcte" || name == "newvar" || name == "setvar" || name == "delvar" || name == "varssave" ||
             name == "varsload" || name == "newvarstr" || name == "newvarstrcte" || name == "setvarstr") {
    variables(e);
  } else {
    return false;
  }
  return true;
}

// Which family the next shapes draw (mk), and the distances shapes reach (<setdpctes> and its stack). False when `e` is none of them.
bool GeometryCommands::familyCommand(const XMLElement* e) {
  const std::string_view name = e->Name();
  if (name == "setmkfluid" || name == "setmkbound") {
    selectFamily(e, name == "setmkbound", xml_.integer(e, "mk"));
  } else if (name == "setmknextbound" || name == "setmknextfluid") {
    nextMk(e, name == "setmknextbound");
  } else if (name == "setmkvoid") {
    family_ = 0;
    mkBound_.reset();
    mkFluid_.reset();
  } else if (name == "mksave") {
    // The mk (boundary, fluid or void) on the stack <statesave> shares.
    xml_.onlyChildren(e, {});
    if (savedMks_.size() >= 1000000) xml_.fail(e, "more than a million <mksave> without <mkload>");
    savedMks_.push_back(SavedMk{family_, mkBound_, mkFluid_, pattern_});
  } else if (name == "mkload") {
    xml_.onlyChildren(e, {});
    if (savedMks_.empty()) xml_.fail(e, "no <mksave> before it: there is no mk to restore");
    family_ = savedMks_.back().family;
    mkBound_ = savedMks_.back().mkBound;
    mkFluid_ = savedMks_.back().mkFluid;
    usePattern(savedMks_.back().pattern);
    savedMks_.pop_back();
  } else if (name == "statesave") {
    // GenCase's state: the mk, the transformation and the distances on the stacks <mksave>,
    // <matrixsave> and <dpctessave> use, the draw and box limit modes on their own.
    xml_.onlyChildren(e, {});
    if (savedModes_.size() >= 1000000) xml_.fail(e, "more than a million <statesave> without <stateload>");
    savedMks_.push_back(SavedMk{family_, mkBound_, mkFluid_, pattern_});
    savedTransforms_.push_back(transform_);
    savedReach_.push_back(reach_);
    savedModes_.push_back(SavedModes{int(drawMode_), boxLimitsIncluded_});
  } else if (name == "stateload") {
    // Each part back from its stack; an empty one leaves it as it is (GenCase: no error).
    xml_.onlyChildren(e, {});
    if (!savedMks_.empty()) {
      family_ = savedMks_.back().family;
      mkBound_ = savedMks_.back().mkBound;
      mkFluid_ = savedMks_.back().mkFluid;
      usePattern(savedMks_.back().pattern);
      savedMks_.pop_back();
    }
    if (!savedTransforms_.empty()) {
      transform_ = savedTransforms_.back();
      savedTransforms_.pop_back();
    }
    if (!savedReach_.empty()) {
      reach_ = savedReach_.back();
      savedReach_.pop_back();
    }
    if (!savedModes_.empty()) {
      drawMode_ = DrawMode(savedModes_.back().drawMode);
      boxLimitsIncluded_ = savedModes_.back().boxLimitsIncluded;
      savedModes_.pop_back();
    }
  } else if (name == "setdpctes") {
    setDpCtes(e);
  } else if (name == "dpctessave") {
    if (savedReach_.size() >= 1000000) xml_.fail(e, "more than a million <dpctessave> without <dpctesload>");
    savedReach_.push_back(reach_);
  } else if (name == "dpctesload") {
    // GenCase leaves the distances as they are when nothing was saved.
    if (!savedReach_.empty()) {
      reach_ = savedReach_.back();
      savedReach_.pop_back();
    }
  } else if (name == "dpctesreset") {
    reach_ = {};
  } else {
    return false;
  }
  return true;
}

// The transformation shapes are drawn with: <move>, rotations, the matrix stack. False when `e` is none of them.
bool GeometryCommands::transformCommand(const XMLElement* e) {
  const std::string_view name = e->Name();
  if (name == "move") {
    transform_.move(xml_.vec(e));
  } else if (name == "rotateline" || name == "rotate") {
    rotate(e);
  } else if (name == "rotateadv") {
    rotateAdvanced(e);
  } else if (name == "scale") {
    xml_.onlyChildren(e, {});
    const Vec3d f = xml_.vec(e);
    if (!(f.x > 0 && f.y > 0 && f.z > 0)) xml_.fail(e, "the scale factors must be positive");
    transform_.scale(f);
  } else if (name == "matrixreset") {
    transform_ = {};
  } else if (name == "matrixsave") {
    if (savedTransforms_.size() >= 1000000) xml_.fail(e, "more than a million <matrixsave> without <matrixload>");
    savedTransforms_.push_back(transform_);
  } else if (name == "matrixload") {
    if (savedTransforms_.empty()) xml_.fail(e, "no <matrixsave> to load");
    transform_ = savedTransforms_.back();
    savedTransforms_.pop_back();
  } else {
    return false;
  }
  return true;
}

// The shapes: lines, boxes, prisms, cylinders, meshes, spheres, points, fills, extrusions. False when `e` is none of them.
bool GeometryCommands::drawCommand(const XMLElement* e) {
  const std::string_view name = e->Name();
  if (name == "drawtriangle" || name == "drawquadri" || name == "drawtriangles" || name == "drawtrianglesstrip" ||
      name == "drawtrianglesfan" || name == "drawpolygon") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawTriangles(e);
  } else if (name == "drawellipsoid") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawEllipsoid(e);
  } else if (name == "drawwave") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawWave(e);
  } else if (name == "redraw" || name == "redrawbox") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) redrawCommand(e);
  } else if (name == "redrawnear" || name == "redrawnearbox") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) redrawNear(e);
  } else if (name == "fillpoint" || name == "fillprism") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) fillPoint(e);
  } else if (name == "drawpyramid") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawPyramid(e);
  } else if (name == "drawpoints") {
    requirePointsOnly(e);
    requireFamily(e);
    xml_.onlyChildren(e, {"point"});
    if (drawPoints_)
      for (const Vec3d& p : placed(localPoints(e))) generator_.drawBox(p, p, true, 0, *family_);
  } else if (name == "drawlineto") {
    requirePointsOnly(e);
    requireFamily(e);
    xml_.onlyChildren(e, {});
    if (!lineEnd_) xml_.fail(e, "no line to continue: draw a <drawline> or give <setlinebegin> first");
    const Vec3d to = xml_.vec(e);
    if (drawPoints_) generator_.drawLine(transform_.apply(*lineEnd_), transform_.apply(to), *family_, reach_.line);
    lineEnd_ = to;
  } else if (name == "setlinebegin") {
    xml_.onlyChildren(e, {});
    lineEnd_ = xml_.vec(e);
  } else if (name == "drawline" || name == "drawlines") {
    // Lines ignore the draw mode, and GenCase draws them even after <resetdraw> without a
    // <setdrawmode>.
    requireFamily(e);
    if (drawShapes_)
      xml_.fail(e, fmt::format("<{}> cannot be drawn as a shape (<setactive drawshapes=\"1\">)", e->Name()));
    if (drawPoints_) drawLines(e);
  } else if (name == "drawbox") {
    drawBox(e);
  } else if (name == "drawprism" || name == "drawbeach") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawPrism(e);
  } else if (name == "drawcylinder") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawCylinder(e);
  } else if (name == "drawfilestl" || name == "drawfilevtk" || name == "drawfileply" || name == "drawfilecsv") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawMeshFile(e);
  } else if (name == "drawsphere") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawSphere(e);
  } else if (name == "drawpoint") {
    // One particle at the node nearest the point.
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) {
      const Vec3d p = transform_.apply(xml_.vec(e));
      generator_.drawBox(p, p, true, 0, *family_);
    }
  } else if (name == "fillvoidpoint") {
    // The empty nodes reachable from the point, anywhere in the domain.
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_)
      generator_.fillBox(transform_.apply(xml_.vec(e)), everywhereLo_, everywhereHi_, gen::FillKind::Void, *family_);
  } else if (name == "fillbox") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) fillBox(e);
  } else if (name == "drawextrude") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawExtrude(e);
  } else {
    return false;
  }
  return true;
}

void GeometryCommands::command(const XMLElement* e) {
  if (drawSettingsCommand(e) || listCommand(e) || familyCommand(e) || patternCommand(e) || transformCommand(e) ||
      drawCommand(e) || recordCommand(e))
    return;
  xml_.refuseIfUnsupported(e, "mainlist");
  xml_.fail(e, "unknown geometry command");
}

// GenCase's own records and messages, which place no particle: <debugout> and <printf> (its log),
// <exportvar> (variables written into its output file), <cellsout> and <pointsmkout> (files of
// cells and points); <clipreset> (the end of clipping: the clipping commands are refused, so there
// is never any to end); and <abort if="condition" text="...">, which stops the case with its text
// when the condition (an expression over the variables, case/variables.h) holds or is not given,
// as GenCase stops. False when `e` is none of them.
bool GeometryCommands::recordCommand(const XMLElement* e) {
  const std::string_view name = e->Name();
  if (name == "abort") {
    xml_.onlyChildren(e, {});
    bool stop = true;
    if (const char* condition = e->Attribute("if")) {
      if (!xml_.variables()) xml_.fail(e, "its condition needs GenCase's variables");
      try {
        stop = xml_.variables()->evaluate(condition) != 0;
      } catch (const std::invalid_argument& err) {
        xml_.fail(e, fmt::format("attribute if: {}", err.what()));
      }
    }
    if (stop) {
      // GenCase writes the text with "\n" as a line break.
      std::string text;
      for (const char* c = e->Attribute("text") ? e->Attribute("text") : ""; *c; ++c) {
        const bool lineBreak = c[0] == '\\' && c[1] == 'n';
        text += lineBreak ? '\n' : *c;
        c += lineBreak;
      }
      xml_.fail(e, text.empty() ? std::string("the case stops here (GenCase's <abort>)")
                                : fmt::format("the case stops here (GenCase's <abort>): {}", text));
    }
    return true;
  }
  if (name != "debugout" && name != "printf" && name != "exportvar" && name != "cellsout" && name != "pointsmkout" &&
      name != "clipreset")
    return false;
  xml_.onlyChildren(e, {});
  return true;
}

// <newvarcte A="expr" B="expr" />, <newvar ...> and <setvar ...>: each attribute a variable, its
// value an expression over the variables defined so far (a leading '#' is allowed). Attributes
// starting with '_' (_rem, _print) and comment ones are not variables; _cte="true" makes a
// <newvar> constant.
void GeometryCommands::variables(const XMLElement* e) { runVariableCommand(xml_, e, variables_); }

bool runVariableCommand(const XmlReader& xml, const XMLElement* e, CaseVariables& vars) {
  const std::string_view kind = e->Name();
  if (kind == "delvar") {
    xml.onlyChildren(e, {});
    vars.remove(xml.attr(e, "vars"));
    return true;
  }
  if (kind == "varssave") {
    vars.save();
    return true;
  }
  if (kind == "varsload") {
    if (!vars.restore()) xml.fail(e, "no <varssave> before it: there are no saved variables to restore");
    return true;
  }
  const bool textKind = kind == "newvarstrcte" || kind == "newvarstr" || kind == "setvarstr";
  if (kind != "newvarcte" && kind != "newvar" && kind != "setvar" && !textKind) return false;
  const bool constant = kind == "newvarcte" || kind == "newvarstrcte" || xml.boolean(e, "_cte", false);
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const std::string name = a->Name();
    if (name.empty() || name[0] == '_' || name == "comment" || name == "units_comment") continue;
    if (textKind) {
      try {
        std::string value = vars.expand(a->Value());
        if (kind == "setvarstr")
          vars.setText(name, std::move(value));
        else
          vars.defineText(name, std::move(value), constant);
      } catch (const std::invalid_argument& err) {
        xml.fail(e, fmt::format("{}=\"{}\": {}", name, a->Value(), err.what()));
      }
      continue;
    }
    std::string_view text = a->Value();
    const size_t first = text.find_first_not_of(" \t");
    if (first != std::string_view::npos && text[first] == '#') text.remove_prefix(first + 1);
    try {
      const double v = vars.evaluate(text);
      if (kind == "setvar") vars.set(name, v);
      else vars.define(name, v, constant);
    } catch (const std::invalid_argument& err) {
      xml.fail(e, fmt::format("{}=\"{}\": {}", name, a->Value(), err.what()));
    }
  }
  return true;
}

void GeometryCommands::usePattern(const PatternState& p) {
  pattern_ = p;
  generator_.usePattern(p.pattern, p.background, p.backgroundFamily);
}

// <setpattern name> (GenCase's built-in "solid": none) and the background of its empty places:
// <setmkbackvoid>, <setmkbackfluid mk>, <setmkbackbound mk>, <setmkbackclear>. False when `e`
// is none of them.
bool GeometryCommands::patternCommand(const XMLElement* e) {
  const std::string_view name = e->Name();
  PatternState p = pattern_;
  using Background = gen::ParticleGenerator::Background;
  if (name == "setpattern") {
    xml_.onlyChildren(e, {});
    const std::string which = xml_.attr(e, "name");
    std::string lower = which;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (lower == "solid") {
      p.pattern = -1;
    } else {
      p.pattern = generator_.patternIndex(which);
      if (p.pattern < 0) xml_.fail(e, fmt::format("name=\"{}\": no such pattern in <casedef><patterns>", which));
    }
  } else if (name == "setmkbackvoid" || name == "setmkbackclear") {
    xml_.onlyChildren(e, {});
    p.background = name == "setmkbackvoid" ? Background::Void : Background::Keep;
    p.backgroundFamily = 0;
  } else if (name == "setmkbackfluid" || name == "setmkbackbound") {
    xml_.onlyChildren(e, {});
    const bool bound = name == "setmkbackbound";
    const int mk = xml_.integer(e, "mk");
    const int limit = bound ? boundCount_ : fluidCount_;
    if (mk < 0 || mk >= limit)
      xml_.fail(e, fmt::format("mk {} is outside 0..{} (<mkconfig {}count=\"{}\">)", mk, limit - 1,
                               bound ? "bound" : "fluid", limit));
    p.background = Background::Family;
    p.backgroundFamily = generator_.family(bound, mk);
  } else {
    return false;
  }
  usePattern(p);
  return true;
}

void GeometryCommands::selectFamily(const XMLElement* e, bool bound, int mk) {
  const int limit = bound ? boundCount_ : fluidCount_;
  if (mk < 0 || mk >= limit)
    xml_.fail(e, fmt::format("mk {} is outside 0..{} (<mkconfig {}count=\"{}\">)", mk, limit - 1,
                             bound ? "bound" : "fluid", limit));
  family_ = generator_.family(bound, mk);
  if (bound) mkBound_ = mk;
  else mkBound_.reset();
  if (!bound) mkFluid_ = mk;
  else mkFluid_.reset();
}

// <setmknextbound next="true|false">, <setmknextfluid next="...">: GenCase steps the boundary (fluid)
// mk to the next (true) or the previous (false) one; when the selected mk is not of that kind
// (the other, void or none) it selects mk 0 of the kind either way.
void GeometryCommands::nextMk(const XMLElement* e, bool bound) {
  xml_.onlyChildren(e, {});
  const char* next = e->Attribute("next");
  if (!next) xml_.fail(e, "needs next=\"true\" (the next mk) or next=\"false\" (the previous one)");
  const bool up = xml_.boolean(e, "next", true);
  const std::optional<int>& current = bound ? mkBound_ : mkFluid_;
  selectFamily(e, bound, current ? *current + (up ? 1 : -1) : 0);
}

// <setdpctes>: how near (in dp) a node must be to a shape's surface to be drawn, from here on
// (until <dpctesreset>, <dpctesload> or <resetdraw>). An attribute left out, or -1 (GenCase's
// "unchanged"), keeps the current value. The numbers of sides (ctespherenumsides,
// ctecylindernumsides, cterevolutionnumsides) only shape GenCase's VTK shapes, and cteellipsoid
// only <drawellipsoid> (not supported): they are accepted and change no particle here.
void GeometryCommands::setDpCtes(const XMLElement* e) {
  xml_.onlyChildren(e, {});
  const std::pair<const char*, double*> settable[] = {{"cteline", &reach_.line},
                                                      {"ctesphere", &reach_.sphere},
                                                      {"ctecylindertube", &reach_.cylinderSide},
                                                      {"ctecylindercover", &reach_.cylinderCap}};
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const std::string_view name = a->Name();
    if (name == "comment" || name == "units_comment") continue;
    const double v = xml_.real(e, a->Name());
    double* target = nullptr;
    for (const auto& [key, slot] : settable)
      if (name == key) target = slot;
    if (target) {
      if (v == -1) continue;
      if (!(v > 0) || !(v < 1e6))
        xml_.fail(e, fmt::format("{}=\"{}\" must be a positive number of dp (-1 keeps the current value; "
                                 "GenCase draws nothing with 0 or less)",
                                 name, a->Value()));
      *target = v;
    } else if (name == "ctetriangleweight" || name == "ctetrianglelimits") {
      // They would move the faces of prisms and beaches, whose rule (geometry/prism_shape.h) is GenCase's
      // with the default only.
      if (v != -1 && v != 0.6)
        xml_.fail(e, fmt::format("{} other than 0.6 is not supported (prism and beach faces use GenCase's default)",
                                 name));
    } else if (name != "ctespherenumsides" && name != "ctecylindernumsides" && name != "cterevolutionnumsides" &&
               name != "cteellipsoid") {
      xml_.fail(e, fmt::format("unknown attribute {} (expected cteline, ctesphere, ctecylindertube, ctecylindercover, "
                               "ctetriangleweight, ctetrianglelimits, ctespherenumsides, ctecylindernumsides, "
                               "cterevolutionnumsides or cteellipsoid)",
                               name));
    }
  }
}

// <drawline> (two <point>s) and <drawlines> (two or more: the segments between consecutive ones),
// the rule in geometry/particle_generator.h.
void GeometryCommands::drawLines(const XMLElement* e) {
  xml_.onlyChildren(e, {"point"});
  const std::vector<Vec3d> local = localPoints(e);
  if (!local.empty()) lineEnd_ = local.back();  // where a <drawlineto> continues
  const std::vector<Vec3d> points = placed(local);
  if (std::string_view(e->Name()) == "drawline") {
    if (points.size() != 2) xml_.fail(e, fmt::format("needs 2 points (the ends of the line), got {}", points.size()));
  } else if (points.size() < 2) {
    xml_.fail(e, fmt::format("needs at least 2 points, got {}", points.size()));
  }
  for (size_t i = 0; i + 1 < points.size(); ++i) generator_.drawLine(points[i], points[i + 1], *family_, reach_.line);
}

// Triangles drawn as the surface of a mesh (in every draw mode, as GenCase): <drawtriangle> (3
// points), <drawquadri> (4: the triangles 0-1-2 and 0-2-3, GenCase's split along the first
// diagonal), <drawtrianglesstrip> (each point with the two before it), <drawtrianglesfan> (the
// first point with each consecutive pair), <drawpolygon> (a planar polygon, cut as
// geometry/polygon_triangles.h says) and <drawtriangles> (<points> and <triangles> of
// <triangle x y z> 0-based point indices).
void GeometryCommands::drawTriangles(const XMLElement* e) const {
  const std::string_view name = e->Name();
  std::vector<Vec3d> points;
  std::vector<std::array<size_t, 3>> triangles;
  if (name == "drawtriangles") {
    xml_.onlyChildren(e, {"points", "triangles"});
    const XMLElement* list = xml_.child(e, "points");
    xml_.onlyChildren(list, {"point"});
    points = localPoints(list);
    const XMLElement* tris = xml_.child(e, "triangles");
    xml_.onlyChildren(tris, {"triangle"});
    for (const XMLElement* t = tris->FirstChildElement("triangle"); t; t = t->NextSiblingElement("triangle")) {
      if (skipped(t)) continue;
      std::array<size_t, 3> v{};
      const char* keys[3] = {"x", "y", "z"};
      for (int k = 0; k < 3; ++k) {
        const int index = xml_.integer(t, keys[k]);
        if (index < 0 || size_t(index) >= points.size())
          xml_.fail(t, fmt::format("{}=\"{}\" is not one of the {} points (0-based)", keys[k], index, points.size()));
        v[size_t(k)] = size_t(index);
      }
      triangles.push_back(v);
    }
  } else {
    xml_.onlyChildren(e, {"point"});
    points = localPoints(e);
    const size_t n = points.size();
    const size_t need = name == "drawtriangle" ? 3 : name == "drawquadri" ? 4 : 3;
    if (name == "drawtriangle" || name == "drawquadri" ? n != need : n < need)
      xml_.fail(e, fmt::format("needs {}{} points, got {}", name == "drawtriangle" || name == "drawquadri" ? "" : "at least ",
                               need, n));
    if (name == "drawpolygon") {
      try {
        triangles = gen::polygonTriangles(placed(points));
      } catch (const gen::PolygonError& err) {
        xml_.fail(e, err.what());
      }
    } else if (name == "drawtriangle") triangles = {{0, 1, 2}};
    else if (name == "drawquadri") triangles = {{0, 1, 2}, {0, 2, 3}};
    else if (name == "drawtrianglesstrip")
      for (size_t i = 0; i + 2 < n; ++i) triangles.push_back({i, i + 1, i + 2});
    else
      for (size_t i = 1; i + 1 < n; ++i) triangles.push_back({0, i, i + 1});
  }
  const std::vector<Vec3d> world = placed(points);
  std::vector<std::array<Vec3d, 3>> mesh;
  for (const auto& t : triangles) mesh.push_back({world[t[0]], world[t[1]], world[t[2]]});
  generator_.drawMesh(mesh, *family_);
}

// <drawpyramid mask="..."><point/>...</drawpyramid>: the apex, then 3 or 4 base points; faces 1 (the
// base), 2.. (apex with the base edges in order); solid draws the inside (geometry/particle_generator.h).
void GeometryCommands::drawPyramid(const XMLElement* e) const {
  xml_.onlyChildren(e, {"point"});
  const std::vector<Vec3d> points = placed(localPoints(e));
  if (points.size() != 4 && points.size() != 5)
    xml_.fail(e, fmt::format("needs 4 or 5 points (the apex, then a base of 3 or 4), got {}", points.size()));
  const uint64_t masked = maskBits(e, int(points.size()));
  generator_.drawPyramid(points[0], std::vector<Vec3d>(points.begin() + 1, points.end()), faceBits(masked),
                         drawsInterior(masked), *family_);
}

// <drawwave depth hmaxwave x0 z0><point/><size/></drawwave>: GenCase's solitary wave, the nodes of
// the box (snapped as a <drawbox>'s) below the surface z0 + depth + H sech^2(k (x - x0)),
// k = sqrt(3 H / (4 depth^3)) (Boussinesq's solitary wave, the same as <initials><velwave>), in
// every draw mode (found by running GenCase 5.0: the surface's nodes to the last bit, and with
// <move> the wave and the box's low corner moved, the high corner moved twice: GenCase adds the
// size to the moved corner and moves the sum).
void GeometryCommands::drawWave(const XMLElement* e) const {
  requireUnrotated(e, "<drawwave>");
  xml_.onlyChildren(e, {"point", "size"});
  const double depth = xml_.real(e, "depth"), height = xml_.real(e, "hmaxwave");
  if (!(depth > 0) || !std::isfinite(depth)) xml_.fail(e, fmt::format("depth must be positive (got {:g})", depth));
  if (!(height >= 0) || !std::isfinite(height)) xml_.fail(e, fmt::format("hmaxwave must be >= 0 (got {:g})", height));
  const Vec3d origin = transform_.apply(Vec3d{xml_.real(e, "x0"), 0, xml_.real(e, "z0")});
  const Vec3d lo = transform_.apply(xml_.vec(xml_.child(e, "point")));
  const Vec3d s = xml_.vec(xml_.child(e, "size"));
  const Vec3d hi = transform_.apply(Vec3d{lo.x + s.x, lo.y + s.y, lo.z + s.z});
  generator_.drawWave(lo, hi, origin.z + depth, height, std::sqrt(3 * height / (4 * depth * depth * depth)), origin.x,
                      *family_);
}

// <drawellipsoid radius><point/><point/></drawellipsoid> (GenCase 5.0): the two points are the foci
// and radius the sum of the distances to them; the surface's band is <setdpctes ctesphere>.
void GeometryCommands::drawEllipsoid(const XMLElement* e) const {
  xml_.onlyChildren(e, {"point"});
  const double sum = xml_.real(e, "radius");
  if (!(sum > 0)) xml_.fail(e, "radius (the sum of the distances to the foci) must be positive");
  if (!(sum / dp_ < 1e9)) xml_.fail(e, fmt::format("radius {} is more than a billion dp", sum));
  const std::vector<Vec3d> foci = placed(localPoints(e));
  if (foci.size() != 2) xml_.fail(e, fmt::format("needs 2 points (the foci), got {}", foci.size()));
  using Draw = gen::ParticleGenerator::SphereDraw;
  const Draw what = drawMode_ == DrawMode::Face ? Draw::Surface : (drawMode_ == DrawMode::Solid ? Draw::Inside : Draw::Full);
  generator_.drawEllipsoid(foci[0], foci[1], sum, what, *family_, reach_.sphere);
}

// mkfluid="N" or mkbound="N" (not both) as a family id, or `whenNone` without either.
int GeometryCommands::familyOfAttribute(const XMLElement* e, int whenNone) {
  const bool fluid = e->Attribute("mkfluid"), bound = e->Attribute("mkbound");
  if (fluid && bound) xml_.fail(e, "mkfluid or mkbound: not both");
  if (!fluid && !bound) return whenNone;
  const int mk = xml_.integer(e, bound ? "mkbound" : "mkfluid");
  if (mk < 0 || mk >= (bound ? boundCount_ : fluidCount_))
    xml_.fail(e, fmt::format("{} {} is outside the mks of <mkconfig>", bound ? "mkbound" : "mkfluid", mk));
  return int(generator_.family(bound, mk));
}

// <redraw [mkfluid|mkbound]>: every node of the lattice (or the particles of that mk) takes the
// current mk; <redrawbox [mkfluid|mkbound]><point/><size/>: the empty nodes (or that mk's
// particles) strictly inside the box (the nodes its limits snap to left out, whatever
// <setboxlimitmode>), as GenCase 5.0 does.
void GeometryCommands::redrawCommand(const XMLElement* e) {
  if (std::string_view(e->Name()) == "redraw") {
    xml_.onlyChildren(e, {});
    generator_.redraw(std::nullopt, familyOfAttribute(e, gen::ParticleGenerator::kAnyNode), *family_);
    return;
  }
  xml_.onlyChildren(e, {"point", "size", "endpoint"});
  requireUnrotated(e, "<redrawbox>");
  generator_.redraw(unrotatedBox(e), familyOfAttribute(e, 0), *family_);
}

// The box of <point> and <size> or <endpoint> (DualSPHysics 5.4's other way to give it: the far
// corner, moved as the point is), under a transformation that only translates (the caller checks).
std::pair<Vec3d, Vec3d> GeometryCommands::unrotatedBox(const XMLElement* e) const {
  const Vec3d lo = transform_.apply(xml_.vec(xml_.child(e, "point")));
  const XMLElement* size = e->FirstChildElement("size");
  const XMLElement* end = e->FirstChildElement("endpoint");
  if ((size != nullptr) == (end != nullptr)) xml_.fail(e, "needs one of <size> and <endpoint>");
  if (end) return {lo, transform_.apply(xml_.vec(end))};
  const Vec3d s = xml_.vec(size);
  return {lo, Vec3d{lo.x + s.x, lo.y + s.y, lo.z + s.z}};
}

// <redrawnear [times] targettp [targetmk] bordertp [bordermk]>[<dirfilter>...</dirfilter>] and
// <redrawnearbox> (also <point/><size/>): GenCase 5.0's rule (geometry/particle_generator.h). The
// directions: all 26 neighbours without <dirfilter>; "all" the 6 along the axes; or a list of top
// (+z), bottom (-z), right (+x), left (-x), back (+y), front (-y), the target at border + d.
void GeometryCommands::redrawNear(const XMLElement* e) {
  const bool boxed = std::string_view(e->Name()) == "redrawnearbox";
  if (boxed)
    xml_.onlyChildren(e, {"dirfilter", "point", "size", "endpoint"});
  else xml_.onlyChildren(e, {"dirfilter"});
  const auto kindOf = [&](const char* attribute) {
    const std::string t = splitTokens(xml_.attr(e, attribute)).front();
    if (t != "void" && t != "fluid" && t != "bound") xml_.fail(e, fmt::format("{}=\"{}\" must be void, fluid or bound", attribute, t));
    return t == "void" ? 0 : t == "fluid" ? 1 : 2;
  };
  gen::ParticleGenerator::NearRule rule;
  rule.targetKind = kindOf("targettp");
  rule.borderKind = kindOf("bordertp");
  rule.targetLocal = e->Attribute("targetmk") ? xml_.integer(e, "targetmk") : -1;
  rule.borderLocal = e->Attribute("bordermk") ? xml_.integer(e, "bordermk") : -1;
  rule.times = e->Attribute("times") ? xml_.integer(e, "times") : 1;
  if (rule.times < 1 || rule.times > 1000000) xml_.fail(e, "times must be from 1 to a million");
  const auto bit = [](int dx, int dy, int dz) { return 1u << ((dx + 1) * 9 + (dy + 1) * 3 + (dz + 1)); };
  if (const XMLElement* filter = xml_.optionalChild(e, "dirfilter")) {
    for (const std::string& t : splitTokens(filter->GetText() ? filter->GetText() : "")) {
      if (t == "all") rule.directions |= bit(1, 0, 0) | bit(-1, 0, 0) | bit(0, 1, 0) | bit(0, -1, 0) | bit(0, 0, 1) | bit(0, 0, -1);
      else if (t == "top") rule.directions |= bit(0, 0, 1);
      else if (t == "bottom") rule.directions |= bit(0, 0, -1);
      else if (t == "right") rule.directions |= bit(1, 0, 0);
      else if (t == "left") rule.directions |= bit(-1, 0, 0);
      else if (t == "back") rule.directions |= bit(0, 1, 0);
      else if (t == "front") rule.directions |= bit(0, -1, 0);
      else xml_.fail(filter, fmt::format("\"{}\" is not all, top, bottom, right, left, back or front", t));
    }
    if (!rule.directions) xml_.fail(filter, "lists no direction");
  } else {
    rule.directions = ((1u << 27) - 1) & ~bit(0, 0, 0);
  }
  std::optional<std::pair<Vec3d, Vec3d>> box;
  if (boxed) {
    requireUnrotated(e, "<redrawnearbox>");
    box = unrotatedBox(e);
  }
  generator_.redrawNear(box, rule, *family_);
}

// <fillpoint x y z [mkfluid|mkbound]><modefill>void | fluid | bound [| border]</modefill>: GenCase's
// fill from the point through the whole domain (geometry/particle_generator.h); <fillprism> with
// the <point>s of a prism: through its interior only.
void GeometryCommands::fillPoint(const XMLElement* e) const {
  const bool prism = std::string_view(e->Name()) == "fillprism";
  if (prism) xml_.onlyChildren(e, {"modefill", "point"});
  else xml_.onlyChildren(e, {"modefill"});
  const XMLElement* mode = xml_.child(e, "modefill");
  uint8_t kinds = 0;
  bool border = false;
  for (const std::string& t : splitTokens(mode->GetText() ? mode->GetText() : "")) {
    if (t == "void") kinds |= 1;
    else if (t == "fluid") kinds |= 2;
    else if (t == "bound") kinds |= 4;
    else if (t == "border") border = true;
    else xml_.fail(mode, fmt::format("\"{}\" is not void, fluid, bound or border", t));
  }
  if (!kinds && !border) xml_.fail(mode, "lists no kind of node to fill (void, fluid, bound, border)");
  const int fluidLocal = e->Attribute("mkfluid") ? xml_.integer(e, "mkfluid") : -1;
  const int boundLocal = e->Attribute("mkbound") ? xml_.integer(e, "mkbound") : -1;
  const Vec3d seed = transform_.apply(xml_.vec(e));
  if (!prism) {
    generator_.fillFrom(seed, kinds, border, fluidLocal, boundLocal, *family_);
    return;
  }
  // <fillprism>: the points of a <drawprism>, which bounds the fill.
  const std::vector<Vec3d> points = placed(localPoints(e));
  if (points.size() < 6 || points.size() % 2)
    xml_.fail(e, fmt::format("needs an even number of points, at least 6 (a prism's bottom and top), got {}", points.size()));
  const std::string problem = generator_.fillPrism(seed, points, kinds, border, fluidLocal, boundLocal, *family_);
  if (!problem.empty()) xml_.fail(e, problem);
}

void GeometryCommands::requireFamily(const XMLElement* e) const {
  if (!family_) xml_.fail(e, "no mk selected: use <setmkfluid>, <setmkbound> or <setmkvoid> first");
}

void GeometryCommands::requirePointsOnly(const XMLElement* e) const {
  if (drawShapes_)
    xml_.fail(e, fmt::format("<{}> cannot be drawn as a shape (<setactive drawshapes=\"1\">): mDBC's boundary "
                             "surface is made of <drawbox> faces here",
                             e->Name()));
}

// <boxfill>: the faces a <drawbox> draws ("all^right": every face but the right one), or solid
// (also without <boxfill>).
void GeometryCommands::readBoxFill(const XMLElement* e, bool& solid, uint8_t& faces) const {
  solid = false;
  faces = 0;
  if (const XMLElement* fill = e->FirstChildElement("boxfill")) {
    // "all^right": every face but the right one.
    for (const std::string& term : splitTokens(fill->GetText() ? fill->GetText() : "")) {
      size_t start = 0;
      bool first = true;
      while (start <= term.size()) {
        const size_t caret = term.find('^', start);
        const std::string t = term.substr(start, caret == std::string::npos ? std::string::npos : caret - start);
        uint8_t bit = 0;
        if (t == "solid" && first) solid = true;
        else if (t == "all") bit = gen::kAllFaces;
        else if (t == "left") bit = gen::kFaceLeft;
        else if (t == "right") bit = gen::kFaceRight;
        else if (t == "front") bit = gen::kFaceFront;
        else if (t == "back") bit = gen::kFaceBack;
        else if (t == "bottom") bit = gen::kFaceBottom;
        else if (t == "top") bit = gen::kFaceTop;
        else xml_.fail(fill, fmt::format("unknown box fill \"{}\"", t));
        if (first) faces |= bit;
        else faces &= uint8_t(~bit);
        first = false;
        if (caret == std::string::npos) break;
        start = caret + 1;
      }
    }
  } else {
    solid = true;
  }
}

// mDBC's shapes of a <drawbox> from lo to hi (the faces `shapeFaces`), one per layer.
void GeometryCommands::recordBoxShapes(const XMLElement* e, const Vec3d& lo, const Vec3d& hi, uint8_t shapeFaces,
                                       const std::vector<double>& layers) {
  requireUnrotated(e, "A <drawbox> shape (<setactive drawshapes=\"1\">)");
  if (!shapesActual_)
    xml_.fail(e, "shapes for mDBC's normals need <setshapemode>actual</setshapemode> (exact geometry)");
  const Vec3d a{std::min(lo.x, hi.x), std::min(lo.y, hi.y), std::min(lo.z, hi.z)};
  const Vec3d b{std::max(lo.x, hi.x), std::max(lo.y, hi.y), std::max(lo.z, hi.z)};
  // A layer moves each drawn face v dp outwards; the sides not drawn stay (as GenCase's
  // shapes do), so the drawn faces still meet.
  auto moved = [&](uint8_t bit, double x, double g) { return (shapeFaces & bit) ? x + g : x; };
  for (const double v : layers) {
    const double g = v * dp_;
    const Vec3d la{moved(gen::kFaceLeft, a.x, -g), moved(gen::kFaceFront, a.y, -g), moved(gen::kFaceBottom, a.z, -g)};
    const Vec3d lb{moved(gen::kFaceRight, b.x, g), moved(gen::kFaceBack, b.y, g), moved(gen::kFaceTop, b.z, g)};
    const std::vector<NormalFace> f = boxNormalFaces(la, lb, shapeFaces, normalInvert_);
    pending_.insert(pending_.end(), f.begin(), f.end());
  }
}

// <drawbox>: <boxfill> faces (or solid), <point> and <size> or <endpoint>, and <layers vdp="v">
// for shapes: each drawn face moved v dp outwards (GenCase's vdp="-0.5" puts the walls' surface
// half a dp inside the first layer of wall particles).
void GeometryCommands::drawBox(const XMLElement* e) {
  requireFamily(e);
  bool solid = false;
  uint8_t faces = 0;
  readBoxFill(e, solid, faces);
  xml_.onlyChildren(e, {"boxfill", "point", "size", "endpoint", "layers"});
  const Vec3d p = xml_.vec(xml_.child(e, "point"));
  const XMLElement* size = e->FirstChildElement("size");
  const XMLElement* end = e->FirstChildElement("endpoint");
  if ((size != nullptr) == (end != nullptr)) xml_.fail(e, "needs one of <size> and <endpoint>");
  // Unrotated, the corners are moved before the size is added (GenCase's rounding); rotated, the
  // box is built in its own frame and its corners transformed (geometry/box_triangles.h).
  const bool rotated = !transform_.axisAligned();
  // Scaled (not rotated): both corners transformed.
  const bool scaled = !rotated && !transform_.translationOnly();
  const Vec3d lo = rotated ? p : transform_.apply(p);
  Vec3d hi;
  if (size) {
    const Vec3d s = xml_.vec(size);
    hi = scaled ? transform_.apply(Vec3d{p.x + s.x, p.y + s.y, p.z + s.z}) : Vec3d{lo.x + s.x, lo.y + s.y, lo.z + s.z};
  } else {
    hi = rotated ? xml_.vec(end) : transform_.apply(xml_.vec(end));
  }
  const std::vector<double> layers = layerList(e);
  if (drawShapes_) recordBoxShapes(e, lo, hi, solid ? uint8_t(gen::kAllFaces) : faces, layers);
  if (!drawPoints_) return;
  // A solid box draws its largest layer only, in every draw mode (GenCase: vdp="0,1" draws as
  // vdp="1", vdp="-2,-1" as vdp="-1").
  const std::vector<double> drawn =
      solid ? std::vector<double>{*std::max_element(layers.begin(), layers.end())} : layers;
  if (rotated) {
    drawRotatedBox(e, lo, hi, solid, faces, drawn);
    return;
  }
  if (solid && drawMode_ == DrawMode::Face) {
    solid = false;
    faces = gen::kAllFaces;
  }
  // Each layer v moves the drawn faces v dp outwards (a solid grows by v dp on every side); a
  // face also grows by v dp along an axis where the face on that side is drawn too, so the faces
  // of a layer meet.
  const Vec3d a{std::min(lo.x, hi.x), std::min(lo.y, hi.y), std::min(lo.z, hi.z)};
  const Vec3d b{std::max(lo.x, hi.x), std::max(lo.y, hi.y), std::max(lo.z, hi.z)};
  auto at = [](const Vec3d& v, int d) { return d == 0 ? v.x : (d == 1 ? v.y : v.z); };
  auto put = [](Vec3d& v, int d, double x) { (d == 0 ? v.x : (d == 1 ? v.y : v.z)) = x; };
  for (const double v : drawn) {
    const double g = v * dp_;
    if (solid) {
      const Vec3d la{a.x - g, a.y - g, a.z - g}, lb{b.x + g, b.y + g, b.z + g};
      if (drawMode_ == DrawMode::Solid) generator_.drawBoxInterior(la, lb, *family_);
      else generator_.drawBox(la, lb, true, 0, *family_);
      continue;
    }
    for (int d = 0; d < 3; ++d) {
      for (int side = 0; side < 2; ++side) {
        if (!(faces & (1u << (2 * d + side)))) continue;
        Vec3d fa, fb;
        for (int o = 0; o < 3; ++o) {
          if (o == d) {
            const double x = side ? at(b, d) + g : at(a, d) - g;
            put(fa, o, x);
            put(fb, o, x);
          } else {
            put(fa, o, at(a, o) - ((faces & (1u << (2 * o))) ? g : 0.0));
            put(fb, o, at(b, o) + ((faces & (1u << (2 * o + 1))) ? g : 0.0));
          }
        }
        // A face with no area draws nothing (geometry/box_triangles.h).
        const gen::NodeBox nodes = generator_.snap(fa, fb);
        if (nodes.lo[(d + 1) % 3] == nodes.hi[(d + 1) % 3] || nodes.lo[(d + 2) % 3] == nodes.hi[(d + 2) % 3]) continue;
        generator_.drawBox(fa, fb, true, 0, *family_);
      }
    }
  }
}

// <layers vdp="v1,v2 ..."> of a <drawbox> or <drawextrude>: the layers to draw, in dp ({0} without).
std::vector<double> GeometryCommands::layerList(const XMLElement* e) const {
  const XMLElement* l = e->FirstChildElement("layers");
  if (!l) return {0.0};
  std::vector<double> layers;
  for (const std::string& t : splitTokens(xml_.attr(l, "vdp"))) {
    for (size_t start = 0; start < t.size();) {
      const size_t comma = t.find(',', start);
      const std::string v = t.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      // GenCase accepts a '*' after a value ("0*"); it changes no particle.
      const auto value = parseReal(!v.empty() && v.back() == '*' ? v.substr(0, v.size() - 1) : v);
      if (!value) xml_.fail(l, fmt::format("vdp entry \"{}\" is not a number", v));
      if (!(std::abs(*value) < 1e6)) xml_.fail(l, fmt::format("vdp entry \"{}\" is beyond a million dp", v));
      layers.push_back(*value);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (layers.empty()) xml_.fail(l, "vdp lists no layer");
  return layers;
}

// A <drawbox> under a rotation (geometry/box_triangles.h): the box from lo to hi in its own frame, each
// layer grown there as an unrotated box grows (below), then its corners transformed.
void GeometryCommands::drawRotatedBox(const XMLElement* e, const Vec3d& lo, const Vec3d& hi, bool solid,
                                      uint8_t faces, const std::vector<double>& layers) const {
  const Vec3d a{std::min(lo.x, hi.x), std::min(lo.y, hi.y), std::min(lo.z, hi.z)};
  const Vec3d b{std::max(lo.x, hi.x), std::max(lo.y, hi.y), std::max(lo.z, hi.z)};
  const uint8_t grown = solid ? uint8_t(gen::kAllFaces) : faces;
  auto out = [&](uint8_t bit, double x, double g) { return (grown & bit) ? x + g : x; };
  for (const double v : layers) {
    const double g = v * dp_;
    const Vec3d la{out(gen::kFaceLeft, a.x, -g), out(gen::kFaceFront, a.y, -g), out(gen::kFaceBottom, a.z, -g)};
    const Vec3d lb{out(gen::kFaceRight, b.x, g), out(gen::kFaceBack, b.y, g), out(gen::kFaceTop, b.z, g)};
    std::array<Vec3d, 8> c = gen::boxCorners(la, lb);
    for (Vec3d& p : c) p = transform_.apply(p);
    if (solid) {
      const std::string problem =
          generator_.drawPrism(std::vector<Vec3d>(c.begin(), c.end()), faceBits(0), drawsInterior(0), *family_);
      if (!problem.empty()) xml_.fail(e, problem);
      continue;
    }
    std::vector<std::array<Vec3d, 3>> triangles;
    for (int f = 0; f < 6; ++f)
      if (faces & (1u << f)) gen::boxFaceTriangles(c, uint8_t(1u << f), triangles);
    generator_.drawMesh(triangles, *family_);
  }
}

// <rotateline ang="A"><point/><point/></rotateline> and <rotate ang="A" x y z>: a rotation of the
// later shapes (geometry/draw_transform.h).
void GeometryCommands::rotate(const XMLElement* e) {
  const bool line = std::string_view(e->Name()) == "rotateline";
  if (line) xml_.onlyChildren(e, {"point"});
  else xml_.onlyChildren(e, {});
  const double ang = xml_.real(e, "ang");
  if (!(std::abs(ang) < 1e9)) xml_.fail(e, fmt::format("ang=\"{}\" (degrees) is beyond a billion", ang));
  Vec3d p1, p2;
  if (line) {
    const std::vector<Vec3d> points = localPoints(e);
    if (points.size() != 2)
      xml_.fail(e, fmt::format("needs 2 points (the axis of the rotation), got {}", points.size()));
    p1 = points[0];
    p2 = points[1];
  } else {
    p2 = xml_.vec(e);
  }
  if (p1.x == p2.x && p1.y == p2.y && p1.z == p2.z)
    xml_.fail(e, line ? "the axis' two points are the same point" : "the axis (x, y, z) is zero");
  transform_.rotateLine(ang, p1, p2);
}

// <rotateadv ang1 ang2 ang3 axes="ZYZ" intrinsic="true|false"><center/></rotateadv>: three
// rotations about the coordinate axes in turn, about the centre when given (geometry/draw_transform.h).
void GeometryCommands::rotateAdvanced(const XMLElement* e) {
  xml_.onlyChildren(e, {"center"});
  double degrees[3];
  const char* names[3] = {"ang1", "ang2", "ang3"};
  for (int k = 0; k < 3; ++k) {
    degrees[k] = xml_.real(e, names[k]);
    if (!(std::abs(degrees[k]) < 1e9))
      xml_.fail(e, fmt::format("{}=\"{}\" (degrees) is beyond a billion", names[k], degrees[k]));
  }
  const std::string given = xml_.attr(e, "axes");
  char axes[3];
  bool valid = given.size() == 3;
  for (size_t k = 0; valid && k < 3; ++k) {
    axes[k] = char(std::toupper(static_cast<unsigned char>(given[k])));
    valid = axes[k] == 'X' || axes[k] == 'Y' || axes[k] == 'Z';
  }
  if (!valid) xml_.fail(e, fmt::format("axes=\"{}\" must be three of X, Y and Z (e.g. \"ZYZ\")", given));
  xml_.attr(e, "intrinsic");  // required: the two orders give different rotations
  const bool intrinsic = xml_.boolean(e, "intrinsic", false);
  const XMLElement* c = xml_.optionalChild(e, "center");
  transform_.rotateAxes(degrees, axes, intrinsic, c ? xml_.vec(c) : Vec3d{});
}

// <drawextrude closed="true|false"><point/>... <extrude x y z/> <layers vdp/></drawextrude>: the
// polyline swept along the vector (geometry/extrude_shape.h), in every draw mode. It is built in its own
// frame and its triangles' corners transformed.
void GeometryCommands::drawExtrude(const XMLElement* e) const {
  xml_.onlyChildren(e, {"point", "extrude", "layers"});
  if (!e->Attribute("closed"))
    xml_.fail(e, "needs closed=\"true\" (the last point joins the first) or closed=\"false\"");
  const bool closed = xml_.boolean(e, "closed", false);
  const std::vector<Vec3d> points = localPoints(e);
  if (points.size() < 2) xml_.fail(e, fmt::format("needs at least 2 points, got {}", points.size()));
  const Vec3d extrude = xml_.vec(xml_.child(e, "extrude"));
  std::vector<std::array<Vec3d, 3>> triangles;
  for (const double v : layerList(e)) {
    const std::string problem = gen::extrudeTriangles(points, closed, extrude, v * dp_, triangles);
    if (!problem.empty()) xml_.fail(e, problem);
  }
  for (auto& t : triangles)
    for (Vec3d& p : t) p = transform_.apply(p);
  generator_.drawMesh(triangles, *family_);
}

// <drawprism mask="..."><point/>...</drawprism>: n bottom vertices, then the n top ones
// (geometry/prism_shape.h gives the face numbers and the drawing rule). The mask says which faces are left
// out, as GenCase reads it: "a | b | ..." lists face numbers, a single number is a bit mask (bit
// f-1 for face f; "0" leaves none out, "4" leaves out face 3). In draw mode "full" a prism with no
// face left out also gets its interior, as the water body of DualSPHysics' CaseWavemaker does
// (mask "0"); the tank of that case is the same prism with mask "1 | 2 | 6 | 7" (floor, beach and
// far wall). Draw mode "face" draws the faces only, "solid" the interior only (or, with faces
// left out, the faces that remain).
void GeometryCommands::drawPrism(const XMLElement* e) const {
  xml_.onlyChildren(e, {"point"});
  std::vector<Vec3d> points = localPoints(e);
  if (std::string_view(e->Name()) == "drawbeach") {
    // <drawbeach>: the profile given, swept from y = 0 to the points' y (GenCase draws it as the
    // prism whose bottom is the profile at y = 0 and whose top is the profile as given; y = 0
    // before the transformation, so a <move> in y moves the bottom too).
    const size_t n = points.size();
    for (size_t i = 0; i < n; ++i) points.push_back(points[i]);
    for (size_t i = 0; i < n; ++i) points[i].y = 0;
  }
  const uint64_t masked = maskBits(e, int(points.size() / 2) + 2);
  const std::string problem =
      generator_.drawPrism(placed(std::move(points)), faceBits(masked), drawsInterior(masked), *family_);
  if (!problem.empty()) xml_.fail(e, problem);
}

// <drawcylinder radius="R" mask="..."><point/><point/></drawcylinder>: the axis from the first point
// to the second; faces 1 (the cap at the first point), 2 (the other cap), 3 (the side). With
// <layers vdp="a,b,...">: the surface of each cylinder v dp out from the side and the caps
// (GenCase 5.0 does not round v here; an end without its cap stays), whatever the draw mode.
void GeometryCommands::drawCylinder(const XMLElement* e) const {
  xml_.onlyChildren(e, {"point", "layers"});
  const double radius = xml_.real(e, "radius");
  if (!(radius > 0)) xml_.fail(e, "radius must be positive");
  if (!(radius / dp_ < 1e9)) xml_.fail(e, fmt::format("radius {} is more than a billion dp", radius));
  const std::vector<Vec3d> points = placed(localPoints(e));
  if (points.size() != 2) xml_.fail(e, fmt::format("needs 2 points (the ends of the axis), got {}", points.size()));
  const uint64_t masked = maskBits(e, 3);
  if (e->FirstChildElement("layers")) {
    const Vec3d axis = sub(points[1], points[0]);
    const double length = norm(axis);
    const Vec3d u = length > 0 ? scale(axis, 1 / length) : Vec3d{};
    for (const double v : layerList(e)) {
      // The layer's surface v dp out from the side and from each cap drawn (an open end stays).
      const double r = radius + v * dp_;
      const double out1 = (masked & 1) ? 0.0 : v * dp_, out2 = (masked & 2) ? 0.0 : v * dp_;
      const Vec3d a = sub(points[0], scale(u, out1)), b = add(points[1], scale(u, out2));
      if (r > 0 && length + out1 + out2 > 0) generator_.drawCylinder(a, b, r, ~masked & 7, false, *family_, reach_);
    }
    return;
  }
  generator_.drawCylinder(points[0], points[1], radius, faceBits(masked) & 7, drawsInterior(masked), *family_,
                          reach_);
}

// The <point> children of a shape, as given.
std::vector<Vec3d> GeometryCommands::localPoints(const XMLElement* e) const {
  std::vector<Vec3d> points;
  for (const XMLElement* p = e->FirstChildElement("point"); p; p = p->NextSiblingElement("point"))
    if (!skipped(p)) points.push_back(xml_.vec(p));
  return points;
}

// Points moved by the current transformation (<move>, <rotateline>, <rotate>, <rotateadv>, <scale>).
std::vector<Vec3d> GeometryCommands::placed(std::vector<Vec3d> points) const {
  for (Vec3d& p : points) p = transform_.apply(p);
  return points;
}

// For the commands whose rule under a rotation is not reproduced.
void GeometryCommands::requireUnrotated(const XMLElement* e, const char* what) const {
  if (!transform_.translationOnly())
    xml_.fail(e, fmt::format("{} under a rotation (<rotateline>, <rotate>, <rotateadv>) or a <scale> is not supported",
                             what));
}

// The `mask` attribute as GenCase reads it: "a | b | ..." lists face numbers, a single number is
// a bit mask (bit f-1 for face f; "0" leaves none out, "4" leaves out face 3). GenCase accepts
// face numbers beyond the shape's last face, which leave nothing out (DualSPHysics'
// CasePistonBeach_REG gives a prism of 6 faces the mask "1 | 2 | 6 | 7"); they are dropped here.
uint64_t GeometryCommands::maskBits(const XMLElement* e, int faceCount) const {
  uint64_t masked = 0;
  const std::string maskText = e->Attribute("mask") ? e->Attribute("mask") : "0";
  const std::vector<std::string> tokens = splitTokens(maskText);
  for (const std::string& t : tokens) {
    const auto v = parseReal(t);
    if (tokens.size() > 1 || maskText.find('|') != std::string::npos) {
      if (!v || *v != std::floor(*v) || *v < 0 || *v > 64)
        xml_.fail(e, fmt::format("mask entry \"{}\" is not a face number 1..{} (or 0 for none)", t, faceCount));
      if (*v > 0 && *v <= faceCount) masked |= uint64_t(1) << (int(*v) - 1);
    } else {
      if (!v || *v != std::floor(*v) || *v < 0 || *v >= 18446744073709551616.0)
        xml_.fail(e, fmt::format("mask \"{}\" is neither a bit mask nor a list of faces (\"1 | 2\")", t));
      masked = uint64_t(*v);
    }
  }
  return masked;
}

// GenCase's draw modes for a shape with faces: the faces are drawn except in mode "solid" with
// no face left out; the interior only with no face left out and not in mode "face".
uint64_t GeometryCommands::faceBits(uint64_t masked) const {
  return drawMode_ == DrawMode::Solid && masked == 0 ? 0 : ~masked;
}
bool GeometryCommands::drawsInterior(uint64_t masked) const { return masked == 0 && drawMode_ != DrawMode::Face; }

// <drawsphere radius="R"><point .../></drawsphere>: the surface in draw mode "face", the whole
// sphere in "full", the inside in "solid" (geometry/particle_generator.h gives GenCase's rules).
// <drawsphere radius><point/></drawsphere>; with <layers vdp="a,b,..."> (GenCase 5.0): the surface
// of each sphere of radius + round(v) dp (half away from zero), whatever the draw mode.
void GeometryCommands::drawSphere(const XMLElement* e) const {
  xml_.onlyChildren(e, {"point", "layers"});
  const double radius = xml_.real(e, "radius");
  if (!(radius > 0)) xml_.fail(e, "radius must be positive");
  if (!(radius / dp_ < 1e9)) xml_.fail(e, fmt::format("radius {} is more than a billion dp", radius));
  const Vec3d c = transform_.apply(xml_.vec(xml_.child(e, "point")));
  using Draw = gen::ParticleGenerator::SphereDraw;
  if (e->FirstChildElement("layers")) {
    for (const double v : layerList(e)) {
      const double r = radius + std::round(v) * dp_;
      if (r > 0) generator_.drawSphere(c, r, Draw::Surface, *family_, reach_.sphere);
    }
    return;
  }
  const Draw what = drawMode_ == DrawMode::Face ? Draw::Surface : (drawMode_ == DrawMode::Solid ? Draw::Inside : Draw::Full);
  generator_.drawSphere(c, radius, what, *family_, reach_.sphere);
}

// <fillbox>: GenCase's fill from a seed point through the empty (<modefill>void</modefill>),
// boundary (bound) or fluid (fluid) nodes strictly inside a box (geometry/particle_generator.h).
void GeometryCommands::fillBox(const XMLElement* e) const {
  xml_.onlyChildren(e, {"modefill", "point", "size", "endpoint"});
  const XMLElement* mode = xml_.child(e, "modefill");
  const std::vector<std::string> modes = splitTokens(mode->GetText() ? mode->GetText() : "");
  if (modes.size() != 1 || (modes[0] != "void" && modes[0] != "bound" && modes[0] != "fluid"))
    xml_.fail(mode, "<modefill> must be void, bound or fluid (the nodes the fill runs through)");
  const gen::FillKind kind = modes[0] == "void" ? gen::FillKind::Void
                             : modes[0] == "bound" ? gen::FillKind::Bound : gen::FillKind::Fluid;
  // mkbound="M": a fill through boundary nodes runs through those of mk M only (GenCase reads the
  // attribute in every mode; through empty or fluid nodes it changes nothing).
  int boundLocal = -1;
  if (e->Attribute("mkbound")) {
    boundLocal = xml_.integer(e, "mkbound");
    if (boundLocal < 0 || boundLocal >= boundCount_)
      xml_.fail(e, fmt::format("mkbound {} is outside 0..{} (<mkconfig boundcount=\"{}\">)", boundLocal,
                               boundCount_ - 1, boundCount_));
  }
  const Vec3d seed = xml_.vec(e);
  // GenCase fills a rotated box by a rule not reproduced here (neither the bounding box nor the
  // inside of the prism of its snapped corners).
  requireUnrotated(e, "<fillbox>");
  const auto [lo, hi] = unrotatedBox(e);
  generator_.fillBox(transform_.apply(seed), lo, hi, kind, *family_, boundLocal, boxLimitsIncluded_);
}

// <drawfilestl file="F">, <drawfilevtk file="F">, <drawfileply file="F">: the triangles of mesh
// file F (relative to the case's folder; geometry/mesh_file.h), placed by the <drawscale>, <drawrotate> and
// <drawmove> children and the <move> offset (geometry/mesh_placement.h); their surface is drawn
// (geometry/particle_generator.h). <drawfilecsv file="F" mode="bathymetry">: the same with the
// triangles of a bathymetry table.
void GeometryCommands::drawMeshFile(const XMLElement* e) const {
  xml_.onlyChildren(e, {"drawscale", "drawrotate", "drawmove"});
  if (xml_.boolean(e, "autofill", false)) xml_.fail(e, "autofill=\"true\" is not supported (nor by GenCase 5.0)");
  // GenCase 5.4's other way of drawing a mesh's surface (with <depth>), and its reverse side.
  for (const char* option : {"advanced", "reverse"})
    if (xml_.boolean(e, option, false))
      xml_.fail(e, fmt::format("{}=\"true\" (GenCase's advanced mesh drawing) is not supported by this engine", option));
  auto once = [&](const char* child) -> const XMLElement* {
    const XMLElement* c = nullptr;
    for (const XMLElement* k = e->FirstChildElement(child); k; k = k->NextSiblingElement(child)) {
      if (skipped(k)) continue;
      if (c) xml_.fail(k, fmt::format("<{}> given twice (GenCase accepts it once)", child));
      c = k;
    }
    return c;
  };
  gen::MeshPlacement place;
  if (const XMLElement* c = once("drawscale")) place.scale = xml_.vec(c);
  if (const XMLElement* c = once("drawrotate"))
    place.rotateDegrees = {xml_.real(c, "angx"), xml_.real(c, "angy"), xml_.real(c, "angz")};
  if (const XMLElement* c = once("drawmove")) place.move = xml_.vec(c);

  std::filesystem::path file(xml_.attr(e, "file"));
  if (file.is_relative()) file = std::filesystem::path(xml_.path()).parent_path() / file;
  const std::string_view kind = e->Name();
  if (kind == "drawfilecsv") {
    const std::vector<std::string> mode = splitTokens(xml_.attr(e, "mode"));
    if (mode.size() != 1 || mode[0] != "bathymetry")
      xml_.fail(e, fmt::format("mode \"{}\" is not one GenCase draws (give mode=\"bathymetry\")", xml_.attr(e, "mode")));
  }
  const gen::MeshFormat format = kind == "drawfilestl" ? gen::MeshFormat::Stl
                                 : kind == "drawfilevtk" ? gen::MeshFormat::Vtk : gen::MeshFormat::Ply;
  std::vector<gen::MeshTriangle> triangles;
  std::vector<gen::PreciseTriangle> precise;
  try {
    if (kind == "drawfilecsv") precise = gen::readBathymetryCsv(file.string());
    else triangles = gen::readMesh(file.string(), format);
  } catch (const gen::MeshFileError& err) {
    xml_.fail(e, err.what());
  }
  std::vector<std::array<Vec3d, 3>> world;
  world.reserve(triangles.size() + precise.size());
  for (const gen::MeshTriangle& t : triangles)
    world.push_back({transform_.apply(place.apply(t[0])), transform_.apply(place.apply(t[1])),
                      transform_.apply(place.apply(t[2]))});
  for (const gen::PreciseTriangle& t : precise)
    world.push_back({transform_.apply(place.apply(t[0])), transform_.apply(place.apply(t[1])),
                      transform_.apply(place.apply(t[2]))});
  generator_.drawMesh(world, *family_);
}

}  // namespace sph
