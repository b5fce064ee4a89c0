// Reads a DualSPHysics `_Def.xml` case: constants, mk configuration, the geometry commands
// (run through the particle generator) and the execution parameters. Every error names the
// file, the line and the element. Elements whose name starts with '_' are DualSPHysics' way of
// commenting out and are skipped everywhere; `comment`/`units_comment` attributes are ignored.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <tinyxml2.h>

#include "case/loader.h"

#include "case/acc_inputs_reader.h"
#include "case/floating_reader.h"
#include "case/gauges_reader.h"
#include "case/gencase_output.h"
#include "case/initials_reader.h"
#include "case/geometry_commands.h"
#include "case/inout_reader.h"
#include "case/motion_data_file.h"
#include "case/motion_reader.h"
#include "case/normals_reader.h"
#include "case/output_parts_reader.h"
#include "case/particle_selection.h"
#include "case/simulation_domain.h"
#include "case/ml_pistons_reader.h"
#include "case/wave_paddles_reader.h"
#include "case/xml_reader.h"
#include "geometry/particle_generator.h"
#include "model/case_model.h"
#include "platform/input_file.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

// mk numbering (DualSPHysics GenCase): fluids take mk = mkfluid + MkFluidFirst with
// MkFluidFirst = 1, boundaries take mk = mkbound + MkBoundFirst with MkBoundFirst =
// fluidcount + 1, so the two ranges never overlap (mkconfig fluidcount="9": fluid mk 1..9,
// boundary mk from 10). This is what GenCase writes to Case.xml (<particles mkboundfirst="10"
// mkfluidfirst="1"> for fluidcount 9) and what DesignSPHysics assumes (fluid mk = mkfluid + 1,
// bound mk = mkbound + 10). mkfluid must be below fluidcount and mkbound below boundcount.
constexpr int kMkFluidFirst = 1;
// <mkconfig> of DualSPHysics' dam-break examples, used when a case has no <mkconfig>.
constexpr int kDefaultBoundCount = 240;
constexpr int kDefaultFluidCount = 9;
constexpr double kMaxNodeIndex = 1e15;

// GenCase's particle order: the fixed boundary blocks, the moving ones, the floating ones, then
// the fluid, each kind by mk. The generator gives one block per mk, boundaries then fluid by mk;
// this moves the moving and floating blocks behind the fixed ones, so that particle ids are
// GenCase's (and DualSPHysics') Idp.
void orderAsGenCase(CaseDefinition& c) {
  const size_t nMk = c.mks.size();
  std::vector<int> kind(nMk, 0);  // 0 fixed, 1 moving, 2 floating, 3 fluid
  for (size_t k = 0; k < nMk; ++k) {
    if (!c.mks[k].bound) kind[k] = 3;
    if (c.mks[k].bound && floatingOf(c, c.mks[k].local)) kind[k] = 2;
  }
  for (const MotionObject& m : c.motions) kind[m.mkIndex] = 1;
  std::vector<uint16_t> order(nMk);
  for (size_t k = 0; k < nMk; ++k) order[k] = uint16_t(k);
  std::stable_sort(order.begin(), order.end(), [&](uint16_t a, uint16_t b) { return kind[a] < kind[b]; });
  bool same = true;
  for (size_t k = 0; k < nMk; ++k) same = same && order[k] == k;
  if (same) return;
  std::vector<size_t> first(nMk + 1, 0);
  for (size_t k = 0; k < nMk; ++k) first[k + 1] = first[k] + c.mks[k].count;
  std::vector<uint16_t> newIndex(nMk);
  std::vector<MkEntry> mks;
  std::vector<Vec3d> positions, normals;
  std::vector<uint16_t> mkIndex;
  positions.reserve(c.positions.size());
  mkIndex.reserve(c.positions.size());
  for (size_t n = 0; n < nMk; ++n) {
    const uint16_t k = order[n];
    newIndex[k] = uint16_t(n);
    mks.push_back(c.mks[k]);
    positions.insert(positions.end(), c.positions.begin() + first[k], c.positions.begin() + first[k + 1]);
    mkIndex.insert(mkIndex.end(), c.mks[k].count, uint16_t(n));
    if (!c.normals.empty()) normals.insert(normals.end(), c.normals.begin() + first[k], c.normals.begin() + first[k + 1]);
  }
  c.mks = std::move(mks);
  c.positions = std::move(positions);
  c.mkIndex = std::move(mkIndex);
  if (!c.normals.empty()) c.normals = std::move(normals);
  for (MotionObject& m : c.motions) m.mkIndex = newIndex[m.mkIndex];
}

