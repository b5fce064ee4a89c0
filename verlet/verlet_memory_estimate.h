// What Verlet lists will hold for a case before anything is allocated: a case at rest is a
// lattice of dp, and each layout's entries are counted on that lattice with a list radius of 2h
// and a twentieth of it for the skin.
#pragma once

#include <vector>

#include "sph/plugin/neighbour_strategy.h"

namespace sph::verlet {

// Lattice neighbours within `radius` (in dp) of a node, the node itself left out: an index
// list's entries.
double latticeNeighbours(double radius, int dim);

// Build candidates of a lattice node (list radius in dp): the nodes in the cells of Rc/2 that the
// rows of the cell iteration keep after trimming (engine/neighbours/cell_iteration.h), averaged
// over 4 positions of the node in its cell along each axis: a bitmask list's bits.
double latticeCandidates(double listRadius, int dim);

// Entries a particle of the cluster layout (verlet_clusters.h) takes on a lattice (list radius in
// dp), a cluster's entries over 8; half: of half lists (holdsPair).
double latticeClusterEntries(double listRadius, int dim, bool half = false);

// Entries a particle of half lists (VerletPairs once: the neighbours whose pair it holds,
// holdsPair) takes on a lattice (list radius in dp), each warp's 32 lists padded to its longest.
double latticeHalfListEntries(double listRadius, int dim);

// The needs of the strategy: the cell search it falls back to when no layout fits (its minimum),
// and the cell search with the lists of each layout.
std::vector<MemoryNeed> estimateVerletMemory(const MemoryQuery& q);

}  // namespace sph::verlet
