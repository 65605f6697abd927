// Ping-pong between ranks 0 and 1 for message sizes 1 B ... 1 MiB: rank 0 sends, rank 1 sends
// the message straight back, rank 0 checks every byte of the echo and prints the round-trip
// time and bandwidth. (The measured comparison with raw C MPI is bench/; this is the example.)
// Other ranks, if any, take no part. Exits nonzero if an echo is wrong.
#include <oompi/oompi.hpp>

#include <cstddef>
#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int rank = world.rank();
  if (world.size() < 2) {
    std::printf("ping_pong needs 2 ranks\n");
    return rank == 0 ? 1 : 0;
  }
  int failures = 0;
  if (rank == 0) std::printf("%10s %12s %12s\n", "bytes", "usec/trip", "MB/s");
  for (std::size_t bytes = 1; bytes <= (std::size_t{1} << 20); bytes *= 4) {
    const int trips = bytes <= 4096 ? 200 : 20;
    std::vector<std::byte> ping(bytes), pong(bytes);
    for (std::size_t i = 0; i < bytes; ++i) ping[i] = static_cast<std::byte>(i * 13 + bytes);
    world.barrier();
    const double t0 = oompi::environment::wtime();
    for (int t = 0; t < trips; ++t) {
      if (rank == 0) {
        world[1] << ping;
        world[1] >> pong;
      } else if (rank == 1) {
        world[0] >> pong;
        world[0] << pong;
      }
    }
    const double seconds = oompi::environment::wtime() - t0;
    if (rank == 0) {
      if (pong != ping) ++failures;
      const double trip = seconds / trips;
      std::printf("%10zu %12.2f %12.1f%s\n", bytes, trip * 1e6, 2.0 * bytes / trip / 1e6,
                  pong != ping ? "  WRONG ECHO" : "");
    }
  }
  return failures ? 1 : 0;
}
