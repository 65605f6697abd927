// Hello, world: every rank says who and where it is, then reports to rank 0, which checks that
// each rank reported exactly once. Exits nonzero if anything is wrong.
#include <oompi/oompi.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int rank = world.rank(), size = world.size();
  const std::string host = oompi::environment::processor_name();
  std::printf("Hello, I am %d of %d on %s\n", rank, size, host.c_str());

  // Everyone (rank 0 too) sends its rank to rank 0, with the host name as a second message.
  auto a = world.isend(rank, 0, 1);
  auto b = world.isend(host, 0, 2);
  int failures = 0;
  if (rank == 0) {
    std::vector<int> seen(static_cast<std::size_t>(size), 0);
    for (int i = 0; i < size; ++i) {
      int who = -1;
      oompi::status s = world.recv(who, oompi::any_source, 1);
      const auto name = world.recv<std::string>(s.source(), 2);
      if (who != s.source() || who < 0 || who >= size || name.empty()) ++failures;
      else ++seen[static_cast<std::size_t>(who)];
    }
    for (int count : seen) failures += count != 1;
    std::printf("%d ranks said hello (%s)\n", size, failures ? "FAILED" : "ok");
  }
  oompi::wait_all(a, b);
  return failures ? 1 : 0;
}
