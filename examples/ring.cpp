// The "Hello, world" and round-robin program of the MPI.NET paper (Willcock et al., Figs. 3
// and 4), with OOMPI-style ports: rank 0 fills a message of ten doubles and sends it to its
// right neighbour; every other rank receives it from the left and passes it on; rank 0
// receives it back at the end. Each rank adds 1 to every value before passing it on, so the
// values prove the message visited every rank in order. Exits nonzero on a wrong result.
#include <oompi/oompi.hpp>

#include <cstdio>
#include <numeric>
#include <vector>

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int rank = world.rank(), size = world.size();
  const std::size_t message_length = 10;
  std::printf("Hello, I am %d of %d\n", rank, size);

  std::vector<double> data(message_length);
  if (rank == 0) std::iota(data.begin(), data.end(), 0.0);
  oompi::port dest = world[(rank + 1) % size];
  oompi::port src = world[(rank + size - 1) % size];

  if (size == 1) {
    world.sendrecv_replace(data, 0, 0, 0, 0);  // the ring of one: to self and back
  } else {
    if (rank == 0) dest << data;
    src >> data;
    if (rank != 0) {
      for (double& x : data) x += 1.0;
      dest << data;
    }
  }

  // Rank r > 0 holds the values after its own increment (r in all); rank 0 sees them after
  // the size - 1 increments of the others.
  const double added = rank == 0 ? size - 1 : rank;
  bool ok = true;
  for (std::size_t i = 0; i < message_length; ++i) ok = ok && data[i] == i + added;
  if (!ok) std::printf("rank %d: wrong values after the round robin\n", rank);
  if (rank == 0 && ok) std::printf("the message went round %d ranks\n", size);
  return ok ? 0 : 1;
}
