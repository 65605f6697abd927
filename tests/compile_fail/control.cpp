// Compiles: the correct counterparts of the compile_fail cases.
#include <oompi/oompi.hpp>

#include <string>
#include <vector>

struct point {
  double x, y;
};
OOMPI_STRUCT(point, x, y)

void use(const oompi::communicator& world) {
  point p{1, 2};
  world.send(p, 0);
  std::vector<point> pts(3);
  world.recv(pts, 0);
  int values[4] = {};
  world.send(oompi::buffer(values, 4), 0);
  std::vector<char> flags(8);
  world.send(flags, 0);
  std::string s;
  world.recv(s, 0);
  std::vector<int> v(3);
  world.recv(oompi::buffer(v.data(), v.size()), 0);  // a temporary view is fine
}
