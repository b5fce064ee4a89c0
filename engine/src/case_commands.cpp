#include "case_commands.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "prism_shape.h"
#include "sph/errors.h"

namespace sph {
namespace {

// <runlist> nesting GenCase cases use is 1 or 2 deep; deeper is a list running itself.
constexpr int kMaxListDepth = 16;

}  // namespace

GeometryCommands::GeometryCommands(const XmlReader& xml, std::string caseName, double dp, int boundCount,
                                   int fluidCount, std::map<std::string, const XMLElement*> lists,
                                   gen::ParticleGenerator& generator)
    : xml_(xml),
      caseName_(std::move(caseName)),
      dp_(dp),
      boundCount_(boundCount),
      fluidCount_(fluidCount),
      lists_(std::move(lists)),
      generator_(generator) {}

void GeometryCommands::run(const XMLElement* list) {
  for (const XMLElement* e = list->FirstChildElement(); e; e = e->NextSiblingElement())
    if (!skipped(e)) command(e);
}

void GeometryCommands::command(const XMLElement* e) {
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
    if (mode != "full" && mode != "face")
      xml_.fail(e, fmt::format("unknown draw mode \"{}\" (expected full or face)", mode));
    faceMode_ = mode == "face";
    drawModeSet_ = true;
  } else if (name == "setactive") {
    drawPoints_ = xml_.boolean(e, "drawpoints", drawPoints_);
    drawShapes_ = xml_.boolean(e, "drawshapes", drawShapes_);
  } else if (name == "setnormalinvert") {
    normalInvert_ = xml_.boolean(e, "invert", false);
  } else if (name == "resetdraw") {
    // GenCase: back to points only, no transformation; particles are drawn again only after a
    // <setdrawmode> (without one it silently draws none).
    drawPoints_ = true;
    drawShapes_ = false;
    normalInvert_ = false;
    offset_ = {};
    drawModeSet_ = false;
  } else if (name == "runlist") {
    const std::string list = xml_.attr(e, "name");
    const auto it = lists_.find(list);
    if (it == lists_.end()) xml_.fail(e, fmt::format("no <list name=\"{}\"> in <commands>", list));
    if (depth_ >= kMaxListDepth) xml_.fail(e, fmt::format("<runlist> nested more than {} deep (a list running itself?)", kMaxListDepth));
    ++depth_;
    run(it->second);
    --depth_;
  } else if (name == "shapeout") {
    const char* file = e->Attribute("file");
    if (file && *file && !pending_.empty()) {
      std::vector<NormalFace>& out = shapeFiles_[fmt::format("{}_{}_Actual.vtk", caseName_, file)];
      out.insert(out.end(), pending_.begin(), pending_.end());
    }
    pending_.clear();
  } else if (name == "setmkfluid" || name == "setmkbound") {
    const bool bound = name == "setmkbound";
    const int mk = xml_.integer(e, "mk");
    const int limit = bound ? boundCount_ : fluidCount_;
    if (mk < 0 || mk >= limit)
      xml_.fail(e, fmt::format("mk {} is outside 0..{} (<mkconfig {}count=\"{}\">)", mk, limit - 1,
                               bound ? "bound" : "fluid", limit));
    family_ = generator_.family(bound, mk);
  } else if (name == "setmkvoid") {
    family_ = 0;
  } else if (name == "move") {
    const Vec3d m = xml_.vec(e);
    offset_ = {offset_.x + m.x, offset_.y + m.y, offset_.z + m.z};
  } else if (name == "matrixreset") {
    offset_ = {};
  } else if (name == "drawbox") {
    drawBox(e);
  } else if (name == "drawprism") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) drawPrism(e);
  } else if (name == "fillbox") {
    requirePointsOnly(e);
    requireFamily(e);
    if (drawPoints_) fillBox(e);
  } else {
    xml_.fail(e, "unknown geometry command");
  }
}

void GeometryCommands::requireFamily(const XMLElement* e) const {
  if (!family_) xml_.fail(e, "no mk selected: use <setmkfluid>, <setmkbound> or <setmkvoid> first");
}

void GeometryCommands::requirePointsOnly(const XMLElement* e) const {
  if (drawShapes_)
    xml_.fail(e, fmt::format("<{}> cannot be drawn as a shape (<setactive drawshapes=\"1\">): mDBC's boundary "
                             "surface is made of <drawbox> faces here",
                             e->Name()));
  if (drawPoints_ && !drawModeSet_)
    xml_.fail(e, "no <setdrawmode> since <resetdraw>: GenCase would draw no particles here");
}

