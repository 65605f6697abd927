#ifndef OOMPI_TESTS_INTEROP_GOLDEN_TYPES_HPP
#define OOMPI_TESTS_INTEROP_GOLDEN_TYPES_HPP

// The types of the golden files (tests/golden/README.md), as the interop programs exchange them.
#include <oompi/serialization.hpp>

#include "../golden/types.hpp"  // point, shape, list_node

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace golden {
// A list whose nodes hold no other reference: C++ reads and writes it without identity tables
// (docs/wire-format.md, section 5).
struct chain_node {
  std::vector<std::int32_t> data;
  std::shared_ptr<chain_node> next;
};
OOMPI_TRANSPORTABLE(chain_node, data, next);
}  // namespace golden

#endif  // OOMPI_TESTS_INTEROP_GOLDEN_TYPES_HPP
