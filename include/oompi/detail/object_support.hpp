#ifndef OOMPI_DETAIL_OBJECT_SUPPORT_HPP
#define OOMPI_DETAIL_OBJECT_SUPPORT_HPP

// What the object operations (object_ops.hpp) and object_future (object_future.hpp) share: the
// private communicator of the object collectives, byte transfers of any size, the per-thread
// scratch buffer of osend/orecv, and the failures every rank must hear about.

#include "../buffer.hpp"
#include "object_match.hpp"
#include "../error.hpp"
#include "../request.hpp"
#include "../serialization/byte_buffer.hpp"
#include "../serialization/codec_fwd.hpp"
#include "../serialization/error.hpp"
#include "../status.hpp"

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi {

namespace detail {

// --- the private communicator of the object collectives ------------------------------------

inline int object_comm_copy(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;  // a duplicate of the user's communicator gets its own private one when needed
  return MPI_SUCCESS;
}
inline int object_comm_delete(MPI_Comm, int, void* value, void*) {
  auto* comm = static_cast<MPI_Comm*>(value);
  if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);
  delete comm;
  return MPI_SUCCESS;
}
int object_comm_keyval();
// Runs first thing in MPI_Finalize (attributes of MPI_COMM_SELF are deleted then): frees the
// private duplicate of MPI_COMM_WORLD, whose attributes MPI need not delete.
inline int object_comm_finalize_hook(MPI_Comm, int, void*, void*) {
  void* value = nullptr;
  int flag = 0;
  if (MPI_Comm_get_attr(MPI_COMM_WORLD, object_comm_keyval(), &value, &flag) == MPI_SUCCESS && flag)
    MPI_Comm_delete_attr(MPI_COMM_WORLD, object_comm_keyval());
  return MPI_SUCCESS;
}
inline int object_comm_keyval() {
  static const int keyval = [] {
    int kv = MPI_KEYVAL_INVALID;
    OOMPI_CHECK(MPI_Comm_create_keyval, (&object_comm_copy, &object_comm_delete, &kv, nullptr));
    int hook = MPI_KEYVAL_INVALID;
    OOMPI_CHECK(MPI_Comm_create_keyval,
                (MPI_COMM_NULL_COPY_FN, &object_comm_finalize_hook, &hook, nullptr));
    OOMPI_CHECK(MPI_Comm_set_attr, (MPI_COMM_SELF, hook, nullptr));
    MPI_Comm_free_keyval(&hook);  // the attribute keeps it alive until MPI_Finalize
    return kv;
  }();
  return keyval;
}

/// The private duplicate of `user` for object collectives (made collectively on first use).
inline MPI_Comm object_comm(MPI_Comm user) {
  const int kv = object_comm_keyval();
  void* value = nullptr;
  int flag = 0;
  OOMPI_CHECK(MPI_Comm_get_attr, (user, kv, &value, &flag));
  if (flag) return *static_cast<MPI_Comm*>(value);
  int inter = 0;
  OOMPI_CHECK(MPI_Comm_test_inter, (user, &inter));
  if (inter)
    throw std::logic_error("oompi: the object collectives need an intracommunicator");
  auto comm = std::make_unique<MPI_Comm>(MPI_COMM_NULL);
  OOMPI_CHECK(MPI_Comm_dup, (user, comm.get()));
  MPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN);
  MPI_Comm_set_name(*comm, "oompi object collectives");
  if (const int rc = MPI_Comm_set_attr(user, kv, comm.get()); rc != MPI_SUCCESS) {
    MPI_Comm_free(comm.get());
    throw_mpi_error("MPI_Comm_set_attr", rc);
  }
  return *comm.release();
}

// Tags on the private communicator (only its point-to-point paths use them).
inline constexpr int object_tag_reduce = 11;
inline constexpr int object_tag_reduce_failed = 12;
inline constexpr int object_tag_forward = 13;
inline constexpr int object_tag_large = 14;

