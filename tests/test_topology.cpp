// Topologies: dims_create, Cartesian grids, graphs, distributed graphs, and the neighbour
// collectives (blocking and nonblocking) on each.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

using Catch::Matchers::Contains;

namespace {
int product(const std::vector<int>& v) {
  return std::accumulate(v.begin(), v.end(), 1, std::multiplies<>());
}
oompi::cartesian_communicator periodic_ring() {
  auto world = oompi::communicator::world();
  return oompi::cartesian_communicator(world, {world.size()}, {true});
}
}  // namespace

TEST_CASE("dims_create balances a grid") {
  const int n = oompi::communicator::world().size();
  CHECK(oompi::dims_create(12, 2) == std::vector<int>{4, 3});
  CHECK(oompi::dims_create(8, 3) == std::vector<int>{2, 2, 2});
  CHECK(oompi::dims_create(7, 2) == std::vector<int>{7, 1});
  CHECK(oompi::dims_create(6, {0, 3}) == std::vector<int>{2, 3});
  CHECK(oompi::dims_create(6, {2, 3}) == std::vector<int>{2, 3});
  CHECK(oompi::dims_create(1, 0).empty());
  auto d = oompi::dims_create(n, 2);
  CHECK(product(d) == n);
  CHECK(d[0] >= d[1]);

  CHECK_THROWS_AS(oompi::dims_create(0, 2), std::invalid_argument);
  CHECK_THROWS_AS(oompi::dims_create(-3, 2), std::invalid_argument);
  CHECK_THROWS_AS(oompi::dims_create(4, -1), std::invalid_argument);
  CHECK_THROWS_WITH(oompi::dims_create(6, {4, 0}), Contains("do not fit"));
  CHECK_THROWS_AS(oompi::dims_create(6, {2, 2}), std::invalid_argument);
  CHECK_THROWS_AS(oompi::dims_create(6, {-1, 0}), std::invalid_argument);
}

TEST_CASE("a periodic 2-D grid: coords, rank, shift") {
  auto world = oompi::communicator::world();
  const int n = world.size();
  const auto dims = oompi::dims_create(n, 2);
  oompi::cartesian_communicator grid(world, dims, {true, true});
  REQUIRE_FALSE(grid.is_null());
  CHECK(grid.owned());
  CHECK(grid.size() == n);
  CHECK(grid.ndims() == 2);
  CHECK(grid.dims() == dims);
  CHECK(grid.periods() == std::vector<bool>{true, true});
  CHECK(oompi::topology_of(grid) == oompi::topology_kind::cartesian);
  CHECK(oompi::topology_of(world) == oompi::topology_kind::none);

  // Row-major numbering (no reordering asked).
  for (int k = 0; k < n; ++k) {
    const std::vector<int> c{k / dims[1], k % dims[1]};
    CHECK(grid.coords(k) == c);
    CHECK(grid.rank(c) == k);
  }
  const auto me = grid.coords();
  CHECK(me == grid.coords(grid.rank()));
  // Periodic coordinates wrap.
  CHECK(grid.rank({me[0] - dims[0], me[1] + dims[1]}) == grid.rank());

  for (int dim = 0; dim < 2; ++dim) {
    auto up = me, down = me;
    up[dim] = (me[dim] + 1) % dims[dim];
    down[dim] = (me[dim] + dims[dim] - 1) % dims[dim];
    const auto s = grid.shift(dim, 1);
    CHECK(s.dest == grid.rank(up));
    CHECK(s.source == grid.rank(down));
    const auto [src, dst] = grid.shift(dim, -1);
    CHECK(dst == grid.rank(down));
    CHECK(src == grid.rank(up));
    // Shift data along the dimension.
    int got = -1;
    grid.sendrecv(grid.rank(), s.dest, dim, got, s.source, dim);
    CHECK(got == s.source);
  }
  CHECK(grid.in_degree() == 4);
  CHECK(grid.out_degree() == 4);
  CHECK(grid.neighbors().size() == 4);

  // dup and idup keep the topology and the kind.
  oompi::cartesian_communicator d = grid.dup();
  CHECK(d.dims() == dims);
  CHECK(d.compare(grid) == oompi::comparison::congruent);
  oompi::cartesian_communicator di = grid.idup().get();
  CHECK(di.coords() == me);
  oompi::info hints;
  CHECK(grid.dup(hints).ndims() == 2);
}