class CaseReader : public XmlReader {
 public:
  CaseReader(std::string path, const LoadOptions& opts) : XmlReader(path), path_(std::move(path)), opts_(opts) {
    useVariables(&variables_);
  }
  CaseDefinition load();

 private:
  void readCaseDef(const XMLElement* casedef);
  const XMLElement* readGeometry(const XMLElement* geometry, std::map<std::string, const XMLElement*>& lists);
  void readConstants(const XMLElement* list);
  double smoothingLength() const;
  void checkSmoothingLength(const XMLElement* root);
  void readMkConfig(const XMLElement* e);
  void readDefinition(const XMLElement* def);
  void predefine(const XMLElement* e);
  void runMainList(const XMLElement* list, const std::map<std::string, const XMLElement*>& lists);
  void readInitialize(const XMLElement* e);
  void readExecution(const XMLElement* exec);
  void scanGenCaseRecords(const XMLElement* exec);
  void readParameters(const XMLElement* params);
  void readViscoTime();
  void readDomain(const XMLElement* dom);

  void defineVariable(const XMLElement* e, const std::string& name, double value);

  std::string path_;
  LoadOptions opts_;
  CaseDefinition c_;
  CaseVariables variables_;  // GenCase's, for "#expression" attributes
  int boundCount_ = kDefaultBoundCount;
  int fluidCount_ = kDefaultFluidCount;
  const XMLElement* domainElement_ = nullptr;
  const XMLElement* smoothingElement_ = nullptr;
  double definitionDp_ = 0;  // <definition dp>, before any --dp  // <coefh>, <hdp> or <h auto="false">, for its errors
  // GenCase's output (case/gencase_output.h): its particle blocks and constants. Its <execution>
  // <motion> is the <casedef> one with each ref renumbered to the moving block's refmotion; the
  // <casedef> one, by mkbound, is read instead.
  const XMLElement* genParticles_ = nullptr;
  const XMLElement* genConstants_ = nullptr;
  const XMLElement* genMotion_ = nullptr;
  const XMLElement* patterns_ = nullptr;  // <casedef><patterns>
  void readPatterns(const XMLElement* patterns, gen::ParticleGenerator& generator) const;
  std::vector<WavePaddle> paddles_;  // <special><wavepaddles>, given to their motion objects after <motion>
  const XMLElement* initialize_ = nullptr;  // <special><initialize>, applied to the particles once they exist
  const XMLElement* execution_ = nullptr;   // <execution>, read once the geometry's variables exist
  ShapeFiles shapeFiles_;  // <shapeout> files, by GenCase's name
};

CaseDefinition CaseReader::load() {
  tinyxml2::XMLDocument doc;
  const std::string text = readInputFile(path_, "case file");
  const tinyxml2::XMLError err = doc.Parse(text.data(), text.size());
  if (err != tinyxml2::XML_SUCCESS) {
    throw InputError(fmt::format("{}:{}: malformed XML: {}", path_, doc.ErrorLineNum(),
                                 doc.ErrorStr()));
  }
  c_.path = path_;
  c_.name = caseNameOf(path_);
  variables_.defineText("CaseName", c_.name, true);

  const XMLElement* root = doc.RootElement();
  if (!root) throw InputError(fmt::format("{}: no root element: the file holds no <case>", path_));
  if (std::string_view(root->Name()) != "case") fail(root, "the root element must be <case>");
  if (const XMLElement* more = root->NextSiblingElement())
    fail(more, fmt::format("<{}> after </case>: a case file holds one root element, <case>", more->Name()));
  const XMLElement *casedef = nullptr, *execution = nullptr;
  for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    const XMLElement** slot =
        name == "casedef" ? &casedef : (name == "execution" ? &execution : nullptr);
    if (!slot) unknown(e, root);
    if (*slot) fail(e, "appears twice");
    *slot = e;
  }
  if (!casedef) fail(root, "missing element <casedef>");
  // GenCase's records in <execution> first (its particles decide how <casedef> is read); the rest
  // of <execution> once the geometry's variables exist (readCaseDef).
  execution_ = execution;
  if (execution) scanGenCaseRecords(execution);
  // GenCase's output whose particle file is not there: users of DualSPHysics run GenCase on such a
  // file (it holds <casedef>), so its particles are made from the geometry, as from a _Def.xml.
  if (genParticles_ && !std::filesystem::exists(genCaseParticleFile(path_))) {
    c_.warnings.push_back(fmt::format("{}:{}: <particles>: {} does not exist: the particles are generated from "
                                      "<casedef> as GenCase makes them, and <execution>'s <constants> and <motion> "
                                      "(GenCase's record) are not read",
                                      path_, genParticles_->GetLineNum(), genCaseParticleFile(path_)));
    genParticles_ = genConstants_ = genMotion_ = nullptr;
  }
  if (!genParticles_) {
    for (const XMLElement* e : {genConstants_, genMotion_})
      if (e) fail(e, "belongs in <casedef> (in <execution> only in GenCase's output, beside <particles>)");
  }
  readCaseDef(casedef);
  checkSmoothingLength(root);
  applyDomainParameters(c_);

  const int badAxis = resolveDomain(c_);
  if (badAxis >= 0) {
    fail(domainElement_ ? domainElement_ : root,
         fmt::format("the resolved domain ends below its start on axis {}", "xyz"[badAxis]));
  }
  // The inlet/outlet buffers: inside the resolved domain, appended to the fluid.
  prepareInOut(path_, c_);
  readViscoTime();
  return std::move(c_);
}

