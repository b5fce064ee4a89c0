// The main of the tests every MPI rank runs (sph_rank_tests): MPI for the tests' lifetime when a
// launcher started the ranks; each rank runs every test, and mpiexec fails when any rank does.
#include <gtest/gtest.h>

#include "parallel/communicator.h"
#include "platform/gpu_runtime.h"

int main(int argc, char** argv) {
  sph::parallel::MpiSession mpi;
  ::testing::InitGoogleTest(&argc, argv);
  // Each rank its GPU, as `sph run` chooses it (several ranks share one when there are fewer).
  const sph::parallel::Communicator& world = sph::parallel::Communicator::world();
  if (!world.single()) sph::gpu::useDeviceOfLocalRank(world.localRank());
  // Only rank 0 prints the per-test lines; a failure is printed by the rank that sees it.
  if (world.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