TEST_CASE("a non-periodic line has proc_null past its ends") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  oompi::cartesian_communicator line(world, {n}, {false});
  const auto s = line.shift(0, 1);
  CHECK(s.dest == (r == n - 1 ? oompi::proc_null : r + 1));
  CHECK(s.source == (r == 0 ? oompi::proc_null : r - 1));
  CHECK(line.neighbors() == std::vector<int>{s.source, s.dest});
  CHECK(line.periods() == std::vector<bool>{false});
  CHECK_THROWS_AS(line.rank({n}), std::out_of_range);
  CHECK_THROWS_AS(line.rank({-1}), std::out_of_range);
  // Data shifted right: the first process receives nothing (proc_null).
  int got = -1;
  line.sendrecv(r, s.dest, 0, got, s.source, 0);
  CHECK(got == (r == 0 ? -1 : r - 1));
  // A larger shift.
  const auto s2 = line.shift(0, 2);
  CHECK(s2.dest == (r + 2 < n ? r + 2 : oompi::proc_null));
}

TEST_CASE("a grid smaller than the communicator leaves processes out") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  oompi::cartesian_communicator one(world, {1}, {false});
  if (r == 0) {
    REQUIRE_FALSE(one.is_null());
    CHECK(one.size() == 1);
    CHECK(one.coords() == std::vector<int>{0});
  } else {
    CHECK(one.is_null());
    CHECK_THROWS_AS(one.coords(), std::logic_error);
    CHECK_THROWS_AS(one.shift(0), std::logic_error);
    CHECK_THROWS_AS(one.ndims(), std::logic_error);
    CHECK_THROWS_AS(one.neighbor_allgather(1), std::logic_error);
  }
  // Reordering is allowed to renumber; the grid is still consistent.
  oompi::cartesian_communicator re(world, {n}, {true}, true);
  CHECK(re.size() == n);
  CHECK(re.rank(re.coords()) == re.rank());
}

TEST_CASE("sub-grids") {
  auto world = oompi::communicator::world();
  const auto dims = oompi::dims_create(world.size(), 2);
  oompi::cartesian_communicator grid(world, dims, {false, true});
  const auto me = grid.coords();
  auto col = grid.sub({true, false});  // varies along dim 0
  auto row = grid.sub({false, true});
  CHECK(col.ndims() == 1);
  CHECK(col.size() == dims[0]);
  CHECK(col.coords() == std::vector<int>{me[0]});
  CHECK(col.periods() == std::vector<bool>{false});
  CHECK(row.size() == dims[1]);
  CHECK(row.coords() == std::vector<int>{me[1]});
  CHECK(row.periods() == std::vector<bool>{true});
  auto point = grid.sub({false, false});
  CHECK(point.size() == 1);
  CHECK_THROWS_AS(grid.sub({true}), std::invalid_argument);
}

TEST_CASE("Cartesian bad input") {
  auto world = oompi::communicator::world();
  const int n = world.size();
  using oompi::cartesian_communicator;
  CHECK_THROWS_WITH(cartesian_communicator(world, {n, 1}, {true}), Contains("periodicity"));
  CHECK_THROWS_AS(cartesian_communicator(world, {0, n}, {true, true}), std::invalid_argument);
  CHECK_THROWS_AS(cartesian_communicator(world, {-1}, {true}), std::invalid_argument);
  CHECK_THROWS_WITH(cartesian_communicator(world, {n + 1}, {true}),
                    Contains("more processes"));
  CHECK_THROWS_AS(cartesian_communicator(oompi::intracommunicator(), {1}, {true}),
                  std::logic_error);
  CHECK_THROWS_AS(cartesian_communicator(world.native()), std::invalid_argument);

  cartesian_communicator grid(world, {n, 1}, {true, false});
  CHECK_THROWS_AS(grid.coords(n), std::out_of_range);
  CHECK_THROWS_AS(grid.coords(-1), std::out_of_range);
  CHECK_THROWS_AS(grid.rank({0}), std::invalid_argument);
  CHECK_THROWS_AS(grid.rank({0, 1}), std::out_of_range);  // dim 1 is not periodic
  CHECK_THROWS_AS(grid.shift(2), std::out_of_range);
  CHECK_THROWS_AS(grid.shift(-1), std::out_of_range);
  // A graph handle is not a Cartesian one.
  oompi::graph_communicator g(world, std::vector<std::vector<int>>(static_cast<std::size_t>(n)));
  CHECK_THROWS_AS(cartesian_communicator(g.native()), std::invalid_argument);
  CHECK_THROWS_AS(oompi::graph_communicator(grid.native()), std::invalid_argument);
  CHECK_THROWS_AS(oompi::dist_graph_communicator(grid.native()), std::invalid_argument);
}

