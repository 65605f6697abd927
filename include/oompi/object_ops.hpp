#ifndef OOMPI_OBJECT_OPS_HPP
#define OOMPI_OBJECT_OPS_HPP

// Object-graph transport as a mixin of the communicators (Motor's "O" operations):
//
//   osend / orecv        one message per object; the receive matches it with MPI_Mprobe, sizes
//                        it with MPI_Get_count and takes it with MPI_Mrecv (no size message, no
//                        guessed buffer, safe when several threads receive at once)
//   iosend               the request owns the serialized bytes
//   iorecv               an object_future: test() polls MPI_Improbe, then MPI_Imrecv, so no
//                        buffer size is ever guessed
//   obcast               the root's object to every rank
//   oscatter / ogather / oallgather / oalltoall
//                        arrays of objects with Motor's split representation: each rank's slice
//                        is serialized separately into one buffer (an independent graph: objects
//                        shared between slices arrive as copies) and one MPI_Scatterv / Gatherv /
//                        Allgatherv / Alltoallv moves them after the sizes are exchanged
//   oreduce / oallreduce a reduction of objects with any callable, in rank order
//
// The collectives run on a private duplicate of the communicator, made on first use and cached
// as an attribute of it (freed with it, or at MPI_Finalize), so they never match user messages.
// A failure on one rank (bad arguments at the root, an object that cannot be serialized, a
// throwing reduction) is reported to the others, so every rank throws and none is left waiting.
//
// The serialization itself is opt-in: #include <oompi/serialization.hpp>. This header only
// declares the hook (serialization/codec_fwd.hpp) and does not pull in cereal.

#include "buffer.hpp"
#include "detail/object_match.hpp"
#include "error.hpp"
#include "request.hpp"
#include "serialization/byte_buffer.hpp"
#include "serialization/codec_fwd.hpp"
#include "serialization/error.hpp"
#include "status.hpp"

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

/// A receive of an object of unknown size that has not completed yet (iorecv). test() advances
/// it without blocking: first a probe until a message is there, then MPI_Imrecv into a buffer of
/// exactly its size; wait() blocks; get() waits and hands the object over. Object receives take
/// their messages in the order they were posted, as MPI's receives do (detail/object_match.hpp).
/// The communicator must outlive it. Destroying it while the message is being received waits for
/// that receive (a matched message cannot be cancelled: one assigned to it in posting order is
/// received and dropped); before that it just stops waiting, and later receives take its place.
template <class T>
class object_future {
public:
  object_future(MPI_Comm comm, int source, int tag) : comm_(comm), source_(source), tag_(tag) {
    if (source != MPI_PROC_NULL) {
      match_ = std::make_unique<detail::pending_match>();
      match_->comm = comm;
      match_->source = source;
      match_->tag = tag;
      detail::match_queue::instance().post(*match_);
    }
  }
  object_future(object_future&& o) noexcept
      : comm_(o.comm_), source_(o.source_), tag_(o.tag_), state_(o.state_),
        match_(std::move(o.match_)), req_(std::exchange(o.req_, MPI_REQUEST_NULL)),
        buf_(std::move(o.buf_)), status_(o.status_), value_(std::move(o.value_)),
        error_(std::move(o.error_)) {
    o.state_ = state::done;
  }
  object_future& operator=(object_future&& o) noexcept {
    if (this != &o) {
      drain();
      comm_ = o.comm_;
      source_ = o.source_;
      tag_ = o.tag_;
      state_ = std::exchange(o.state_, state::done);
      match_ = std::move(o.match_);
      req_ = std::exchange(o.req_, MPI_REQUEST_NULL);
      buf_ = std::move(o.buf_);
      status_ = o.status_;
      value_ = std::move(o.value_);
      error_ = std::move(o.error_);
    }
    return *this;
  }
  object_future(const object_future&) = delete;
  object_future& operator=(const object_future&) = delete;
  ~object_future() { drain(); }

