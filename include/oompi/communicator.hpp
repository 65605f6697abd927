#ifndef OOMPI_COMMUNICATOR_HPP
#define OOMPI_COMMUNICATOR_HPP

// Communicators and point-to-point messaging.
//
// `communicator` is the base of every communicator kind (intra, inter, topologies) and holds
// what they share: rank and size, and point-to-point in all modes. Ports (`comm[r]`) give
// OOMPI's `comm[r] << x` spelling. A communicator made by oompi (dup, split, ...) owns its
// handle and frees it on destruction; world() and self() do not.

#include "buffer.hpp"
#include "detail/recv_guard.hpp"
#include "error.hpp"
#include "message.hpp"
#include "object_ops.hpp"
#include "request.hpp"
#include "status.hpp"

#include <mpi.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi {

class port;
class intracommunicator;

namespace detail {
// Receive buffers: an lvalue (a named variable), or a temporary view of the caller's memory.
template <class B>
using enable_if_receivable =
    std::enable_if_t<std::is_lvalue_reference_v<B> || is_view_v<B>>;

using send_fn = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm);
using isend_fn = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);
using recv_init_fn = int (*)(void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);
}  // namespace detail

class communicator : public detail::object_ops<communicator> {
public:
  /// A null communicator.
  communicator() noexcept = default;
  /// Wraps a handle. With `owned`, this object frees it. MPI_ERRORS_RETURN is installed on it.
  explicit communicator(MPI_Comm comm, bool owned = false) : comm_(comm), owned_(owned) {
    if (comm_ != MPI_COMM_NULL) {
      detail::require_running("oompi::communicator");
      OOMPI_CHECK(MPI_Comm_set_errhandler, (comm_, MPI_ERRORS_RETURN));
      cache_rank_size();
    }
  }
  communicator(communicator&& o) noexcept
      : comm_(std::exchange(o.comm_, MPI_COMM_NULL)), owned_(std::exchange(o.owned_, false)),
        rank_(o.rank_), size_(o.size_) {}
  communicator& operator=(communicator&& o) noexcept {
    if (this != &o) {
      reset();
      comm_ = std::exchange(o.comm_, MPI_COMM_NULL);
      owned_ = std::exchange(o.owned_, false);
      rank_ = o.rank_;
      size_ = o.size_;
    }
    return *this;
  }
  communicator(const communicator&) = delete;  // dup() makes a new communicator
  communicator& operator=(const communicator&) = delete;
  ~communicator() { reset(); }

  /// MPI_COMM_WORLD (not owned).
  static intracommunicator world();
  /// MPI_COMM_SELF (not owned).
  static intracommunicator self();

  /// This process's rank in the communicator.
  int rank() const noexcept { return rank_; }
  /// Number of processes (of the local group, for an intercommunicator).
  int size() const noexcept { return size_; }
  MPI_Comm native() const noexcept { return comm_; }
  bool is_null() const noexcept { return comm_ == MPI_COMM_NULL; }
  bool owned() const noexcept { return owned_; }
  /// Gives up the handle without freeing it; the caller frees it (MPI_Comm_free). This object
  /// becomes null.
  MPI_Comm release() noexcept {
    owned_ = false;
    return std::exchange(comm_, MPI_COMM_NULL);
  }

  /// Waits for the pending communication on this communicator, then frees it
  /// (MPI_Comm_disconnect). Processes joined by spawn, accept or connect are independent again
  /// once both sides disconnected every communicator between them. Collective; this object
  /// becomes null. world() and self() cannot be disconnected.
  void disconnect() {
    require("MPI_Comm_disconnect");
    if (comm_ == MPI_COMM_WORLD || comm_ == MPI_COMM_SELF)
      throw std::logic_error("MPI_Comm_disconnect: MPI_COMM_WORLD and MPI_COMM_SELF cannot be "
                             "disconnected");
    MPI_Comm c = comm_;
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
    // Open MPI 4 hangs in MPI_Comm_disconnect on an intracommunicator (e.g. one merged from a
    // spawn's intercommunicator; open-mpi/ompi#12004): free it, which it treats the same way.
    int inter = 0;
    OOMPI_CHECK(MPI_Comm_test_inter, (c, &inter));
    if (!inter) {
      OOMPI_CHECK(MPI_Comm_free, (&c));
      comm_ = MPI_COMM_NULL;
      owned_ = false;
      return;
    }
#endif
    OOMPI_CHECK(MPI_Comm_disconnect, (&c));
    comm_ = MPI_COMM_NULL;
    owned_ = false;
  }