TEST_CASE("graph topology: a ring") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  std::vector<std::vector<int>> adj(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) adj[static_cast<std::size_t>(i)] = {(i + n - 1) % n, (i + 1) % n};
  oompi::graph_communicator ring(world, adj);
  REQUIRE_FALSE(ring.is_null());
  CHECK(oompi::topology_of(ring) == oompi::topology_kind::graph);
  CHECK(ring.nnodes() == n);
  CHECK(ring.nedges() == 2 * n);
  CHECK(ring.adjacency() == adj);
  const int left = (r + n - 1) % n, right = (r + 1) % n;
  CHECK(ring.neighbors() == std::vector<int>{left, right});
  CHECK(ring.neighbors_count(0) == 2);
  CHECK(ring.neighbors(n - 1) == std::vector<int>{(n - 2 + n) % n, 0});
  CHECK(ring.in_degree() == 2);
  std::vector<int> index, edges;
  for (int i = 0; i < n; ++i) {
    edges.insert(edges.end(), adj[static_cast<std::size_t>(i)].begin(),
                 adj[static_cast<std::size_t>(i)].end());
    index.push_back(static_cast<int>(edges.size()));
  }
  CHECK(ring.index() == index);
  CHECK(ring.edges() == edges);

  auto same = oompi::graph_communicator::from_index(world, index, edges);
  CHECK(same.adjacency() == adj);
  CHECK(ring.dup().adjacency() == adj);
  CHECK(ring.idup().get().nnodes() == n);

  // Neighbour collectives over the graph.
  CHECK(ring.neighbor_allgather(r) == std::vector<int>{left, right});
  CHECK(ring.neighbor_alltoall(std::vector<int>{r, r}) == std::vector<int>{left, right});
}

TEST_CASE("graph topology: fewer nodes than processes, and bad input") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  oompi::graph_communicator lone(world, {{}});  // one node, no edges
  if (r == 0) {
    REQUIRE_FALSE(lone.is_null());
    CHECK(lone.nnodes() == 1);
    CHECK(lone.neighbors().empty());
    CHECK(lone.neighbor_allgather(5).empty());
  } else {
    CHECK(lone.is_null());
    CHECK_THROWS_AS(lone.neighbors(), std::logic_error);
  }
  using oompi::graph_communicator;
  CHECK_THROWS_AS(graph_communicator(world, {{n}}), std::out_of_range);
  CHECK_THROWS_AS(graph_communicator(world, {{-1}}), std::out_of_range);
  CHECK_THROWS_WITH(graph_communicator(world, std::vector<std::vector<int>>(
                                                  static_cast<std::size_t>(n + 1))),
                    Contains("processes"));
  CHECK_THROWS_AS(graph_communicator::from_index(world, {2, 1}, {0, 0}), std::invalid_argument);
  CHECK_THROWS_AS(graph_communicator::from_index(world, {1}, {0, 0}), std::invalid_argument);
  graph_communicator ring(world, std::vector<std::vector<int>>(static_cast<std::size_t>(n)));
  CHECK_THROWS_AS(ring.neighbors(n), std::out_of_range);
  CHECK_THROWS_AS(ring.neighbors_count(-1), std::out_of_range);
}