  /// Advances the receive; true once the object has arrived (and was deserialized).
  bool test() {
    if (state_ == state::probing) {
      detail::require_running("MPI_Improbe");
      if (!match_) {  // proc_null
        int flag = 0;
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        OOMPI_CHECK(MPI_Improbe, (source_, tag_, comm_, &flag, &msg, &st));
        start(msg, st);
      } else {
        if (!detail::match_queue::instance().progress(*match_)) return false;
        start(match_->message, match_->status);
      }
    }
    if (state_ == state::receiving) {
      int flag = 0;
      MPI_Status st;
      OOMPI_CHECK(MPI_Test, (&req_, &flag, &st));
      if (!flag) return false;
      finish();
    }
    if (error_) std::rethrow_exception(error_);
    return true;
  }
  /// Blocks until the object has arrived; returns the status of its message.
  oompi::status wait() {
    if (state_ == state::probing) {
      detail::require_running("MPI_Mprobe");
      if (!match_) {
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        OOMPI_CHECK(MPI_Mprobe, (source_, tag_, comm_, &msg, &st));
        start(msg, st);
      } else {
        detail::match_queue::instance().wait(*match_);
        start(match_->message, match_->status);
      }
    }
    if (state_ == state::receiving) {
      MPI_Status st;
      OOMPI_CHECK(MPI_Wait, (&req_, &st));
      finish();
    }
    if (error_) std::rethrow_exception(error_);
    return status_;
  }
  /// Waits, then moves the object out.
  T get() {
    wait();
    return std::move(value_);
  }
  bool pending() const noexcept { return state_ != state::done; }

private:
  enum class state : unsigned char { probing, receiving, done };

  void start(MPI_Message msg, const MPI_Status& st) {
    if (match_) match_->message = MPI_MESSAGE_NULL;  // ours now
    status_ = oompi::status(st);
    if (msg == MPI_MESSAGE_NO_PROC) {  // source was proc_null: nothing arrives
      state_ = state::done;
      return;
    }
    state_ = state::done;  // if the receive cannot start, the message is lost either way
    buf_.resize(detail::message_bytes(st));
    detail::with_int_count(detail::bytes_desc(buf_.data(), buf_.size()),
                           [&](void* d, int c, MPI_Datatype t) {
                             OOMPI_CHECK(MPI_Imrecv, (d, c, t, &msg, &req_));
                           });
    state_ = state::receiving;
  }
  void finish() {
    state_ = state::done;
    try {
      detail::object_codec<T>::load(buf_.data(), buf_.size(), value_);
    } catch (...) {
      error_ = std::current_exception();
    }
    buf_ = byte_buffer();
  }
  void drain() noexcept {
    if (state_ == state::probing && match_ && detail::match_queue::instance().withdraw(*match_) &&
        match_->message != MPI_MESSAGE_NULL && detail::mpi_usable()) {
      // A message was assigned to this receive in posting order: take it off the queue.
      try {
        byte_buffer drop;
        detail::mrecv_bytes(drop, match_->message, match_->status);
      } catch (...) {
      }
    }
    if (req_ != MPI_REQUEST_NULL && detail::mpi_usable()) MPI_Wait(&req_, MPI_STATUS_IGNORE);
    req_ = MPI_REQUEST_NULL;
    state_ = state::done;
  }

  MPI_Comm comm_;
  int source_;
  int tag_;
  state state_ = state::probing;
  std::unique_ptr<detail::pending_match> match_;  // posted receive (null for proc_null)
  MPI_Request req_ = MPI_REQUEST_NULL;
  byte_buffer buf_;
  oompi::status status_;
  T value_{};
  std::exception_ptr error_;
};

namespace detail {

/// CRTP base: Derived is a communicator (native(), rank(), size(), require(routine)).
template <class Derived>
class object_ops {
public:
  // --- point to point ---------------------------------------------------------------------

