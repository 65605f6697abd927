#ifndef OOMPI_OBJECT_FUTURE_HPP
#define OOMPI_OBJECT_FUTURE_HPP

// object_future: the pending object receive that iorecv returns (object_ops.hpp).

#include "detail/object_support.hpp"
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

}  // namespace oompi

#endif  // OOMPI_OBJECT_FUTURE_HPP