// <predefinition>: GenCase's variable commands before <definition>, which may then use them.
void CaseReader::predefine(const XMLElement* e) {
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (skipped(c)) continue;
    if (!runVariableCommand(*this, c, variables_))
      fail(c,
           "only variable commands (newvarcte, newvar, setvar, newvarstrcte, newvarstr, setvarstr, delvar, varssave, "
           "varsload) belong in <predefinition>");
  }
}

// <geometry>: its <definition> (read here) and its <commands>: the <list>s by name into `lists`;
// returns the <mainlist>.
const XMLElement* CaseReader::readGeometry(const XMLElement* geometry, std::map<std::string, const XMLElement*>& lists) {
  const XMLElement* commands = nullptr;
  const XMLElement* definition = nullptr;
  for (const XMLElement* e = geometry->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    if (name == "definition" && !definition) definition = e;
    else if (name == "commands" && !commands) commands = e;
    else if (name != "predefinition") unknown(e, geometry);
  }
  // Its variables exist before <definition>, wherever it is written.
  for (const XMLElement* e = geometry->FirstChildElement("predefinition"); e; e = e->NextSiblingElement("predefinition"))
    predefine(e);
  if (!definition) fail(geometry, "missing element <definition>");
  readDefinition(definition);
  if (!commands) fail(geometry, "missing element <commands>");
  const XMLElement* mainlist = nullptr;
  for (const XMLElement* e = commands->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (skipped(e)) continue;
    const std::string_view name = e->Name();
    if (name == "mainlist" && !mainlist) {
      mainlist = e;
    } else if (name == "list") {
      if (!lists.emplace(attr(e, "name"), e).second) fail(e, fmt::format("a second <list name=\"{}\">", attr(e, "name")));
    } else {
      unknown(e, commands);
    }
  }
  if (!mainlist) fail(commands, "missing element <mainlist>");
  return mainlist;
}

