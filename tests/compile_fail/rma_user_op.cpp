// A user op (a lambda) in a one-sided accumulate: MPI allows predefined ops only.
#include <oompi/oompi.hpp>
void f(const oompi::window& win, const int& x) {
  win.accumulate(x, 0, 0, [](int a, int b) { return a + b; });
}
