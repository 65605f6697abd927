// Intercommunicators: create, sizes and groups, point-to-point across the groups, merge,
// dup/idup/split/create, collectives, bad input. Run at 2, 3 and 4 ranks.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

using Catch::Matchers::Contains;

namespace {

// World split in two halves: A = the first (n + 1) / 2 ranks, B = the rest.
struct halves {
  oompi::intracommunicator world = oompi::communicator::world();
  int n = world.size();
  int size_a = (n + 1) / 2;
  bool in_a = world.rank() < size_a;
  int side = in_a ? 0 : 1;
  int local_size = in_a ? size_a : n - size_a;
  int remote_size = in_a ? n - size_a : size_a;
  int remote_leader = in_a ? size_a : 0;  // the other half's rank 0, in world
  oompi::intracommunicator local = world.split(side);

  oompi::intercommunicator connect(int tag = 99) const {
    return local.create_intercomm(0, world, remote_leader, tag);
  }
};

template <class C, class = void>
struct has_bcast : std::false_type {};
template <class C>
struct has_bcast<C, std::void_t<decltype(std::declval<const C&>().bcast(std::declval<int&>(), 0))>>
    : std::true_type {};

}  // namespace

TEST_CASE("create an intercommunicator between two halves of world") {
  halves h;
  REQUIRE(h.n >= 2);
  auto inter = h.connect();
  REQUIRE_FALSE(inter.is_null());
  CHECK(inter.owned());
  CHECK(inter.is_inter());
  CHECK(inter.size() == h.local_size);
  CHECK(inter.rank() == h.local.rank());
  CHECK(inter.remote_size() == h.remote_size);
  CHECK(inter.group().compare(h.local.group()) == oompi::comparison::ident);

  auto remote = inter.remote_group();
  CHECK(remote.size() == h.remote_size);
  std::vector<int> remote_ranks(static_cast<std::size_t>(h.remote_size));
  for (int i = 0; i < h.remote_size; ++i) remote_ranks[static_cast<std::size_t>(i)] = i;
  std::vector<int> expect;
  for (int k = 0; k < h.n; ++k)
    if ((k < h.size_a) != h.in_a) expect.push_back(k);
  CHECK(remote.translate_ranks(remote_ranks, h.world.group()) == expect);

  // The static spelling is the same call.
  auto again = oompi::intercommunicator::create(h.local, 0, h.world, h.remote_leader, 98);
  CHECK(again.remote_size() == h.remote_size);
  CHECK(again.compare(inter) == oompi::comparison::congruent);
  CHECK(oompi::intercommunicator::root == MPI_ROOT);
  CHECK(oompi::intercommunicator::no_root == MPI_PROC_NULL);
}

TEST_CASE("point-to-point across an intercommunicator names remote ranks") {
  halves h;
  auto inter = h.connect();
  const int me = h.world.rank();
  // Every process sends its world rank to remote rank (local rank % remote size), and
  // receives from every remote process that maps to it.
  const int dest = inter.rank() % inter.remote_size();
  auto req = inter.isend(me, dest, 5);
  std::vector<int> got;
  int expected_count = 0;
  for (int i = 0; i < h.remote_size; ++i)
    if (i % h.local_size == inter.rank()) ++expected_count;
  for (int k = 0; k < expected_count; ++k) {
    int v = -1;
    const auto st = inter.recv(v, oompi::any_source, 5);
    CHECK(st.source() >= 0);
    CHECK(st.source() < h.remote_size);
    got.push_back(v);
  }
  req.wait();
  std::vector<int> expect;
  for (int i = 0; i < h.remote_size; ++i)
    if (i % h.local_size == inter.rank()) expect.push_back(h.in_a ? h.size_a + i : i);
  std::sort(got.begin(), got.end());
  CHECK(got == expect);

  // Ports work too: leaders exchange a vector.
  if (inter.rank() == 0) {
    std::vector<double> mine{1.0 * me, 2.0 * me}, theirs(2);
    if (h.in_a) {
      inter[0] << mine;
      inter[0] >> theirs;
    } else {
      inter[0] >> theirs;
      inter[0] << mine;
    }
    CHECK(theirs == std::vector<double>{1.0 * h.remote_leader, 2.0 * h.remote_leader});
  }
}