  /// Sends the object (its whole transported graph) as one message.
  template <class T>
  void osend(const T& obj, int dest, int tag = 0) const {
    derived().require("oompi::osend");
    send_object(obj, dest, tag, derived().native());
  }
  /// Receives one object message into obj (any size; matched probe, so thread-safe).
  template <class T>
  status orecv(T& obj, int source = any_source, int tag = any_tag) const {
    static_assert(!std::is_const_v<T>, "oompi: cannot receive into a const object");
    derived().require("oompi::orecv");
    return recv_object(obj, source, tag, derived().native());
  }
  /// Receives and returns one object.
  template <class T>
  T orecv(int source = any_source, int tag = any_tag) const {
    T obj{};
    orecv(obj, source, tag);
    return obj;
  }
  /// Nonblocking send: serializes now; the request owns the bytes until it completes.
  template <class T>
  request iosend(const T& obj, int dest, int tag = 0) const {
    derived().require("oompi::iosend");
    auto owned = std::make_unique<kept<byte_buffer>>();
    object_codec<T>::save(owned->value, obj);
    const MPI_Request r =
        isend_bytes(owned->value.data(), owned->value.size(), dest, tag, derived().native());
    return request(r, std::move(owned));
  }
  /// Nonblocking receive of an object of unknown size.
  template <class T>
  object_future<T> iorecv(int source = any_source, int tag = any_tag) const {
    derived().require("oompi::iorecv");
    (void)sizeof(object_codec<T>);  // a type that cannot travel fails to compile here
    return object_future<T>(derived().native(), source, tag);
  }

  // --- collectives (on the private communicator) -------------------------------------------

  /// The root's object replaces obj on every other rank.
  template <class T>
  void obcast(T& obj, int root) const {
    static_assert(!std::is_const_v<T>, "oompi: obcast needs a modifiable object");
    derived().require("oompi::obcast");
    const MPI_Comm comm = object_comm(derived().native());
    const bool at_root = derived().rank() == root;
    std::uint64_t meta[2] = {0, failure_none};
    byte_buffer buf;
    std::exception_ptr local;
    if (at_root) {
      try {
        object_codec<T>::save(buf, obj);
        meta[0] = buf.size();
      } catch (...) {
        local = std::current_exception();
        meta[1] = failure_serialize;
      }
    }
    OOMPI_CHECK(MPI_Bcast, (meta, 2, MPI_UINT64_T, root, comm));
    const bool refused = !at_root && pickled_bytes_follow(meta[1]);
    if (!refused) raise_failures("oompi::obcast", meta[1], local);
    if (!at_root) buf.resize(static_cast<std::size_t>(meta[0]));
    bcast_bytes(buf.data(), buf.size(), root, comm);
    if (refused) {
      drain_pickled_buffers(buf, root, comm);
      throw_remote_failure("oompi::obcast", meta[1]);
    }
    if (!at_root) object_codec<T>::load(buf.data(), buf.size(), obj);
  }

