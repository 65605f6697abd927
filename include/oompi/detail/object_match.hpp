#ifndef OOMPI_DETAIL_OBJECT_MATCH_HPP
#define OOMPI_DETAIL_OBJECT_MATCH_HPP

// Posting order for object receives. An object receive cannot be posted to MPI (its size is not
// known until a message matches), so iorecv matches with MPI_Improbe when it is tested or waited
// on: two iorecv for the same source and tag would take their messages in the order they are
// waited on, not the order they were posted, against MPI's non-overtaking rule. Pending object
// receives are therefore kept here in posting order, and whoever probes walks them from the
// oldest: each message a probe takes goes to the oldest pending receive (of that communicator)
// it matches, which keeps it until its owner starts receiving it.
//
// Cost: a blocking orecv with no object receive pending takes its message with one MPI_Mprobe,
// as before (one relaxed atomic load decides); otherwise probes happen under one process-wide
// mutex.

#include "../error.hpp"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <thread>

namespace oompi::detail {

/// One pending object receive; matched (and unlinked) once a message is assigned to it.
struct pending_match {
  MPI_Comm comm = MPI_COMM_NULL;
  int source = MPI_ANY_SOURCE;
  int tag = MPI_ANY_TAG;
  bool linked = false;   // in the queue, waiting
  bool matched = false;  // a message was assigned to it
  MPI_Message message = MPI_MESSAGE_NULL;
  MPI_Status status{};
  pending_match* prev = nullptr;
  pending_match* next = nullptr;

  bool accepts(const MPI_Status& st) const noexcept {
    return (source == MPI_ANY_SOURCE || source == st.MPI_SOURCE) &&
           (tag == MPI_ANY_TAG || tag == st.MPI_TAG);
  }
};

class match_queue {
public:
  static match_queue& instance() {
    static match_queue q;
    return q;
  }

  /// True when some object receive is pending (may be stale by the time it is used: only
  /// decides whether a blocking receive may skip the queue).
  bool busy() const noexcept { return count_.load(std::memory_order_acquire) != 0; }

  /// Appends e (its comm, source and tag set) as the newest pending receive.
  void post(pending_match& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    e.matched = false;
    e.linked = true;
    e.prev = tail_;
    e.next = nullptr;
    (tail_ ? tail_->next : head_) = &e;
    tail_ = &e;
    count_.fetch_add(1, std::memory_order_release);
  }
  /// Removes e if no message was assigned to it yet; returns whether one was (the caller then
  /// owns e.message).
  bool withdraw(pending_match& e) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (e.linked) unlink(e);
    return e.matched;
  }
  /// Probes (without blocking) for the pending receives of e's communicator, oldest first, up to
  /// e; true once e has its message (e.message, e.status). Each message goes to the oldest
  /// receive it matches: a receive looks at the message it would take (MPI_Iprobe) and leaves
  /// it to an older receive that matches it too (which then takes its own first message, maybe
  /// an earlier one from the same sender), so messages are only taken by their rightful owner.
  bool progress(pending_match& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_match* p = e.linked ? head_ : nullptr;
    while (!e.matched && p != nullptr) {
      if (p->comm != e.comm) {
        p = p->next;
        continue;
      }
      const bool oldest = oldest_of_comm(*p);
      int flag = 0;
      MPI_Status st;
      if (!oldest) {
        OOMPI_CHECK(MPI_Iprobe, (p->source, p->tag, p->comm, &flag, &st));
        if (flag) {
          pending_match* owner = owner_of(p->comm, st);
          if (owner != p) {  // an older receive's message: let it take it
            p = owner;
            continue;
          }
        }
      }
      if (oldest || flag) {
        MPI_Message msg = MPI_MESSAGE_NULL;
        OOMPI_CHECK(MPI_Improbe, (p->source, p->tag, p->comm, &flag, &msg, &st));
        if (flag) {
          // (another thread's plain receive may have taken the one looked at: owner again)
          pending_match* owner = oldest ? p : owner_of(p->comm, st);
          owner->matched = true;
          owner->message = msg;
          owner->status = st;
          pending_match* after = owner == p ? p->next : p;
          unlink(*owner);
          p = after;
          continue;
        }
      }
      if (p == &e) break;
      p = p->next;
    }
    return e.matched;
  }
  /// Blocks until e has its message.
  void wait(pending_match& e) {
    int level = MPI_THREAD_SINGLE;
    OOMPI_CHECK(MPI_Query_thread, (&level));
    if (level != MPI_THREAD_MULTIPLE) {
      while (!progress(e)) {
        // Wait for a message e could take, without taking it; progress() gives it to the oldest
        // receive it matches (maybe an older one: then wait for the next).
        MPI_Status st;
        OOMPI_CHECK(MPI_Probe, (e.source, e.tag, e.comm, &st));
      }
      return;
    }
    // Another thread's progress() may assign e its message, which would leave a blocking
    // MPI_Probe here waiting for a message that never comes: poll, backing off to 50 us.
    for (unsigned idle = 0; !progress(e); ++idle) {
      if (idle < 64)
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(idle < 1024 ? 5 : 50));
    }
  }

private:
  bool oldest_of_comm(const pending_match& p) const noexcept {
    for (const pending_match* q = head_; q != &p; q = q->next)
      if (q->comm == p.comm) return false;
    return true;
  }
  /// The oldest pending receive of comm that accepts a message with status st.
  pending_match* owner_of(MPI_Comm comm, const MPI_Status& st) const noexcept {
    pending_match* q = head_;
    while (q != nullptr && (q->comm != comm || !q->accepts(st))) q = q->next;
    return q;
  }
  void unlink(pending_match& e) noexcept {
    (e.prev ? e.prev->next : head_) = e.next;
    (e.next ? e.next->prev : tail_) = e.prev;
    e.prev = e.next = nullptr;
    e.linked = false;
    count_.fetch_sub(1, std::memory_order_release);
  }

  std::mutex mutex_;
  pending_match* head_ = nullptr;
  pending_match* tail_ = nullptr;
  std::atomic<std::size_t> count_{0};
};

/// MPI_Mprobe that waits its turn behind the pending object receives of comm (a blocking object
/// receive: one MPI_Mprobe when none is pending).
inline void ordered_mprobe(int source, int tag, MPI_Comm comm, MPI_Message* msg, MPI_Status* st) {
  require_running("MPI_Mprobe");  // the bindings' orecv come here straight (MPI aborts after finalize)
  match_queue& q = match_queue::instance();
  if (source == MPI_PROC_NULL || !q.busy()) {
    OOMPI_CHECK(MPI_Mprobe, (source, tag, comm, msg, st));
    return;
  }
  pending_match m;
  m.comm = comm;
  m.source = source;
  m.tag = tag;
  q.post(m);
  try {
    q.wait(m);
  } catch (...) {
    if (q.withdraw(m) && m.message != MPI_MESSAGE_NULL) {
      int bytes = 0;  // take it off the queue: nobody else can have it now
      MPI_Get_count(&m.status, MPI_BYTE, &bytes);
      MPI_Status ignored;
      if (bytes >= 0) {
        char* sink = new char[static_cast<std::size_t>(bytes) + 1];
        MPI_Mrecv(sink, bytes, MPI_BYTE, &m.message, &ignored);
        delete[] sink;
      }
    }
    throw;
  }
  *msg = m.message;
  *st = m.status;
}

}  // namespace oompi::detail

#endif  // OOMPI_DETAIL_OBJECT_MATCH_HPP
