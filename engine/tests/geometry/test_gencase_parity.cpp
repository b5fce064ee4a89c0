// Our generator makes GenCase's particles: for every case and dp of data/gencase/parity.csv (made
// by tools/dualsphysics/gencase_parity.py from GenCase 5.0's output), the same mk blocks in the same
// order, each with the same count and the same particles (a hash of their lattice indices; the
// order within blocks drawn by boxes is checked against GenCase's output in test_gencase_output). The cases are the bundled ones and real DualSPHysics cases, at their own dp
// and coarser: boxes and faces whose sides fall half-way between nodes, prisms with a sloping
// beach, fills, moving and floating blocks, triangle meshes from STL, VTK and PLY files.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "case/loader.h"
#include "model/case_model.h"

namespace {

struct Block {
  int mk = 0;
  uint64_t count = 0;
  std::string hash;
};

// FNV-1a 64 over the particles' grid indices as little-endian int64, sorted, as the script
// computes it: the nodes' (i, j, k) when every particle of the block is on a node, else each
// particle's quarter-dp indices (two particles per node, node -/+ dp/4).
std::string nodeHash(const std::vector<sph::Vec3d>& pos, size_t begin, size_t end, const sph::Vec3d& pmin, double dp) {
  std::vector<std::array<int64_t, 3>> nodes;
  bool onNodes = true;
  for (size_t n = begin; n < end; ++n) {
    const std::array<int64_t, 3> q{std::llround((pos[n].x - pmin.x) / (dp / 4)),
                                   std::llround((pos[n].y - pmin.y) / (dp / 4)),
                                   std::llround((pos[n].z - pmin.z) / (dp / 4))};
    // On that grid to float rounding (positions are doubles made from dp in a few operations).
    const double off = std::max({std::fabs(pos[n].x - (pmin.x + double(q[0]) * dp / 4)),
                                 std::fabs(pos[n].y - (pmin.y + double(q[1]) * dp / 4)),
                                 std::fabs(pos[n].z - (pmin.z + double(q[2]) * dp / 4))});
    EXPECT_LE(off, 1e-6 * dp) << "particle " << n << " is neither on a node nor dp/4 beside one";
    for (int a = 0; a < 3; ++a) onNodes = onNodes && q[a] % 4 == 0;
    nodes.push_back(q);
  }
  if (onNodes)
    for (auto& q : nodes)
      for (int64_t& x : q) x /= 4;
  std::sort(nodes.begin(), nodes.end());
  uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& ijk : nodes) {
    unsigned char bytes[24];
    std::memcpy(bytes, ijk.data(), sizeof bytes);  // little-endian hosts only, as the engine
    for (unsigned char b : bytes) h = (h ^ b) * 0x100000001b3ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

TEST(GenCaseParity, SameBlocksCountsAndNodesAsGenCase) {
  std::ifstream in(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/gencase/parity.csv");
  ASSERT_TRUE(in) << "missing parity.csv";
  std::string line;
  std::getline(in, line);  // header
  std::map<std::pair<std::string, std::string>, std::vector<Block>> cases;
  std::vector<std::pair<std::string, std::string>> order;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string file, dp, mk, count, hash;
    std::getline(ss, file, ',');
    std::getline(ss, dp, ',');
    std::getline(ss, mk, ',');
    std::getline(ss, count, ',');
    std::getline(ss, hash, ',');
    const auto key = std::make_pair(file, dp);
    if (!cases.count(key)) order.push_back(key);
    cases[key].push_back({std::stoi(mk), std::stoull(count), hash});
  }
  ASSERT_GE(order.size(), 15u);
  for (const auto& key : order) {
    SCOPED_TRACE(key.first + " at dp " + key.second);
    sph::LoadOptions o;
    o.dpOverride = std::stod(key.second);
    const sph::CaseDefinition c = sph::loadCase(std::string(SPH_SOURCE_DIR) + "/" + key.first, o);
    const std::vector<Block>& blocks = cases[key];
    // Each case is reported on its own: a mismatch moves on to the next case.
    EXPECT_EQ(c.mks.size(), blocks.size());
    if (c.mks.size() != blocks.size()) continue;
    size_t begin = 0;
    for (size_t k = 0; k < blocks.size(); ++k) {
      SCOPED_TRACE("mk " + std::to_string(blocks[k].mk));
      EXPECT_EQ(c.mks[k].mk, blocks[k].mk);
      EXPECT_EQ(c.mks[k].count, blocks[k].count);
      if (c.mks[k].count != blocks[k].count) break;
      EXPECT_EQ(nodeHash(c.positions, begin, begin + blocks[k].count, c.pointMin, c.dp), blocks[k].hash);
      begin += blocks[k].count;
    }
  }
}

}  // namespace
