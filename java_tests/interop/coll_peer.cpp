// The C++ side of java.interop_collectives: the object collectives between one C++ rank and one
// Java rank (org.oompi.tests.CollPeerJava), which must agree on the private communicator
// (oompi::detail::object_comm), the {size, code} framing and the split representation.
//
//   mpirun -np 1 java_coll_peer : -np 1 java ... org.oompi.tests.CollPeerJava
//
// In this order (list_node of tests/interop/golden_types.hpp; C++ rank 0, Java rank 1):
//   1. obcast from 0: the golden graph (a shared_ptr<list_node>);
//   2. obcast from 1: Java's chain of 100 nodes, node i has data [i], other = the head;
//   3. oscatter from 0 of 5 nodes with data [10], ..., [14] sharing one `other` (data [-1]):
//      rank 0 keeps 3, rank 1 gets 2 (its own copy of the shared node);
//   4. ogather to 0: rank r contributes r + 2 nodes with data [100 r + i];
//   5. oallgather of the same;
//   6. oscatterv from 1 with counts {1, 0}: Java sends one node with data [77].
// Any mismatch aborts the job.
#include <oompi/oompi.hpp>
#include "golden_types.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {
using golden::list_node;
using node_ptr = std::shared_ptr<list_node>;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "java_coll_peer: FAILED: %s\n", what.c_str());
  oompi::environment::abort(1);
}
void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}
node_ptr node(std::vector<std::int32_t> data) {
  auto n = std::make_shared<list_node>();
  n->data = std::move(data);
  return n;
}
void unlink(std::vector<node_ptr> nodes) {
  for (auto& n : nodes)
    if (n) n->other.reset(), n->next.reset();
}
void check_gathered(const std::vector<node_ptr>& all, const char* what) {
  std::size_t k = 0;
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < r + 2; ++i, ++k) {
      check(k < all.size() && all[k] && all[k]->data == std::vector<std::int32_t>{100 * r + i},
            std::string(what) + ": element " + std::to_string(k));
      check(all[k]->other == all[k - i]->other && all[k]->other->data[0] == -r,
            std::string(what) + ": sharing within a slice");
    }
  check(k == all.size(), std::string(what) + ": size");
}
}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  const auto world = oompi::communicator::world();
  check(world.size() == 2 && world.rank() == 0, "run as rank 0 of 2, before the Java rank");

  // 1. obcast from 0
  auto a = node({1, 2}), b = node({3}), c = node({});
  a->other = c, a->next = b, b->other = c, b->next = c, c->next = a;
  world.obcast(a, 0);
  unlink({a, b, c});

  // 2. obcast from 1
  node_ptr head;
  world.obcast(head, 1);
  int n = 0;
  std::vector<node_ptr> chain;
  for (auto p = head; p; p = p->next, ++n) {
    check(p->data == std::vector<std::int32_t>{n}, "chain data " + std::to_string(n));
    check(p->other == head, "chain other " + std::to_string(n));
    chain.push_back(p);
  }
  check(n == 100, "chain length " + std::to_string(n));
  unlink(chain);

  // 3. oscatter from 0
  auto shared = node({-1});
  std::vector<node_ptr> all;
  for (int i = 0; i < 5; ++i) {
    all.push_back(node({10 + i}));
    all.back()->other = shared;
  }
  const auto mine = world.oscatter(all, 0);
  check(mine.size() == 3 && mine[2]->data == std::vector<std::int32_t>{12} &&
            mine[0]->other == mine[2]->other,
        "oscatter: rank 0's slice");

  // 4. ogather, 5. oallgather
  auto own = node({0});
  std::vector<node_ptr> contrib;
  for (int i = 0; i < 2; ++i) {
    contrib.push_back(node({i}));
    contrib.back()->other = own;
  }
  check_gathered(world.ogather(contrib, 0), "ogather");
  check_gathered(world.oallgather(contrib), "oallgather");

  // 6. oscatterv from 1
  const auto got = world.oscatterv(std::vector<node_ptr>{}, {}, 1);
  check(got.size() == 1 && got[0]->data == std::vector<std::int32_t>{77}, "oscatterv from Java");

  std::printf("java_coll_peer: ok\n");
  return 0;
}