TEST_CASE("distributed graph, adjacent form") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  const int left = (r + n - 1) % n, right = (r + 1) % n;
  using oompi::dist_graph_communicator;
  auto ring = dist_graph_communicator::adjacent(world, {left}, {right});
  CHECK(oompi::topology_of(ring) == oompi::topology_kind::dist_graph);
  CHECK(ring.in_degree() == 1);
  CHECK(ring.out_degree() == 1);
  CHECK_FALSE(ring.is_weighted());
  CHECK(ring.sources() == std::vector<int>{left});
  CHECK(ring.destinations() == std::vector<int>{right});
  CHECK(ring.source_weights().empty());
  CHECK(ring.neighbor_allgather(r) == std::vector<int>{left});
  CHECK(ring.dup().sources() == std::vector<int>{left});
  CHECK(ring.idup().get().destinations() == std::vector<int>{right});

  auto weighted =
      dist_graph_communicator::adjacent_weighted(world, {left}, {r}, {right}, {r + 100});
  CHECK(weighted.is_weighted());
  CHECK(weighted.in_degree() == 1);
  const auto nb = weighted.neighbors();
  CHECK(nb.sources == std::vector<int>{left});
  CHECK(nb.source_weights == std::vector<int>{r});
  CHECK(nb.destination_weights == std::vector<int>{r + 100});
  // Reordering may renumber; the degrees stay.
  auto re = dist_graph_communicator::adjacent(world, {left}, {right}, true);
  CHECK(re.in_degree() == 1);
  CHECK(re.size() == n);

  // Bad input (identical on every rank).
  CHECK_THROWS_AS(dist_graph_communicator::adjacent(world, {n}, {right}), std::out_of_range);
  CHECK_THROWS_AS(dist_graph_communicator::adjacent(world, {left}, {-1}), std::out_of_range);
  CHECK_THROWS_WITH(
      dist_graph_communicator::adjacent_weighted(world, {left}, {1, 2}, {right}, {1}),
      Contains("source weights"));
  CHECK_THROWS_WITH(
      dist_graph_communicator::adjacent_weighted(world, {left}, {1}, {right}, {-4}),
      Contains("negative weight"));
  CHECK_THROWS_AS(dist_graph_communicator::adjacent(oompi::intracommunicator(), {}, {}),
                  std::logic_error);
}

TEST_CASE("distributed graph, general form") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  const int left = (r + n - 1) % n, right = (r + 1) % n;
  using oompi::dist_graph_communicator;
  // Each process gives its own out-edge.
  auto ring = dist_graph_communicator::general(world, {r}, {1}, {right});
  CHECK(ring.in_degree() == 1);
  CHECK(ring.out_degree() == 1);
  CHECK(ring.sources() == std::vector<int>{left});
  CHECK(ring.destinations() == std::vector<int>{right});

  // Rank 0 gives every edge, with weights; the others give none (empty weights).
  std::vector<int> sources, degrees, dests, weights;
  if (r == 0)
    for (int k = 0; k < n; ++k) {
      sources.push_back(k);
      degrees.push_back(1);
      dests.push_back((k + 1) % n);
      weights.push_back(10 + k);
    }
  auto w = dist_graph_communicator::general_weighted(world, sources, degrees, dests, weights);
  CHECK(w.is_weighted());
  CHECK(w.sources() == std::vector<int>{left});
  CHECK(w.source_weights() == std::vector<int>{10 + left});
  CHECK(w.destination_weights() == std::vector<int>{10 + r});

  // Nobody gives any edge.
  auto empty = dist_graph_communicator::general(world, {}, {}, {});
  CHECK(empty.in_degree() == 0);
  CHECK(empty.out_degree() == 0);
  CHECK(empty.neighbor_allgather(r).empty());

  CHECK_THROWS_WITH(dist_graph_communicator::general(world, {r}, {1, 1}, {right}),
                    Contains("degrees"));
  CHECK_THROWS_AS(dist_graph_communicator::general(world, {r}, {-1}, {}), std::invalid_argument);
  CHECK_THROWS_WITH(dist_graph_communicator::general(world, {r}, {2}, {right}),
                    Contains("add up"));
  CHECK_THROWS_AS(dist_graph_communicator::general(world, {n}, {1}, {right}), std::out_of_range);
  CHECK_THROWS_AS(dist_graph_communicator::general_weighted(world, {r}, {1}, {right}, {}),
                  std::invalid_argument);
}

