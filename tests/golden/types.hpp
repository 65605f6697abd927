#ifndef OOMPI_TESTS_GOLDEN_TYPES_HPP
#define OOMPI_TESTS_GOLDEN_TYPES_HPP

// The C++ types of the golden files in this folder (README.md), in namespace golden: one home
// for the serialization tests (tests/serialization_support.hpp), the interop programs
// (tests/interop/golden_types.hpp) and the fuzzer (fuzz/wire_targets.hpp). Only the codec is
// needed (no MPI): the fuzzer is built without it.
#include <oompi/serialization/codec.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace golden {

struct point {
  double x = 0, y = 0;
  bool operator==(const point& o) const { return x == o.x && y == o.y; }
};
OOMPI_TRANSPORTABLE(point, x, y);

struct shape {
  std::string name;
  std::int64_t id = 0;
  bool closed = false;
  point origin;
  std::vector<point> corners;
  std::vector<std::int32_t> tags;
  float scale = 0;
  std::uint8_t layer = 0;
  std::int16_t depth = 0;
};
OOMPI_TRANSPORTABLE(shape, name, id, closed, origin, corners, tags, scale, layer, depth);

struct list_node {
  std::vector<std::int32_t> data;
  std::shared_ptr<list_node> other, next;
};
OOMPI_TRANSPORTABLE(list_node, data, other, next);

}  // namespace golden

#endif  // OOMPI_TESTS_GOLDEN_TYPES_HPP