  /// The port to process `rank`: `comm[r] << x`, `comm[r] >> y`.
  port operator[](int rank) const noexcept;

  // --- blocking sends: standard, synchronous, buffered, ready ---------------------------

  template <class B>
  void send(const B& buf, int dest, int tag = 0) const {
    send_mode<MPI_Send>("MPI_Send", buf, dest, tag);
  }
  template <class B>
  void ssend(const B& buf, int dest, int tag = 0) const {
    send_mode<MPI_Ssend>("MPI_Ssend", buf, dest, tag);
  }
  /// Buffered send: needs an attached buffer (oompi::attached_buffer).
  template <class B>
  void bsend(const B& buf, int dest, int tag = 0) const {
    send_mode<MPI_Bsend>("MPI_Bsend", buf, dest, tag);
  }
  /// Ready send: the matching receive must already be posted.
  template <class B>
  void rsend(const B& buf, int dest, int tag = 0) const {
    send_mode<MPI_Rsend>("MPI_Rsend", buf, dest, tag);
  }

  // --- blocking receives ------------------------------------------------------------------
  // Receive buffers are named variables, or temporary views (oompi::buffer(p, n), std::span)
  // of the caller's memory.

  /// Receives into `buf`. A message larger than `buf` fails with MPI_ERR_TRUNCATE; nothing
  /// outside `buf` is written (detail/recv_guard.hpp).
  template <class B, class = detail::enable_if_receivable<B>>
  status recv(B&& buf, int source = any_source, int tag = any_tag) const {
    status s{status::uninitialized_t{}};
    recv_into(buf, source, tag, &s.native());
    return s;
  }
  /// Receives into `buf` without asking MPI for a status (MPI_STATUS_IGNORE): the cheapest
  /// receive when source, tag and size are known.
  template <class B, class = detail::enable_if_receivable<B>>
  void recv_ignore_status(B&& buf, int source, int tag) const {
    recv_into(buf, source, tag, MPI_STATUS_IGNORE);
  }
  /// Receives and returns a value. A resizable container (std::vector, std::string) is sized
  /// to the incoming message first (matched probe, so safe with threads).
  template <class B>
  B recv(int source = any_source, int tag = any_tag) const {
    B value{};
    if constexpr (detail::is_resizable<B>::value) {
      message m = mprobe(source, tag);
      std::size_t n = 0;
      try {
        n = m.status().count(detail::describe(value).type);
      } catch (const std::range_error&) {
        discard(m);  // not a whole number of elements: take it off the queue, then report
        throw;
      }
      buffer_traits<B>::resize(value, n);
      mrecv(value, m);
    } else {
      recv(value, source, tag);
    }
    return value;
  }

  // --- send-receive -----------------------------------------------------------------------

  /// Sends `sendbuf` to `dest` and receives into `recvbuf` from `source` in one call.
  template <class S, class R, class = detail::enable_if_receivable<R>>
  status sendrecv(const S& sendbuf, int dest, int sendtag, R&& recvbuf, int source = any_source,
                  int recvtag = any_tag) const {
    require("MPI_Sendrecv");
    status s;
    detail::with_int_count(detail::describe(sendbuf), [&](void* sp, int sn, MPI_Datatype st) {
      detail::with_int_count(detail::describe_out(recvbuf), [&](void* rp, int rn, MPI_Datatype rt) {
        // MPI wants the two buffers apart; Open MPI copes with one buffer, MPICH aborts.
        if (sp == rp && sn > 0 && rn > 0 && dest != MPI_PROC_NULL && source != MPI_PROC_NULL)
          throw std::invalid_argument("MPI_Sendrecv: the send and receive buffers are the same "
                                      "memory; use sendrecv_replace");
        if (const int rc = detail::bounded_sendrecv(sp, sn, st, dest, sendtag, rp, rn, rt, source,
                                                    recvtag, comm_, &s.native());
            rc != MPI_SUCCESS)
          detail::throw_mpi_error("MPI_Sendrecv", rc);
      });
    });
    return s;
  }
  /// Sends `buf` to `dest`, then receives into the same buffer from `source`.
  template <class B, class = detail::enable_if_receivable<B>>
  status sendrecv_replace(B&& buf, int dest, int sendtag, int source = any_source,
                          int recvtag = any_tag) const {
    require("MPI_Sendrecv_replace");
    status s;
    detail::with_int_count(detail::describe_out(buf), [&](void* p, int n, MPI_Datatype t) {
      if (const int rc = detail::bounded_sendrecv_replace(p, n, t, dest, sendtag, source, recvtag,
                                                          comm_, &s.native());
          rc != MPI_SUCCESS)
        detail::throw_mpi_error("MPI_Sendrecv_replace", rc);
    });
    return s;
  }