  /// Splits the root's array into size() blocks as even as possible (the first size() % n
  /// ranks get one more) and returns this rank's block. `all` matters at the root only.
  template <class T>
  std::vector<T> oscatter(const std::vector<T>& all, int root) const {
    std::vector<std::size_t> counts;
    if (derived().rank() == root) {
      const auto p = static_cast<std::size_t>(derived().size());
      for (std::size_t i = 0; i < p; ++i) counts.push_back(all.size() / p + (i < all.size() % p));
    }
    return oscatterv(all, counts, root);
  }
  /// Returns this rank's block of the root's array: counts[i] elements for rank i, in order.
  /// `all` and `counts` matter at the root only.
  template <class T>
  std::vector<T> oscatterv(const std::vector<T>& all, const std::vector<std::size_t>& counts,
                           int root) const {
    derived().require("oompi::oscatter");
    const MPI_Comm comm = object_comm(derived().native());
    const int p = derived().size();
    const bool at_root = derived().rank() == root;
    byte_buffer buf;
    std::vector<std::uint64_t> meta;  // at the root: per rank {slice bytes, code}
    std::vector<std::size_t> offsets;
    std::exception_ptr local;
    if (at_root) {
      meta.assign(2 * static_cast<std::size_t>(p), 0);
      offsets.assign(static_cast<std::size_t>(p) + 1, 0);
      std::uint64_t code = failure_none;
      std::size_t total = 0;
      for (std::size_t c : counts) total += c;
      if (counts.size() != static_cast<std::size_t>(p) || total != all.size()) {
        local = std::make_exception_ptr(std::invalid_argument(
            "oompi::oscatterv: counts must have one entry per rank and add up to the array "
            "size"));
        code = failure_argument;
      } else {
        try {
          std::size_t first = 0;
          for (int i = 0; i < p; ++i) {
            object_codec<T>::save_slice(buf, all.data() + first, counts[i]);
            first += counts[i];
            offsets[i + 1] = buf.size();
            meta[2 * i] = offsets[i + 1] - offsets[i];
          }
          if (!fits_int(buf.size())) code = failure_large_path;
        } catch (...) {
          local = std::current_exception();
          code = failure_serialize;
        }
      }
      for (int i = 0; i < p; ++i) meta[2 * i + 1] = code;
    }
    std::uint64_t mine[2] = {0, 0};
    OOMPI_CHECK(MPI_Scatter, (meta.data(), 2, MPI_UINT64_T, mine, 2, MPI_UINT64_T, root, comm));
    const bool refused = !at_root && pickled_bytes_follow(mine[1]);  // take them, then throw
    if (!refused) raise_failures("oompi::oscatter", mine[1], local);

    std::vector<T> out;
    if (!(mine[1] & failure_large_path)) {
      if (at_root) {
        std::vector<int> sizes(p), displs(p);
        for (int i = 0; i < p; ++i) {
          sizes[i] = static_cast<int>(meta[2 * i]);
          displs[i] = static_cast<int>(offsets[i]);
        }
        OOMPI_CHECK(MPI_Scatterv, (buf.data(), sizes.data(), displs.data(), MPI_BYTE,
                                   MPI_IN_PLACE, 0, MPI_BYTE, root, comm));
      } else {
        buf.resize(static_cast<std::size_t>(mine[0]));
        OOMPI_CHECK(MPI_Scatterv, (nullptr, nullptr, nullptr, MPI_BYTE, buf.data(),
                                   static_cast<int>(mine[0]), MPI_BYTE, root, comm));
      }
    } else if (at_root) {  // more than INT_MAX bytes: one message per rank
      std::vector<MPI_Request> reqs;
      for (int i = 0; i < p; ++i)
        if (i != root)
          reqs.push_back(isend_bytes(buf.data() + offsets[i], offsets[i + 1] - offsets[i], i,
                                     object_tag_large, comm));
      wait_requests(reqs);
    } else {
      buf.resize(static_cast<std::size_t>(mine[0]));
      std::vector<MPI_Request> reqs{irecv_bytes(buf.data(), buf.size(), root, object_tag_large, comm)};
      wait_requests(reqs);
    }
    if (refused) throw_remote_failure("oompi::oscatter", mine[1]);
    if (at_root)
      object_codec<T>::load_slice(buf.data() + offsets[root], offsets[root + 1] - offsets[root], out);
    else
      object_codec<T>::load_slice(buf.data(), buf.size(), out);
    return out;
  }

  /// The concatenation, in rank order, of every rank's array, at the root (empty elsewhere).
  template <class T>
  std::vector<T> ogather(const std::vector<T>& mine, int root) const {
    return gather_impl(mine, root, false);
  }
  /// The concatenation, in rank order, of every rank's array, on every rank.
  template <class T>
  std::vector<T> oallgather(const std::vector<T>& mine) const {
    return gather_impl(mine, 0, true);
  }