TEST_CASE("neighbour allgather and allgatherv on a periodic ring") {
  auto ring = periodic_ring();
  const int r = ring.rank(), n = ring.size();
  const int left = (r + n - 1) % n, right = (r + 1) % n;
  CHECK(ring.neighbors() == std::vector<int>{left, right});

  CHECK(ring.neighbor_allgather(r) == std::vector<int>{left, right});
  CHECK(ring.neighbor_allgather(std::vector<double>{r + 0.5, r * 10.0}) ==
        std::vector<double>{left + 0.5, left * 10.0, right + 0.5, right * 10.0});
  std::array<std::int64_t, 2> pair{r, -r};
  std::vector<std::int64_t> got(4);
  ring.neighbor_allgather(pair, got);
  CHECK(got == std::vector<std::int64_t>{left, -left, right, -right});

  // Nonblocking: value form, borrowed buffers, moved send buffer.
  auto f = ring.ineighbor_allgather(r);
  CHECK(f.get() == std::vector<int>{left, right});
  auto fv = ring.ineighbor_allgather(std::vector<int>{r, r});
  CHECK(fv.get() == std::vector<int>{left, left, right, right});
  int mine = r;
  std::vector<int> out(2, -1);
  auto req = ring.ineighbor_allgather(mine, out);
  req.wait();
  CHECK(out == std::vector<int>{left, right});
  std::vector<int> out2(4, -1);
  auto req2 = ring.ineighbor_allgather(std::vector<int>{r, r + 1}, out2);  // moved in
  req2.wait();
  CHECK(out2 == std::vector<int>{left, left + 1, right, right + 1});

  // allgatherv: rank k contributes k + 1 copies of k.
  const std::vector<int> send(static_cast<std::size_t>(r + 1), r);
  std::vector<int> expect(static_cast<std::size_t>(left + 1), left);
  expect.insert(expect.end(), static_cast<std::size_t>(right + 1), right);
  CHECK(ring.neighbor_allgatherv(send) == expect);
  std::vector<int> buf(expect.size() + 3, -1);
  ring.neighbor_allgatherv(send, buf, {left + 1, right + 1}, {3 + right + 1, 0});  // swapped
  std::vector<int> swapped(static_cast<std::size_t>(right + 1), right);
  swapped.insert(swapped.end(), 3, -1);
  swapped.insert(swapped.end(), static_cast<std::size_t>(left + 1), left);
  CHECK(buf == swapped);
  std::vector<int> nb(expect.size(), -1);
  auto rv = ring.ineighbor_allgatherv(send, nb, {left + 1, right + 1});
  rv.wait();
  CHECK(nb == expect);
}

TEST_CASE("neighbour alltoall, alltoallv, alltoallw on a periodic ring") {
  auto ring = periodic_ring();
  const int r = ring.rank(), n = ring.size();
  const int left = (r + n - 1) % n, right = (r + 1) % n;
  // Block 0 goes to the left neighbour, block 1 to the right one. From the left we receive
  // what it sent right (its block 1), from the right what it sent left (its block 0).
  const std::vector<int> send{100 * r + 0, 100 * r + 1};
  const std::vector<int> expect{100 * left + 1, 100 * right + 0};
  CHECK(ring.neighbor_alltoall(send) == expect);
  std::vector<int> got(2, -1);
  ring.neighbor_alltoall(send, got);
  CHECK(got == expect);
  CHECK(ring.ineighbor_alltoall(send).get() == expect);
  std::vector<int> got2(2, -1);
  auto req = ring.ineighbor_alltoall(std::vector<int>(send), got2);
  req.wait();
  CHECK(got2 == expect);

  // alltoallv: 1 element to the left, 2 to the right; so 2 from the left, 1 from the right.
  const std::vector<int> vsend{r, 10 * r, 10 * r + 1};
  const std::vector<int> vexpect{10 * left, 10 * left + 1, right};
  CHECK(ring.neighbor_alltoallv(vsend, {1, 2}) == vexpect);
  std::vector<int> vgot(3, -1);
  ring.neighbor_alltoallv(vsend, {1, 2}, vgot, {2, 1});
  CHECK(vgot == vexpect);
  std::vector<int> vrev(3, -1);
  ring.neighbor_alltoallv(vsend, {1, 2}, {0, 1}, vrev, {2, 1}, {1, 0});
  CHECK(vrev == std::vector<int>{right, 10 * left, 10 * left + 1});
  std::vector<int> vnb(3, -1);
  auto rv = ring.ineighbor_alltoallv(vsend, {1, 2}, vnb, {2, 1});
  rv.wait();
  CHECK(vnb == vexpect);

  // alltoallw: the same exchange, displacements in bytes, a datatype per block; the block
  // from the right lands one int further on, leaving a gap.
  const MPI_Datatype i32 = MPI_INT;
  std::vector<int> wgot(4, -1);
  ring.neighbor_alltoallw(vsend, {1, 2}, {0, sizeof(int)}, {i32, i32}, wgot, {2, 1},
                          {0, 3 * sizeof(int)}, {i32, i32});
  CHECK(wgot == std::vector<int>{10 * left, 10 * left + 1, -1, right});
  std::vector<int> wnb(4, -1);
  auto rw = ring.ineighbor_alltoallw(std::vector<int>(vsend), {1, 2}, {0, sizeof(int)},
                                     {i32, i32}, wnb, {2, 1}, {0, 3 * sizeof(int)}, {i32, i32});
  rw.wait();
  CHECK(wnb == wgot);
}