  // --- nonblocking ------------------------------------------------------------------------
  // A named buffer (or a view) is borrowed: keep it alive and untouched until the request
  // completes. A temporary container (std::move(v)) is moved into the request, which owns it
  // until completion.

  template <class B>
  request isend(B&& buf, int dest, int tag = 0) const {
    return isend_mode<MPI_Isend>("MPI_Isend", std::forward<B>(buf), dest, tag);
  }
  template <class B>
  request issend(B&& buf, int dest, int tag = 0) const {
    return isend_mode<MPI_Issend>("MPI_Issend", std::forward<B>(buf), dest, tag);
  }
  template <class B>
  request ibsend(B&& buf, int dest, int tag = 0) const {
    return isend_mode<MPI_Ibsend>("MPI_Ibsend", std::forward<B>(buf), dest, tag);
  }
  template <class B>
  request irsend(B&& buf, int dest, int tag = 0) const {
    return isend_mode<MPI_Irsend>("MPI_Irsend", std::forward<B>(buf), dest, tag);
  }

  /// Nonblocking receive. Into a named buffer or a view: returns a request, and the buffer is
  /// borrowed. Into a container given by move: returns a `future<B>` that owns it; get() hands it
  /// back when the message has arrived. Not guarded against larger messages (see
  /// detail/recv_guard.hpp): on Open MPI a message larger than `buf` is written past its end;
  /// use mprobe + imrecv when a larger message can come.
  template <class B>
  auto irecv(B&& buf, int source = any_source, int tag = any_tag) const {
    if constexpr (std::is_lvalue_reference_v<B> || is_view_v<B>) {
      require("MPI_Irecv");
      MPI_Request r = MPI_REQUEST_NULL;
      detail::with_int_count(detail::describe_out(buf), [&](void* p, int n, MPI_Datatype t) {
        OOMPI_CHECK(MPI_Irecv, (p, n, t, source, tag, comm_, &r));
      });
      return request(r, nullptr, on_destroy::cancel_and_wait);
    } else {
      using V = std::remove_cv_t<B>;
      auto owned = std::make_unique<detail::kept<V>>(std::move(buf));
      request r = irecv(owned->value, source, tag);
      return future<V>(std::move(owned), std::move(r));
    }
  }

  // --- persistent -------------------------------------------------------------------------
  // The buffer is borrowed for the life of the persistent request.

  template <class B>
  prequest send_init(const B& buf, int dest, int tag = 0) const {
    return init_mode<MPI_Send_init>("MPI_Send_init", buf, dest, tag);
  }
  template <class B>
  prequest ssend_init(const B& buf, int dest, int tag = 0) const {
    return init_mode<MPI_Ssend_init>("MPI_Ssend_init", buf, dest, tag);
  }
  template <class B>
  prequest bsend_init(const B& buf, int dest, int tag = 0) const {
    return init_mode<MPI_Bsend_init>("MPI_Bsend_init", buf, dest, tag);
  }
  template <class B>
  prequest rsend_init(const B& buf, int dest, int tag = 0) const {
    return init_mode<MPI_Rsend_init>("MPI_Rsend_init", buf, dest, tag);
  }
  /// Not guarded against larger messages, like irecv (detail/recv_guard.hpp).
  template <class B, class = detail::enable_if_receivable<B>>
  prequest recv_init(B&& buf, int source = any_source, int tag = any_tag) const {
    require("MPI_Recv_init");
    MPI_Request r = MPI_REQUEST_NULL;
    detail::with_int_count(detail::describe_out(buf), [&](void* p, int n, MPI_Datatype t) {
      OOMPI_CHECK(MPI_Recv_init, (p, n, t, source, tag, comm_, &r));
    });
    return prequest(r, on_destroy::cancel_and_wait);
  }

