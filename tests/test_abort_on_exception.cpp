// An exception that leaves an environment's scope on one rank must end the whole job (the
// environment calls MPI_Abort), not leave the other ranks waiting in a collective. The last
// rank throws while the others wait in a barrier. Registered WILL_FAIL: the job must exit
// nonzero before the test's timeout. If the environment did not abort, the throwing rank
// would return 0 below and the others would hang: the test would fail either way.
#include <oompi/oompi.hpp>

#include <cstdio>
#include <stdexcept>

int main(int argc, char* argv[]) {
  try {
    oompi::environment env(argc, argv);
    auto world = oompi::communicator::world();
    if (world.rank() == world.size() - 1) throw std::runtime_error("this rank gives up");
    world.barrier();  // never completes: the last rank does not come
    std::printf("rank %d: passed a barrier the last rank never entered\n", world.rank());
    return 0;
  } catch (const std::exception& e) {
    std::printf("caught \"%s\" after the environment was destroyed: it did not abort\n",
                e.what());
    return 0;
  }
}
