// GenCase's particle patterns (<casedef><patterns><pattern>, <setpattern>): a tile of places, each
// a particle place ('X') or an empty one ('-'), repeated over the lattice so that a shape drawn
// with the pattern keeps only its particle places; the empty places get the background
// (<setmkbackvoid>, <setmkbackfluid>, <setmkbackbound>, or nothing after <setmkbackclear>).
// The rules, found from GenCase 5.0's output (engine/tests/geometry/test_node_patterns.cpp):
//
//  * a node n (its index from <pointmin> along each axis, dp steps) is, along each axis a, at
//    t_a = (n_a - gap_a) mod P_a in its tile of period P_a = size_a scale_a + border_a; a t_a of
//    size_a scale_a or more is in the border (empty); else the node is in the tile's cell
//    c_a = t_a / scale_a, and the cell's place is the pattern's character
//    c_x + size_x (c_y + size_y c_z): x fastest, z from the bottom;
//  * the pattern: 'X' or 'x' (a particle place) and '-' (empty), size_x size_y size_z of them;
//    or, when every character is a hexadecimal digit, ceil(n / 4) digits whose bits (most
//    significant first) are the n places, 1 a particle place.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sph::gen {

struct NodePattern {
  std::string name;
  int64_t size[3] = {1, 1, 1}, scale[3] = {1, 1, 1}, gap[3] = {0, 0, 0}, border[3] = {0, 0, 0};
  std::vector<uint8_t> places;  // 1: a particle place

  // Whether node (i, j, k) is a particle place.
  bool filled(int64_t i, int64_t j, int64_t k) const {
    const int64_t n[3] = {i, j, k};
    int64_t cell[3];
    for (int a = 0; a < 3; ++a) {
      const int64_t period = size[a] * scale[a] + border[a];
      int64_t t = (n[a] - gap[a]) % period;
      if (t < 0) t += period;
      if (t >= size[a] * scale[a]) return false;
      cell[a] = t / scale[a];
    }
    return places[size_t(cell[0] + size[0] * (cell[1] + size[1] * cell[2]))] != 0;
  }
};

// The pattern of `text` with these dimensions (scale, gap, border: {1,1,1}, {0,0,0}, {0,0,0}
// when not given); an empty string and the pattern when valid, else GenCase's reason.
std::string makeNodePattern(const std::string& name, const std::string& text, const int64_t size[3],
                            const int64_t scale[3], const int64_t gap[3], const int64_t border[3], NodePattern& out);

}  // namespace sph::gen