void CaseReader::readCaseDef(const XMLElement* casedef) {
  const XMLElement *constants = nullptr, *mkconfig = nullptr, *geometry = nullptr, *motion = nullptr;
  const XMLElement *floatings = nullptr, *properties = nullptr, *normals = nullptr, *initials = nullptr;
  const XMLElement* patterns = nullptr;
  for (const XMLElement* e = casedef->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    const XMLElement** slot = name == "constantsdef" ? &constants
                              : name == "mkconfig"   ? &mkconfig
                              : name == "geometry"   ? &geometry
                              : name == "floatings"  ? &floatings
                              : name == "properties" ? &properties
                              : name == "motion"     ? &motion
                              : name == "initials"   ? &initials
                              : name == "patterns"   ? &patterns
                                                     : nullptr;
    if (slot) {
      if (*slot) fail(e, "appears twice");
      *slot = e;
    } else if (name == "normals") {
      if (normals) fail(e, "appears twice");
      // active="false" (DualSPHysics' switch) leaves the case without normals.
      if (boolean(e, "active", true)) normals = e;
    } else {
      unknown(e, casedef);
    }
  }
  if (constants) readConstants(constants);
  if (mkconfig) readMkConfig(mkconfig);
  if (!geometry) fail(casedef, "missing element <geometry>");

  patterns_ = patterns;
  std::map<std::string, const XMLElement*> lists;
  const XMLElement* mainlist = readGeometry(geometry, lists);
  if (genParticles_) {
    // The particles GenCase made from these commands are in its particle file; mDBC's normals
    // too, when it wrote them.
    if (opts_.dpOverride)
      throw InputError(fmt::format("{}: GenCase's output holds the particles of dp {}; --dp {} cannot change "
                                   "them (run GenCase again, or give the _Def.xml case)",
                                   path_, definitionDp_, *opts_.dpOverride));
    if (execution_) readExecution(execution_);
    readGenCaseOutput(*this, genParticles_, genConstants_, c_);
    // GenCase 5.4 writes the normals it computed (array BoundNor); without them, those of the
    // operations that need no geometry file are computed on its particles.
    if (normals && c_.normals.empty()) readNormals(*this, normals, c_, {}, smoothingLength());
  } else {
    runMainList(mainlist, lists);
    if (execution_) readExecution(execution_);  // may use the variables the commands defined
    // GenCase moves particles before it works out their normals.
    if (initials) placeInitially(*this, initials, c_);
    if (normals) readNormals(*this, normals, c_, shapeFiles_, smoothingLength());
  }
  // After the geometry: these name mks that must have particles.
  if (floatings) readFloatings(*this, floatings, c_);
  if (properties) readProperties(*this, properties, c_);
  if (motion) readMotion(*this, motion, c_.mks, c_.motions, c_.motionFrames);  // refs name generated particles
  attachWavePaddles(path_, paddles_, c_);
  attachMlPistons(path_, c_);
  // DEM cases (bowling pins, a pile of blocks) and DualSPHysics' motion examples (boundaries
  // moving alone) may have no fluid; a case where nothing moves at all is a mistake.
  if (c_.nFluid == 0 && c_.floatings.empty() && c_.motions.empty() && !c_.inout.active)
    fail(genParticles_ ? genParticles_ : mainlist,
         "the case has no fluid particles, floating bodies, moving boundaries or inlets: nothing would move");
  if (!genParticles_) orderAsGenCase(c_);
  if (initials) readInitials(*this, initials, c_, genParticles_ != nullptr);  // on GenCase's order, which sets the particles' slots
  if (initialize_) readInitialize(initialize_);  // DualSPHysics applies it when the run starts, after GenCase's
  attachAccInputs(path_, c_);  // mk indices of the final order
  attachGauges(path_, c_);     // the same
  attachOutputParts(path_, c_);
  for (const MotionObject& m : c_.motions) {
    if (const FloatingDef* f = floatingOf(c_, m.ref))
      throw InputError(fmt::format("{}:{}: <objreal>: mkbound {} is a floating body (line {}): it cannot "
                                   "also have an imposed motion", path_, m.line, m.ref, f->line));
  }
}

