// The end-of-run report: JSON for tools (run.json) and the phase table for people.
#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "output/output.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

// The four rows of tables 3-5 of Takada et al. (2017), "Acceleration of SPH-based fluid
// simulation on GPU"; a phase with any other group counts as other.
constexpr std::array<std::string_view, 4> kGroups = {"sort", "list", "interaction", "other"};

size_t groupIndex(std::string_view g) {
  for (size_t k = 0; k < kGroups.size(); ++k)
    if (kGroups[k] == g) return k;
  return kGroups.size() - 1;
}

double phaseTotal(const RunReport& r) {
  double t = 0;
  for (const PhaseTime& p : r.phases) t += p.seconds;
  return t;
}

double shareOf(double seconds, double total) { return total > 0 ? seconds / total : 0.0; }

// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are not one.
size_t utf8SequenceLength(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t len = 0;
  uint32_t cp = 0, least = 0;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F, least = 0x80;
  else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F, least = 0x800;
  else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07, least = 0x10000;
  else return 0;
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// A JSON string literal; bytes that are not valid UTF-8 (e.g. from a file name) become U+FFFD
// so the document stays valid.
std::string jsonString(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    const size_t len = utf8SequenceLength(s, i);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (len > 1) {
      out.append(s.substr(i, len));
      i += len;
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else out += c;
    }
    ++i;
  }
  return out + "\"";
}

// Shortest text that reads back to the same double; JSON has no NaN or infinity.
std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::string jsonNumber(uint64_t v) { return std::to_string(v); }

// Renders {"k": v, ...}, one member per line at `indent`, closing brace at indent - 2.
template <class Map, class Render>
std::string jsonObject(const Map& m, int indent, Render render) {
  if (m.empty()) return "{}";
  std::string out = "{\n";
  size_t k = 0;
  for (const auto& [key, value] : m) {
    out += fmt::format("{:{}}{}: {}{}\n", "", indent, jsonString(key), render(value), ++k < m.size() ? "," : "");
  }
  return out + fmt::format("{:{}}}}", "", indent - 2);
}

std::string parametersJson(const std::vector<RunReport::Parameter>& list) {
  if (list.empty()) return "{}";
  std::string out = "{\n";
  for (size_t k = 0; k < list.size(); ++k)
    out += fmt::format("    {}: {{\"value\": {}, \"source\": {}}}{}\n", jsonString(list[k].name),
                       jsonString(list[k].value), jsonString(list[k].source), k + 1 < list.size() ? "," : "");
  return out + "  }";
}

std::string stringArrayJson(const std::vector<std::string>& list) {
  if (list.empty()) return "[]";
  std::string out = "[\n";
  for (size_t k = 0; k < list.size(); ++k)
    out += fmt::format("    {}{}\n", jsonString(list[k]), k + 1 < list.size() ? "," : "");
  return out + "  ]";
}

}  // namespace

std::string runReportJson(const RunReport& r) {
  const double total = phaseTotal(r);
  std::string phases = "[]";
  if (!r.phases.empty()) {
    phases = "[\n";
    for (size_t k = 0; k < r.phases.size(); ++k) {
      const PhaseTime& p = r.phases[k];
      phases += fmt::format("    {{\"name\": {}, \"group\": {}, \"seconds\": {}, \"calls\": {}, \"share\": {}}}{}\n",
                            jsonString(p.name), jsonString(p.group), jsonNumber(p.seconds), jsonNumber(p.calls),
                            jsonNumber(shareOf(p.seconds, total)), k + 1 < r.phases.size() ? "," : "");
    }
    phases += "  ]";
  }

  const std::vector<std::pair<std::string_view, std::string>> members = {
      {"case", jsonString(r.caseName)},
      {"case_path", jsonString(r.casePath)},
      {"strategy", jsonString(r.strategy)},
      {"precision", jsonString(r.precision)},
      {"device", jsonString(r.device)},
      {"device_name", jsonString(r.deviceName)},
      {"status", jsonString(r.status)},
      {"error", r.error.empty() ? std::string("null") : jsonString(r.error)},
      {"particles", fmt::format("{{\"bound\": {}, \"fluid\": {}, \"total\": {}}}", r.nBound, r.nFluid, r.nTotal)},
      {"steps", jsonNumber(r.steps)},
      {"simulated_time", jsonNumber(r.simulatedTime)},
      {"wall_seconds", jsonNumber(r.wallSeconds)},
      {"ns_per_particle_step", jsonNumber(r.nsPerParticleStep)},
      {"excluded", fmt::format("{{\"total\": {}, \"out_of_domain\": {}, \"density\": {}}}", r.excluded,
                               r.excludedOutOfDomain, r.excludedDensity)},
      {"peak_device_bytes", jsonNumber(r.peakDeviceBytes)},
      {"phases", phases},
      {"strategy_stats", jsonObject(r.strategyStats, 4, [](double v) { return jsonNumber(v); })},
      {"extra", jsonObject(r.extra, 4, [](const std::string& v) { return jsonString(v); })},
      {"parameters", parametersJson(r.parameters)},
      {"warnings", stringArrayJson(r.warnings)},
  };
  std::string out = "{\n";
  for (size_t k = 0; k < members.size(); ++k)
    out += fmt::format("  \"{}\": {}{}\n", members[k].first, members[k].second, k + 1 < members.size() ? "," : "");
  return out + "}\n";
}

