#ifndef OOMPI_ENVIRONMENT_HPP
#define OOMPI_ENVIRONMENT_HPP

// The MPI environment: MPI_Init_thread on construction, MPI_Finalize on destruction.
//
// If the environment is destroyed while an exception is unwinding the stack, it calls
// MPI_Abort instead of MPI_Finalize: a rank that leaves through an exception would otherwise
// leave the other ranks waiting forever in their next collective.

#include "error.hpp"

#include <mpi.h>

#include <cstdlib>
#include <exception>
#include <string>

namespace oompi {

enum class thread_level : int {
  single = MPI_THREAD_SINGLE,
  funneled = MPI_THREAD_FUNNELED,
  serialized = MPI_THREAD_SERIALIZED,
  multiple = MPI_THREAD_MULTIPLE,
};

class environment {
public:
  environment() : environment(nullptr, nullptr, thread_level::single) {}
  explicit environment(thread_level required) : environment(nullptr, nullptr, required) {}
  environment(int& argc, char**& argv, thread_level required = thread_level::single)
      : environment(&argc, &argv, required) {}

  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;

  ~environment() {
    if (!owns_) return;
    if (std::uncaught_exceptions() > uncaught_at_start_) {
      abort(EXIT_CODE_ON_EXCEPTION);
    }
    detail::g_mpi_state.store(detail::mpi_state::finalized);
    MPI_Finalize();
  }

  /// The thread level MPI provides (may be lower than requested).
  thread_level provided() const noexcept { return provided_; }
  /// False when MPI was already initialised by someone else (then this object won't finalize).
  bool owns_mpi() const noexcept { return owns_; }

  static bool initialized() {
    int flag = 0;
    MPI_Initialized(&flag);
    return flag != 0;
  }
  static bool finalized() {
    int flag = 0;
    MPI_Finalized(&flag);
    return flag != 0;
  }
  static thread_level query_thread() {
    detail::require_running("MPI_Query_thread");
    int level = 0;
    OOMPI_CHECK(MPI_Query_thread, (&level));
    return static_cast<thread_level>(level);
  }
  static bool is_thread_main() {
    detail::require_running("MPI_Is_thread_main");
    int flag = 0;
    OOMPI_CHECK(MPI_Is_thread_main, (&flag));
    return flag != 0;
  }
  /// Seconds since some time in the past (MPI_Wtime).
  static double wtime() noexcept { return MPI_Wtime(); }
  /// Resolution of wtime() in seconds.
  static double wtick() noexcept { return MPI_Wtick(); }
  static std::string processor_name() {
    detail::require_running("MPI_Get_processor_name");
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    OOMPI_CHECK(MPI_Get_processor_name, (name, &len));
    return std::string(name, static_cast<std::size_t>(len));
  }
  /// The MPI library's version string (MPI_Get_library_version).
  static std::string library_version() {
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    OOMPI_CHECK(MPI_Get_library_version, (text, &len));
    return std::string(text, static_cast<std::size_t>(len));
  }
  /// Terminates every rank of the job (MPI_Abort on MPI_COMM_WORLD).
  [[noreturn]] static void abort(int code) {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::abort();  // MPI_Abort does not return; be sure.
  }

  static constexpr int EXIT_CODE_ON_EXCEPTION = 134;

private:
  environment(int* argc, char*** argv, thread_level required)
      : uncaught_at_start_(std::uncaught_exceptions()) {
    if (finalized())
      throw state_error("oompi::environment: MPI was finalized and cannot be initialized again");
    if (initialized()) {
      // Someone else initialised MPI (another library, or an mpi4py caller): adopt it.
      int level = 0;
      MPI_Query_thread(&level);
      provided_ = static_cast<thread_level>(level);
      owns_ = false;
    } else {
      int level = 0;
      OOMPI_CHECK(MPI_Init_thread, (argc, argv, static_cast<int>(required), &level));
      provided_ = static_cast<thread_level>(level);
      owns_ = true;
      detail::g_mpi_state.store(detail::mpi_state::running);
    }
    // Errors come back as codes (and become exceptions) instead of aborting the job.
    OOMPI_CHECK(MPI_Comm_set_errhandler, (MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    OOMPI_CHECK(MPI_Comm_set_errhandler, (MPI_COMM_SELF, MPI_ERRORS_RETURN));
  }

  thread_level provided_ = thread_level::single;
  bool owns_ = false;
  int uncaught_at_start_ = 0;
};

}  // namespace oompi

#endif  // OOMPI_ENVIRONMENT_HPP