  // --- probes -----------------------------------------------------------------------------

  /// Blocks until a matching message can be received; returns its envelope and size.
  status probe(int source = any_source, int tag = any_tag) const {
    require("MPI_Probe");
    status s;
    OOMPI_CHECK(MPI_Probe, (source, tag, comm_, &s.native()));
    return s;
  }
  /// The status of a matching message if one can be received now.
  std::optional<status> iprobe(int source = any_source, int tag = any_tag) const {
    require("MPI_Iprobe");
    status s;
    int flag = 0;
    OOMPI_CHECK(MPI_Iprobe, (source, tag, comm_, &flag, &s.native()));
    if (!flag) return std::nullopt;
    return s;
  }
  /// Matched probe: the message is removed from matching and can only be received through
  /// the returned handle (thread-safe probe-then-receive).
  message mprobe(int source = any_source, int tag = any_tag) const {
    require("MPI_Mprobe");
    MPI_Message m = MPI_MESSAGE_NULL;
    status s;
    OOMPI_CHECK(MPI_Mprobe, (source, tag, comm_, &m, &s.native()));
    return message(m, s);
  }
  std::optional<message> improbe(int source = any_source, int tag = any_tag) const {
    require("MPI_Improbe");
    MPI_Message m = MPI_MESSAGE_NULL;
    status s;
    int flag = 0;
    OOMPI_CHECK(MPI_Improbe, (source, tag, comm_, &flag, &m, &s.native()));
    if (!flag) return std::nullopt;
    return message(m, s);
  }
  /// Receives a message matched by mprobe/improbe (the handle is used up).
  template <class B, class = detail::enable_if_receivable<B>>
  status mrecv(B&& buf, message& msg) const {
    check_message(msg, "MPI_Mrecv");
    status s;
    detail::with_int_count(detail::describe_out(buf), [&](void* p, int n, MPI_Datatype t) {
      if (const int rc = detail::bounded_mrecv(p, n, t, &msg.native_handle(),
                                               msg.status().native(), comm_, &s.native());
          rc != MPI_SUCCESS)
        detail::throw_mpi_error("MPI_Mrecv", rc);
    });
    return s;
  }
  template <class B, class = detail::enable_if_receivable<B>>
  status mrecv(B&& buf, message&& msg) const {
    return mrecv(std::forward<B>(buf), msg);
  }
  /// Nonblocking receive of a matched message; the buffer is borrowed. A message larger than
  /// `buf` fails here, at the call, with MPI_ERR_TRUNCATE (received through a staging buffer,
  /// its first elements in `buf`): nothing outside `buf` is written.
  template <class B, class = detail::enable_if_receivable<B>>
  request imrecv(B&& buf, message& msg) const {
    check_message(msg, "MPI_Imrecv");
    MPI_Request r = MPI_REQUEST_NULL;
    detail::with_int_count(detail::describe_out(buf), [&](void* p, int n, MPI_Datatype t) {
      MPI_Count bytes = 0;
      if (!detail::fits(msg.status().native(), n, t, bytes))
        detail::throw_mpi_error("MPI_Imrecv",
                                detail::truncated_mrecv(p, n, t, &msg.native_handle(),
                                                        msg.status().native(), bytes, comm_,
                                                        MPI_STATUS_IGNORE));
      OOMPI_CHECK(MPI_Imrecv, (p, n, t, &msg.native_handle(), &r));
    });
    // A matched message cannot be cancelled: a destroyed imrecv is waited for.
    return request(r);
  }

  // --- names ------------------------------------------------------------------------------

  std::string name() const {
    require("MPI_Comm_get_name");
    char text[MPI_MAX_OBJECT_NAME];
    int len = 0;
    OOMPI_CHECK(MPI_Comm_get_name, (comm_, text, &len));
    return std::string(text, static_cast<std::size_t>(len));
  }
  void set_name(const std::string& name) const {
    require("MPI_Comm_set_name");
    OOMPI_CHECK(MPI_Comm_set_name, (comm_, name.c_str()));
  }

protected:
  friend class detail::object_ops<communicator>;
  struct borrowed_tag {};
  // Wraps world/self without touching their error handler (the environment set it).
  communicator(MPI_Comm comm, borrowed_tag) : comm_(comm) { cache_rank_size(); }

