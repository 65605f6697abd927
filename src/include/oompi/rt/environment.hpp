#ifndef OOMPI_RT_ENVIRONMENT_HPP
#define OOMPI_RT_ENVIRONMENT_HPP

// The MPI environment for the bindings: MPI_Init_thread in the constructor, MPI_Finalize in
// close() (Java try-with-resources, C# using, Python with). The destructor never finalizes:
// it may run on a finalizer thread or at interpreter exit. Before MPI_Finalize, close()
// completes (cancels) whatever the garbage collector left pending and frees deferred handles.

#include "common.hpp"

#include <memory>
#include <string>

namespace oompi { class environment; }

namespace oompi::rt {

class environment {
public:
  /// Initialises MPI with the required thread level (adopts MPI if already initialised).
  explicit environment(thread_level required = thread_level::multiple);
  ~environment();
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;

  /// The thread level MPI provides (may be lower than required).
  thread_level provided() const noexcept { return provided_; }
  /// False when MPI had been initialised by someone else (then close() does not finalize).
  bool owns_mpi() const noexcept { return owns_; }
  /// Finalizes MPI if this object initialised it. Idempotent.
  void close();

  static bool initialized();
  static bool finalized();
  /// Seconds since an arbitrary time in the past (MPI_Wtime).
  static double wtime();
  static double wtick();
  static std::string processor_name();
  static std::string library_version();
  /// Whether blocking receives check a message's size first (oompi::environment::receive_guard).
  static bool receive_guard();
  /// Turns the receive guard off or on for the process (as OOMPI_RECV_GUARD=0/1 does): off,
  /// where receive_protection() is not "mpi", a message larger than its receive buffer
  /// overwrites the memory after it.
  static void set_receive_guard(bool on);
  /// "mpi" (the MPI stops at the receive buffer's end, every receive), "guard" (blocking
  /// receives checked with a matched probe first) or "none"
  /// (oompi::environment::receive_protection).
  static std::string receive_protection();
  /// Why: the PML, the pml_ob1_max_rdma_per_request setting and who made it.
  static std::string receive_protection_reason();
  /// Whether MPI accepts CUDA device pointers as buffers (oompi::environment::cuda_aware).
  static bool cuda_aware();
  /// Terminates every rank of the job (MPI_Abort on MPI_COMM_WORLD).
  static void abort(int code);

  // Ports and names for comm.accept / comm.connect (src/dynamic.cpp).
  /// A new port to accept connections on (MPI_Open_port); close it with close_port.
  static std::string open_port();
  static void close_port(const std::string& port);
  /// Publishes `port` under `service` (MPI_Publish_name) for lookup_name in other jobs.
  static void publish_name(const std::string& service, const std::string& port);
  static void unpublish_name(const std::string& service, const std::string& port);
  /// The port published under `service`; an unknown name is an MPI error of class
  /// MPI_ERR_NAME.
  static std::string lookup_name(const std::string& service);

private:
  std::unique_ptr<oompi::environment> env_;
  thread_level provided_ = thread_level::single;
  bool owns_ = false;
};

/// Support for the language test harnesses (JUnit extension, C# runner, pytest conftest):
/// every rank must reach the same verdict, and no rank may be left hanging.
class test_support {
public:
  /// Collective over all ranks (on a private communicator): returns true when `failed_here` is
  /// true on any rank. A failing rank waits at most grace_seconds for the others (they may be
  /// stuck in a collective it skipped) and then aborts the job, naming `what`.
  static bool agree(bool failed_here, double grace_seconds, const std::string& what);
  /// Rank in MPI_COMM_WORLD (for printing), -1 when MPI is not running.
  static int world_rank();
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_ENVIRONMENT_HPP