void CaseReader::readConstants(const XMLElement* list) {
  CaseConstants& k = c_.constants;
  for (const XMLElement* e = list->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    if (name == "gravity") k.gravity = vec(e);
    else if (name == "rhop0") k.rhop0 = real(e, "value");
    else if (name == "rhopgradient") {
      k.rhopGradient = integer(e, "value");
      if (k.rhopGradient < 1 || k.rhopGradient > 3) fail(e, "value must be 1, 2 or 3");
    } else if (name == "hswl") k.hswl = autoValue(e);
    else if (name == "gamma") {
      k.gamma = real(e, "value");
      if (!(k.gamma > 0)) fail(e, "value must be positive (Tait's exponent, 7 for water)");
    }
    else if (name == "speedsystem") k.speedSystem = autoValue(e);
    else if (name == "coefsound") {
      // 0 is allowed: the speed of sound is then 10 sqrt(g hswl), or <speedsound> when given.
      k.coefSound = real(e, "value");
      if (!(k.coefSound >= 0)) fail(e, "value must not be negative");
    }
    else if (name == "speedsound") k.speedSound = autoValue(e);
    else if (name == "b") {
      k.b = autoValue(e);
      if (!k.b.isAuto && !(k.b.value > 0)) fail(e, "value must be positive when auto is false");
    }
    else if (name == "coefh") {
      k.coefH = real(e, "value");
      if (!k.hdp && !k.h) smoothingElement_ = e;
    }
    else if (name == "h" || name == "massbound" || name == "massfluid") {
      // GenCase computes these unless auto is false (DualSPHysics' CaseTemplate lists them).
      const AutoValue v = autoValue(e);
      if (!v.isAuto) {
        if (!(v.value > 0)) fail(e, "value must be positive when auto is false");
        (name == "h" ? k.h : name == "massbound" ? k.massBound : k.massFluid) = v.value;
        if (name == "h") smoothingElement_ = e;
      }
    }
    else if (name == "hdp") {
      k.hdp = real(e, "value");
      if (!k.h) smoothingElement_ = e;
    }
    else if (name == "cflnumber") {
      k.cflNumber = real(e, "value");
      // The Courant number multiplies the stable step; above 1 the step is no longer stable.
      if (!(k.cflNumber > 0 && k.cflNumber <= 1)) fail(e, "value must be in (0, 1] (DualSPHysics uses 0.1-0.3)");
    }
    else if (name == "lattice") {
      // 1: a particle per node; 2: two per node (geometry/particle_generator.h). GenCase treats any other
      // integer as 2, undocumented: refused here.
      onlyChildren(e, {});
      for (const char* key : {"bound", "fluid"}) {
        const int v = integer(e, key);
        if (v != 1 && v != 2)
          fail(e, fmt::format("{}=\"{}\": the lattice is 1 (one particle per node) or 2 (two per node)", key, v));
        (std::string_view(key) == "bound" ? k.latticeBound : k.latticeFluid) = v;
      }
    } else unknown(e, list);
  }
  if (k.rhop0 <= 0) fail(list, "rhop0 must be positive");
  if (k.hdp && *k.hdp <= 0) fail(list, "hdp must be positive");
  if (!k.hdp && k.coefH <= 0) fail(list, "coefh must be positive");
}

// The smoothing length: h when given (auto="false"), else hdp dp, else coefh sqrt(dim dp^2).
double CaseReader::smoothingLength() const {
  const CaseConstants& k = c_.constants;
  const int dim = c_.twoD ? 2 : 3;
  return k.h ? *k.h : (k.hdp ? *k.hdp * c_.dp : k.coefH * std::sqrt(double(dim) * c_.dp * c_.dp));
}

// DualSPHysics checks no range; its cases use h/dp from 1.06 to 2.6 (coefh 0.75-1.5, hdp 2). Below
// half a spacing the support 2h holds no neighbour; past 8 spacings a 3D particle has over 17,000
// of them (a typo such as coefh 1000 would make every particle see the whole case). Between the
// bounds, far from the usual values, a warning says why the run may disappoint.
void CaseReader::checkSmoothingLength(const XMLElement* root) {
  constexpr double kLeast = 0.5, kMost = 8, kUsualLeast = 0.9, kUsualMost = 4;
  const double ratio = smoothingLength() / c_.dp;
  const XMLElement* e = smoothingElement_ ? smoothingElement_ : root;
  const std::string what = fmt::format("h = {:.4g} m is {:.3g} times dp = {:.4g} m", smoothingLength(), ratio, c_.dp);
  if (!(ratio >= kLeast && ratio <= kMost))
    fail(e, fmt::format("{}: h must be {} to {} dp (DualSPHysics' cases use 1 to 2.6: coefh 0.75-1.5, hdp 2); {}",
                        what, kLeast, kMost,
                        ratio < kLeast ? "the kernel's support 2h would hold no neighbour"
                                       : "every particle would interact with thousands of others"));
  if (ratio < kUsualLeast || ratio > kUsualMost)
    c_.warnings.push_back(fmt::format("{}:{}: <{}>: {}, outside the usual 1-2.6 (coefh 0.75-1.5, hdp 2): {}", path_,
                                      e->GetLineNum(), e->Name(), what,
                                      ratio < kUsualLeast ? "few neighbours, a noisy kernel sum"
                                                          : "many neighbours, a slow and diffusive run"));
}

