// Receiving into a temporary container would lose the data.
#include <oompi/oompi.hpp>
#include <vector>
void f(const oompi::communicator& world) { world.recv(std::vector<int>(3), 0); }