  /// out[i] goes to rank i; returns what each rank sent to this one, in rank order. Each
  /// element is serialized on its own (an independent graph).
  template <class T>
  std::vector<T> oalltoall(const std::vector<T>& out) const {
    derived().require("oompi::oalltoall");
    const MPI_Comm comm = object_comm(derived().native());
    const int p = derived().size();
    const auto np = static_cast<std::size_t>(p);
    byte_buffer buf;
    std::vector<std::size_t> soff(np + 1, 0);
    std::uint64_t code = failure_none;
    std::exception_ptr local;
    if (out.size() != np) {
      local = std::make_exception_ptr(std::invalid_argument(
          "oompi::oalltoall: the array needs one object per rank (" + std::to_string(p) + ")"));
      code = failure_argument;
    } else {
      try {
        for (std::size_t i = 0; i < np; ++i) {
          object_codec<T>::save(buf, out[i]);
          soff[i + 1] = buf.size();
        }
      } catch (...) {
        local = std::current_exception();
        code = failure_serialize;
      }
    }
    std::vector<std::uint64_t> smeta(2 * np), rmeta(2 * np);
    for (std::size_t i = 0; i < np; ++i) {
      smeta[2 * i] = code == failure_none ? soff[i + 1] - soff[i] : 0;
      smeta[2 * i + 1] = code;
    }
    OOMPI_CHECK(MPI_Alltoall, (smeta.data(), 2, MPI_UINT64_T, rmeta.data(), 2, MPI_UINT64_T, comm));
    std::uint64_t all_codes = code;
    for (std::size_t i = 0; i < np; ++i) all_codes |= rmeta[2 * i + 1];
    raise_failures("oompi::oalltoall", all_codes, local);

    std::vector<std::size_t> roff(np + 1, 0);
    for (std::size_t i = 0; i < np; ++i) roff[i + 1] = roff[i] + rmeta[2 * i];
    int large = !fits_int(soff[np]) || !fits_int(roff[np]);
    OOMPI_CHECK(MPI_Allreduce, (MPI_IN_PLACE, &large, 1, MPI_INT, MPI_MAX, comm));
    byte_buffer rbuf(roff[np]);
    if (!large) {
      std::vector<int> sc(np), sd(np), rc(np), rd(np);
      for (std::size_t i = 0; i < np; ++i) {
        sc[i] = static_cast<int>(soff[i + 1] - soff[i]);
        sd[i] = static_cast<int>(soff[i]);
        rc[i] = static_cast<int>(roff[i + 1] - roff[i]);
        rd[i] = static_cast<int>(roff[i]);
      }
      OOMPI_CHECK(MPI_Alltoallv, (buf.data(), sc.data(), sd.data(), MPI_BYTE, rbuf.data(),
                                  rc.data(), rd.data(), MPI_BYTE, comm));
    } else {
      std::vector<MPI_Request> reqs;
      for (int i = 0; i < p; ++i)
        reqs.push_back(irecv_bytes(rbuf.data() + roff[i], roff[i + 1] - roff[i], i,
                                   object_tag_large, comm));
      for (int i = 0; i < p; ++i)
        reqs.push_back(isend_bytes(buf.data() + soff[i], soff[i + 1] - soff[i], i,
                                   object_tag_large, comm));
      wait_requests(reqs);
    }
    std::vector<T> in(np);
    for (std::size_t i = 0; i < np; ++i)
      object_codec<T>::load(rbuf.data() + roff[i], roff[i + 1] - roff[i], in[i]);
    return in;
  }