void CaseReader::readMkConfig(const XMLElement* e) {
  boundCount_ = integer(e, "boundcount");
  fluidCount_ = integer(e, "fluidcount");
  if (boundCount_ < 1 || fluidCount_ < 1) fail(e, "boundcount and fluidcount must be at least 1");
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (skipped(c)) continue;
    // <mkorientfluid mk orient> (CaseWavemaker: mk="0" orient="Xyz") and <mkorientbound mk orient>
    // name the axis order in which GenCase lists the particles of an mk. They place no particle
    // and set no simulation parameter (GenCase 5.0 gives the same particles in another order,
    // which changes the ids, not the flow), so they are validated (an existing mk number, a
    // permutation of x, y, z) and have no further effect here.
    const std::string_view name = c->Name();
    if (name != "mkorientfluid" && name != "mkorientbound") unknown(c, e);
    const int mk = integer(c, "mk");
    const int count = name == "mkorientfluid" ? fluidCount_ : boundCount_;
    if (mk < 0 || mk >= count)
      fail(c, fmt::format("mk {} is outside 0..{} (<mkconfig {}=\"{}\">)", mk, count - 1,
                          name == "mkorientfluid" ? "fluidcount" : "boundcount", count));
    std::string orient = attr(c, "orient");
    std::transform(orient.begin(), orient.end(), orient.begin(),
                   [](unsigned char ch) { return char(std::tolower(ch)); });
    std::string sorted = orient;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != "xyz") fail(c, fmt::format("orient=\"{}\" is not an order of the axes x, y, z", orient));
  }
}

void CaseReader::readDefinition(const XMLElement* def) {
  c_.dp = real(def, "dp");
  definitionDp_ = c_.dp;
  if (opts_.dpOverride) {
    if (!(*opts_.dpOverride > 0) || !std::isfinite(*opts_.dpOverride)) {
      throw InputError(fmt::format("{}: the dp override {} must be a positive number", path_,
                                   *opts_.dpOverride));
    }
    c_.dp = *opts_.dpOverride;
  }
  if (!(c_.dp > 0)) fail(def, fmt::format("dp must be positive (got {})", c_.dp));
  // The variables GenCase defines, which "#expression" attributes may use from here on.
  const CaseConstants& k = c_.constants;
  defineVariable(def, "Dp", c_.dp);
  defineVariable(def, "Rhop0", k.rhop0);
  defineVariable(def, "Gravity_x", k.gravity.x);
  defineVariable(def, "Gravity_y", k.gravity.y);
  defineVariable(def, "Gravity_z", k.gravity.z);
  const XMLElement *pmin = nullptr, *pmax = nullptr;
  for (const XMLElement* e = def->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    if (name == "pointmin") pmin = e;
    else if (name == "pointmax") pmax = e;
    else if (name == "pointref") c_.pointRef = vec(e);
    else if (name == "lattice") fail(e, "<lattice> belongs in <constantsdef> (GenCase ignores it here)");
    else unknown(e, def);
  }
  if (!pmin) fail(def, "missing element <pointmin>");
  if (!pmax) fail(def, "missing element <pointmax>");
  c_.pointMin = vec(pmin);
  c_.pointMax = vec(pmax);
  if (c_.pointMax.x < c_.pointMin.x || c_.pointMax.y < c_.pointMin.y ||
      c_.pointMax.z < c_.pointMin.z) {
    fail(pmax, "pointmax must not be below pointmin on any axis");
  }
  c_.twoD = c_.pointMin.y == c_.pointMax.y;
  const char* axes[3] = {"x", "y", "z"};
  const double lo[3] = {c_.pointMin.x, c_.pointMin.y, c_.pointMin.z};
  const double hi[3] = {c_.pointMax.x, c_.pointMax.y, c_.pointMax.z};
  for (int a = 0; a < 3; ++a) {
    defineVariable(def, std::string("PosMin_") + axes[a], lo[a]);
    defineVariable(def, std::string("PosMax_") + axes[a], hi[a]);
  }
  defineVariable(def, "Data2D", c_.twoD ? 1 : 0);
  defineVariable(def, "Data2DPosy", c_.twoD ? c_.pointMin.y : 0);
  const int dim = c_.twoD ? 2 : 3;
  defineVariable(def, "H", smoothingLength());
  const double mass = k.rhop0 * std::pow(c_.dp, dim);
  defineVariable(def, "MassBound", k.massBound.value_or(mass / k.latticeBound));
  defineVariable(def, "MassFluid", k.massFluid.value_or(mass / k.latticeFluid));
  // Node indices are 64-bit integers: refuse spans they cannot hold long before that.
  const Vec3d o = c_.pointMin;
  const double far = std::max({std::fabs(c_.pointMin.x - o.x), std::fabs(c_.pointMax.x - o.x),
                               std::fabs(c_.pointMin.y - o.y), std::fabs(c_.pointMax.y - o.y),
                               std::fabs(c_.pointMin.z - o.z), std::fabs(c_.pointMax.z - o.z)});
  if (!(far / c_.dp < kMaxNodeIndex)) {
    fail(def, fmt::format("pointmin/pointmax/pointref lie {} dp apart: too far for dp {}",
                          far / c_.dp, c_.dp));
  }
}

