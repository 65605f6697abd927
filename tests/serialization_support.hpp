#ifndef OOMPI_TESTS_SERIALIZATION_SUPPORT_HPP
#define OOMPI_TESTS_SERIALIZATION_SUPPORT_HPP

// What the serialization tests share (test_serialization.cpp, test_wire_chains.cpp,
// test_wire_robustness.cpp): the types of the golden files in tests/golden and small helpers.

#include <catch2/catch.hpp>

#include <oompi/serialization.hpp>

#include "golden/types.hpp"  // point, shape, list_node

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace golden {

struct chain_item {  // a chain type (docs/wire-format.md 2.1): tests/golden/compact_chain.bin
  std::string name;
  std::int64_t id = 0;
  bool flag = false;
  double weight = 0;
  std::vector<std::int32_t> data;
  std::shared_ptr<chain_item> next;
};
OOMPI_TRANSPORTABLE(chain_item, name, id, flag, weight, data, next);

}  // namespace golden

namespace {

using bytes = std::vector<std::byte>;

// tests/golden, from CMake as in Java and C# (__FILE__ may be relative to the build directory,
// e.g. when ccache's base_dir rewrites the source path).
inline bytes read_golden(const std::string& name) {
  const std::string path = OOMPI_SOURCE_DIR "/tests/golden/" + name;
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bytes out(raw.size());
  std::memcpy(out.data(), raw.data(), raw.size());
  return out;
}

template <class T>
T round_trip(const T& value) {
  return oompi::from_bytes<T>(oompi::to_bytes(value));
}

// Breaks the cycles of a list_node graph so shared_ptr can free it.
inline void unlink(const std::shared_ptr<golden::list_node>& head) {
  std::vector<std::shared_ptr<golden::list_node>> seen;
  auto p = head;
  while (p && std::find(seen.begin(), seen.end(), p) == seen.end()) {
    seen.push_back(p);
    p = p->next;
  }
  for (auto& n : seen) n->other.reset(), n->next.reset();
}

}  // namespace

// Graphs of unique links, and of references to values of two types.
namespace graph {
struct unode {
  std::string name;
  std::unique_ptr<unode> next;
};
OOMPI_TRANSPORTABLE(unode, name, next);

struct mixed {
  std::shared_ptr<int> a;
  std::shared_ptr<double> d;
};
OOMPI_TRANSPORTABLE(mixed, a, d);
}  // namespace graph

// Lists whose link is the last field (a loop), the first (recursion), and nesting without
// pointers: used by the depth tests and the chain-type checks.
namespace deep {
struct chain {  // the link is the last field: followed by a loop
  std::int32_t value = 0;
  std::shared_ptr<chain> next;
};
OOMPI_TRANSPORTABLE(chain, value, next);

struct head_first {  // the link comes first: recursion
  std::shared_ptr<head_first> next;
  std::int32_t value = 0;
};
OOMPI_TRANSPORTABLE(head_first, next, value);

struct nest {  // nesting through a container, no pointers
  std::vector<nest> inner;
};
OOMPI_TRANSPORTABLE(nest, inner);

template <class N>
std::shared_ptr<N> build(std::size_t n) {
  std::shared_ptr<N> head;
  for (std::size_t i = n; i-- > 0;) {
    auto node = std::make_shared<N>();
    node->value = static_cast<std::int32_t>(i);
    node->next = std::move(head);
    head = std::move(node);
  }
  return head;
}
// shared_ptr chains destroy recursively: take them apart iteratively.
template <class N>
void dismantle(std::shared_ptr<N>& head) {
  while (head) head = std::move(head->next);
}
}  // namespace deep

#endif  // OOMPI_TESTS_SERIALIZATION_SUPPORT_HPP