TEST_CASE("neighbour alltoall pairs blocks as MPI says in dimensions of extent 1 or 2") {
  // In a periodic dimension of extent 1 or 2 both neighbours are the same process; the block
  // sent towards -1 must still land in the receiver's +1 block and vice versa (MPI-4.1 §8.6),
  // in every such dimension at once. MPI libraries get this wrong in several ways (Open MPI's
  // nonblocking forms, MPICH 4.0's v and w forms and several dimensions of extent 1); oompi
  // corrects them. Grids for n = 1..4: 2-D {1,1} {2,1} {3,1} {2,2}; 3-D {1,1,1} {2,1,1}
  // {3,1,1} {2,2,1}, once all periodic, once with a non-periodic middle dimension (its blocks
  // are left alone: proc_null, or a single real neighbour).
  auto world = oompi::communicator::world();
  const std::vector<std::vector<bool>> all_periods{{true, true}, {true, true, true}, {true, false, true}};
  for (const auto& periods : all_periods) {
    const int nd = static_cast<int>(periods.size());
    CAPTURE(nd, periods);
    const auto dims = oompi::dims_create(world.size(), nd);
    oompi::cartesian_communicator grid(world, dims, periods);
    const int me = grid.rank();
    const auto k = static_cast<std::size_t>(2 * nd);
    std::vector<int> send(k), expect(k, -1);
    for (std::size_t b = 0; b < k; ++b) send[b] = 100 * me + static_cast<int>(b);
    for (int d = 0; d < nd; ++d) {
      const auto s = grid.shift(d, 1);
      const auto b = 2 * static_cast<std::size_t>(d);
      if (s.source != oompi::proc_null) expect[b] = 100 * s.source + static_cast<int>(b) + 1;
      if (s.dest != oompi::proc_null) expect[b + 1] = 100 * s.dest + static_cast<int>(b);
    }
    std::vector<int> a(k, -1), an(k, -1), v(k, -1), vn(k, -1), w(k, -1), wn(k, -1);
    grid.neighbor_alltoall(send, a);
    CHECK(a == expect);
    grid.ineighbor_alltoall(send, an).wait();
    CHECK(an == expect);
    const std::vector<int> ones(k, 1);
    grid.neighbor_alltoallv(send, ones, v, ones);
    CHECK(v == expect);
    grid.ineighbor_alltoallv(send, ones, vn, ones).wait();
    CHECK(vn == expect);
    std::vector<MPI_Aint> bytes(k);
    for (std::size_t b = 0; b < k; ++b) bytes[b] = static_cast<MPI_Aint>(b * sizeof(int));
    const std::vector<MPI_Datatype> types(k, MPI_INT);
    grid.neighbor_alltoallw(send, ones, bytes, types, w, ones, bytes, types);
    CHECK(w == expect);
    grid.ineighbor_alltoallw(send, ones, bytes, types, wn, ones, bytes, types).wait();
    CHECK(wn == expect);
    if (periods[1]) {  // no proc_null: the value forms
      CHECK(grid.neighbor_alltoall(send) == expect);
      CHECK(grid.ineighbor_alltoall(send).get() == expect);
    }
    // Blocks of two elements, through a moved-in send buffer.
    std::vector<int> send2, expect2;
    for (std::size_t b = 0; b < k; ++b) send2.insert(send2.end(), {send[b], -1});
    for (std::size_t b = 0; b < k; ++b) expect2.insert(expect2.end(), {expect[b], -1});
    std::vector<int> got2(2 * k, -1);
    grid.ineighbor_alltoall(std::move(send2), got2).wait();
    CHECK(got2 == expect2);
    // Blocks of different sizes (block b has b + 1 elements, each 100 * rank + b): a wrong
    // pairing truncates or leaves elements unwritten.
    std::vector<int> scounts(k), rcounts(k), vsend, vexpect;
    for (std::size_t b = 0; b < k; ++b) {
      scounts[b] = static_cast<int>(b) + 1;
      rcounts[b] = static_cast<int>(b ^ 1) + 1;
      vsend.insert(vsend.end(), b + 1, send[b]);
      vexpect.insert(vexpect.end(), b % 2 ? b : b + 2, expect[b]);
    }
    std::vector<int> vv(vexpect.size(), -1), vvn(vexpect.size(), -1);
    grid.neighbor_alltoallv(vsend, scounts, vv, rcounts);
    CHECK(vv == vexpect);
    grid.ineighbor_alltoallv(vsend, scounts, vvn, rcounts).wait();
    CHECK(vvn == vexpect);
  }
}

