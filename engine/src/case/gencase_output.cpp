#include "case/gencase_output.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "case/jbinary_file.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

// One <fixed>, <moving>, <floating> or <fluid> element of <particles>: a range of ids of one mk.
struct MkBlock {
  bool bound = false;
  int local = 0;  // mkbound or mkfluid
  int mk = 0;
  uint64_t begin = 0, count = 0;
  const XMLElement* element = nullptr;
};

uint64_t unsignedAttr(const XmlReader& x, const XMLElement* e, const char* name) {
  const double v = x.real(e, name);
  if (!(v >= 0) || v != std::floor(v) || v > double(std::numeric_limits<uint32_t>::max()))
    x.fail(e, fmt::format("{}=\"{}\" is not a particle count or id", name, e->Attribute(name)));
  return uint64_t(v);
}

void readConstants(const XmlReader& x, const XMLElement* constants, CaseDefinition& c) {
  CaseConstants& k = c.constants;
  for (const XMLElement* e = constants->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (skipped(e)) continue;
    const std::string_view name = e->Name();
    auto positive = [&](const char* what) {
      const double v = x.real(e, "value");
      if (!(v > 0) || !std::isfinite(v)) x.fail(e, fmt::format("{} must be a positive number", what));
      return v;
    };
    if (name == "data2d") {
      if (x.boolean(e, "value", false) != c.twoD)
        x.fail(e, fmt::format("data2d is {} but <definition> makes a {} case (pointmin.y {} pointmax.y)",
                              c.twoD ? "false" : "true", c.twoD ? "2D" : "3D", c.twoD ? "==" : "!="));
    } else if (name == "data2dposy") {
      if (c.twoD && x.real(e, "value") != c.pointMin.y)
        x.fail(e, fmt::format("data2dposy {} is not the plane y = {} of <definition>", x.real(e, "value"), c.pointMin.y));
    } else if (name == "gravity") {
      k.gravity = x.vec(e);
    } else if (name == "cflnumber") {
      k.cflNumber = positive("cflnumber");
    } else if (name == "gamma") {
      k.gamma = positive("gamma");
    } else if (name == "rhop0") {
      k.rhop0 = positive("rhop0");
    } else if (name == "dp") {
      // GenCase writes <definition>'s dp with 12 significant digits (dp="#1/3" gives 0.333333333333);
      // DualSPHysics runs with this one. Another dp than the definition's is a hand edit.
      const double dp = positive("dp");
      if (std::fabs(dp - c.dp) > 1e-9 * c.dp)
        x.fail(e, fmt::format("dp {} differs from the dp {} of <definition> (the particles were generated with the "
                              "latter: run GenCase again)", dp, c.dp));
      c.dp = dp;
    } else if (name == "h") {
      k.h = positive("h");
    } else if (name == "b") {
      if (x.real(e, "value") == 0)
        x.fail(e, "b is zero: GenCase writes 0 when hswl is automatic and the case has no fluid (DualSPHysics 5.4 "
                  "refuses it too); give <hswl auto=\"false\" value=\"...\"> (the depth the speed of sound is "
                  "based on) or <b> in <constantsdef> and run GenCase again");
      k.b = {positive("b"), false};
    } else if (name == "massbound") {
      k.massBound = positive("massbound");
    } else if (name == "massfluid") {
      k.massFluid = positive("massfluid");
    } else {
      x.unknown(e, constants);
    }
  }
  if (!k.h || k.b.isAuto || !k.massBound || !k.massFluid)
    x.fail(constants, "GenCase's constants need <h>, <b>, <massbound> and <massfluid>");
}

