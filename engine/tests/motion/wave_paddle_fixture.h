// The fixtures of DualSPHysics' paddle laws (engine/tests/data/dualsphysics/wave_paddles/, made by
// tools/dualsphysics/wave_paddle_fixtures.py and solitary_paddle_fixtures.py): a first line with
// the constants DualSPHysics printed, then "time;position" rows.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sph::test {

struct PaddleSample {
  double t, value;
};

struct PaddleFixture {
  std::string header;  // the first line, for the constants each test reads from it
  std::vector<PaddleSample> rows;
};

inline PaddleFixture readPaddleFixture(const std::string& name) {
  const std::string path = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/dualsphysics/wave_paddles/" + name + ".csv";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  PaddleFixture f;
  std::getline(in, f.header);
  std::string line;
  while (std::getline(in, line)) {
    const size_t semi = line.find(';');
    f.rows.push_back({std::stod(line.substr(0, semi)), std::stod(line.substr(semi + 1))});
  }
  return f;
}

// The rows of a <savemotion> file this engine wrote: the "time;value" lines after `columns`, its
// column line; the header lines before it go to `header` when given.
inline std::vector<PaddleSample> readSaveMotionRows(const std::string& path, const std::string& columns,
                                                   std::string* header = nullptr) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<PaddleSample> rows;
  std::string line;
  bool body = false;
  while (std::getline(in, line)) {
    if (body) {
      rows.push_back({std::stod(line), std::stod(line.substr(line.find(';') + 1))});
    } else if (line == columns) {
      body = true;
    } else if (header) {
      *header += line + "\n";
    }
  }
  if (!body) throw std::runtime_error(path + ": no line \"" + columns + "\"");
  return rows;
}

}  // namespace sph::test
