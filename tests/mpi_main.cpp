// Shared main of the C++ tests: MPI is initialised once, every rank runs the same Catch2 cases,
// and all ranks agree on the verdict.
//
// After each test case every rank reports pass/fail on a private communicator; a case that
// failed on any rank is reported on all. A rank whose case failed may have skipped a collective
// the others are now blocked in: if they do not reach the agreement within a grace period it
// aborts the job (nonzero exit on all ranks) rather than leave them hanging until the timeout.

#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <oompi/oompi.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

MPI_Comm g_verdict_comm = MPI_COMM_NULL;  // private: never matches the tests' own messages

double grace_seconds() {
  const char* s = std::getenv("OOMPI_TEST_GRACE");
  return s ? std::atof(s) : 10.0;
}

// Returns true when the case failed on any rank.
bool agree_on_failure(bool failed_here, const std::string& name) {
  int local = failed_here ? 1 : 0, any = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Iallreduce(&local, &any, 1, MPI_INT, MPI_MAX, g_verdict_comm, &req);
  const double deadline = MPI_Wtime() + grace_seconds();
  int done = 0;
  while (!done) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) break;
    if (failed_here && MPI_Wtime() > deadline) {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      std::fprintf(stderr,
                   "rank %d: test case \"%s\" failed here and the other ranks did not finish it "
                   "(probably blocked in a collective this rank skipped): aborting the job\n",
                   rank, name.c_str());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return any != 0;
}

struct mpi_verdict_listener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseEnded(Catch::TestCaseStats const& stats) override {
    const bool failed_here = stats.totals.assertions.failed > 0;
    if (agree_on_failure(failed_here, stats.testInfo.name) && !failed_here) {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      std::fprintf(stderr, "rank %d: test case \"%s\" failed on another rank\n", rank,
                   stats.testInfo.name.c_str());
    }
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(mpi_verdict_listener)

// A test may define this to run before the Catch2 session, MPI running: it returns the exit
// code of a process that must not run the cases (a spawned child that did its part: 0; a test
// this MPI cannot run: 77, CTest's skip), or -1 to go on.
int oompi_test_before_cases(int argc, char* argv[]) __attribute__((weak));

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv, oompi::thread_level::multiple);
  if (oompi_test_before_cases)
    if (const int rc = oompi_test_before_cases(argc, argv); rc >= 0) return rc;
  MPI_Comm_dup(MPI_COMM_WORLD, &g_verdict_comm);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  // Only rank 0 prints the summary of passing runs; every rank prints its failures.
  if (rank != 0) session.configData().showSuccessfulTests = false;
  const int failures = session.run();

  int local = failures != 0 ? 1 : 0, any = 0;
  MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, g_verdict_comm);
  MPI_Comm_free(&g_verdict_comm);
  if (rank == 0) std::printf("MPI verdict over all ranks: %s\n", any ? "FAILED" : "passed");
  return any ? 1 : 0;
}
