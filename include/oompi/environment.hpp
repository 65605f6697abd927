#ifndef OOMPI_ENVIRONMENT_HPP
#define OOMPI_ENVIRONMENT_HPP

// The MPI environment: MPI_Init_thread on construction, MPI_Finalize on destruction.
//
// If the environment is destroyed while an exception is unwinding the stack, it calls
// MPI_Abort instead of MPI_Finalize: a rank that leaves through an exception would otherwise
// leave the other ranks waiting forever in their next collective (MPI_Finalize is collective).
//
// If MPI was already initialised by someone else (another library, mpi4py), the environment
// adopts it: it installs MPI_ERRORS_RETURN but neither finalises nor aborts.
//
// On Open MPI it sets OMPI_MCA_pml_ob1_max_rdma_per_request=0 before MPI_Init (unless the user
// set that parameter), so that a message larger than its receive buffer is never written past
// the buffer's end, and then decides whether receives need oompi's probe guard
// (detail/receive_safety.hpp; receive_protection() and receive_protection_reason() tell).

#include "detail/receive_safety.hpp"
#include "detail/recv_guard.hpp"
#include "error.hpp"

#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // MPIX_Query_cuda_support (Open MPI's cuda extension)
#endif

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <utility>

namespace oompi {

/// The thread support levels of MPI, in increasing order.
enum class thread_level : int {
  single = MPI_THREAD_SINGLE,
  funneled = MPI_THREAD_FUNNELED,
  serialized = MPI_THREAD_SERIALIZED,
  multiple = MPI_THREAD_MULTIPLE,
};

/// "single", "funneled", "serialized" or "multiple".
inline const char* to_string(thread_level level) noexcept {
  switch (level) {
    case thread_level::single: return "single";
    case thread_level::funneled: return "funneled";
    case thread_level::serialized: return "serialized";
    case thread_level::multiple: return "multiple";
  }
  return "unknown";
}

class environment {
public:
  /// Initialises MPI without arguments at thread level `single`.
  environment() : environment(nullptr, nullptr, thread_level::single) {}
  explicit environment(thread_level required) : environment(nullptr, nullptr, required) {}
  /// Initialises MPI with the program's arguments (MPI may remove the ones it consumes).
  environment(int& argc, char**& argv, thread_level required = thread_level::single)
      : environment(&argc, &argv, required) {}

  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;

  ~environment() {
    if (!owns_ || !detail::mpi_usable()) return;
    if (std::uncaught_exceptions() > uncaught_at_start_) {
      std::fputs("oompi::environment destroyed while an exception was propagating: aborting the "
                 "MPI job so that the other ranks do not wait forever\n",
                 stderr);
      std::fflush(stderr);
      abort(exit_code_on_exception);
    }
    detail::set_mpi_state(detail::mpi_state::finalized);
    MPI_Finalize();
  }

  /// The thread level asked for.
  thread_level required() const noexcept { return required_; }
  /// The thread level MPI provides (may be lower than required).
  thread_level provided() const noexcept { return provided_; }
  /// False when MPI was already initialised by someone else (then this object won't finalize).
  bool owns_mpi() const noexcept { return owns_; }

