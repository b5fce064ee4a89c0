// Shared checks of the Verlet list tests: the interleaved layout of downloaded lists, their
// members as id pairs, and the brute-force members they must equal.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "cell_test_support.h"
#include "verlet_backend.h"
#include "verlet_layout.h"

namespace celltest {

// Checks the layout of `l` and returns its members as id pairs (id_a << 32 | id_j).
template <typename T>
std::vector<uint64_t> listPairs(const sph::verlet::HostLists& l, const HostParticles<T>& p) {
  using sph::verlet::kWarp;
  std::vector<uint64_t> out;
  EXPECT_EQ(l.n, p.size());
  EXPECT_EQ(l.regionEnd.size(), sph::verlet::warpCount(l.n));
  uint64_t prevEnd = 0;
  for (uint32_t g = 0; g < l.regionEnd.size(); ++g) {
    uint32_t longest = 0;
    for (uint32_t a = g * kWarp; a < std::min(l.n, (g + 1) * kWarp); ++a) longest = std::max(longest, l.length[a]);
    EXPECT_EQ(l.regionEnd[g] - prevEnd, uint64_t(longest) * kWarp) << "region of group " << g;
    prevEnd = l.regionEnd[g];
  }
  EXPECT_LE(prevEnd, l.entries.size());
  for (uint32_t a = 0; a < l.n; ++a)
    for (uint32_t k = 0; k < l.length[a]; ++k) {
      const uint64_t slot = sph::verlet::entrySlot(l.regionEnd.data(), a, k);
      EXPECT_EQ(slot, (a / kWarp == 0 ? 0 : l.regionEnd[a / kWarp - 1]) + uint64_t(k) * kWarp + a % kWarp);
      const uint32_t j = l.entries[slot];
      if (j >= p.size()) {
        ADD_FAILURE() << "entry " << k << " of particle " << a << " is " << j;
        continue;
      }
      out.push_back(uint64_t(p.id[a]) << 32 | p.id[j]);
    }
  std::sort(out.begin(), out.end());
  return out;
}

// Brute force without the self pairs (lists never hold a itself), with the minimum image along
// the periodic axes of `box`.
template <typename T>
std::vector<uint64_t> expectedListPairs(const HostParticles<T>& p, double radius, const sph::PeriodicBox<T>& box = {}) {
  std::vector<uint64_t> all = bruteForcePairs(p, radius, box), out;
  for (uint64_t q : all)
    if ((q >> 32) != (q & 0xffffffffu)) out.push_back(q);
  return out;
}

// The members of half lists (forEachListMember's `once`) among `all` (id pairs of p): a fluid
// particle keeps its boundary neighbours and the fluid ones whose pair it holds (holdsPair, by
// places in p's order), a boundary particle none.
template <typename T>
std::vector<uint64_t> halfListPairs(const HostParticles<T>& p, const std::vector<uint64_t>& all) {
  std::unordered_map<uint32_t, uint32_t> index;
  for (uint32_t i = 0; i < p.size(); ++i) index[p.id[i]] = i;
  std::vector<uint64_t> out;
  for (uint64_t q : all) {
    const uint32_t a = index.at(uint32_t(q >> 32)), j = index.at(uint32_t(q & 0xffffffffu));
    if (a >= p.nBound && (j < p.nBound || sph::verlet::holdsPair(a, j))) out.push_back(q);
  }
  return out;
}
}  // namespace celltest
