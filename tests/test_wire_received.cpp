// How the decoder makes what it receives (issue 28's faster paths, same bytes): objects behind
// references arrive value-initialised, strings are built in place whatever the receiving string
// held, a failed read in the middle of a string empties what was made, and trees go around the
// ranks through osend/orecv with the per-thread receive buffer reused after larger messages.

#include <catch2/catch.hpp>

#include <oompi/serialization.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace recv_app {

struct tree {  // a node of a binary tree, as in bench/bench_object_graphs.cpp
  std::int32_t id = 0;
  double value = 0;
  std::string name;
  std::shared_ptr<tree> left, right;
};
OOMPI_TRANSPORTABLE(tree, id, value, name, left, right);

struct loose {  // fields that do not travel, without initialisers: they arrive zero
  std::int32_t id;
  std::int64_t cache;
  double weight;
  const char* where;
  std::shared_ptr<loose> next;
};
OOMPI_TRANSPORTABLE(loose, id, next);

struct built {  // a user-provided constructor sets what does not travel
  built() : id(0), tag(7), note("made") {}
  std::int32_t id;
  std::int32_t tag;
  std::string note;
  std::shared_ptr<built> next;
};
OOMPI_TRANSPORTABLE(built, id, next);

struct named {
  std::string name;
  std::shared_ptr<named> next;
};
OOMPI_TRANSPORTABLE(named, name, next);

struct holder {  // a field that is read by the general path, not a chain
  std::shared_ptr<tree> root;
  std::string label;
};
OOMPI_TRANSPORTABLE(holder, root, label);

std::string name_of(int i) { return "n" + std::to_string(i) + std::string(i % 23, '_'); }

std::shared_ptr<tree> make_tree(int n, int seed) {
  std::vector<std::shared_ptr<tree>> all(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    all[i] = std::make_shared<tree>();
    all[i]->id = i + seed;
    all[i]->value = i * 0.5;
    all[i]->name = name_of(i);
  }
  for (int i = 0; i < n; ++i) {
    if (2 * i + 1 < n) all[i]->left = all[2 * i + 1];
    if (2 * i + 2 < n) all[i]->right = all[2 * i + 2];
  }
  return n ? all[0] : nullptr;
}
/// The tree make_tree(n, seed) made, node by node (shape, ids, values, names).
bool same_tree(const tree* x, int i, int n, int seed) {
  if (i >= n) return x == nullptr;
  return x != nullptr && x->id == i + seed && x->value == i * 0.5 && x->name == name_of(i) &&
         same_tree(x->left.get(), 2 * i + 1, n, seed) &&
         same_tree(x->right.get(), 2 * i + 2, n, seed);
}

}  // namespace recv_app

namespace {
using bytes = std::vector<std::byte>;
using recv_app::tree;

oompi::intracommunicator world() { return oompi::communicator::world(); }
}  // namespace

TEST_CASE("objects behind references arrive value-initialised") {
  auto a = std::make_shared<recv_app::loose>();
  a->id = 1;
  a->cache = 99;
  a->weight = 2.5;
  a->where = "here";
  a->next = std::make_shared<recv_app::loose>();
  a->next->id = 2;
  a->next->cache = 98;
  const bytes b = oompi::to_bytes(a);
  auto r = oompi::from_bytes<std::shared_ptr<recv_app::loose>>(b);
  REQUIRE(r);
  REQUIRE(r->next);
  CHECK(r->id == 1);
  CHECK(r->next->id == 2);
  for (const recv_app::loose* x : {r.get(), r->next.get()}) {
    CHECK(x->cache == 0);
    CHECK(x->weight == 0.0);
    CHECK(x->where == nullptr);
  }
  CHECK(r->next->next == nullptr);

  auto c = std::make_shared<recv_app::built>();
  c->id = 5;
  c->tag = 1;
  c->next = std::make_shared<recv_app::built>();
  auto s = oompi::from_bytes<std::shared_ptr<recv_app::built>>(oompi::to_bytes(c));
  REQUIRE(s);
  REQUIRE(s->next);
  CHECK(s->id == 5);
  CHECK(s->tag == 7);  // the constructor's, not the sender's (tag does not travel)
  CHECK(s->note == "made");
  CHECK(s->next->tag == 7);
}