TEST_CASE("merge makes one intracommunicator, low group first") {
  halves h;
  auto inter = h.connect();
  auto a_first = inter.merge(!h.in_a);  // A passes high = false
  CHECK_FALSE(a_first.is_inter());
  CHECK(a_first.size() == h.n);
  CHECK(a_first.rank() == h.world.rank());
  CHECK(a_first.compare(h.world) == oompi::comparison::congruent);
  auto b_first = inter.merge(h.in_a);
  CHECK(b_first.size() == h.n);
  CHECK(b_first.rank() == (h.in_a ? h.remote_size + inter.rank() : inter.rank()));
  // The merged communicator is a full intracommunicator.
  int got = -1;
  const int r = b_first.rank(), n = b_first.size();
  b_first.sendrecv(r, (r + 1) % n, 0, got, (r + n - 1) % n, 0);
  CHECK(got == (r + n - 1) % n);
  b_first.barrier();
}

TEST_CASE("dup, idup, split and create on an intercommunicator") {
  halves h;
  auto inter = h.connect();
  oompi::intercommunicator d = inter.dup();
  CHECK(d.is_inter());
  CHECK(d.remote_size() == h.remote_size);
  CHECK(d.compare(inter) == oompi::comparison::congruent);
  oompi::intercommunicator di = inter.idup().get();
  CHECK(di.remote_size() == h.remote_size);
  oompi::info hints;
  CHECK(inter.dup(hints).remote_size() == h.remote_size);

  // Split by local rank parity: each colour pairs with the same colour on the other side;
  // a colour missing on the other side gives a null communicator.
  const int color = inter.rank() % 2;
  auto count = [](int size, int c) { return (size - c + 1) / 2; };
  auto part = inter.split(color);
  const int local_same = count(h.local_size, color), remote_same = count(h.remote_size, color);
  if (remote_same == 0) {
    CHECK(part.is_null());
  } else {
    REQUIRE_FALSE(part.is_null());
    CHECK(part.is_inter());
    CHECK(part.size() == local_same);
    CHECK(part.remote_size() == remote_same);
  }

  // create: the two leaders only.
  auto leaders = inter.create(inter.group().incl({0}));
  if (inter.rank() == 0) {
    REQUIRE_FALSE(leaders.is_null());
    CHECK(leaders.size() == 1);
    CHECK(leaders.remote_size() == 1);
    int v = h.world.rank(), w = -1;
    leaders.sendrecv(v, 0, 1, w, 0, 1);
    CHECK(w == h.remote_leader);
  } else {
    CHECK(leaders.is_null());
  }

  // Attributes work on intercommunicators too.
  oompi::keyval<int> kv;
  inter.set_attr(kv, 3);
  CHECK(*inter.dup().get_attr(kv) == 3);
}

// Rooted collectives over an intercommunicator, when the collectives mixin provides them (a
// template, so that the calls are only compiled where they exist).
template <class C>
void check_inter_bcast(const C& inter, const halves& h) {
  if constexpr (has_bcast<C>::value) {
    // Rank 0 of A broadcasts to all of B.
    int v = h.in_a ? 1234 : -1;
    const int root = h.in_a ? (inter.rank() == 0 ? C::root : C::no_root) : 0;
    inter.bcast(v, root);
    if (!h.in_a) CHECK(v == 1234);
  }
}

TEST_CASE("collectives over an intercommunicator") {
  halves h;
  auto inter = h.connect();
  inter.barrier();  // both groups
  check_inter_bcast(inter, h);
  auto d = inter.dup();
  d.barrier();
  SUCCEED();
}

