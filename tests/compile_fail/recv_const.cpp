// Receiving into a const container.
#include <oompi/oompi.hpp>
#include <vector>
void f(const oompi::communicator& world) {
  const std::vector<int> v(3);
  world.recv(v, 0);
}
