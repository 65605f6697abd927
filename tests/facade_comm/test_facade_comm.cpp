// The facade's communicators, groups, Cartesian and graph topologies and intercommunicators
// (oompi::rt), checked from C++ at 1-4 ranks.
#include <catch2/catch.hpp>

#include <oompi/rt/rt.hpp>

#include <oompi/object_ops.hpp>

#include "binding_names.hpp"  // swig/: how each binding names the facade's messages

#include <numeric>
#include <stdexcept>
#include <vector>

using namespace oompi::rt;

namespace {
buffer ints(std::vector<int>& v) {
  return buffer(v.data(), std::int64_t(v.size()), MPI_INT, sizeof(int));
}
}  // namespace

TEST_CASE("split partitions by color and orders by key") {
  comm w = comm::world();
  const int r = w.rank(), n = w.size();
  comm half = w.split(r % 2, -r);  // reversed order inside each half
  REQUIRE(!half.is_null());
  CHECK(half.size() == (n + 1 - r % 2) / 2);
  const int members_after = (n - 1 - r) / 2;  // same parity, larger world rank
  CHECK(half.rank() == members_after);
  std::vector<int> v{1}, sum{0};
  auto vb = ints(v), sb = ints(sum);
  half.allreduce(vb, sb, op::of(op_kind::sum));
  CHECK(sum[0] == half.size());
  CHECK(w.compare(half) == (n == 1 ? comparison::congruent : comparison::unequal));
  half.close();
  CHECK(half.is_null());

  comm none = w.split(r == 0 ? MPI_UNDEFINED : 1);
  CHECK(none.is_null() == (r == 0));
  if (!none.is_null()) {
    CHECK(none.size() == n - 1);
    none.close();
  }
  CHECK_THROWS_AS(w.split(-5), std::invalid_argument);
}

TEST_CASE("groups, create and compare") {
  comm w = comm::world();
  const int r = w.rank(), n = w.size();
  group g = w.get_group();
  CHECK(g.size() == n);
  CHECK(g.rank() == r);
  group first = g.incl({0});
  CHECK(first.size() == 1);
  CHECK(first.rank() == (r == 0 ? 0 : MPI_UNDEFINED));
  group rest = g.set_difference(first);
  CHECK(rest.size() == n - 1);
  CHECK(g.compare(first.set_union(rest)) == comparison::ident);
  CHECK(g.translate_ranks({0}, rest)[0] == MPI_UNDEFINED);
  CHECK_THROWS_AS(g.incl({n}), std::out_of_range);
  CHECK_THROWS_AS(g.incl({0, 0}), std::invalid_argument);

  comm only0 = w.create(first);
  CHECK(only0.is_null() == (r != 0));
  if (r == 0) {
    CHECK(only0.size() == 1);
    only0.close();
  }
  comm mine = w.create_group(rest, 7);
  CHECK(mine.is_null() == (r == 0));
  if (!mine.is_null()) {
    CHECK(mine.size() == n - 1);
    mine.close();
  }
  // The object collectives' private duplicate: made once, the same handle C++ code uses.
  comm oc = w.object_comm();
  CHECK(w.compare(oc) == comparison::congruent);
  CHECK(oc.compare(w.object_comm()) == comparison::ident);
  CHECK(MPI_Comm_c2f(oc.native("test")) == MPI_Comm_c2f(oompi::detail::object_comm(MPI_COMM_WORLD)));
  oc.close();  // not owned: frees nothing
  CHECK(w.object_comm().size() == n);
  comm d = w.dup();
  CHECK(w.compare(d) == comparison::congruent);
  CHECK(w.compare(w) == comparison::ident);
  d.set_name("oompi-dup");
  CHECK(d.name() == "oompi-dup");
  CHECK_THROWS_AS(d.set_name(std::string(1000, 'x')), std::invalid_argument);
  d.close();
  CHECK_THROWS_AS(d.name(), closed_error);
  g.close();
  CHECK_THROWS_AS(g.size(), closed_error);
  CHECK_THROWS_AS(w.create(g), closed_error);
}