void CaseReader::defineVariable(const XMLElement* e, const std::string& name, double value) {
  try {
    variables_.define(name, value, true);
  } catch (const std::invalid_argument& err) {
    fail(e, err.what());
  }
}

// <casedef><patterns>: GenCase's particle patterns (geometry/node_pattern.h), each checked as
// GenCase checks it (a bad one stops the case even when no shape uses it); names are
// case-insensitive and unique, and "solid" is GenCase's own (no pattern).
void CaseReader::readPatterns(const XMLElement* patterns, gen::ParticleGenerator& generator) const {
  onlyChildren(patterns, {"pattern"});
  for (const XMLElement* e = patterns->FirstChildElement("pattern"); e; e = e->NextSiblingElement("pattern")) {
    if (skipped(e)) continue;
    onlyChildren(e, {"size", "scale", "gap", "border"});
    const std::string name = attr(e, "name");
    if (generator.patternIndex(name) >= 0) fail(e, fmt::format("name=\"{}\": the pattern name already exists", name));
    int64_t size[3] = {1, 1, 1}, scale[3] = {1, 1, 1}, gap[3] = {0, 0, 0}, border[3] = {0, 0, 0};
    const auto read = [&](const char* element, int64_t out[3], bool needed) {
      const XMLElement* c = needed ? child(e, element) : optionalChild(e, element);
      if (!c) return;
      onlyChildren(c, {});
      out[0] = integer(c, "x");
      out[1] = integer(c, "y");
      out[2] = integer(c, "z");
    };
    read("size", size, true);
    read("scale", scale, false);
    read("gap", gap, false);
    read("border", border, false);
    gen::NodePattern p;
    const std::string problem = gen::makeNodePattern(name, attr(e, "pattern"), size, scale, gap, border, p);
    if (!problem.empty()) fail(e, fmt::format("pattern \"{}\": {}", name, problem));
    generator.addPattern(std::move(p));
  }
}

void CaseReader::runMainList(const XMLElement* list, const std::map<std::string, const XMLElement*>& lists) {
  gen::LatticeSpec spec;
  spec.dp = c_.dp;
  spec.pointMin = c_.pointMin;
  spec.pointMax = c_.pointMax;
  spec.twoD = c_.twoD;
  spec.maxNodes = opts_.maxLatticeNodes;
  spec.runBytesPerParticle = opts_.runHostBytesPerParticle;
  spec.boundPairs = c_.constants.latticeBound == 2;
  spec.fluidPairs = c_.constants.latticeFluid == 2;
  gen::ParticleGenerator generator(spec);
  if (patterns_) readPatterns(patterns_, generator);
  GeometryCommands commands(*this, variables_, c_.name, c_.dp, boundCount_, fluidCount_, lists, generator);
  commands.run(list);
  shapeFiles_ = commands.shapeFiles();

  gen::GeneratedParticles parts;
  try {
    parts = generator.generate(fluidCount_ + kMkFluidFirst, kMkFluidFirst);
  } catch (const InputError& err) {
    fail(list, err.what());
  }
  c_.positions = std::move(parts.positions);
  c_.mkIndex = std::move(parts.mkIndex);
  c_.mks = std::move(parts.mks);
  c_.nBound = parts.nBound;
  c_.nFluid = parts.nFluid;
  c_.generatorPeakBytes = parts.peakBytes;
}

