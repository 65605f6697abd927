#ifndef OOMPI_FUZZ_WIRE_TARGETS_HPP
#define OOMPI_FUZZ_WIRE_TARGETS_HPP

// The message types the wire v1 decoder is fuzzed with, shared by the libFuzzer target
// (fuzz_wire.cpp) and the mutation test of the default suite (tests/test_wire_mutation.cpp).
// decode(which, bytes) reads one message of type `which` and either succeeds or throws
// oompi::serialization_error; anything else (a crash, a sanitizer report, another exception,
// a canonical type that does not write back the same bytes) is a bug.

#include <oompi/serialization/codec.hpp>

#include "../tests/golden/types.hpp"  // point, shape, list_node (the golden files' types)

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

namespace fz {

using golden::list_node;
using golden::point;
using golden::shape;

struct chain {  // a linear chain: read and written without the identity table
  std::vector<std::int32_t> data;
  std::string name;
  std::shared_ptr<chain> next;
};
OOMPI_TRANSPORTABLE(chain, data, name, next);

struct tree {
  std::int32_t value = 0;
  std::vector<std::shared_ptr<tree>> kids;
  std::weak_ptr<tree> parent;
};
OOMPI_TRANSPORTABLE(tree, value, kids, parent);

struct unode {
  std::string name;
  std::unique_ptr<unode> child;  // not the last field: recursion
  std::unique_ptr<unode> next;   // the last field: a loop
};
OOMPI_TRANSPORTABLE(unode, name, child, next);

struct nest {
  std::vector<nest> inner;
  std::optional<std::string> label;
};
OOMPI_TRANSPORTABLE(nest, inner, label);

struct mixed {
  std::shared_ptr<int> a;
  std::shared_ptr<double> d;
  std::array<std::uint16_t, 3> fixed{};
  std::tuple<bool, std::int8_t, std::string> t;
};
OOMPI_TRANSPORTABLE(mixed, a, d, fixed, t);

// Collects every object reachable through strong references, then cuts all of them, so that
// cycles do not leak and long chains are not destroyed recursively.
template <class N, class Visit>
void cut_graph(std::shared_ptr<N> root, Visit&& edges) {
  std::vector<std::shared_ptr<N>> all, todo{std::move(root)};
  std::unordered_set<N*> seen;
  while (!todo.empty()) {
    auto p = std::move(todo.back());
    todo.pop_back();
    if (!p || !seen.insert(p.get()).second) continue;
    edges(*p, todo);
    all.push_back(std::move(p));
  }
  for (auto& p : all) edges(*p, todo, true);
}

void cut(std::shared_ptr<list_node> head) {
  cut_graph(std::move(head), [](list_node& n, auto& todo, bool clear = false) {
    if (clear) {
      n.other.reset();
      n.next.reset();
    } else {
      todo.push_back(n.other);
      todo.push_back(n.next);
    }
  });
}
void cut(std::shared_ptr<chain> head) {
  cut_graph(std::move(head), [](chain& n, auto& todo, bool clear = false) {
    if (clear)
      n.next.reset();
    else
      todo.push_back(n.next);
  });
}
// A parent may be reachable only weakly and still be alive, held by a strong cycle of its own
// (a hostile message can describe that): follow parents too, as a user freeing the tree would.
void cut(std::shared_ptr<tree> root) {
  cut_graph(std::move(root), [](tree& t, auto& todo, bool clear = false) {
    if (clear) {
      t.kids.clear();
      t.parent.reset();
    } else {
      todo.insert(todo.end(), t.kids.begin(), t.kids.end());
      todo.push_back(t.parent.lock());
    }
  });
}
void cut(unode& u) {  // unique chains: unlink iteratively in both directions
  std::vector<std::unique_ptr<unode>> todo;
  todo.push_back(std::move(u.child));
  todo.push_back(std::move(u.next));
  while (!todo.empty()) {
    auto p = std::move(todo.back());
    todo.pop_back();
    if (!p) continue;
    todo.push_back(std::move(p->child));
    todo.push_back(std::move(p->next));
  }
}
// Containers in containers (any Nest with a std::vector<Nest> `inner`; the mutation test has
// one of its own): emptied level by level, not by recursive destructors.
template <class Nest>
void cut_nested(Nest& n) {
  std::vector<Nest> todo;
  todo.swap(n.inner);
  while (!todo.empty()) {
    Nest last = std::move(todo.back());
    todo.pop_back();
    for (auto& k : last.inner) todo.push_back(std::move(k));
  }
}
void cut(nest& n) { cut_nested(n); }

/// A successful read of a canonical type that does not write back the same bytes: a bug.
struct not_canonical : std::logic_error {
  using std::logic_error::logic_error;
};

template <class T>
void expect_canonical(const std::uint8_t* data, std::size_t size, const T& value) {
  const std::vector<std::byte> again = oompi::to_bytes(value);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0)
    throw not_canonical("a successful read did not write back the same bytes");
}

/// The same for a linear chain, which reads two forms (docs/wire-format.md 2.1): a compact
/// chain must write back as one, the 1.0 form as the 1.0 form.
inline void expect_canonical_chain(const std::uint8_t* data, std::size_t size,
                                   const std::shared_ptr<chain>& head) {
  const std::uint8_t marker[4] = {0, 0, 0, 0x80};
  if (size < 4 || std::memcmp(data, marker, 4) != 0) return expect_canonical(data, size, head);
  oompi::byte_buffer again;
  oompi::wire::save_compact(again, head);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0)
    throw not_canonical("a successful read of a compact chain did not write back the same bytes");
}

/// A T read from [data, data + size) that must write back the same bytes (expect_canonical).
template <class T>
T read_canonical(const std::uint8_t* data, std::size_t size) {
  auto value = oompi::from_bytes<T>(data, size);
  expect_canonical(data, size, value);
  return value;
}

/// Number of message types decode() knows.
inline constexpr int type_count = 11;

/// Reads [data, data + size) as message type `which % type_count`, checks what it can and frees
/// the result. Throws oompi::serialization_error for bytes that are not such a message.
inline void decode(std::uint8_t which, const std::uint8_t* data, std::size_t size) {
  switch (which % type_count) {
    case 0: fz::cut(read_canonical<std::shared_ptr<fz::list_node>>(data, size)); break;
    case 1: (void)read_canonical<fz::shape>(data, size); break;
    case 2: (void)read_canonical<std::vector<std::int32_t>>(data, size); break;
    case 3: (void)read_canonical<std::string>(data, size); break;
    case 4: fz::cut(oompi::from_bytes<std::shared_ptr<fz::tree>>(data, size)); break;
    case 5: {
      auto u = read_canonical<fz::unode>(data, size);
      fz::cut(u);
      break;
    }
    case 6: {
      auto n = read_canonical<fz::nest>(data, size);
      fz::cut(n);
      break;
    }
    case 7: (void)read_canonical<fz::mixed>(data, size); break;
    case 8: {
      (void)oompi::from_bytes<std::map<std::string, std::vector<double>>>(data, size);
      break;
    }
    case 10: {
      auto head = oompi::from_bytes<std::shared_ptr<fz::chain>>(data, size);
      fz::expect_canonical_chain(data, size, head);
      fz::cut(std::move(head));
      break;
    }
    default: {
      (void)oompi::from_bytes<std::vector<std::vector<std::string>>>(data, size);
      break;
    }
  }
}

}  // namespace fz

#endif  // OOMPI_FUZZ_WIRE_TARGETS_HPP