  /// op(op(op(x0, x1), x2), ...) over the ranks' objects in rank order (so op need not be
  /// commutative), at the root; a default-constructed T elsewhere. op(const T&, const T&) -> T.
  /// If op throws, the rank where it threw rethrows it and the root throws too.
  template <class T, class Op>
  T oreduce(const T& obj, Op op, int root) const {
    derived().require("oompi::oreduce");
    const MPI_Comm comm = object_comm(derived().native());
    reduction<T> red = reduce_to_zero(obj, op, comm);
    const int me = derived().rank();
    if (root != 0) {
      if (me == 0) {
        bool notify = red.failed;
        if (!notify) {
          try {
            send_object(*red.value, root, object_tag_forward, comm);
          } catch (const error&) {
            throw;
          } catch (...) {  // could not serialize the result: the root must still hear
            red.local = std::current_exception();
            notify = true;
          }
        }
        if (notify) send_bytes(nullptr, 0, root, object_tag_reduce_failed, comm);
      } else if (me == root) {
        red.value.emplace();
        if (recv_object(*red.value, 0, MPI_ANY_TAG, comm, object_tag_reduce_failed).tag() ==
            object_tag_reduce_failed)
          red.failed = true;
      }
    }
    if (red.local) std::rethrow_exception(red.local);
    if (me != root) return T{};
    if (red.failed)
      throw serialization_error("oompi::oreduce: the reduction failed on another rank");
    return std::move(*red.value);
  }
  /// The reduction, on every rank.
  template <class T, class Op>
  T oallreduce(const T& obj, Op op) const {
    derived().require("oompi::oallreduce");
    const MPI_Comm comm = object_comm(derived().native());
    reduction<T> red = reduce_to_zero(obj, op, comm);
    const bool at_zero = derived().rank() == 0;
    std::uint64_t meta[2] = {0, red.failed ? std::uint64_t{failure_serialize} : 0};
    byte_buffer buf;
    if (at_zero && !red.failed) {
      try {
        object_codec<T>::save(buf, *red.value);
        meta[0] = buf.size();
      } catch (...) {
        if (!red.local) red.local = std::current_exception();
        meta[1] = failure_serialize;
      }
    }
    OOMPI_CHECK(MPI_Bcast, (meta, 2, MPI_UINT64_T, 0, comm));
    // A pickling Python rank 0 whose reduction succeeded broadcasts its pickle: take it first.
    const bool refused = !at_zero && pickled_bytes_follow(meta[1]);
    if (red.local && !refused) std::rethrow_exception(red.local);
    if (meta[1] != failure_none && !refused)
      throw serialization_error("oompi::oallreduce: the reduction failed on another rank");
    if (!at_zero) buf.resize(static_cast<std::size_t>(meta[0]));
    bcast_bytes(buf.data(), buf.size(), 0, comm);
    if (refused) {
      if (red.local) std::rethrow_exception(red.local);
      throw_remote_failure("oompi::oallreduce", meta[1]);
    }
    if (at_zero) return std::move(*red.value);
    T result{};
    object_codec<T>::load(buf.data(), buf.size(), result);
    return result;
  }

private:
  const Derived& derived() const noexcept { return static_cast<const Derived&>(*this); }