std::vector<MkBlock> readBlocks(const XmlReader& x, const XMLElement* particles) {
  const int mkBoundFirst = x.integer(particles, "mkboundfirst");
  const int mkFluidFirst = x.integer(particles, "mkfluidfirst");
  std::vector<MkBlock> blocks;
  for (const XMLElement* e = particles->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (skipped(e)) continue;
    const std::string_view name = e->Name();
    if (name == "properties") continue;  // GenCase's copy of <casedef><properties>, which is read
    MkBlock b;
    b.element = e;
    b.bound = name != "fluid";
    if (name != "fixed" && name != "moving" && name != "floating" && name != "fluid") x.unknown(e, particles);
    b.local = x.integer(e, b.bound ? "mkbound" : "mkfluid");
    b.mk = x.integer(e, "mk");
    if (b.mk != b.local + (b.bound ? mkBoundFirst : mkFluidFirst))
      x.fail(e, fmt::format("mk {} is not {} {} + mk{}first {}", b.mk, b.bound ? "mkbound" : "mkfluid", b.local,
                            b.bound ? "bound" : "fluid", b.bound ? mkBoundFirst : mkFluidFirst));
    b.begin = unsignedAttr(x, e, "begin");
    b.count = unsignedAttr(x, e, "count");
    for (const MkBlock& prev : blocks)
      if (prev.bound == b.bound && prev.local == b.local)
        x.fail(e, fmt::format("mk {} already has a block (line {})", b.mk, prev.element->GetLineNum()));
    blocks.push_back(b);
  }
  // The engine keeps boundary particles first; GenCase writes them first, in consecutive ids.
  uint64_t next = 0;
  bool fluidSeen = false;
  for (const MkBlock& b : blocks) {
    if (b.bound && fluidSeen) x.fail(b.element, "a boundary block after a fluid block: GenCase writes boundaries first");
    fluidSeen = fluidSeen || !b.bound;
    if (b.begin != next)
      x.fail(b.element, fmt::format("begin=\"{}\": the blocks must cover the ids in order (this one should begin at {})",
                                    b.begin, next));
    next += b.count;
  }
  const uint64_t np = unsignedAttr(x, particles, "np");
  if (next != np) x.fail(particles, fmt::format("np=\"{}\" but the mk blocks hold {} particles", np, next));
  if (const char* nb = particles->Attribute("nb")) {
    uint64_t bound = 0;
    for (const MkBlock& b : blocks) bound += b.bound ? b.count : 0;
    if (unsignedAttr(x, particles, "nb") != bound)
      x.fail(particles, fmt::format("nb=\"{}\" but the boundary blocks hold {} particles", nb, bound));
  }
  return blocks;
}


// The slot of each particle: the id it has, each id once and below the particle count.
std::vector<uint32_t> slotsOfIds(const std::string& f, const std::vector<uint32_t>& ids) {
  const uint64_t np = ids.size();
  std::vector<uint32_t> slotOf(np);
  std::vector<uint8_t> seen(np, 0);
  for (uint64_t i = 0; i < np; ++i) {
    if (ids[i] >= np) throw InputError(fmt::format("{}: particle {} has the id {}, beyond the {} particles", f, i, ids[i], np));
    if (seen[ids[i]]) throw InputError(fmt::format("{}: the id {} appears twice", f, ids[i]));
    seen[ids[i]] = 1;
    slotOf[i] = ids[i];
  }
  return slotOf;
}

// The array `name` of the particles, which must exist and hold a value for each of them.
const jbd::ArrayInfo* particleArray(const jbd::Item& part, const char* name, const std::string& f, uint64_t np) {
  const jbd::ArrayInfo* a = part.array(name);
  if (!a) throw InputError(fmt::format("{}: the particles have no array {}", f, name));
  if (a->count != np)
    throw InputError(fmt::format("{}: array {} has {} values for {} particles", f, a->name, a->count, np));
  return a;
}

// Posd (double) when there is one, else Pos (float); every position finite.
void readPositions(jbd::File& file, const jbd::Item& part, const std::string& f, const std::vector<uint32_t>& slotOf,
                   CaseDefinition& c) {
  const uint64_t np = slotOf.size();
  c.positions.assign(np, Vec3d{});
  if (part.array("Posd")) {
    std::vector<double> raw;
    file.readArray(*particleArray(part, "Posd", f, np), jbd::DataType::Double3, raw);
    for (uint64_t i = 0; i < np; ++i) c.positions[slotOf[i]] = {raw[3 * i], raw[3 * i + 1], raw[3 * i + 2]};
  } else {
    std::vector<float> raw;
    file.readArray(*particleArray(part, "Pos", f, np), jbd::DataType::Float3, raw);
    for (uint64_t i = 0; i < np; ++i) c.positions[slotOf[i]] = {raw[3 * i], raw[3 * i + 1], raw[3 * i + 2]};
  }
  for (uint64_t i = 0; i < np; ++i) {
    const Vec3d& v = c.positions[i];
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
      throw InputError(fmt::format("{}: the particle with id {} has a position that is not finite", f, i));
  }
}