TEST_CASE("strings of every length arrive whole, into new and into used strings") {
  // Around the local buffer of std::string (15 characters in libstdc++, 22 in libc++).
  for (std::size_t len : {0u, 1u, 7u, 14u, 15u, 16u, 22u, 23u, 24u, 100u, 5000u}) {
    recv_app::holder h;
    h.root = recv_app::make_tree(3, 0);
    h.root->name = std::string(len, 'a');
    h.label = std::string(len, 'b');
    const bytes b = oompi::to_bytes(h);
    // into a new object, and into objects whose strings hold short, long and huge texts
    for (std::size_t before : {std::size_t{0}, std::size_t{3}, std::size_t{40}, std::size_t{9000}}) {
      recv_app::holder into;
      into.label = std::string(before, 'z');
      oompi::from_bytes(b.data(), b.size(), into);
      REQUIRE(into.root);
      CHECK(into.root->name == std::string(len, 'a'));
      CHECK(into.label == std::string(len, 'b'));
      CHECK(into.root->left->name == recv_app::name_of(1));
    }
  }
}

TEST_CASE("a message cut or corrupted inside a string fails and frees what was made") {
  auto root = std::make_shared<recv_app::named>();
  root->name = "first";
  root->next = std::make_shared<recv_app::named>();
  root->next->name = std::string(40, 'x');  // longer than any local buffer
  root->next->next = std::make_shared<recv_app::named>();
  root->next->next->name = "short";
  recv_app::holder h;
  h.root = recv_app::make_tree(31, 0);
  h.label = "label";
  for (const bytes& whole : {oompi::to_bytes(root), oompi::to_bytes(h)}) {
    for (std::size_t cut = 0; cut < whole.size(); ++cut) {
      const bytes part(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(cut));
      if (whole.size() > 200) {
        recv_app::holder into;
        into.label = std::string(30, 'q');
        CHECK_THROWS_AS(oompi::from_bytes(part.data(), part.size(), into),
                        oompi::serialization_error);
      } else {
        CHECK_THROWS_AS(oompi::from_bytes<std::shared_ptr<recv_app::named>>(part),
                        oompi::serialization_error);
      }
    }
  }
  // A string size larger than the bytes left (the second node's 40 becomes 2^40).
  bytes bad = oompi::to_bytes(root);
  const std::uint64_t forty = 40, huge = std::uint64_t{1} << 40;
  bool patched = false;
  for (std::size_t i = 0; i + 8 <= bad.size() && !patched; ++i) {
    if (std::memcmp(bad.data() + i, &forty, 8) == 0) {
      std::memcpy(bad.data() + i, &huge, 8);
      patched = true;
    }
  }
  REQUIRE(patched);
  CHECK_THROWS_AS(oompi::from_bytes<std::shared_ptr<recv_app::named>>(bad),
                  oompi::serialization_error);
}

TEST_CASE("trees go around the ranks; the receive buffer is reused after larger messages") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  const int next = (r + 1) % n, prev = (r + n - 1) % n;
  // Large, small, empty, larger, small: each receive reuses (or regrows) the thread's buffer.
  for (int nodes : {4095, 3, 0, 8191, 255, 1}) {
    auto mine = recv_app::make_tree(nodes, 1000 * r);
    auto req = w[next].iosend(mine, 31);
    auto got = w[prev].orecv<std::shared_ptr<tree>>(31);
    req.wait();
    CHECK(recv_app::same_tree(got.get(), 0, nodes, 1000 * prev));
  }
  // A truncated tree on the wire (the bytes of a larger one, cut): every receiver throws, and
  // the next message on the same buffer is read whole.
  const bytes whole = oompi::to_bytes(recv_app::make_tree(255, 0));
  const bytes cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(whole.size() / 2));
  auto req = w[next].isend(cut, 32);
  std::shared_ptr<tree> got;
  CHECK_THROWS_AS(w[prev].orecv(got, 32), oompi::serialization_error);
  req.wait();
  auto small = recv_app::make_tree(7, r);
  auto req2 = w[next].iosend(small, 33);
  auto back = w[prev].orecv<std::shared_ptr<tree>>(33);
  req2.wait();
  CHECK(recv_app::same_tree(back.get(), 0, 7, prev));
}
