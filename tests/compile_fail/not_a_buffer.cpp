// Sending a value of a type without a datatype.
#include <oompi/oompi.hpp>
struct point {
  double x, y;
};
void f(const oompi::communicator& world) { world.send(point{1, 2}, 0); }
