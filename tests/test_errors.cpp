// Errors: MPI failures become oompi::error (class, code, routine, MPI's text) and never abort;
// bad input is refused with a clear exception. Covers truncation on every receive path,
// invalid ranks, tags, counts, datatypes and communicators.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include "test_support.hpp"

#include <climits>
#include <string>
#include <vector>

using oompi_test::mpi_error_class;

namespace {
int right(const oompi::communicator& c) { return (c.rank() + 1) % c.size(); }
int left(const oompi::communicator& c) { return (c.rank() + c.size() - 1) % c.size(); }

int tag_ub() {
  int* value = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag);
  return flag ? *value : 32767;
}
}  // namespace

TEST_CASE("oompi::error carries class, code, routine and MPI's text") {
  auto world = oompi::communicator::world();
  int x = 0;
  try {
    world.send(x, world.size() + 3);
    FAIL("no exception");
  } catch (const oompi::error& e) {
    CHECK(e.error_class() == MPI_ERR_RANK);
    CHECK(e.routine() == "MPI_Send");
    const std::string text = e.what();
    CHECK(text.find("MPI_Send") != std::string::npos);
    CHECK(text.find(oompi::error::string_of(e.code())) != std::string::npos);
    CHECK_FALSE(oompi::error::string_of(e.code()).empty());
    int cls = -1;
    MPI_Error_class(e.code(), &cls);
    CHECK(cls == e.error_class());
  }
  // oompi::error is a std::runtime_error; state_error a std::logic_error.
  STATIC_REQUIRE(std::is_base_of_v<std::runtime_error, oompi::error>);
  STATIC_REQUIRE(std::is_base_of_v<std::logic_error, oompi::state_error>);
}

TEST_CASE("a receive into a buffer too small fails with MPI_ERR_TRUNCATE on every path") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world), to = right(world);
  const std::vector<double> big(10, 1.0 * r);
  std::vector<double> small(4, -1.0);

  SECTION("recv") {
    auto s = world.isend(big, to, 1);
    try {
      world.recv(small, from, 1);
      FAIL("no exception");
    } catch (const oompi::error& e) {
      CHECK(e.error_class() == MPI_ERR_TRUNCATE);
      CHECK(e.routine() == "MPI_Recv");
    }
    s.wait();
  }
  SECTION("recv into a scalar and through a port") {
    auto s = world.isend(big, to, 0);  // ports use tag 0
    double one = 0;
    CHECK(mpi_error_class([&] { world[from] >> one; }) == MPI_ERR_TRUNCATE);
    s.wait();
  }
  // The nonblocking receives are posted after the send: see self_truncation_is_silent().
  SECTION("irecv + wait") {
    auto s = world.isend(big, to, 3);
    auto req = world.irecv(small, from, 3);
    CHECK(mpi_error_class([&] { req.wait(); }) == MPI_ERR_TRUNCATE);
    s.wait();
  }
  SECTION("future.get") {
    auto s = world.isend(big, to, 4);
    auto fut = world.irecv(std::vector<double>(2), from, 4);
    CHECK(mpi_error_class([&] { fut.get(); }) == MPI_ERR_TRUNCATE);
    s.wait();
  }
  SECTION("mprobe + mrecv") {
    auto s = world.isend(big, to, 5);
    auto m = world.mprobe(from, 5);
    CHECK(m.count<double>() == 10);  // the probe tells the size that would have fitted
    CHECK(mpi_error_class([&] { world.mrecv(small, m); }) == MPI_ERR_TRUNCATE);
    s.wait();
  }
  SECTION("sendrecv") {
    if (world.size() == 1 && oompi_test::self_truncation_is_silent()) {
      WARN("Open MPI does not report truncation of a sendrecv to self: not checked at 1 rank");
    } else {
      CHECK(mpi_error_class([&] { world.sendrecv(big, to, 6, small, from, 6); }) ==
            MPI_ERR_TRUNCATE);
    }
  }
  SECTION("persistent receive") {
    auto p = world.recv_init(small, from, 7);
    auto s = world.isend(big, to, 7);
    p.start();
    CHECK(mpi_error_class([&] { p.wait(); }) == MPI_ERR_TRUNCATE);
    s.wait();
  }
  // No abort: messaging goes on normally afterwards.
  world.barrier();
  std::vector<double> fits(10);
  world.sendrecv(big, to, 8, fits, from, 8);
  CHECK(fits == std::vector<double>(10, 1.0 * from));
}

TEST_CASE("invalid ranks") {
  auto world = oompi::communicator::world();
  const int n = world.size();
  int x = 1;
  CHECK(mpi_error_class([&] { world.send(x, n); }) == MPI_ERR_RANK);
  CHECK(mpi_error_class([&] { world.send(x, -7); }) == MPI_ERR_RANK);
  CHECK(mpi_error_class([&] { world.ssend(x, n + 10); }) == MPI_ERR_RANK);
  CHECK(mpi_error_class([&] { world.recv(x, n); }) == MPI_ERR_RANK);
  CHECK(mpi_error_class([&] { world.isend(x, n); }) == MPI_ERR_RANK);
  CHECK(mpi_error_class([&] { world.irecv(x, -9); }) == MPI_ERR_RANK);
  CHECK(mpi_error_class([&] { world.send_init(x, n); }) == MPI_ERR_RANK);
  CHECK(mpi_error_class([&] { world.probe(n); }) == MPI_ERR_RANK);
  CHECK(mpi_error_class([&] { world.iprobe(n); }) == MPI_ERR_RANK);
  int y = 0;  // apart from x: one buffer for both sides is refused before MPI sees the ranks
  CHECK(mpi_error_class([&] { world.sendrecv(x, n, 0, y, 0, 0); }) == MPI_ERR_RANK);
  CHECK(mpi_error_class([&] { world[n] << x; }) == MPI_ERR_RANK);
  // Nothing went out: a later exchange still matches.
  world.barrier();
  int got = -1;
  world.sendrecv(world.rank(), right(world), 9, got, left(world), 9);
  CHECK(got == left(world));
}

