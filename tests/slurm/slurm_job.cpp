// The C++ program of the slurm.cpp.* tests (tests/slurm/run.sh), run by the job script
// tests/slurm/jobs/cpp.sbatch on a Slurm cluster: each rank prints its node, and checks an
// allreduce over all ranks. With the argument "fail" the last rank exits with status 3 while the
// others wait in a barrier that can never complete: the launcher must end them.
#include <oompi/oompi.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int rank = world.rank(), size = world.size();
  std::printf("rank %d of %d on %s\n", rank, size, oompi::environment::processor_name().c_str());
  std::fflush(stdout);
  if (argc > 1 && std::strcmp(argv[1], "fail") == 0) {
    if (rank == size - 1) {
      std::fprintf(stderr, "rank %d: failing on purpose\n", rank);
      std::_Exit(3);
    }
    world.barrier();  // never completes
  }
  const int sum = world.allreduce(rank + 1, oompi::ops::sum);
  if (sum != size * (size + 1) / 2) {
    std::fprintf(stderr, "rank %d: allreduce gave %d\n", rank, sum);
    return 1;
  }
  std::printf("rank %d: ok\n", rank);
}