// --- byte transfers of any size ---------------------------------------------------------------

inline buffer_desc bytes_desc(const void* p, std::size_t n) noexcept {
  return buffer_desc{const_cast<void*>(p), n, MPI_BYTE};
}
inline void send_bytes(const void* p, std::size_t n, int dest, int tag, MPI_Comm comm) {
  with_int_count(bytes_desc(p, n), [&](void* d, int c, MPI_Datatype t) {
    OOMPI_CHECK(MPI_Send, (d, c, t, dest, tag, comm));
  });
}
inline MPI_Request isend_bytes(const void* p, std::size_t n, int dest, int tag, MPI_Comm comm) {
  MPI_Request r = MPI_REQUEST_NULL;
  with_int_count(bytes_desc(p, n), [&](void* d, int c, MPI_Datatype t) {
    OOMPI_CHECK(MPI_Isend, (d, c, t, dest, tag, comm, &r));
  });
  return r;
}
inline MPI_Request irecv_bytes(void* p, std::size_t n, int source, int tag, MPI_Comm comm) {
  MPI_Request r = MPI_REQUEST_NULL;
  with_int_count(bytes_desc(p, n), [&](void* d, int c, MPI_Datatype t) {
    OOMPI_CHECK(MPI_Irecv, (d, c, t, source, tag, comm, &r));
  });
  return r;
}
inline void bcast_bytes(void* p, std::size_t n, int root, MPI_Comm comm) {
  with_int_count(bytes_desc(p, n), [&](void* d, int c, MPI_Datatype t) {
    OOMPI_CHECK(MPI_Bcast, (d, c, t, root, comm));
  });
}
inline void wait_requests(std::vector<MPI_Request>& reqs) {
  if (reqs.empty()) return;
  OOMPI_CHECK(MPI_Waitall, (static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE));
}
inline std::size_t message_bytes(const MPI_Status& st) { return status(st).count(MPI_BYTE); }

/// Receives a matched message of any size into buf (resized to fit).
inline void mrecv_bytes(byte_buffer& buf, MPI_Message& msg, MPI_Status& st) {
  buf.resize(message_bytes(st));
  with_int_count(bytes_desc(buf.data(), buf.size()), [&](void* d, int c, MPI_Datatype t) {
    OOMPI_CHECK(MPI_Mrecv, (d, c, t, &msg, &st));
  });
}

// --- a reusable buffer per thread for osend/orecv ------------------------------------------

struct scratch_state {
  byte_buffer buffer;
  bool busy = false;
};
inline scratch_state& thread_scratch() {
  thread_local scratch_state s;
  return s;
}
/// Lends this thread's buffer (or a fresh one if it is already lent); huge buffers are freed
/// afterwards rather than kept.
class scratch_lease {
public:
  scratch_lease() : state_(thread_scratch()), own_(!state_.busy) {
    if (own_) {
      state_.busy = true;
      state_.buffer.clear();
    }
  }
  scratch_lease(const scratch_lease&) = delete;
  scratch_lease& operator=(const scratch_lease&) = delete;
  ~scratch_lease() {
    if (own_) {
      state_.buffer.clear();
      state_.buffer.release_if_larger(std::size_t{64} << 20);
      state_.busy = false;
    }
  }
  byte_buffer& buffer() noexcept { return own_ ? state_.buffer : local_; }

private:
  scratch_state& state_;
  bool own_;
  byte_buffer local_;
};

// --- failures that every rank must hear about ------------------------------------------------

enum object_failure : std::uint64_t {
  failure_none = 0,
  failure_argument = 1,       // bad arguments (at the root)
  failure_serialize = 2,      // an object could not be serialized
  failure_large_path = 4,     // not a failure: the sizes exceed int, use point-to-point
  // Python's pickled collectives (no type= there) send pickle bytes in this framing with code
  // failure_pickled | failure_argument, so this side refuses them; its own argument failure
  // is failure_pickled_argument (docs/wire-format.md section 3).
  failure_pickled = 8,
  failure_pickled_argument = 16,
};

