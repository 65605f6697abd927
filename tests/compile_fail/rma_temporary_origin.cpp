// A temporary as the origin of a one-sided put: MPI reads it after it is gone.
#include <oompi/oompi.hpp>
#include <vector>
void f(const oompi::window& win) { win.put(std::vector<int>{1, 2}, 0, 0); }
