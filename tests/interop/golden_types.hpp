#ifndef OOMPI_TESTS_INTEROP_GOLDEN_TYPES_HPP
#define OOMPI_TESTS_INTEROP_GOLDEN_TYPES_HPP

// The types of the golden files (tests/golden/README.md), as the interop programs exchange them.
#include <oompi/serialization.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace golden {
struct point {
  double x = 0, y = 0;
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

// A list whose nodes hold no other reference: C++ reads and writes it without identity tables
// (docs/wire-format.md, section 5).
struct chain_node {
  std::vector<std::int32_t> data;
  std::shared_ptr<chain_node> next;
};
OOMPI_TRANSPORTABLE(chain_node, data, next);
}  // namespace golden

#endif  // OOMPI_TESTS_INTEROP_GOLDEN_TYPES_HPP