// Vel and Rhop; every density positive and finite.
void readVelocitiesAndDensities(jbd::File& file, const jbd::Item& part, const std::string& f,
                                const std::vector<uint32_t>& ids, const std::vector<uint32_t>& slotOf,
                                CaseDefinition& c) {
  const uint64_t np = slotOf.size();
  std::vector<float> raw;
  file.readArray(*particleArray(part, "Vel", f, np), jbd::DataType::Float3, raw);
  c.velocities.assign(np, Vec3f{});
  for (uint64_t i = 0; i < np; ++i) c.velocities[slotOf[i]] = {raw[3 * i], raw[3 * i + 1], raw[3 * i + 2]};
  file.readArray(*particleArray(part, "Rhop", f, np), jbd::DataType::Float, raw);
  c.densities.assign(np, 0.0f);
  for (uint64_t i = 0; i < np; ++i) {
    if (!(raw[i] > 0) || !std::isfinite(raw[i]))
      throw InputError(fmt::format("{}: the particle with id {} has the density {}", f, ids[i], raw[i]));
    c.densities[slotOf[i]] = raw[i];
  }
}

}  // namespace

std::string genCaseParticleFile(const std::string& xmlPath) {
  std::filesystem::path p(xmlPath);
  p.replace_extension(".bi4");
  return p.string();
}

void readGenCaseOutput(const XmlReader& x, const XMLElement* particles, const XMLElement* constants,
                       CaseDefinition& c) {
  if (!constants) x.fail(particles, "GenCase's output has <constants> beside <particles>: it is missing");
  readConstants(x, constants, c);
  const std::vector<MkBlock> blocks = readBlocks(x, particles);

  c.particleFile = genCaseParticleFile(c.path);
  if (!std::filesystem::exists(c.particleFile))
    x.fail(particles, fmt::format("the particles of this GenCase output are in {}, which does not exist", c.particleFile));
  jbd::File file(c.particleFile);
  const jbd::Item* part = file.root().find("PART");
  if (!part) throw InputError(fmt::format("{}: no particle item (PART_...) in the file", c.particleFile));
  const std::string& f = c.particleFile;

  const jbd::ArrayInfo* idp = part->array("Idp");
  if (!idp) throw InputError(fmt::format("{}: the particles have no array {}", f, "Idp"));
  const uint64_t np = idp->count;
  const uint64_t npXml = blocks.empty() ? 0 : blocks.back().begin + blocks.back().count;
  if (np != npXml)
    throw InputError(fmt::format("{}: {} particles, but <particles> in {} lists {}", f, np, c.path, npXml));
  if (const jbd::Value* d2 = file.root().value("Data2d"); d2 && (d2->number[0] != 0) != c.twoD)
    throw InputError(fmt::format("{}: a {} case, but {} describes a {} case", f, d2->number[0] != 0 ? "2D" : "3D",
                                 c.path, c.twoD ? "2D" : "3D"));

  // Each particle goes to the slot its Idp names, so the blocks (ranges of ids) give its mk.
  std::vector<uint32_t> ids;
  file.readArray(*idp, jbd::DataType::UInt, ids);
  const std::vector<uint32_t> slotOf = slotsOfIds(f, ids);
  readPositions(file, *part, f, slotOf, c);
  readVelocitiesAndDensities(file, *part, f, ids, slotOf, c);

  c.mks.clear();
  c.mkIndex.assign(np, 0);
  c.nBound = c.nFluid = 0;
  for (const MkBlock& b : blocks) {
    if (b.count == 0) continue;
    if (c.mks.size() >= std::numeric_limits<uint16_t>::max())
      x.fail(b.element, "too many particle families (mk values) in one case");
    const uint16_t index = uint16_t(c.mks.size());
    c.mks.push_back({b.bound, b.local, b.mk, uint32_t(b.count)});
    std::fill(c.mkIndex.begin() + b.begin, c.mkIndex.begin() + b.begin + b.count, index);
    (b.bound ? c.nBound : c.nFluid) += uint32_t(b.count);
  }

  // mDBC's normals, GenCase's (to the boundary surface): the engine keeps the vector to the ghost
  // node, twice as long.
  if (const jbd::ArrayInfo* nor = part->array("BoundNor")) {
    if (nor->count != c.nBound && nor->count != np)
      throw InputError(fmt::format("{}: array BoundNor has {} values for {} boundary particles", f, nor->count, c.nBound));
    std::vector<float> raw;
    file.readArray(*nor, jbd::DataType::Float3, raw);
    c.normals.assign(np, Vec3d{});
    for (uint64_t i = 0; i < nor->count; ++i) {
      if (slotOf[i] >= c.nBound) continue;
      c.normals[slotOf[i]] = {2.0 * raw[3 * i], 2.0 * raw[3 * i + 1], 2.0 * raw[3 * i + 2]};
    }
  }
}

}  // namespace sph