TEST_CASE("several nonblocking neighbour collectives in flight") {
  auto ring = periodic_ring();
  const int r = ring.rank(), n = ring.size();
  const int left = (r + n - 1) % n, right = (r + 1) % n;
  std::vector<int> a(2), b(2), c(2);
  std::vector<oompi::request> reqs;
  reqs.push_back(ring.ineighbor_allgather(std::vector<int>{r}, a));
  reqs.push_back(ring.ineighbor_alltoall(std::vector<int>{r, -r}, b));
  reqs.push_back(ring.ineighbor_allgatherv(std::vector<int>{2 * r}, c, {1, 1}));
  oompi::wait_all(reqs);
  CHECK(a == std::vector<int>{left, right});
  CHECK(b == std::vector<int>{-left, right});
  CHECK(c == std::vector<int>{2 * left, 2 * right});
}

TEST_CASE("neighbour collectives on a star: different in- and out-degrees") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  std::vector<int> sources, dests;
  if (r == 0)
    for (int k = 1; k < n; ++k) dests.push_back(k);
  else
    sources.push_back(0);
  auto star = oompi::dist_graph_communicator::adjacent(world, sources, dests);
  CHECK(star.in_degree() == (r == 0 ? 0 : 1));
  CHECK(star.out_degree() == (r == 0 ? n - 1 : 0));

  const auto all = star.neighbor_allgather(r + 7);
  CHECK(all == (r == 0 ? std::vector<int>{} : std::vector<int>{7}));

  // Rank 0 sends block k - 1 (two values) to rank k; the others send nothing.
  std::vector<int> send;
  if (r == 0)
    for (int k = 1; k < n; ++k) send.insert(send.end(), {k, k * k});
  std::vector<int> recv(r == 0 ? 0 : 2, -1);
  star.neighbor_alltoall(send, recv);
  if (r != 0) CHECK(recv == std::vector<int>{r, r * r});
  std::vector<int> recv2(r == 0 ? 0 : 2, -1);
  star.ineighbor_alltoall(send, recv2).wait();
  CHECK(recv2 == recv);
  // The value form cannot infer the block size without out-neighbours (a local check; rank 0
  // must not enter the collective alone, so it only calls it when it is alone).
  if (r != 0) CHECK_THROWS_WITH(star.neighbor_alltoall(send), Contains("cannot be inferred"));
  if (n == 1) CHECK(star.neighbor_alltoall(send).empty());

  // alltoallv with sizes exchanged first: rank k gets k values.
  std::vector<int> vsend, counts;
  if (r == 0)
    for (int k = 1; k < n; ++k) {
      counts.push_back(k);
      vsend.insert(vsend.end(), static_cast<std::size_t>(k), k);
    }
  const auto vgot = star.neighbor_alltoallv(vsend, counts);
  CHECK(vgot == std::vector<int>(static_cast<std::size_t>(r == 0 ? 0 : r), r));

  // alltoallw: rank 0 sends one int to each leaf; sides without neighbours pass empty arrays.
  std::vector<int> wsend, wcounts, wrecv(r == 0 ? 0 : 1, -1), wrcounts;
  std::vector<MPI_Aint> wdispls, wrdispls;
  std::vector<MPI_Datatype> wtypes, wrtypes;
  if (r == 0) {
    for (int k = 1; k < n; ++k) {
      wsend.push_back(100 + k);
      wcounts.push_back(1);
      wdispls.push_back(static_cast<MPI_Aint>((k - 1) * sizeof(int)));
      wtypes.push_back(MPI_INT);
    }
  } else {
    wrcounts = {1};
    wrdispls = {0};
    wrtypes = {MPI_INT};
  }
  star.neighbor_alltoallw(wsend, wcounts, wdispls, wtypes, wrecv, wrcounts, wrdispls, wrtypes);
  if (r != 0) CHECK(wrecv == std::vector<int>{100 + r});
  std::vector<int> wrecv2(wrecv.size(), -1);
  star.ineighbor_alltoallw(wsend, wcounts, wdispls, wtypes, wrecv2, wrcounts, wrdispls, wrtypes)
      .wait();
  CHECK(wrecv2 == wrecv);
}