  void require(const char* routine) const {
    detail::require_running(routine);
    if (OOMPI_DETAIL_UNLIKELY(comm_ == MPI_COMM_NULL)) throw_null(routine);
  }
  [[noreturn]] OOMPI_DETAIL_COLD static void throw_null(const char* routine) {
    throw std::logic_error(std::string(routine) + ": null communicator");
  }
  void cache_rank_size() {
    OOMPI_CHECK(MPI_Comm_rank, (comm_, &rank_));
    OOMPI_CHECK(MPI_Comm_size, (comm_, &size_));
  }
  void reset() noexcept {
    if (owned_ && comm_ != MPI_COMM_NULL && detail::mpi_usable()) MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
    owned_ = false;
  }

private:
  // The hot paths of send and recv: one comparison (MPI running and the count fits an int:
  // detail::g_fast_count_bound), the MPI call, the return-code test. Everything else (the first
  // call before oompi has seen MPI start, after finalize, more than INT_MAX elements) is in a
  // cold function that redoes the whole call, so nothing has to survive a call on the hot path
  // and it keeps no stack frame of its own. A null communicator is refused by MPI's argument
  // check (MPI_ERR_COMM, through MPI_COMM_WORLD's MPI_ERRORS_RETURN) and reported as the
  // std::logic_error it is (Open MPI with mpi_param_check=0 skips that check: then a null
  // communicator crashes there, as it does in C).
  static bool fast_path_ok(std::size_t count) noexcept {
    return OOMPI_DETAIL_LIKELY(count < detail::g_fast_count_bound.load(std::memory_order_relaxed));
  }
  [[noreturn]] OOMPI_DETAIL_COLD static void throw_p2p_error(const char* routine, int rc) {
    int cls = rc;
    MPI_Error_class(rc, &cls);
    if (cls == MPI_ERR_COMM)
      throw std::logic_error(std::string(routine) +
                             ": null communicator, or one already freed (MPI_ERR_COMM)");
    detail::throw_mpi_error(routine, rc);
  }
  template <class B>
  void recv_into(B& buf, int source, int tag, MPI_Status* st) const {
    const detail::buffer_desc d = detail::describe_out(buf);
    if (fast_path_ok(d.count)) {
      const int rc =
          detail::bounded_recv(d.data, static_cast<int>(d.count), d.type, source, tag, comm_, st);
      if (OOMPI_DETAIL_UNLIKELY(rc != MPI_SUCCESS)) throw_p2p_error("MPI_Recv", rc);
      return;
    }
    recv_slow(comm_, d.data, d.count, d.type, source, tag, st);
  }
  OOMPI_DETAIL_COLD static void recv_slow(MPI_Comm c, void* data, std::size_t count,
                                          MPI_Datatype type, int source, int tag,
                                          MPI_Status* st) {
    detail::require_running("MPI_Recv");
    if (c == MPI_COMM_NULL) throw_null("MPI_Recv");
    if (count <= static_cast<std::size_t>(INT_MAX)) {
      const int rc = detail::bounded_recv(data, static_cast<int>(count), type, source, tag, c, st);
      if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Recv", rc);
      return;
    }
    detail::large_count_type big(count, type);
    const int rc = detail::bounded_recv(data, 1, big.type(), source, tag, c, st);
    if (rc != MPI_SUCCESS) detail::throw_mpi_error("MPI_Recv", rc);
  }
  template <detail::send_fn Fn, class B>
  void send_mode(const char* routine, const B& buf, int dest, int tag) const {
    const detail::buffer_desc d = detail::describe(buf);
    if (fast_path_ok(d.count)) {
      const int rc = Fn(d.data, static_cast<int>(d.count), d.type, dest, tag, comm_);
      if (OOMPI_DETAIL_UNLIKELY(rc != MPI_SUCCESS)) throw_p2p_error(routine, rc);
      return;
    }
    send_slow<Fn>(routine, comm_, d.data, d.count, d.type, dest, tag);
  }
  template <detail::send_fn Fn>
  OOMPI_DETAIL_COLD static void send_slow(const char* routine, MPI_Comm c, void* data,
                                          std::size_t count, MPI_Datatype type, int dest,
                                          int tag) {
    detail::require_running(routine);
    if (c == MPI_COMM_NULL) throw_null(routine);
    const int rc = count <= static_cast<std::size_t>(INT_MAX)
                       ? Fn(data, static_cast<int>(count), type, dest, tag, c)
                       : detail::call_large_send(Fn, data, count, type, dest, tag, c);
    if (rc != MPI_SUCCESS) detail::throw_mpi_error(routine, rc);
  }
  template <detail::isend_fn Fn, class B>
  request isend_mode(const char* routine, B&& buf, int dest, int tag) const {
    require(routine);
    MPI_Request r = MPI_REQUEST_NULL;
    auto start = [&](const auto& b) {
      detail::with_int_count(detail::describe(b), [&](void* p, int n, MPI_Datatype t) {
        if (const int rc = Fn(p, n, t, dest, tag, comm_, &r); rc != MPI_SUCCESS)
          detail::throw_mpi_error(routine, rc);
      });
    };
    if constexpr (std::is_lvalue_reference_v<B> || is_view_v<B>) {
      start(buf);
      return request(r);
    } else {
      using V = std::remove_cv_t<std::remove_reference_t<B>>;
      auto owned = std::make_unique<detail::kept<V>>(std::move(buf));
      start(owned->value);
      return request(r, std::move(owned));
    }
  }
  template <detail::isend_fn Fn, class B>
  prequest init_mode(const char* routine, const B& buf, int dest, int tag) const {
    require(routine);
    MPI_Request r = MPI_REQUEST_NULL;
    detail::with_int_count(detail::describe(buf), [&](void* p, int n, MPI_Datatype t) {
      if (const int rc = Fn(p, n, t, dest, tag, comm_, &r); rc != MPI_SUCCESS)
        detail::throw_mpi_error(routine, rc);
    });
    return prequest(r);
  }
  // Receives and drops a matched message (it cannot be put back).
  static void discard(message& m) noexcept {
    std::vector<char> sink;
    try {
      sink.resize(m.status().bytes());
    } catch (...) {
      return;
    }
    MPI_Mrecv(sink.data(), static_cast<int>(sink.size()), MPI_BYTE, &m.native_handle(),
              MPI_STATUS_IGNORE);
  }
  void check_message(message& msg, const char* routine) const {
    detail::require_running(routine);
    if (!msg.valid())
      throw std::logic_error(std::string(routine) +
                             ": the message was already received (or never matched)");
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  bool owned_ = false;
  int rank_ = MPI_PROC_NULL;
  int size_ = 0;
};

/// Buffer space for buffered sends (bsend/ibsend), attached for this object's lifetime.
/// Detaching (the destructor) waits until the buffered messages have been delivered.
class attached_buffer {
public:
  explicit attached_buffer(std::size_t bytes) : storage_(bytes + MPI_BSEND_OVERHEAD) {
    detail::require_running("MPI_Buffer_attach");
    if (storage_.size() > static_cast<std::size_t>(INT_MAX))
      throw std::invalid_argument("oompi::attached_buffer: larger than INT_MAX bytes");
    OOMPI_CHECK(MPI_Buffer_attach, (storage_.data(), static_cast<int>(storage_.size())));
  }
  attached_buffer(const attached_buffer&) = delete;
  attached_buffer& operator=(const attached_buffer&) = delete;
  ~attached_buffer() {
    if (!detail::mpi_usable()) return;
    void* p = nullptr;
    int n = 0;
    MPI_Buffer_detach(&p, &n);
  }
  std::size_t size() const noexcept { return storage_.size(); }

  /// Bytes a bsend of `count` elements of T needs, overhead included.
  template <class T>
  static std::size_t space_for(std::size_t count, const communicator& comm) {
    int bytes = 0;
    OOMPI_CHECK(MPI_Pack_size, (static_cast<int>(count), datatype_of<T>(), comm.native(), &bytes));
    return static_cast<std::size_t>(bytes) + MPI_BSEND_OVERHEAD;
  }

private:
  std::vector<char> storage_;
};

}  // namespace oompi

#include "intracommunicator.hpp"
#include "port.hpp"

#endif  // OOMPI_COMMUNICATOR_HPP