TEST_CASE("rooted collectives at MPI_ROOT: only the root's significant buffer counts") {
  halves h;
  auto inter = h.connect(5);
  using C = oompi::intercommunicator;
  const int root = h.in_a ? (inter.rank() == 0 ? C::root : C::no_root) : 0;
  const bool at_root = root == C::root;
  const int me = h.world.rank();
  std::vector<int> none, one{me + 1}, blocks(static_cast<std::size_t>(h.remote_size), -1);
  // gather: B's values at A's root; the root's (empty) send buffer is not significant.
  if (h.in_a) inter.gather(none, at_root ? blocks : none, root);
  else inter.gather(one, none, root);
  if (at_root)
    for (int i = 0; i < h.remote_size; ++i) CHECK(blocks[static_cast<std::size_t>(i)] == h.size_a + i + 1);
  // reduce: the sum of B's values; the root's count comes from its receive buffer.
  std::vector<int> sum{-1};
  if (h.in_a) inter.reduce(none, at_root ? sum : none, oompi::ops::sum, root);
  else inter.reduce(one, none, oompi::ops::sum, root);
  int expect = 0;
  for (int i = 0; i < h.remote_size; ++i) expect += h.size_a + i + 1;
  if (at_root) CHECK(sum[0] == expect);
  // scatter: A's root hands one element to each process of B; its receive buffer is empty.
  std::vector<int> got{-1};
  for (int i = 0; i < h.remote_size; ++i) blocks[static_cast<std::size_t>(i)] = 100 + i;
  if (h.in_a) inter.scatter(at_root ? blocks : none, none, root);
  else inter.scatter(none, got, root);
  if (!h.in_a) CHECK(got[0] == 100 + inter.rank());
  // A root buffer that is not whole blocks of the other group still throws, before MPI.
  if (at_root && h.remote_size > 1) {
    std::vector<int> odd(static_cast<std::size_t>(h.remote_size) + 1);
    CHECK_THROWS_AS(inter.gather(none, odd, root), std::invalid_argument);
  }
}

TEST_CASE("intercommunicator bad input throws, on every process, without hanging") {
  halves h;
  // A local leader outside the local group: every process sees it.
  CHECK_THROWS_AS(h.local.create_intercomm(h.local_size, h.world, h.remote_leader, 1),
                  std::out_of_range);
  CHECK_THROWS_AS(h.local.create_intercomm(-1, h.world, h.remote_leader, 1), std::out_of_range);
  CHECK_THROWS_AS(h.local.create_intercomm(0, h.world, h.remote_leader, -3),
                  std::invalid_argument);
  // A remote leader outside the peer communicator: only the leaders can tell, and they tell
  // their groups; both groups do it here, so nobody is left waiting.
  CHECK_THROWS_WITH(h.local.create_intercomm(0, h.world, h.n + 5, 1),
                    Contains("remote leader"));
  CHECK_THROWS_AS(h.local.create_intercomm(0, h.world, -2, 1), std::out_of_range);
  // The remote leader is the local leader itself.
  const int my_leader = h.in_a ? 0 : h.size_a;
  CHECK_THROWS_WITH(h.local.create_intercomm(0, h.world, my_leader, 1), Contains("disjoint"));
  // A null peer at the leader.
  CHECK_THROWS_AS(h.local.create_intercomm(0, oompi::intracommunicator(), h.remote_leader, 1),
                  std::logic_error);
  // Everything still works afterwards.
  auto inter = h.connect(7);
  CHECK(inter.remote_size() == h.remote_size);

  // Wrapping the wrong kind of handle.
  CHECK_THROWS_WITH(oompi::intracommunicator(inter.native()), Contains("intercommunicator"));
  CHECK_THROWS_AS(oompi::intercommunicator(h.world.native()), std::invalid_argument);
  oompi::intercommunicator borrowed(inter.native());  // not owned: inter still frees it
  CHECK_FALSE(borrowed.owned());
  CHECK(borrowed.remote_size() == h.remote_size);

  // A null intercommunicator.
  oompi::intercommunicator null_inter;
  CHECK(null_inter.is_null());
  CHECK_THROWS_AS(null_inter.remote_size(), std::logic_error);
  CHECK_THROWS_AS(null_inter.remote_group(), std::logic_error);
  CHECK_THROWS_AS(null_inter.merge(true), std::logic_error);
  CHECK_THROWS_AS(null_inter.send(1, 0), std::logic_error);
  CHECK_THROWS_AS(null_inter.barrier(), std::logic_error);
}
