// Built against an installed oompi by find_package: every rank passes a token round a ring.
#include <oompi/oompi.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  int token = r;
  world.sendrecv_replace(token, (r + 1) % n, 0, (r + n - 1) % n, 0);
  const int expected = (r + n - 1) % n;
  if (token != expected) {
    std::fprintf(stderr, "rank %d: got %d, expected %d\n", r, token, expected);
    return 1;
  }
  if (r == 0) std::printf("consumer: ring of %d passed\n", n);
  return 0;
}
