// The C++ side of csharp.interop_collectives: the object collectives between one C++ rank (0)
// and N - 1 C# ranks (OompiTests.dll coll_peer, csharp_tests/CollPeer.cs), which must agree on
// the private communicator (oompi::detail::object_comm, C#'s Comm.ObjectComm()), the {size, code}
// framing, the split representation and the large path.
//
//   mpirun -np 1 csharp_coll_peer : -np N-1 dotnet OompiTests.dll coll_peer
//
// p ranks, L = p - 1 (a C# rank). Twice, first as is, then with the large-path limit lowered to
// 64 bytes on every rank (oompi::detail::object_int_limit, C#'s Comm.ObjectIntLimit), so that
// the split collectives move their slices point to point:
//   1. obcast from 0: the golden graph (a shared_ptr<list_node>);
//   2. obcast from L: a chain of 100 nodes, node i has data [i], other = the head;
//   3. oscatter from 0 of 2p + 1 nodes with data [10], [11], ... sharing one `other` (data
//      [-1]): rank 0 keeps 3, every other rank gets 2 (and its own copy of the shared node);
//   4. ogather to 0, then to L: rank r contributes r + 2 nodes with data [100 r + i] sharing one
//      `other` with data [-r];
//   5. oallgather of the same;
//   6. oscatterv from L with counts[i] = i + 1 (0 for L itself): node k has data [77 + k].
// Then failures, each followed by an obcast that shows every rank is still in step:
//   7. oscatterv from 0 with counts of the wrong length: every rank throws (invalid argument);
//   8. oscatterv from L with counts that do not add up: every rank throws (invalid argument);
//   9. ogather to 0 of golden shapes where rank L has a null (C# cannot serialize it): every
//      rank throws (serialization error);
//  10. obcast from 0 of a shape that the C# ranks receive as a type that cannot travel: C++
//      succeeds, the C# ranks take part and then throw.
// Any mismatch aborts the job.
#include <oompi/oompi.hpp>
#include "golden_types.hpp"

#include <climits>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
using golden::list_node;
using node_ptr = std::shared_ptr<list_node>;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "csharp_coll_peer: FAILED: %s\n", what.c_str());
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
void unlink(const std::vector<node_ptr>& nodes) {
  for (auto& n : nodes)
    if (n) n->other.reset(), n->next.reset();
}
void check_gathered(const std::vector<node_ptr>& all, int p, const std::string& what) {
  std::size_t k = 0;
  for (int r = 0; r < p; ++r)
    for (int i = 0; i < r + 2; ++i, ++k) {
      check(k < all.size() && all[k] && all[k]->data == std::vector<std::int32_t>{100 * r + i},
            what + ": element " + std::to_string(k));
      check(all[k]->other && all[k]->other == all[k - i]->other && all[k]->other->data[0] == -r,
            what + ": sharing within a slice");
    }
  check(k == all.size(), what + ": size " + std::to_string(all.size()));
  if (!all.empty()) check(all[0]->other != all[2]->other, what + ": slices share nothing");
  std::vector<node_ptr> others;
  for (auto& n : all) others.push_back(n->other);
  unlink(others);
}

template <class F>
void expect_throw(const char* what, F f, bool argument) {
  try {
    f();
  } catch (const std::invalid_argument&) {
    if (argument) return;
    fail(std::string(what) + ": invalid_argument, expected serialization_error");
  } catch (const oompi::serialization_error&) {
    if (!argument) return;
    fail(std::string(what) + ": serialization_error, expected invalid_argument");
  }
  fail(std::string(what) + ": did not throw");
}

void in_step(const oompi::communicator& world, int n) {
  auto x = node({1000 + n});
  world.obcast(x, 0);
  node_ptr y;
  world.obcast(y, world.size() - 1);
  check(y && y->data == std::vector<std::int32_t>{2000 + n}, "in step after " + std::to_string(n));
}

void round(const oompi::communicator& world, const std::string& pass) {
  const int p = world.size(), last = p - 1;

  // 1. obcast from 0
  auto a = node({1, 2}), b = node({3}), c = node({});
  a->other = c, a->next = b, b->other = c, b->next = c, c->next = a;
  world.obcast(a, 0);
  unlink({a, b, c});

  // 2. obcast from L
  node_ptr head;
  world.obcast(head, last);
  int n = 0;
  std::vector<node_ptr> chain;
  for (auto q = head; q; q = q->next, ++n) {
    check(q->data == std::vector<std::int32_t>{n}, pass + "chain data " + std::to_string(n));
    check(q->other == head, pass + "chain other " + std::to_string(n));
    chain.push_back(q);
  }
  check(n == 100, pass + "chain length " + std::to_string(n));
  unlink(chain);

  // 3. oscatter from 0
  auto shared = node({-1});
  std::vector<node_ptr> all;
  for (int i = 0; i < 2 * p + 1; ++i) {
    all.push_back(node({10 + i}));
    all.back()->other = shared;
  }
  const auto mine = world.oscatter(all, 0);
  check(mine.size() == 3 && mine[0]->data[0] == 10 && mine[2]->data[0] == 12 &&
            mine[0]->other == mine[2]->other && mine[0]->other->data[0] == -1,
        pass + "oscatter: rank 0's slice");

  // 4. ogather to 0 and to L, 5. oallgather
  auto own = node({0});
  std::vector<node_ptr> contrib;
  for (int i = 0; i < 2; ++i) {
    contrib.push_back(node({i}));
    contrib.back()->other = own;
  }
  check_gathered(world.ogather(contrib, 0), p, pass + "ogather to 0");
  check(world.ogather(contrib, last).empty(), pass + "ogather to L: empty off the root");
  check_gathered(world.oallgather(contrib), p, pass + "oallgather");

  // 6. oscatterv from L
  const auto got = world.oscatterv(std::vector<node_ptr>{}, {}, last);
  check(got.size() == 1 && got[0]->data == std::vector<std::int32_t>{77}, pass + "oscatterv from C#");
}
}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  const auto world = oompi::communicator::world();
  const int p = world.size(), last = p - 1;
  check(p >= 2 && world.rank() == 0, "run as rank 0, before the C# ranks");

  round(world, "");
  oompi::detail::object_int_limit = 64;  // the C# ranks lower theirs too
  round(world, "large path: ");
  oompi::detail::object_int_limit = static_cast<std::size_t>(INT_MAX);

  // 7. bad counts at the C++ root
  std::vector<node_ptr> three{node({1}), node({2}), node({3})};
  expect_throw("oscatterv, bad counts at 0", [&] { world.oscatterv(three, {3}, 0); }, true);
  in_step(world, 7);
  // 8. bad counts at a C# root
  expect_throw("oscatterv, bad counts at L",
               [&] { world.oscatterv(std::vector<node_ptr>{}, {}, last); }, true);
  in_step(world, 8);
  // 9. a C# rank cannot serialize its shapes
  std::vector<golden::shape> shapes(2);
  shapes[0].name = "ok";
  expect_throw("ogather, C# rank cannot serialize", [&] { world.ogather(shapes, 0); }, false);
  in_step(world, 9);
  // 10. the C# ranks receive as a type that cannot travel
  golden::shape s;
  s.name = "sent";
  world.obcast(s, 0);
  in_step(world, 10);

  std::printf("csharp_coll_peer: ok (%d ranks)\n", p);
  return 0;
}