TEST_CASE("a periodic Cartesian ring shifts and reports its layout") {
  comm w = comm::world();
  const int n = w.size();
  CHECK(w.topology() == topology_kind::none);
  const auto dims = cart_comm::dims_create(n, {0});
  REQUIRE(dims == std::vector<int>{n});
  cart_comm ring = w.create_cart(dims, {1});
  REQUIRE(!ring.is_null());
  CHECK(ring.topology() == topology_kind::cartesian);
  CHECK(ring.ndims() == 1);
  CHECK(ring.dims() == dims);
  CHECK(ring.periods() == std::vector<int>{1});
  const int me = ring.rank();
  CHECK(ring.coords() == std::vector<int>{me});
  CHECK(ring.rank_of({me + n}) == me);  // periodic: wraps
  const auto s = ring.shift(0, 1);
  CHECK(s.dest == (me + 1) % n);
  CHECK(s.source == (me + n - 1) % n);
  CHECK(ring.in_degree() == 2);

  // Neighbour allgather: from the left and right neighbours (MPI's order: -1, +1).
  std::vector<int> mine{me}, got(2, -1);
  auto mb = ints(mine), gb = ints(got);
  ring.neighbor_allgather(mb, gb);
  CHECK(got[0] == (me + n - 1) % n);
  CHECK(got[1] == (me + 1) % n);

  // Torus shift: sendrecv along the ring, as seed 000's Fig. 14 does.
  std::vector<int> out{me * 10}, in{-1};
  auto ob = ints(out), ib = ints(in);
  ring.sendrecv(ob, s.dest, 0, ib, s.source, 0);
  CHECK(in[0] == s.source * 10);

  CHECK_THROWS_AS(ring.shift(1, 1), std::out_of_range);
  CHECK_THROWS_AS(w.create_cart({n + 1}, {0}), std::exception);
  CHECK_THROWS_AS(w.create_cart({n}, {0, 1}), std::invalid_argument);
  comm plain = ring.dup();
  CHECK(plain.topology() == topology_kind::cartesian);
  plain.close();
  ring.close();
  CHECK_THROWS_AS(ring.dims(), closed_error);
}

TEST_CASE("a 2-d grid and its rows") {
  comm w = comm::world();
  const int n = w.size();
  const auto dims = cart_comm::dims_create(n, {0, 0});
  cart_comm grid = w.create_cart(dims, {0, 0});
  const auto c = grid.coords();
  CHECK(grid.coords_of(grid.rank()) == c);
  cart_comm row = grid.sub({0, 1});
  CHECK(row.size() == dims[1]);
  CHECK(row.coords() == std::vector<int>{c[1]});
  const auto s = grid.shift(0, 1);
  CHECK(s.dest == (c[0] + 1 < dims[0] ? grid.rank_of({c[0] + 1, c[1]}) : MPI_PROC_NULL));
  CHECK_THROWS_AS(grid.rank_of({dims[0], 0}), std::out_of_range);
  row.close();
  grid.close();
}

TEST_CASE("a distributed graph: a directed ring") {
  comm w = comm::world();
  const int r = w.rank(), n = w.size();
  dist_graph_comm g = w.create_dist_graph({(r + n - 1) % n}, {(r + 1) % n});
  CHECK(g.topology() == topology_kind::dist_graph);
  CHECK(g.sources() == std::vector<int>{(r + n - 1) % n});
  CHECK(g.destinations() == std::vector<int>{(r + 1) % n});
  CHECK(g.in_degree() == 1);
  std::vector<int> mine{r}, got{-1};
  auto mb = ints(mine), gb = ints(got);
  g.neighbor_alltoall(mb, gb);
  CHECK(got[0] == (r + n - 1) % n);
  std::vector<int> wrong(3);
  auto wb = ints(wrong);
  CHECK_THROWS_AS(g.neighbor_allgather(mb, wb), std::invalid_argument);
  g.close();
  CHECK_THROWS_AS(w.create_dist_graph({n}, {0}), std::exception);
}

TEST_CASE("an intercommunicator between the two halves") {
  comm w = comm::world();
  const int r = w.rank(), n = w.size();
  if (n < 2) {
    CHECK_THROWS_AS(comm::self().create_intercomm(1, w, 0), std::out_of_range);
    return;
  }
  const int color = r < n / 2 ? 0 : 1;
  comm half = w.split(color, r);
  const int remote_leader = color == 0 ? n / 2 : 0;
  intercomm x = half.create_intercomm(0, w, remote_leader, 5);
  CHECK(x.is_inter());
  CHECK(x.remote_size() == (color == 0 ? n - n / 2 : n / 2));
  CHECK(x.get_group().size() == half.size());
  CHECK(x.remote_group().size() == x.remote_size());
  // Rank 0 of each half exchanges with rank 0 of the other.
  if (half.rank() == 0) {
    std::vector<int> out{color + 100}, in{-1};
    auto ob = ints(out), ib = ints(in);
    x.sendrecv(ob, 0, 1, ib, 0, 1);
    CHECK(in[0] == (1 - color) + 100);
  }
  // bcast from rank 0 of group 0 to group 1, with MPI's intercommunicator roots.
  std::vector<int> v{color == 0 && half.rank() == 0 ? 77 : -1};
  auto vb = ints(v);
  x.bcast(vb, color == 1 ? 0 : (half.rank() == 0 ? MPI_ROOT : MPI_PROC_NULL));
  if (color == 1) CHECK(v[0] == 77);
  // allreduce: each group gets the sum over the other group.
  std::vector<int> one{r}, sum{-1};
  auto ob = ints(one), sb = ints(sum);
  x.allreduce(ob, sb, op::of(op_kind::sum));
  const int lo = (n / 2) * (n / 2 - 1) / 2, all = n * (n - 1) / 2;
  CHECK(sum[0] == (color == 0 ? all - lo : lo));
  CHECK_THROWS_AS(x.allreduce_in_place(vb, op::of(op_kind::sum)), std::logic_error);
  comm merged = x.merge(color == 1);
  CHECK(merged.size() == n);
  CHECK(merged.rank() == r);  // the low group first, then the high one, each in rank order
  CHECK(!merged.is_inter());
  merged.close();
  x.close();
  half.close();
}