  template <class T>
  std::vector<T> gather_impl(const std::vector<T>& mine, int root, bool all) const {
    const char* op = all ? "oompi::oallgather" : "oompi::ogather";
    derived().require(op);
    const MPI_Comm comm = object_comm(derived().native());
    const int p = derived().size();
    const int me = derived().rank();
    const auto np = static_cast<std::size_t>(p);
    byte_buffer buf;
    std::uint64_t my_meta[2] = {0, failure_none};
    std::exception_ptr local;
    try {
      object_codec<T>::save_slice(buf, mine.data(), mine.size());
      my_meta[0] = buf.size();
    } catch (...) {
      local = std::current_exception();
      my_meta[1] = failure_serialize;
    }
    std::vector<std::uint64_t> meta(2 * np);
    OOMPI_CHECK(MPI_Allgather, (my_meta, 2, MPI_UINT64_T, meta.data(), 2, MPI_UINT64_T, comm));
    std::uint64_t codes = 0;
    for (std::size_t i = 0; i < np; ++i) codes |= meta[2 * i + 1];
    raise_failures(op, codes, local);

    std::vector<std::size_t> off(np + 1, 0);
    for (std::size_t i = 0; i < np; ++i) off[i + 1] = off[i] + meta[2 * i];
    const bool large = !fits_int(off[np]);
    const bool receives = all || me == root;
    byte_buffer rbuf(receives ? off[np] : 0);
    if (!large) {
      std::vector<int> counts(np), displs(np);
      for (std::size_t i = 0; i < np; ++i) {
        counts[i] = static_cast<int>(meta[2 * i]);
        displs[i] = static_cast<int>(off[i]);
      }
      if (all)
        OOMPI_CHECK(MPI_Allgatherv, (buf.data(), static_cast<int>(buf.size()), MPI_BYTE, rbuf.data(),
                                     counts.data(), displs.data(), MPI_BYTE, comm));
      else
        OOMPI_CHECK(MPI_Gatherv, (buf.data(), static_cast<int>(buf.size()), MPI_BYTE, rbuf.data(),
                                  counts.data(), displs.data(), MPI_BYTE, root, comm));
    } else if (all) {  // more than INT_MAX bytes in all: one broadcast per rank
      for (int i = 0; i < p; ++i) {
        if (i == me && !buf.empty()) std::memcpy(rbuf.data() + off[i], buf.data(), buf.size());
        bcast_bytes(rbuf.data() + off[i], off[i + 1] - off[i], i, comm);
      }
    } else {
      std::vector<MPI_Request> reqs;
      if (me == root) {
        for (int i = 0; i < p; ++i) {
          if (i == me) {
            if (!buf.empty()) std::memcpy(rbuf.data() + off[i], buf.data(), buf.size());
          } else {
            reqs.push_back(irecv_bytes(rbuf.data() + off[i], off[i + 1] - off[i], i,
                                       object_tag_large, comm));
          }
        }
      } else {
        reqs.push_back(isend_bytes(buf.data(), buf.size(), root, object_tag_large, comm));
      }
      wait_requests(reqs);
    }
    std::vector<T> out;
    if (receives)
      for (std::size_t i = 0; i < np; ++i)
        object_codec<T>::load_slice(rbuf.data() + off[i], off[i + 1] - off[i], out);
    return out;
  }

  template <class T>
  struct reduction {
    std::optional<T> value;   // at rank 0: the result (unless failed)
    bool failed = false;      // some rank in this subtree failed
    std::exception_ptr local; // this rank's own failure
  };

  // Binomial tree towards rank 0 that keeps rank order: at step `mask` a rank that is a
  // multiple of 2*mask holds x[r .. r+mask) and receives x[r+mask .. r+2*mask). A rank that
  // fails still receives from all its children (so none blocks) and reports upwards.
  template <class T, class Op>
  reduction<T> reduce_to_zero(const T& obj, Op& op, MPI_Comm comm) const {
    const int p = derived().size();
    const int me = derived().rank();
    reduction<T> red;
    const T* current = &obj;
    for (int mask = 1; mask < p; mask <<= 1) {
      if (me & mask) {
        if (red.failed) {
          send_bytes(nullptr, 0, me - mask, object_tag_reduce_failed, comm);
        } else {
          try {
            send_object(*current, me - mask, object_tag_reduce, comm);
          } catch (const error&) {
            throw;
          } catch (...) {  // could not serialize: tell the parent instead
            red.local = std::current_exception();
            red.failed = true;
            send_bytes(nullptr, 0, me - mask, object_tag_reduce_failed, comm);
          }
        }
        return red;
      }
      if (me + mask < p) {
        T other{};
        try {
          if (recv_object(other, me + mask, MPI_ANY_TAG, comm, object_tag_reduce_failed).tag() ==
              object_tag_reduce_failed)
            red.failed = true;
        } catch (const error&) {
          throw;
        } catch (...) {
          if (!red.local) red.local = std::current_exception();
          red.failed = true;
        }
        if (!red.failed) {
          try {
            red.value.emplace(op(*current, std::as_const(other)));
            current = &*red.value;
          } catch (...) {
            red.local = std::current_exception();
            red.failed = true;
          }
        }
      }
    }
    if (me == 0 && !red.failed && !red.value) {
      try {
        red.value.emplace(deep_copy(obj));  // one rank: the result is a copy of its object
      } catch (...) {
        red.local = std::current_exception();
        red.failed = true;
      }
    }
    return red;
  }
};

}  // namespace detail
}  // namespace oompi

#endif  // OOMPI_OBJECT_OPS_HPP