// <drawbox>: <boxfill> faces (or solid), <point> and <size> or <endpoint>, and <layers vdp="v">
// for shapes: each drawn face moved v dp outwards (GenCase's vdp="-0.5" puts the walls' surface
// half a dp inside the first layer of wall particles).
void GeometryCommands::drawBox(const XMLElement* e) {
  requireFamily(e);
  if (drawPoints_ && !drawModeSet_)
    xml_.fail(e, "no <setdrawmode> since <resetdraw>: GenCase would draw no particles here");
  bool solid = false;
  uint8_t faces = 0;
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
  xml_.onlyChildren(e, {"boxfill", "point", "size", "endpoint", "layers"});
  const Vec3d p = xml_.vec(xml_.child(e, "point"));
  const XMLElement* size = e->FirstChildElement("size");
  const XMLElement* end = e->FirstChildElement("endpoint");
  if ((size != nullptr) == (end != nullptr)) xml_.fail(e, "needs one of <size> and <endpoint>");
  const Vec3d lo{p.x + offset_.x, p.y + offset_.y, p.z + offset_.z};
  Vec3d hi;
  if (size) {
    const Vec3d s = xml_.vec(size);
    hi = {lo.x + s.x, lo.y + s.y, lo.z + s.z};
  } else {
    const Vec3d q = xml_.vec(end);
    hi = {q.x + offset_.x, q.y + offset_.y, q.z + offset_.z};
  }
  std::vector<double> layers{0.0};
  if (const XMLElement* l = e->FirstChildElement("layers")) {
    layers.clear();
    for (const std::string& t : splitTokens(xml_.attr(l, "vdp"))) {
      for (size_t start = 0; start < t.size();) {
        const size_t comma = t.find(',', start);
        const std::string v = t.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const auto value = gen::parseReal(v);
        if (!value) xml_.fail(l, fmt::format("vdp entry \"{}\" is not a number (\"0*\" marks are not supported)", v));
        layers.push_back(*value);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
    if (layers.empty()) xml_.fail(l, "vdp lists no layer");
    if (drawPoints_ && (layers.size() != 1 || layers[0] != 0.0))
      xml_.fail(l, "layers of particles are not supported: draw each layer as its own box (layers are "
                   "supported for the shapes of mDBC's boundary surface)");
  }
  if (drawShapes_) {
    if (!shapesActual_)
      xml_.fail(e, "shapes for mDBC's normals need <setshapemode>actual</setshapemode> (exact geometry)");
    const uint8_t shapeFaces = solid ? uint8_t(gen::kAllFaces) : faces;
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
  if (!drawPoints_) return;
  if (solid && faceMode_) {
    solid = false;
    faces = gen::kAllFaces;
  }
  generator_.drawBox(lo, hi, solid, faces, *family_);
}

// <drawprism mask="..."><point/>...</drawprism>: n bottom vertices, then the n top ones
// (prism_shape.h gives the face numbers). The mask lists the faces left out ("0": none). With no
// face left out and draw mode "full" the prism is solid; otherwise only the faces that are not
// masked are drawn. That is how DualSPHysics' CaseWavemaker uses it: the same prism is drawn
// with mask "0" as the (solid) water body and with mask "1 | 2 | 6 | 7" as the tank's floor,
// beach and far wall, both in "full" mode; a solid masked prism would fill the water body
// with boundary particles.
void GeometryCommands::drawPrism(const XMLElement* e) const {
  xml_.onlyChildren(e, {"point"});
  std::vector<Vec3d> points;
  for (const XMLElement* p = e->FirstChildElement("point"); p; p = p->NextSiblingElement("point")) {
    if (skipped(p)) continue;
    const Vec3d v = xml_.vec(p);
    points.push_back({v.x + offset_.x, v.y + offset_.y, v.z + offset_.z});
  }
  gen::PrismShape prism;
  const std::string problem = gen::PrismShape::build(points, dp_, prism);
  if (!problem.empty()) xml_.fail(e, problem);
  uint64_t masked = 0;
  const char* maskText = e->Attribute("mask");
  for (const std::string& t : splitTokens(maskText ? maskText : "0")) {
    const auto v = gen::parseReal(t);
    if (!v || *v != std::floor(*v) || *v < 0 || *v > prism.faceCount())
      xml_.fail(e, fmt::format("mask entry \"{}\" is not a face number 1..{} (or 0 for none)", t, prism.faceCount()));
    if (*v > 0) masked |= uint64_t(1) << (int(*v) - 1);
  }
  const uint64_t all = prism.faceCount() >= 64 ? ~uint64_t(0) : (uint64_t(1) << prism.faceCount()) - 1;
  const bool solid = masked == 0 && !faceMode_;
  generator_.drawPrism(prism, solid, all & ~masked, *family_);
}

// GenCase's fill of the empty nodes reachable from a seed point (case_generator.h).
void GeometryCommands::fillBox(const XMLElement* e) const {
  xml_.onlyChildren(e, {"modefill", "point", "size"});
  const XMLElement* mode = xml_.child(e, "modefill");
  const std::vector<std::string> modes = splitTokens(mode->GetText() ? mode->GetText() : "");
  if (modes.size() != 1 || modes[0] != "void")
    xml_.fail(mode, "only <modefill>void</modefill> (fill the empty nodes) is supported");
  const Vec3d seed = xml_.vec(e);
  const Vec3d p = xml_.vec(xml_.child(e, "point"));
  const Vec3d s = xml_.vec(xml_.child(e, "size"));
  const Vec3d lo{p.x + offset_.x, p.y + offset_.y, p.z + offset_.z};
  const Vec3d hi{lo.x + s.x, lo.y + s.y, lo.z + s.z};
  try {
    generator_.fillBox({seed.x + offset_.x, seed.y + offset_.y, seed.z + offset_.z}, lo, hi, *family_);
  } catch (const InputError& err) {
    xml_.fail(e, err.what());
  }
}

}  // namespace sph