TEST_CASE("neighbour collective bad input throws before MPI") {
  auto ring = periodic_ring();
  const int r = ring.rank();
  std::vector<int> three(3), two(2), one(1);
  // allgather: 2 in-neighbours, so the receive buffer must be 2 blocks of the send size.
  CHECK_THROWS_WITH(ring.neighbor_allgather(r, three), Contains("equal blocks"));
  CHECK_THROWS_WITH(ring.neighbor_allgather(std::vector<int>{1, 2}, two),
                    Contains("mismatched counts"));
  CHECK_THROWS_AS(ring.ineighbor_allgather(r, three), std::invalid_argument);
  // alltoall: the send buffer must be 2 equal blocks.
  CHECK_THROWS_AS(ring.neighbor_alltoall(three, two), std::invalid_argument);
  CHECK_THROWS_AS(ring.neighbor_alltoall(two, three), std::invalid_argument);
  CHECK_THROWS_AS(ring.neighbor_alltoall(std::vector<int>{1, 2, 3}), std::invalid_argument);
  CHECK_THROWS_AS(ring.ineighbor_alltoall(two, one), std::invalid_argument);
  // v-variants: one count per neighbour, blocks inside the buffer.
  CHECK_THROWS_WITH(ring.neighbor_allgatherv(r, two, {1}), Contains("neighbours"));
  CHECK_THROWS_AS(ring.neighbor_allgatherv(r, two, {1, 1}, {0, 2}), std::out_of_range);
  CHECK_THROWS_AS(ring.neighbor_allgatherv(r, two, {-1, 1}, {0, 1}), std::invalid_argument);
  CHECK_THROWS_AS(ring.neighbor_alltoallv(two, {1, 2}, two, {1, 1}), std::out_of_range);
  CHECK_THROWS_AS(ring.neighbor_alltoallv(two, {1}), std::invalid_argument);
  CHECK_THROWS_AS(ring.ineighbor_alltoallv(two, {1, 1}, one, {1, 1}), std::out_of_range);
  CHECK_THROWS_AS(ring.ineighbor_allgatherv(r, two, {1, 1}, {1, 2}), std::out_of_range);
  // w: types and displacements checked against the buffers' bytes.
  const MPI_Datatype i32 = MPI_INT;
  CHECK_THROWS_AS(ring.neighbor_alltoallw(two, {1, 1}, {0, 4}, {i32}, two, {1, 1}, {0, 4},
                                          {i32, i32}),
                  std::invalid_argument);
  CHECK_THROWS_AS(ring.neighbor_alltoallw(two, {1, 1}, {0, 8}, {i32, i32}, two, {1, 1}, {0, 4},
                                          {i32, i32}),
                  std::out_of_range);
  CHECK_THROWS_AS(ring.neighbor_alltoallw(two, {1, 1}, {0, 4}, {i32, MPI_DATATYPE_NULL}, two,
                                          {1, 1}, {0, 4}, {i32, i32}),
                  std::invalid_argument);
  CHECK_THROWS_AS(ring.ineighbor_alltoallw(two, {1, 1}, {0, 4}, {i32, i32}, two, {1, 1},
                                           {-4, 4}, {i32, i32}),
                  std::invalid_argument);
  // The ring still works after all that.
  CHECK(ring.neighbor_allgather(r).size() == 2);
}

TEST_CASE("a nonblocking neighbour collective dropped unwaited still completes") {
  auto ring = periodic_ring();
  const int r = ring.rank();
  std::vector<int> out(2, -1);
  {
    auto req = ring.ineighbor_allgather(r, out);  // destroyed pending: completed, not leaked
  }
  CHECK(out == ring.neighbor_allgather(r));
}