/// True when a pickling Python root's bytes follow its code although this rank refuses them:
/// the rank still takes them (or the root, on a large message, would wait for it and the next
/// collective on the private communicator would match them), then throws.
inline bool pickled_bytes_follow(std::uint64_t code) noexcept {
  return (code & failure_pickled) && !(code & (failure_serialize | failure_pickled_argument));
}

[[noreturn]] inline void throw_remote_failure(const char* op, std::uint64_t code) {
  if (code & failure_pickled)
    throw std::invalid_argument(std::string(op) +
                                ": a Python rank pickles its objects (no type= there), which "
                                "this rank cannot read: pass type= on every Python rank");
  if (code & failure_argument)
    throw std::invalid_argument(std::string(op) + ": invalid arguments on another rank");
  throw serialization_error(std::string(op) +
                            ": another rank could not serialize its objects (it threw there)");
}
/// After the exchange of failure codes: rethrow our own failure, or the remote one.
inline void raise_failures(const char* op, std::uint64_t code, const std::exception_ptr& local) {
  if (local) std::rethrow_exception(local);
  if (code & (failure_argument | failure_serialize)) throw_remote_failure(op, code);
}

/// After the first frame of a pickling Python root's obcast (`first`): its out-of-band buffers
/// (NumPy arrays...), one Bcast each, announced by a header b"OOB1", u32 n, n u64 sizes.
inline void drain_pickled_buffers(const byte_buffer& first, int root, MPI_Comm comm) {
  if (first.size() < 8 || std::memcmp(first.data(), "OOB1", 4) != 0) return;
  std::uint32_t n = 0;
  std::memcpy(&n, first.data() + 4, 4);
  if (first.size() < 8 + std::size_t{8} * n) return;
  byte_buffer scratch;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint64_t size = 0;
    std::memcpy(&size, first.data() + 8 + std::size_t{8} * i, 8);
    scratch.resize(static_cast<std::size_t>(size));
    bcast_bytes(scratch.data(), scratch.size(), root, comm);
  }
}

// Above this many bytes the split collectives move slices point to point instead of through one
// Scatterv/Gatherv/Alltoallv (whose counts and displacements are int). Lowered by the tests.
inline std::size_t object_int_limit = static_cast<std::size_t>(INT_MAX);
inline bool fits_int(std::size_t n) noexcept { return n <= object_int_limit; }

template <class T>
T deep_copy(const T& obj) {
  byte_buffer buf;
  object_codec<T>::save(buf, obj);
  T copy{};
  object_codec<T>::load(buf.data(), buf.size(), copy);
  return copy;
}

template <class T>
void send_object(const T& obj, int dest, int tag, MPI_Comm comm) {
  scratch_lease lease;
  object_codec<T>::save(lease.buffer(), obj);
  send_bytes(lease.buffer().data(), lease.buffer().size(), dest, tag, comm);
}
/// Receives one object message into obj; returns its status. With `skip_tag`, a message with
/// that tag is received but not deserialized (an empty failure notice).
template <class T>
status recv_object(T& obj, int source, int tag, MPI_Comm comm, int skip_tag = -1) {
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status st;
  ordered_mprobe(source, tag, comm, &msg, &st);  // behind pending iorecv (object_match.hpp)
  if (msg == MPI_MESSAGE_NO_PROC) return status(st);
  scratch_lease lease;
  mrecv_bytes(lease.buffer(), msg, st);
  if (st.MPI_TAG != skip_tag)
    object_codec<T>::load(lease.buffer().data(), lease.buffer().size(), obj);
  return status(st);
}

}  // namespace detail

}  // namespace oompi

#endif  // OOMPI_DETAIL_OBJECT_SUPPORT_HPP
