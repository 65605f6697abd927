#include <oompi/rt/environment.hpp>

#include "detail/reclaim.hpp"

#include <oompi/environment.hpp>

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace oompi::rt {
namespace {

// A language runtime loads this library with RTLD_LOCAL, so libmpi's symbols are not global;
// some Open MPI plugins (mca_pml_ob1, mca_coll_han, ...) use libmpi symbols without linking
// to it. Re-open the already loaded libmpi with RTLD_GLOBAL before MPI_Init (cheap insurance).
void promote_libmpi() noexcept {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&MPI_Init), &info) && info.dli_fname)
    (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

MPI_Comm g_verdict_comm = MPI_COMM_NULL;  // private to test_support::agree

}  // namespace

environment::environment(thread_level required) {
  promote_libmpi();
  static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                               MPI_THREAD_MULTIPLE};
  const int r = static_cast<int>(required);
  if (r < 0 || r > 3) throw std::invalid_argument("environment: unknown thread level");
  env_ = std::make_unique<oompi::environment>(static_cast<oompi::thread_level>(levels[r]));
  owns_ = env_->owns_mpi();
  switch (static_cast<int>(env_->provided())) {
    case MPI_THREAD_SINGLE: provided_ = thread_level::single; break;
    case MPI_THREAD_FUNNELED: provided_ = thread_level::funneled; break;
    case MPI_THREAD_SERIALIZED: provided_ = thread_level::serialized; break;
    default: provided_ = thread_level::multiple; break;
  }
}

environment::~environment() {
  // Never finalize here (finalizer thread, interpreter exit): leak the core environment, whose
  // destructor would call MPI_Finalize. The language layers call close().
  (void)env_.release();
}

void environment::close() {
  if (!env_) return;
  if (owns_ && oompi::detail::mpi_usable()) detail::drain_before_finalize();
  env_.reset();  // MPI_Finalize when this object initialised MPI
}

bool environment::initialized() { return oompi::environment::initialized(); }
bool environment::finalized() { return oompi::environment::finalized(); }
double environment::wtime() { return MPI_Wtime(); }
double environment::wtick() { return MPI_Wtick(); }
std::string environment::processor_name() { return oompi::environment::processor_name(); }
std::string environment::library_version() { return oompi::environment::library_version(); }
bool environment::cuda_aware() { return oompi::environment::cuda_aware(); }
bool environment::receive_guard() { return oompi::environment::receive_guard(); }
void environment::set_receive_guard(bool on) { oompi::environment::set_receive_guard(on); }
std::string environment::receive_protection() {
  return oompi::environment::receive_protection();
}
std::string environment::receive_protection_reason() {
  return oompi::environment::receive_protection_reason();
}
void environment::abort(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

bool test_support::agree(bool failed_here, double grace_seconds, const std::string& what) {
  oompi::detail::require_running("test_support.agree");
  if (g_verdict_comm == MPI_COMM_NULL) {
    OOMPI_CHECK(MPI_Comm_dup, (MPI_COMM_WORLD, &g_verdict_comm));
    detail::at_finalize(&g_verdict_comm);
  }
  int local = failed_here ? 1 : 0, any = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  OOMPI_CHECK(MPI_Iallreduce, (&local, &any, 1, MPI_INT, MPI_MAX, g_verdict_comm, &req));
  const double deadline = MPI_Wtime() + grace_seconds;
  int done = 0;
  while (true) {
    OOMPI_CHECK(MPI_Test, (&req, &done, MPI_STATUS_IGNORE));
    if (done) break;
    if (failed_here && MPI_Wtime() > deadline) {
      std::fprintf(stderr,
                   "rank %d: \"%s\" failed here and the other ranks did not reach the verdict "
                   "(probably blocked in a collective this rank skipped): aborting the job\n",
                   world_rank(), what.c_str());
      environment::abort(3);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return any != 0;
}

int test_support::world_rank() {
  if (!oompi::detail::mpi_usable()) return -1;
  int r = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

}  // namespace oompi::rt