  /// MPI_Initialized (may be called at any time).
  static bool initialized() noexcept {
    int flag = 0;
    MPI_Initialized(&flag);
    return flag != 0;
  }
  /// MPI_Finalized (may be called at any time).
  static bool finalized() noexcept {
    int flag = 0;
    MPI_Finalized(&flag);
    return flag != 0;
  }
  /// The thread level MPI provides (MPI_Query_thread).
  static thread_level query_thread() {
    detail::require_running("MPI_Query_thread");
    int level = 0;
    OOMPI_CHECK(MPI_Query_thread, (&level));
    return static_cast<thread_level>(level);
  }
  /// Is the calling thread the one that initialised MPI?
  static bool is_thread_main() {
    detail::require_running("MPI_Is_thread_main");
    int flag = 0;
    OOMPI_CHECK(MPI_Is_thread_main, (&flag));
    return flag != 0;
  }
  /// Seconds since some time in the past (MPI_Wtime).
  static double wtime() {
    detail::require_running("MPI_Wtime");
    return MPI_Wtime();
  }
  /// Resolution of wtime() in seconds.
  static double wtick() {
    detail::require_running("MPI_Wtick");
    return MPI_Wtick();
  }
  /// The name of the processor (host) this rank runs on.
  static std::string processor_name() {
    detail::require_running("MPI_Get_processor_name");
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    OOMPI_CHECK(MPI_Get_processor_name, (name, &len));
    return std::string(name, static_cast<std::size_t>(len));
  }
  /// The MPI standard version the library implements, e.g. {3, 1} (may be called at any time).
  static std::pair<int, int> version() noexcept {
    int major = 0, minor = 0;
    MPI_Get_version(&major, &minor);
    return {major, minor};
  }
  /// The MPI library's version string (MPI_Get_library_version; may be called at any time).
  static std::string library_version() {
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    OOMPI_CHECK(MPI_Get_library_version, (text, &len));
    return std::string(text, static_cast<std::size_t>(len));
  }
  /// Whether the MPI library accepts CUDA device pointers as buffers (run-time query: Open MPI's
  /// MPIX_Query_cuda_support, MPICH's MPIX_GPU_query_support). False when it cannot tell.
  /// False before MPI_Init and after MPI_Finalize (MPICH aborts if asked then).
  static bool cuda_aware() noexcept {
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (!up || down) return false;
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    return MPIX_Query_cuda_support() == 1;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
    int yes = 0;
    return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &yes) == MPI_SUCCESS && yes;
#else
    return false;
#endif
  }
  /// Whether blocking receives check a message's size before receiving it (the receive guard,
  /// detail/recv_guard.hpp). After an environment initialised MPI: false where the MPI itself
  /// stops at the buffer's end (receive_protection() == "mpi"), true where oompi cannot tell;
  /// false where the guard is compiled out (MPICH, -DOOMPI_RECV_GUARD=0). Any time.
  static bool receive_guard() noexcept { return detail::recv_guard_on(); }
  /// Turns the receive guard on or off for every thread of the process from now on (as the
  /// environment variable OOMPI_RECV_GUARD=0/1 does at MPI_Init). Off where receive_protection()
  /// is not "mpi": a message larger than its receive buffer (on Open MPI's ob1 with RDMA, above
  /// about 4 KiB) overwrites the memory after the buffer; only for programs whose messages always
  /// fit. No effect where the guard is compiled out.
  static void set_receive_guard(bool on) { detail::force_receive_guard(on); }
  /// How receives are kept inside the caller's buffer: "mpi" (the MPI stops at the buffer's end
  /// by itself, for every receive: blocking, nonblocking, persistent, sendrecv), "guard" (oompi
  /// checks the size of a message before a blocking receive takes it; nonblocking and
  /// persistent receives are not protected) or "none" (the guard turned off on an MPI not known
  /// to be safe). Any time; decided when an environment starts (or adopts) MPI.
  static std::string receive_protection() { return detail::receive_protection(); }
  /// Why receive_protection() is what it is: the PML, the setting and who made it.
  static std::string receive_protection_reason() { return detail::receive_protection_reason(); }
  /// Terminates every rank of the job (MPI_Abort on MPI_COMM_WORLD) with exit code `code`.
  /// Without a running MPI, terminates this process only.
  [[noreturn]] static void abort(int code) noexcept {
    if (detail::mpi_usable()) MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; be sure.
  }

  /// The exit code of a job aborted because an exception left an environment's scope.
  static constexpr int exit_code_on_exception = 134;

private:
  environment(int* argc, char*** argv, thread_level required)
      : required_(required), uncaught_at_start_(std::uncaught_exceptions()) {
    if (finalized())
      throw state_error("oompi::environment: MPI was finalized and cannot be initialized again");
    int level = 0;
    if (initialized()) {
      // Someone else initialised MPI (another library, or an mpi4py caller): adopt it.
      OOMPI_CHECK(MPI_Query_thread, (&level));
      owns_ = false;
    } else {
      detail::arrange_mpi_bounds_before_init();
      OOMPI_CHECK(MPI_Init_thread, (argc, argv, static_cast<int>(required), &level));
      owns_ = true;
    }
    provided_ = static_cast<thread_level>(level);
    detail::note_running();
    // Errors come back as codes (and become exceptions) instead of aborting the job.
    OOMPI_CHECK(MPI_Comm_set_errhandler, (MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OOMPI_CHECK(MPI_Comm_set_errhandler, (MPI_COMM_SELF, MPI_ERRORS_RETURN));
    // MPI_File_open and MPI_File_delete report through MPI_FILE_NULL's handler (file.hpp).
    OOMPI_CHECK(MPI_File_set_errhandler, (MPI_FILE_NULL, MPI_ERRORS_RETURN));
    detail::assess_receive_safety(owns_);
  }

  thread_level required_ = thread_level::single;
  thread_level provided_ = thread_level::single;
  bool owns_ = false;
  int uncaught_at_start_ = 0;
};

}  // namespace oompi

#endif  // OOMPI_ENVIRONMENT_HPP