// --- binding parity (issue 15): what the managed languages rely on ---------------------------

TEST_CASE("handles dropped without close are reclaimed on the MPI thread") {
  comm w = comm::world();
  for (int i = 0; i < 3; ++i) {
    info hints = info::create();  // never closed: freed at the next drain
    hints.set("k", "v");
    keyval kv = keyval::create();  // never closed
    kv.set(w, i);
    CHECK(kv.get(w) == i);
    CHECK(kv.remove(w));
  }
  info again = info::create();  // a call that drains: the dropped ones are freed here
  CHECK(again.size() == 0);
  again.close();
  CHECK_THROWS_AS(again.size(), closed_error);
  CHECK(info().native("test") == MPI_INFO_NULL);
}

TEST_CASE("idup: the request completes in a set, get() gives one communicator") {
  comm w = comm::world();
  comm_future f = w.idup();
  std::vector<request> reqs{f.get_request()};
  request::wait_all(reqs);
  comm c = f.get();
  CHECK(c.size() == w.size());
  CHECK(f.get().compare(c) == comparison::ident);
  c.close();
  CHECK(f.get().is_null());  // copies share the state: closed through any of them
  comm_future none;
  CHECK_THROWS_AS(none.get(), std::logic_error);
}

TEST_CASE("datatype contents and envelope from C++") {
  datatype v = datatype::vector(2, 1, 3, datatype::of(type_kind::int32));
  datatype_contents c = v.contents();
  CHECK(c.combiner() == MPI_COMBINER_VECTOR);
  CHECK(c.integers() == std::vector<int>{2, 1, 3});
  REQUIRE(c.types().size() == 1);
  CHECK(c.types()[0].combiner() == MPI_COMBINER_NAMED);
  v.close();
  CHECK_THROWS_AS(v.contents(), closed_error);
}

TEST_CASE("closed and null handles say where and what, and each binding shows it in its names") {
  using namespace oompi::binding;
  comm w = comm::world();
  comm d = w.dup();
  d.close();
  try {
    (void)d.name();
    FAIL("a closed comm answered");
  } catch (const closed_error& e) {
    CHECK(e.where() == "comm.name");
    CHECK(e.object() == "comm");
    CHECK(std::string(e.what()) == "comm.name: this communicator has been closed");  // C++
    CHECK(oompi::binding::message(e, java_names) == "Comm.name: this Comm has been closed");
    CHECK(oompi::binding::message(e, csharp_names) == "Comm.Name: this Comm has been disposed");
    CHECK(oompi::binding::message(e, python_names) == "Comm.name: this Comm has been closed");
  }
  try {
    (void)info().keys();
    FAIL("a null info answered");
  } catch (const null_handle_error& e) {
    CHECK(e.object() == "info");
    CHECK(std::string(e.what()).find("null info (info.create() makes one)") != std::string::npos);
    CHECK(oompi::binding::message(e, csharp_names).find(": null Info (Info.Create() makes one)") != std::string::npos);
    CHECK(oompi::binding::message(e, java_names).rfind("Info.", 0) == 0);
  }
  // any facade message: its leading class.method; other text as it is
  const std::invalid_argument bad("file.write_at_all: negative offset");
  CHECK(oompi::binding::message(bad, java_names) == "File.writeAtAll: negative offset");
  CHECK(oompi::binding::message(bad, csharp_names) == "MpiFile.WriteAtAll: negative offset");
  CHECK(oompi::binding::message(bad, python_names) == "File.write_at_all: negative offset");
  CHECK(oompi::binding::message(std::logic_error("oompi: something"), java_names) == "oompi: something");
  CHECK(oompi::binding::message(std::logic_error("not.a_facade_class: x"), java_names) == "not.a_facade_class: x");
  CHECK(oompi::binding::message(std::logic_error("environment.close"), csharp_names) == "MpiEnvironment.Dispose");
  // a closed proxy, from SWIG's $symname of the wrapper (already in the binding's names)
  CHECK(closed_self("Window_putAny", java_names) == "Window.put: this Window has been closed");
  CHECK(closed_self("Comm_recvArrayStatus", java_names) == "Comm.recv: this Comm has been closed");
  CHECK(closed_self("Comm_Size_get", java_names) == "Comm.getSize: this Comm has been closed");
  CHECK(closed_self("Comm_Size_get", csharp_names) == "Comm.Size: this Comm has been disposed");
  CHECK(closed_self("MpiFile_CloseHandle", csharp_names) ==
        "MpiFile.Dispose: this MpiFile has been disposed");
  CHECK(closed_self("Request_WaitNative", csharp_names) ==
        "Request.Wait: this Request has been disposed");
  CHECK(null_argument("Comm_compare", java_names) == "Comm.compare: a null argument");
}
