// Object receives in posting order for the bindings (issue 25): a posted receive is a ticket
// into oompi::detail::match_queue (the same queue C++'s object_future uses, so C++ and binding
// receives in one process share one order).

#include <oompi/rt/comm.hpp>

#include <oompi/detail/object_match.hpp>
#include <oompi/object_ops.hpp>

#include "detail/comm_state.hpp"
#include "detail/message_state.hpp"
#include "detail/reclaim.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace oompi::rt {

namespace {

struct posted {
  std::shared_ptr<comm::state> c;
  oompi::detail::pending_match m;
  bool proc_null = false;
};

struct registry {
  std::mutex mutex;
  std::int64_t next = 1;
  std::map<std::int64_t, std::shared_ptr<posted>> open;

  static registry& get() {
    static registry r;
    return r;
  }
  std::shared_ptr<posted> find(std::int64_t ticket, const char* what) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = open.find(ticket);
    if (it == open.end())
      throw std::invalid_argument(std::string(what) + ": no pending object receive " +
                                  std::to_string(ticket) + " (already taken or cancelled)");
    return it->second;
  }
  void erase(std::int64_t ticket) {
    std::lock_guard<std::mutex> lock(mutex);
    open.erase(ticket);
  }
};

message wrap(const std::shared_ptr<posted>& p, MPI_Message msg, const MPI_Status& st) {
  auto ms = std::make_shared<message::state>();
  ms->m = oompi::message(msg, oompi::status(st));
  ms->c = p->c;
  return message(std::move(ms));
}

}  // namespace

message comm::object_mprobe(int source, int tag) const {
  const auto& s = live("comm.object_mprobe");
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status st;
  oompi::detail::ordered_mprobe(source, tag, s.handle(), &msg, &st);
  auto ms = std::make_shared<message::state>();
  ms->m = oompi::message(msg, oompi::status(st));
  ms->c = st_;
  return message(std::move(ms));
}

std::int64_t comm::post_object_recv(int source, int tag) const {
  const auto& s = live("comm.post_object_recv");
  oompi::detail::require_running("MPI_Improbe");  // as the blocking orecv: at the call, not at its test
  auto p = std::make_shared<posted>();
  p->c = st_;
  p->m.comm = s.handle();
  p->m.source = source;
  p->m.tag = tag;
  p->proc_null = source == MPI_PROC_NULL;
  registry& r = registry::get();
  std::int64_t ticket = 0;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    ticket = r.next++;
    r.open.emplace(ticket, p);
  }
  if (!p->proc_null) oompi::detail::match_queue::instance().post(p->m);
  return ticket;
}

message* comm::test_object_recv(std::int64_t ticket) const {
  const auto& s = live("comm.test_object_recv");
  registry& r = registry::get();
  auto p = r.find(ticket, "comm.test_object_recv");
  if (p->proc_null) {
    r.erase(ticket);
    auto m = s.pt->improbe(MPI_PROC_NULL, p->m.tag);
    auto st = std::make_shared<message::state>();
    st->m = std::move(*m);
    st->c = st_;
    return new message(std::move(st));
  }
  if (!oompi::detail::match_queue::instance().progress(p->m)) return nullptr;
  r.erase(ticket);
  return new message(wrap(p, p->m.message, p->m.status));
}

message comm::wait_object_recv(std::int64_t ticket) const {
  const auto& s = live("comm.wait_object_recv");
  registry& r = registry::get();
  auto p = r.find(ticket, "comm.wait_object_recv");
  if (p->proc_null) {
    r.erase(ticket);
    auto st = std::make_shared<message::state>();
    st->m = s.pt->mprobe(MPI_PROC_NULL, p->m.tag);
    st->c = st_;
    return message(std::move(st));
  }
  oompi::detail::match_queue::instance().wait(p->m);
  r.erase(ticket);
  return wrap(p, p->m.message, p->m.status);
}

void comm::cancel_object_recv(std::int64_t ticket) const {
  registry& r = registry::get();
  std::shared_ptr<posted> p;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.open.find(ticket);
    if (it == r.open.end()) return;
    p = std::move(it->second);
    r.open.erase(it);
  }
  if (p->proc_null) return;
  if (oompi::detail::match_queue::instance().withdraw(p->m) &&
      p->m.message != MPI_MESSAGE_NULL && oompi::detail::mpi_usable()) {
    oompi::byte_buffer drop;
    oompi::detail::mrecv_bytes(drop, p->m.message, p->m.status);
  }
}

}  // namespace oompi::rt
