#ifndef OOMPI_ERROR_HPP
#define OOMPI_ERROR_HPP

// Errors. Every MPI call oompi makes is checked: MPI_ERRORS_RETURN is installed on the
// handles oompi uses and a failing call throws oompi::error, carrying the MPI error class,
// the code and MPI's own text. Input that is wrong before MPI sees it throws the standard
// exception for it (std::invalid_argument, std::out_of_range, std::logic_error): the
// bindings map these to their language's usual exceptions.

#include <mpi.h>

#include <atomic>
#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>

// Branch hints for the hot path (error branches are cold).
#if defined(__GNUC__) || defined(__clang__)
#define OOMPI_DETAIL_LIKELY(x) __builtin_expect(!!(x), 1)
#define OOMPI_DETAIL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define OOMPI_DETAIL_COLD __attribute__((noinline, cold))
#define OOMPI_DETAIL_NOINLINE __attribute__((noinline))
#else
#define OOMPI_DETAIL_COLD
#define OOMPI_DETAIL_NOINLINE
#define OOMPI_DETAIL_LIKELY(x) (x)
#define OOMPI_DETAIL_UNLIKELY(x) (x)
#endif

namespace oompi {

/// An MPI call returned an error code.
class error : public std::runtime_error {
public:
  error(const char* routine, int code)
      : std::runtime_error(describe(routine, code)), routine_(routine), code_(code),
        class_(class_of(code)) {}

  /// The MPI error code as returned by the call.
  int code() const noexcept { return code_; }
  /// The MPI error class (MPI_ERR_TRUNCATE, MPI_ERR_RANK, ...).
  int error_class() const noexcept { return class_; }
  /// The MPI routine that failed, e.g. "MPI_Recv".
  const std::string& routine() const noexcept { return routine_; }

  /// MPI's text for an error code or class.
  static std::string string_of(int code) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) return "unknown MPI error";
    return std::string(text, static_cast<std::size_t>(len));
  }

private:
  static int class_of(int code) {
    int cls = MPI_ERR_UNKNOWN;
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS) cls = MPI_ERR_UNKNOWN;
    return cls;
  }
  static std::string describe(const char* routine, int code) {
    return std::string(routine) + ": " + string_of(code) + " (MPI error class " +
           std::to_string(class_of(code)) + ")";
  }

  std::string routine_;
  int code_;
  int class_;
};

/// MPI is not usable at this point: not yet initialised, or already finalised.
class state_error : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

namespace detail {

[[noreturn]] OOMPI_DETAIL_COLD inline void throw_mpi_error(const char* routine, int code) {
  throw error(routine, code);
}

// MPI life cycle as oompi sees it. Calls made after MPI_Finalize abort the job in most MPI
// libraries (error handlers are gone by then), so oompi refuses them itself with one relaxed
// load on the hot path. `unknown` means oompi has not seen MPI start yet: then ask MPI (and,
// if it is running, remember that, so the question is asked once).
enum class mpi_state : int { unknown = 0, running = 1, finalized = 2 };
inline std::atomic<mpi_state> g_mpi_state{mpi_state::unknown};

// One bound for the hot paths of send and recv (communicator.hpp): INT_MAX + 1 while MPI runs,
// 0 otherwise, so that the single comparison `count < g_fast_count_bound` asks both "is MPI
// running?" and "does the count fit MPI's int?". Kept in step with g_mpi_state.
inline constexpr std::size_t fast_count_bound_running = static_cast<std::size_t>(INT_MAX) + 1;
inline std::atomic<std::size_t> g_fast_count_bound{0};

inline void set_mpi_state(mpi_state s) noexcept {
  if (s != mpi_state::running) g_fast_count_bound.store(0);
  g_mpi_state.store(s);
  if (s == mpi_state::running) g_fast_count_bound.store(fast_count_bound_running);
}

[[noreturn]] OOMPI_DETAIL_COLD inline void throw_not_running(const char* routine) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  throw state_error(std::string(routine) +
                    (finalized ? ": MPI has already been finalized"
                               : ": MPI is not initialized (create an oompi::environment first)"));
}

// MPI deletes the attributes of MPI_COMM_SELF first thing in MPI_Finalize, whoever calls it
// (oompi::environment, the user, mpi4py): a delete callback there marks MPI as finalized.
inline int on_finalize(MPI_Comm, int, void*, void*) {
  set_mpi_state(mpi_state::finalized);
  return MPI_SUCCESS;
}

// Records that MPI is running; the first caller installs the finalize hook.
inline void note_running() noexcept {
  mpi_state expected = mpi_state::unknown;
  if (!g_mpi_state.compare_exchange_strong(expected, mpi_state::running)) return;
  g_fast_count_bound.store(fast_count_bound_running);
  int keyval = MPI_KEYVAL_INVALID;
  if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &on_finalize, &keyval, nullptr) !=
      MPI_SUCCESS)
    return;
  MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
  MPI_Comm_free_keyval(&keyval);  // the attribute keeps the keyval alive until deleted
}

// Slow path when oompi did not see MPI_Init happen: MPI itself knows.
inline bool mpi_running_slow() noexcept {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) {
    note_running();
    return true;
  }
  return false;
}

OOMPI_DETAIL_COLD inline void require_running_slow(const char* routine) {
  if (g_mpi_state.load() == mpi_state::unknown && mpi_running_slow()) return;
  throw_not_running(routine);
}

// Throws state_error unless MPI is running: one relaxed load on the hot path.
inline void require_running(const char* routine) {
  if (OOMPI_DETAIL_LIKELY(g_mpi_state.load(std::memory_order_relaxed) == mpi_state::running))
    return;
  require_running_slow(routine);
}

// For destructors: may a handle still be freed? (Never after MPI_Finalize.)
inline bool mpi_usable() noexcept {
  const mpi_state s = g_mpi_state.load(std::memory_order_relaxed);
  if (s == mpi_state::running) return true;
  if (s == mpi_state::finalized) return false;
  return mpi_running_slow();
}

}  // namespace detail
}  // namespace oompi

// OOMPI_CHECK(MPI_Send, (buf, n, type, dest, tag, comm)): call, and throw oompi::error on failure.
#define OOMPI_CHECK(fn, args)                                                                  \
  do {                                                                                         \
    const int oompi_rc_ = fn args;                                                             \
    if (OOMPI_DETAIL_UNLIKELY(oompi_rc_ != MPI_SUCCESS))                                  \
      ::oompi::detail::throw_mpi_error(#fn, oompi_rc_);                                        \
  } while (0)

#endif  // OOMPI_ERROR_HPP
