// Calls before MPI_Init and after MPI_Finalize must fail with oompi::state_error (never crash,
// never abort), and handles that outlive the environment must be destroyed quietly. MPI can be
// finalised only once per process, so this is its own program (no Catch2 main); every rank
// checks for itself and exits nonzero on any failure.
#include <oompi/oompi.hpp>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

struct point {
  double x, y;
  int id;
};
OOMPI_STRUCT(point, x, y, id)

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

// f() must throw oompi::state_error whose text contains `says`.
template <class F>
void expect_state_error(const char* what, const char* says, F&& f) {
  try {
    f();
    std::fprintf(stderr, "FAILED: %s: no exception\n", what);
    ++failures;
  } catch (const oompi::state_error& e) {
    if (std::string(e.what()).find(says) == std::string::npos) {
      std::fprintf(stderr, "FAILED: %s: message \"%s\" lacks \"%s\"\n", what, e.what(), says);
      ++failures;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAILED: %s: wrong exception: %s\n", what, e.what());
    ++failures;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  const char* before = "not initialized";
  const char* after = "finalized";

  // --- before MPI_Init ---
  expect(!oompi::environment::initialized(), "initialized() before init");
  expect_state_error("world() before init", before, [] { oompi::communicator::world(); });
  expect_state_error("datatype factory before init", before,
                     [] { oompi::datatype::contiguous(2, oompi::datatype::of<int>()); });
  expect_state_error("wtime before init", before, [] { oompi::environment::wtime(); });
  // Answerable at any time: MPICH aborts when its GPU query comes before MPI_Init.
  expect(!oompi::environment::cuda_aware(), "cuda_aware() before init");

  // Handles that outlive the environment (declared before it).
  std::optional<oompi::intracommunicator> dup;
  std::optional<oompi::datatype> type;
  oompi::prequest persistent;
  oompi::request done;
  oompi::status status;
  std::vector<int> data(4, 7);
  int rank = -1;
  {
    oompi::environment env(argc, argv);
    expect(env.owns_mpi(), "the first environment owns MPI");
    auto world = oompi::communicator::world();
    rank = world.rank();
    dup.emplace(world.dup());
    type.emplace(oompi::datatype::vector(2, 1, 2, oompi::datatype::of<int>()));
    persistent = world.recv_init(data, world.rank(), 5);  // never started
    // A struct datatype built (and cached) now must be freed by MPI_Finalize.
    std::vector<point> pts(3, point{1.0, 2.0, 3}), back(3);
    status = world.sendrecv(pts, world.rank(), 1, back, world.rank(), 1);
    expect(status.count<point>() == 3, "struct round trip before finalize");
    std::vector<int> got(4);  // apart from the pending send's buffer (MPICH checks)
    done = world.isend(data, world.rank(), 2);
    world.recv(got, world.rank(), 2);
    done.wait();
    expect(oompi::detail::type_cache::instance().types.size() >= 1, "struct type cached");
  }

  // --- after MPI_Finalize ---
  expect(oompi::environment::finalized(), "finalized() after the environment");
  expect(oompi::environment::initialized(), "initialized() stays true");
  expect(oompi::detail::type_cache::instance().types.empty(),
         "cached datatypes freed by MPI_Finalize");
  expect(dup->rank() == rank, "cached rank still readable");
  expect(!oompi::environment::cuda_aware(), "cuda_aware() after finalize");

  int x = 1;
  expect_state_error("world()", after, [] { oompi::communicator::world(); });
  expect_state_error("self()", after, [] { oompi::communicator::self(); });
  expect_state_error("send", after, [&] { dup->send(x, 0); });
  expect_state_error("recv", after, [&] { dup->recv(x, 0); });
  expect_state_error("port <<", after, [&] { (*dup)[0] << x; });
  expect_state_error("isend", after, [&] { dup->isend(x, 0); });
  expect_state_error("irecv", after, [&] { dup->irecv(x, 0); });
  expect_state_error("probe", after, [&] { dup->iprobe(); });
  expect_state_error("barrier", after, [&] { dup->barrier(); });
  expect_state_error("dup", after, [&] { dup->dup(); });
  expect_state_error("send_init", after, [&] { dup->send_init(x, 0); });
  expect_state_error("start", after, [&] { persistent.start(); });
  expect_state_error("datatype size", after, [&] { type->size(); });
  expect_state_error("datatype factory", after,
                     [] { oompi::datatype::contiguous(2, oompi::datatype::of<int>()); });
  expect_state_error("struct datatype", after, [] {
    struct late {
      int a;
    };
    oompi::detail::build_struct_type(sizeof(late), {{0, MPI_INT}});
  });
  expect_state_error("status count", after, [&] { status.count<point>(); });
  expect_state_error("wtime", after, [] { oompi::environment::wtime(); });
  expect_state_error("processor_name", after, [] { oompi::environment::processor_name(); });
  expect_state_error("query_thread", after, [] { oompi::environment::query_thread(); });
  expect_state_error("attached_buffer", after, [] { oompi::attached_buffer b(64); });
  expect_state_error("wait_all", after, [] {
    std::vector<oompi::request> none(1);
    oompi::wait_all(none);
  });
  expect_state_error("a new environment", "cannot be initialized again", [] {
    oompi::environment again;
  });

  // The handles above are destroyed here, after MPI_Finalize: they must not call MPI.
  dup.reset();
  type.reset();
  persistent = oompi::prequest();
  if (failures == 0 && rank == 0) std::printf("after-finalize checks passed\n");
  return failures == 0 ? 0 : 1;
}