void writeRunReport(const std::string& path, const RunReport& r) { writeTextFileAtomic(path, runReportJson(r)); }

std::string strategyStatsText(const RunReport& r) {
  if (r.strategyStats.empty()) return "";
  size_t width = 0;
  for (const auto& [name, value] : r.strategyStats) width = std::max(width, name.size());
  std::string out = fmt::format("Neighbour search statistics ({}):\n", r.strategy);
  for (const auto& [name, value] : r.strategyStats) out += fmt::format("  {:<{}}  {:.6g}\n", name, width, value);
  return out;
}

std::string phaseTable(const RunReport& r) {
  if (r.phases.empty())
    return fmt::format("No phase times (phase timers off): case {}, strategy {}, device {}, precision {}\n"
                       "Wall time {:.3f} s\n",
                       r.caseName, r.strategy, r.device, r.precision, r.wallSeconds);
  const double total = phaseTotal(r);
  std::vector<const PhaseTime*> rows;
  for (const PhaseTime& p : r.phases) rows.push_back(&p);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const PhaseTime* a, const PhaseTime* b) { return groupIndex(a->group) < groupIndex(b->group); });

  size_t nameWidth = 20;
  for (const PhaseTime* p : rows) nameWidth = std::max(nameWidth, p->name.size() + 2);
  const std::string rule(nameWidth + 50, '-');
  auto line = [&](std::string_view name, std::string_view group, double seconds, std::string_view calls) {
    return fmt::format("{:<{}}{:<13}{:>12.6f}{:>9.1f}%{:>15}\n", name, nameWidth, group, seconds,
                       100.0 * shareOf(seconds, total), calls);
  };

  std::string out = fmt::format("Phase times: case {}, strategy {}, device {}, precision {}\n", r.caseName,
                                r.strategy, r.device, r.precision);
  out += fmt::format("{:<{}}{:<13}{:>12}{:>10}{:>15}\n", "Phase", nameWidth, "Group", "Seconds", "Share", "Calls");
  out += rule + "\n";
  std::array<double, kGroups.size()> groupSeconds{};
  for (const PhaseTime* p : rows) {
    groupSeconds[groupIndex(p->group)] += p->seconds;
    out += line(p->name, p->group, p->seconds, std::to_string(p->calls));
  }
  out += rule + "\n";
  for (size_t k = 0; k < kGroups.size(); ++k) out += line(fmt::format("[{}]", kGroups[k]), "", groupSeconds[k], "");
  out += line("Total", "", total, "");
  if (r.wallSeconds > 0)
    out += fmt::format("Wall time {:.3f} s ({:.3f} s outside timed phases)\n", r.wallSeconds,
                       std::max(0.0, r.wallSeconds - total));
  return out;
}

void writeTextFileAtomic(const std::string& path, std::string_view text) {
  const std::string tmp = path + ".tmp";
  auto fail = [&](std::string_view what, const std::string& file, int err) {
    std::remove(tmp.c_str());
    return RunError(fmt::format("cannot write file '{}': {}: {}", file, what, std::strerror(err)));
  };
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec)
    throw RunError(fmt::format("cannot write file '{}': cannot create directory '{}': {}", path, parent.string(),
                               ec.message()));
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw fail("cannot create", tmp, errno);
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int writeErr = errno;
  if (std::fclose(f) != 0 || !written) throw fail("write failed", tmp, written ? errno : writeErr);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw fail("rename from '" + tmp + "' failed", path, errno);
}

}  // namespace sph
