// std::vector<bool> is not contiguous bools.
#include <oompi/oompi.hpp>
#include <vector>
void f(const oompi::communicator& world) {
  std::vector<bool> flags(8);
  world.send(flags, 0);
}
