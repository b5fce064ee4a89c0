#include "case/motion_data_file.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "platform/input_file.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

bool blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }

// The values of one line, split at runs of blanks and at single ';' or ',' (with blanks around
// them). An empty value between two separators is kept, for the error message.
std::vector<std::string_view> splitValues(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  auto skipBlanks = [&] {
    while (i < line.size() && blank(line[i])) ++i;
  };
  skipBlanks();
  while (i < line.size()) {
    const size_t start = i;
    while (i < line.size() && !blank(line[i]) && line[i] != ';' && line[i] != ',') ++i;
    out.push_back(line.substr(start, i - start));
    skipBlanks();
    if (i < line.size() && (line[i] == ';' || line[i] == ',')) {
      ++i;
      skipBlanks();
      if (i == line.size()) out.push_back({});  // a separator ends the line: an empty value
    }
  }
  return out;
}

bool parseNumber(std::string_view text, double& v) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty() && std::isfinite(v);
}

}  // namespace

std::vector<std::vector<double>> readDataRows(const std::string& path, int fields, int timeColumn,
                                              const DataFileUse& use) {
  std::istringstream in(readInputFile(path, use.file));
  std::vector<std::vector<double>> rows;
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    const std::vector<std::string_view> values = splitValues(line);
    if (values.empty() || (!values.front().empty() && values.front().front() == '#')) continue;  // blank or comment
    auto fail = [&](const std::string& msg) { throw InputError(fmt::format("{}:{}: {}", path, lineNo, msg)); };
    if (int(values.size()) != fields)
      fail(fmt::format("{} values on the row, {} reads rows of {}", values.size(), use.reader, fields));
    std::vector<double> row(values.size());
    for (size_t k = 0; k < values.size(); ++k)
      if (!parseNumber(values[k], row[k]))
        fail(fmt::format("value {} \"{}\" is not a number", k + 1, std::string(values[k])));
    const double time = row[size_t(timeColumn)];
    if (!rows.empty() && time < rows.back()[size_t(timeColumn)])
      fail(fmt::format("time {} comes before the previous row's {}: times must not decrease", time,
                       rows.back()[size_t(timeColumn)]));
    rows.push_back(std::move(row));
  }
  if (in.bad()) throw InputError(fmt::format("{}: cannot read the {}", path, use.file));
  if (rows.size() < 2)
    throw InputError(fmt::format("{}: {} row{} of data, {} needs at least two", path, rows.size(),
                                 rows.size() == 1 ? "" : "s", use.needs));
  return rows;
}

MotionTable readMotionTable(const std::string& path, const MotionFileColumns& columns) {
  MotionTable t;
  t.path = path;
  for (const std::vector<double>& row : readDataRows(path, columns.fields, columns.time)) {
    t.time.push_back(row[size_t(columns.time)]);
    auto at = [&](int col) { return col >= 0 ? row[size_t(col)] : 0.0; };
    if (columns.angle >= 0) {
      t.angle.push_back(row[size_t(columns.angle)] * columns.angleFactor);
    } else if (columns.x >= 0 || columns.y >= 0 || columns.z >= 0) {
      t.pos.push_back({at(columns.x), at(columns.y), at(columns.z)});
    }
    if (columns.ang1 >= 0)
      t.angles.push_back({at(columns.ang1) * columns.angleFactor, at(columns.ang2) * columns.angleFactor,
                          at(columns.ang3) * columns.angleFactor});
  }
  return t;
}

}  // namespace sph
