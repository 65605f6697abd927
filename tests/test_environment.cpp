// The MPI environment: life cycle queries, thread levels, timers, processor name, adoption of
// an MPI initialised elsewhere, and the error handlers it installs. (After-finalize behaviour
// and abort-on-exception need their own programs: test_after_finalize.cpp,
// test_abort_on_exception.cpp.)
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <atomic>
#include <thread>
#include <vector>

TEST_CASE("MPI is running while the environment lives") {
  CHECK(oompi::environment::initialized());
  CHECK_FALSE(oompi::environment::finalized());
  const auto [major, minor] = oompi::environment::version();
  CHECK(major >= 3);
  CHECK(minor >= 0);
  CHECK_FALSE(oompi::environment::library_version().empty());
}

TEST_CASE("a second environment adopts the running MPI and leaves it running") {
  {
    oompi::environment inner(oompi::thread_level::funneled);
    CHECK_FALSE(inner.owns_mpi());
    CHECK(inner.required() == oompi::thread_level::funneled);
    // It reports what MPI actually provides, not what it asked for.
    CHECK(inner.provided() == oompi::environment::query_thread());
  }
  CHECK_FALSE(oompi::environment::finalized());
  // The test main asked for (and Open MPI gives) MULTIPLE; an environment's set-up, its MPI_T
  // read-back included, must leave it so (MPI_T_init_thread at SINGLE used to lower it).
  CHECK(oompi::environment::query_thread() == oompi::thread_level::multiple);
  auto world = oompi::communicator::world();
  int x = world.rank();
  world.barrier();  // MPI still works for everyone
  CHECK(x == world.rank());
}

TEST_CASE("thread levels") {
  using oompi::thread_level;
  CHECK(static_cast<int>(thread_level::single) < static_cast<int>(thread_level::funneled));
  CHECK(static_cast<int>(thread_level::funneled) < static_cast<int>(thread_level::serialized));
  CHECK(static_cast<int>(thread_level::serialized) < static_cast<int>(thread_level::multiple));
  CHECK(std::string(oompi::to_string(thread_level::multiple)) == "multiple");
  CHECK(std::string(oompi::to_string(thread_level::single)) == "single");

  const thread_level provided = oompi::environment::query_thread();
  CHECK(static_cast<int>(provided) >= static_cast<int>(thread_level::single));
  CHECK(static_cast<int>(provided) <= static_cast<int>(thread_level::multiple));
  CHECK(oompi::environment::is_thread_main());
  bool main_in_other_thread = true;
  std::thread([&] { main_in_other_thread = oompi::environment::is_thread_main(); }).join();
  CHECK_FALSE(main_in_other_thread);
}

TEST_CASE("with thread_level::multiple, threads message concurrently") {
  // The shared test main asks for multiple; Open MPI and MPICH provide it.
  if (oompi::environment::query_thread() != oompi::thread_level::multiple) {
    WARN("MPI does not provide MPI_THREAD_MULTIPLE here; nothing to test");
    return;
  }
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  constexpr int threads = 4, rounds = 50;
  std::atomic<int> wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      // Each thread runs its own ring on its own tag.
      for (int i = 0; i < rounds; ++i) {
        long out = 1000L * r + 10L * t + i, in = -1;
        world.sendrecv(out, (r + 1) % n, t, in, (r + n - 1) % n, t);
        if (in != 1000L * ((r + n - 1) % n) + 10L * t + i) ++wrong;
      }
    });
  }
  for (auto& th : pool) th.join();
  CHECK(wrong == 0);
}

TEST_CASE("wtime and wtick") {
  const double t0 = oompi::environment::wtime();
  const double t1 = oompi::environment::wtime();
  CHECK(t1 >= t0);
  const double tick = oompi::environment::wtick();
  CHECK(tick > 0.0);
  CHECK(tick < 1.0);
}

TEST_CASE("processor name") {
  const std::string name = oompi::environment::processor_name();
  CHECK_FALSE(name.empty());
  CHECK(name.size() < static_cast<std::size_t>(MPI_MAX_PROCESSOR_NAME));
}

TEST_CASE("MPI_ERRORS_RETURN is installed on world and self") {
  for (MPI_Comm c : {MPI_COMM_WORLD, MPI_COMM_SELF}) {
    MPI_Errhandler h = MPI_ERRHANDLER_NULL;
    REQUIRE(MPI_Comm_get_errhandler(c, &h) == MPI_SUCCESS);
    CHECK(h == MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&h);
  }
  // ... so an error comes back as an exception instead of killing the job.
  auto world = oompi::communicator::world();
  int x = 0;
  CHECK_THROWS_AS(world.send(x, world.size()), oompi::error);
}

TEST_CASE("a wrapped communicator gets MPI_ERRORS_RETURN too") {
  MPI_Comm raw = MPI_COMM_NULL;
  REQUIRE(MPI_Comm_dup(MPI_COMM_WORLD, &raw) == MPI_SUCCESS);
  REQUIRE(MPI_Comm_set_errhandler(raw, MPI_ERRORS_ARE_FATAL) == MPI_SUCCESS);
  oompi::intracommunicator comm(raw, /*owned=*/true);
  MPI_Errhandler h = MPI_ERRHANDLER_NULL;
  REQUIRE(MPI_Comm_get_errhandler(raw, &h) == MPI_SUCCESS);
  CHECK(h == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&h);
  int x = 0;
  CHECK_THROWS_AS(comm.send(x, -7), oompi::error);
}
