// Statistics of one set of lists. listStats walks a host copy (the CPU backend, tests); the GPU
// backend sums the same counts on the device (verlet_gpu_backend.cu, listStatsKernel).
#pragma once

#include <cstdint>

#include "sph/plugin/periodic.h"
#include "sph/plugin/real4.h"
#include "verlet_backend.h"  // HostLists

namespace sph::verlet {

struct ListStats {
  double meanLength = 0;
  uint32_t longest = 0;
  // Thread idle ratio of the interaction (section 4.5 of Takada et al. (2017), "Acceleration of
  // SPH-based fluid simulation on GPU"): over all lane-iterations of all warps (a warp iterates
  // as long as its longest list part; HostLists::lanes lanes per particle), those where the lane
  // has no pair within the support while another lane of the warp has one.
  double idleRatio = 0;
  double inSupportRatio = 0;  // list members within the support / list members
};

// `box`: the periodic axes the lists were built with (minimum-image distances).
template <typename T>
ListStats listStats(const HostLists& l, const Real4<T>* pos, double support, const PeriodicBox<double>& box);

// The same for bitmask lists (host pointers), whose lane `part` of P takes the members at bit
// indices part (mod P) in ascending order (verlet_bitmask.h): a warp iterates as long as its
// lane with most members, and iteration i of a lane is its i-th member.
template <typename R>
struct MaskLists;
template <typename T>
ListStats maskListStats(const MaskLists<double>& m, const Real4<T>* pos, double support, const PeriodicBox<double>& box,
                        uint32_t lanes);

// The same for cluster lists (host pointers, verlet_clusters.h), whose lane `part` of P takes
// the members of rank part (mod P).
struct ClusterLists;
template <typename T>
ListStats clusterListStats(const ClusterLists& l, const Real4<T>* pos, double support, const PeriodicBox<double>& box,
                           uint32_t lanes);

}  // namespace sph::verlet
