#include "case/acc_inputs_reader.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "case/floating_reader.h"
#include "case/motion_data_file.h"
#include "motion/acc_inputs.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

// The columns of <timevalue> and of the data file's rows after the time, as DualSPHysics names them.
constexpr const char* kValueNames[6] = {"linx", "liny", "linz", "angx", "angy", "angz"};
// A data file's row: the time and the six values.
constexpr int kFileFields = 7;

class AccInputReader {
 public:
  explicit AccInputReader(const XmlReader& xml) : x_(xml) {}

  AccInput read(const XMLElement* e, const std::vector<AccInput>& earlier) const {
    x_.onlyChildren(e, {"time", "acccentre", "globalgravity", "acctimes", "acctimesfile"});
    AccInput in;
    in.line = e->GetLineNum();
    const bool fluid = e->Attribute("mkfluid") != nullptr;
    in.bound = e->Attribute("mkbound") != nullptr;
    if (fluid && in.bound) x_.fail(e, "give mkfluid or mkbound, not both");
    if (!fluid && !in.bound) x_.fail(e, "needs mkfluid=\"...\" (fluid) or mkbound=\"...\" (a floating body)");
    const char* kind = in.bound ? "mkbound" : "mkfluid";
    in.mks = parseMkList(x_, e, kind);
    for (int mk : in.mks) {
      for (const AccInput& o : earlier)
        if (o.bound == in.bound && std::find(o.mks.begin(), o.mks.end(), mk) != o.mks.end())
          x_.fail(e, fmt::format("{} {} already has the acceleration input of line {}", kind, mk, o.line));
      if (std::count(in.mks.begin(), in.mks.end(), mk) > 1) x_.fail(e, fmt::format("{} {} is named twice", kind, mk));
    }
    if (const XMLElement* t = e->FirstChildElement("time")) {
      in.start = x_.real(t, "start", 0.0);
      in.end = x_.real(t, "end", in.end);
    }
    const Vec3d c = x_.vec(x_.child(e, "acccentre"));
    in.centre = {float(c.x), float(c.y), float(c.z)};
    const XMLElement* g = x_.child(e, "globalgravity");
    x_.attr(g, "value");  // required
    in.globalGravity = x_.boolean(g, "value", true);
    const XMLElement* times = e->FirstChildElement("acctimes");
    const XMLElement* file = e->FirstChildElement("acctimesfile");
    if (times && file) x_.fail(file, "give the accelerations in <acctimes> or in <acctimesfile>, not both");
    if (!times && !file) x_.fail(e, "needs its accelerations: <acctimes> with <timevalue> rows, or <acctimesfile>");
    if (times)
      readRows(times, in);
    else
      readFile(file, in);
    accInputVelocities(in);
    return in;
  }

 private:
  // <acctimes><timevalue time linx liny linz angx angy angz/>...: values left out are 0.
  void readRows(const XMLElement* times, AccInput& in) const {
    for (const XMLElement* r = times->FirstChildElement(); r; r = r->NextSiblingElement()) {
      if (skipped(r)) continue;
      if (std::string_view(r->Name()) != "timevalue") x_.unknown(r, times);
      const double t = x_.real(r, "time");
      if (!in.time.empty() && t < in.time.back())
        x_.fail(r, fmt::format("time {} comes before the previous row's {}: times must not decrease", t, in.time.back()));
      std::array<double, 6> a;
      for (int k = 0; k < 6; ++k) a[k] = x_.real(r, kValueNames[k], 0.0);
      in.time.push_back(t);
      in.acc.push_back(a);
    }
    if (in.time.size() < 2)
      x_.fail(times, fmt::format("{} <timevalue> row{}, an acceleration input needs at least two", in.time.size(),
                                 in.time.size() == 1 ? "" : "s"));
  }

  // <acctimesfile value="FILE">: relative to the case file's folder; rows
  // time;linx;liny;linz;angx;angy;angz. Its errors name the element and the file's line.
  void readFile(const XMLElement* file, AccInput& in) const {
    x_.onlyChildren(file, {});
    std::filesystem::path path(x_.attr(file, "value"));
    if (path.is_relative()) path = std::filesystem::path(x_.path()).parent_path() / path;
    in.file = path.string();
    const DataFileUse use{"acceleration data file", "the acceleration input", "an acceleration input"};
    try {
      for (const std::vector<double>& row : readDataRows(in.file, kFileFields, 0, use)) {
        in.time.push_back(row[0]);
        in.acc.push_back({row[1], row[2], row[3], row[4], row[5], row[6]});
      }
    } catch (const InputError& err) {
      x_.fail(file, err.what());
    }
  }

  const XmlReader& x_;
};

}  // namespace

void readAccInputs(const XmlReader& xml, const XMLElement* accinputs, std::vector<AccInput>& out) {
  const AccInputReader reader(xml);
  for (const XMLElement* e = accinputs->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (skipped(e)) continue;
    if (std::string_view(e->Name()) != "accinput") xml.unknown(e, accinputs);
    if (!xml.boolean(e, "active", true)) continue;
    out.push_back(reader.read(e, out));
  }
}

void attachAccInputs(const std::string& path, CaseDefinition& c) {
  for (AccInput& in : c.accInputs) {
    const char* kind = in.bound ? "mkbound" : "mkfluid";
    in.mkIndex.clear();
    for (int mk : in.mks) {
      const size_t k = mkIndexOf(c, in.bound, mk);
      if (k == c.mks.size() || c.mks[k].count == 0)
        throw InputError(fmt::format("{}:{}: <accinput>: {} {} has no particles in this case", path, in.line, kind, mk));
      if (in.bound) {
        if (!floatingOf(c, mk))
          throw InputError(fmt::format("{}:{}: <accinput>: mkbound {} is not a floating body: an acceleration input "
                                       "moves fluid (mkfluid) or floating bodies (<floatings>), as in DualSPHysics",
                                       path, in.line, mk));
      }
      in.mkIndex.push_back(uint16_t(k));
    }
  }
}

}  // namespace sph