TEST_CASE("invalid tags") {
  auto world = oompi::communicator::world();
  const int me = world.rank();
  int x = 1;
  CHECK(mpi_error_class([&] { world.send(x, me, -3); }) == MPI_ERR_TAG);
  CHECK(mpi_error_class([&] { world.send(x, me, oompi::any_tag); }) == MPI_ERR_TAG);  // receive only
  const int ub = tag_ub();
  CHECK(ub >= 32767);
  if (ub < INT_MAX) CHECK(mpi_error_class([&] { world.send(x, me, ub + 1); }) == MPI_ERR_TAG);
  CHECK(mpi_error_class([&] { world.recv(x, me, -5); }) == MPI_ERR_TAG);
  CHECK(mpi_error_class([&] { world.isend(x, me, -4); }) == MPI_ERR_TAG);
  CHECK(mpi_error_class([&] { world.iprobe(me, -6); }) == MPI_ERR_TAG);
  // The largest valid tag works.
  auto s = world.isend(x, me, ub);
  int y = 0;
  world.recv(y, me, ub);
  s.wait();
  CHECK(y == 1);
}

TEST_CASE("invalid counts") {
  auto world = oompi::communicator::world();
  std::vector<int> v(8);
  // A range outside the container: refused before MPI.
  CHECK_THROWS_AS(world.send(oompi::buffer(v, 6, 4), world.rank()), std::out_of_range);
  // A count no memory can hold: refused before MPI.
  const auto absurd = static_cast<std::size_t>(-1) / 2;
  CHECK_THROWS_AS(world.send(oompi::buffer(v.data(), absurd), world.rank()), std::length_error);
  CHECK_THROWS_AS(world.irecv(oompi::buffer(v.data(), absurd), world.rank()), std::length_error);
  // Zero elements is a valid message.
  auto s = world.isend(oompi::buffer(v.data(), 0), world.rank(), 3);
  auto st = world.recv(v, world.rank(), 3);
  s.wait();
  CHECK(st.count<int>() == 0);
  // Counts given to MPI directly are checked by MPI.
  CHECK(mpi_error_class([] { oompi::datatype::contiguous(-4, oompi::datatype::of<int>()); }) !=
        MPI_SUCCESS);
}

TEST_CASE("invalid datatypes") {
  auto world = oompi::communicator::world();
  const int me = world.rank();
  std::vector<int> v(4);
  // The null datatype.
  CHECK(mpi_error_class([&] { world.send(oompi::buffer(v.data(), 4, MPI_DATATYPE_NULL), me); }) ==
        MPI_ERR_TYPE);
  CHECK(mpi_error_class([&] { world.recv(oompi::buffer(v.data(), 4, oompi::datatype()), me); }) ==
        MPI_ERR_TYPE);
  // A datatype that was never committed.
  MPI_Datatype raw = MPI_DATATYPE_NULL;
  REQUIRE(MPI_Type_contiguous(2, MPI_INT, &raw) == MPI_SUCCESS);
  CHECK(mpi_error_class([&] { world.send(oompi::buffer(v.data(), 2, raw), me); }) == MPI_ERR_TYPE);
  MPI_Type_free(&raw);
  // A moved-from datatype handle is null.
  auto t = oompi::datatype::contiguous(2, oompi::datatype::of<int>());
  auto t2 = std::move(t);
  CHECK(mpi_error_class([&] { world.send(oompi::buffer(v.data(), 2, t), me); }) == MPI_ERR_TYPE);
  CHECK(t2.size() == 2 * sizeof(int));
  // Status queries with a type that does not divide the message.
  auto s = world.isend(std::vector<char>(7, 'x'), me, 4);
  auto st = world.probe(me, 4);
  CHECK(st.count<char>() == 7);
  CHECK_THROWS_AS(st.count<int>(), std::range_error);
  std::vector<char> sink(7);
  world.recv(sink, me, 4);
  s.wait();
}

TEST_CASE("null communicators and used-up handles") {
  oompi::intracommunicator null;
  CHECK(null.is_null());
  int x = 0;
  CHECK_THROWS_AS(null.send(x, 0), std::logic_error);
  CHECK_THROWS_AS(null.recv(x, 0), std::logic_error);
  CHECK_THROWS_AS(null.isend(x, 0), std::logic_error);
  CHECK_THROWS_AS(null.probe(), std::logic_error);
  CHECK_THROWS_AS(null.barrier(), std::logic_error);
  CHECK_THROWS_AS(null[0] << x, std::logic_error);
  try {
    null.send(x, 0);
  } catch (const std::logic_error& e) {
    CHECK(std::string(e.what()).find("null communicator") != std::string::npos);
  }
  oompi::message none;
  auto world = oompi::communicator::world();
  CHECK_THROWS_AS(world.mrecv(x, none), std::logic_error);
}

TEST_CASE("a buffered send without enough attached space") {
  auto world = oompi::communicator::world();
  const int me = world.rank();
  std::vector<double> v(1000, 1.0);
  // No buffer attached at all.
  CHECK(mpi_error_class([&] { world.bsend(v, me, 5); }) != MPI_SUCCESS);
  {
    oompi::attached_buffer tiny(64);
    CHECK(mpi_error_class([&] { world.bsend(v, me, 5); }) != MPI_SUCCESS);
  }
  CHECK_FALSE(world.iprobe(me, 5).has_value());  // nothing was sent
}