// <special><initialize>: DualSPHysics' operations on the particles when a run starts, in order:
// <fluidvelocity> and the mDBC normal operations (boundnormal_*, case/normals_reader.h).
void CaseReader::readInitialize(const XMLElement* e) {
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (skipped(c) || !boolean(c, "active", true)) continue;
    if (isInitializeNormal(c)) applyInitializeNormal(*this, c, c_, smoothingLength());
    else if (std::string_view(c->Name()) == "fluidvelocity") applyVelocityProfile(*this, c, c_);
    else unknown(c, e);
  }
}

void CaseReader::readExecution(const XMLElement* exec) {
  for (const XMLElement* e = exec->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    if (name == "parameters") readParameters(e);
    else if (name == "special") {
      readSpecial(*this, e, c_, paddles_);
      for (const XMLElement* i = e->FirstChildElement("initialize"); i; i = i->NextSiblingElement("initialize")) {
        if (skipped(i)) continue;
        if (initialize_) fail(i, fmt::format("appears twice (first at line {})", initialize_->GetLineNum()));
        initialize_ = i;
      }
    }
    else if (name == "particles" || name == "constants" || name == "motion") continue;  // scanGenCaseRecords
    else if (name == "vtkout" || name == "uservars") continue;  // GenCase's record of its shape files and variables
    else unknown(e, exec);
  }
}

void CaseReader::scanGenCaseRecords(const XMLElement* exec) {
  for (const XMLElement* e = exec->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    if (name == "particles") genParticles_ = e;
    else if (name == "constants") genConstants_ = e;
    else if (name == "motion") genMotion_ = e;
  }
}

// <parameter key="ViscoTime" value="FILE">: DualSPHysics' viscosity in time (JDsViscoInput), rows
// time;visco in FILE relative to the case's folder; "0" or empty: off.
void CaseReader::readViscoTime() {
  const auto it = c_.parameters.find("ViscoTime");
  if (it == c_.parameters.end()) return;
  const std::string& v = it->second.value;
  if (v.empty() || v == "0" || v == "false" || v == "none" || v == "NONE") return;
  std::filesystem::path file(v);
  if (file.is_relative()) file = std::filesystem::path(path_).parent_path() / file;
  c_.viscoTimeFile = file.string();
  DataFileUse use{"ViscoTime file", "the viscosity", "a viscosity in time"};
  try {
    for (const std::vector<double>& row : readDataRows(c_.viscoTimeFile, 2, 0, use)) {
      if (!(row[1] >= 0)) throw InputError(fmt::format("{}: a viscosity {:g} below zero", c_.viscoTimeFile, row[1]));
      c_.viscoTime.emplace_back(row[0], row[1]);
    }
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}:{}: <parameter key=\"ViscoTime\">: {}", path_, it->second.line, e.what()));
  }
}

void CaseReader::readParameters(const XMLElement* params) {
  for (const XMLElement* e = params->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    if (name == "parameter") {
      const std::string key = attr(e, "key");
      std::string value = attr(e, "value");
      // "#expression" over GenCase's variables, as GenCase writes the value into its output.
      if (!value.empty() && value[0] == '#') value = fmt::format("{:.17g}", real(e, "value"));
      const auto [it, inserted] = c_.parameters.try_emplace(key, CaseParameter{value, e->GetLineNum()});
      if (!inserted) {
        fail(e, fmt::format("parameter {} is already set at line {}", key, it->second.line));
      }
    } else if (name == "simulationdomain") {
      readDomain(e);
    } else {
      unknown(e, params);
    }
  }
}

void CaseReader::readDomain(const XMLElement* dom) {
  domainElement_ = dom;
  for (const XMLElement* e = dom->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    DomainAxisSpec* spec = name == "posmin"   ? c_.domainMin
                           : name == "posmax" ? c_.domainMax
                                              : nullptr;
    if (!spec) unknown(e, dom);
    for (int a = 0; a < 3; ++a) {
      const char key[2] = {"xyz"[a], '\0'};
      const char* text = e->Attribute(key);
      if (!text) continue;  // an axis left out keeps "default"
      const auto parsed = parseDomainAxis(text);
      if (!parsed) {
        fail(e, fmt::format("attribute {}=\"{}\" is not default, default +/- value, "
                            "default +/- percent% or a number", key, text));
      }
      spec[a] = *parsed;
    }
  }
}

}  // namespace

CaseDefinition loadCase(const std::string& path, const LoadOptions& opts) {
  return CaseReader(path, opts).load();
}

}  // namespace sph
