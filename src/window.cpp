#include <oompi/rt/window.hpp>

#include "detail/comm_state.hpp"
#include "detail/reclaim.hpp"

#include <oompi/window.hpp>

#include <cstring>
#include <map>
#include <utility>
#include <vector>

namespace oompi::rt {

using detail::check_buffer;
using detail::raw;

namespace {
constexpr int all_ranks = -1;  // a keep released by any synchronisation that completes all
}

struct window::state {
  std::unique_ptr<oompi::window> w;
  std::unique_ptr<keep_alive> memory;  // create(): what keeps the caller's buffer valid
  // create_dynamic(): what keeps each attached buffer valid, by its address.
  std::map<std::int64_t, std::unique_ptr<keep_alive>> attached;
  bool shared = false, dynamic = false;
  bool no_locks = false;  // made with the no_locks=true hint
  // The origins of operations not yet completed, with their target rank.
  std::vector<std::pair<int, std::unique_ptr<keep_alive>>> pending;
  bool closed = false;

  state(const state&) = delete;
  state& operator=(const state&) = delete;
  state() = default;
  ~state() {
    // Never closed and MPI still running: possibly a finalizer thread, and MPI_Win_free is
    // collective. Leave the window and everything it may still touch until MPI_Finalize.
    if (!closed && w && oompi::detail::mpi_usable()) {
      (void)w.release();
      (void)memory.release();
      for (auto& p : pending) (void)p.second.release();
      for (auto& a : attached) (void)a.second.release();
    }
  }
  const oompi::window& live(const char* what) const {
    if (__builtin_expect(closed, 0)) detail::throw_closed(what, "window");
    return *w;
  }
  void keep(int rank, const buffer& b) {
    if (b.keep) pending.emplace_back(rank, std::move(b.keep));
  }
  // After a synchronisation that completed the operations to `rank` (all_ranks: to every
  // rank), MPI no longer touches their buffers.
  void release(int rank) {
    if (rank == all_ranks) {
      pending.clear();
      return;
    }
    std::vector<std::pair<int, std::unique_ptr<keep_alive>>> rest;
    for (auto& p : pending)
      if (p.first != rank) rest.push_back(std::move(p));
    pending.swap(rest);  // the completed ones are released here
  }
};

struct epoch::state {
  enum kind_t { access, exposure, lock, lock_all } kind;
  std::shared_ptr<window::state> win;
  int rank = all_ranks;
  std::unique_ptr<oompi::access_epoch> a;
  std::unique_ptr<oompi::exposure_epoch> e;
  std::unique_ptr<oompi::lock_epoch> l;
  std::unique_ptr<oompi::lock_all_epoch> la;
  bool active = true;

  state(kind_t k, std::shared_ptr<window::state> w) : kind(k), win(std::move(w)) {}
  ~state() {
    // Not closed: no MPI call here (possibly a finalizer thread); the epoch stays open.
    if (active && oompi::detail::mpi_usable()) {
      (void)a.release();
      (void)e.release();
      (void)l.release();
      (void)la.release();
    }
  }
};

namespace {
const std::shared_ptr<window::state>& live_ptr(const std::shared_ptr<window::state>& st,
                                               const char* what) {
  if (__builtin_expect(!st, 0)) detail::throw_null(what, "window");
  if (__builtin_expect(st->closed, 0)) detail::throw_closed(what, "window");
  return st;
}
epoch::state& live_epoch(const std::shared_ptr<epoch::state>& st, const char* what) {
  if (!st) detail::throw_null(what, "epoch");
  if (!st->active) detail::throw_closed(what, "epoch");
  if (st->win->closed) detail::throw_closed(what, "window");
  return *st;
}
// rma_mode bits -> MPI_MODE_* bits.
int mpi_mode(int mode) {
  if (mode & ~31) throw std::invalid_argument("window: unknown assertion bits in mode " + std::to_string(mode));
  int m = 0;
  if (mode & 1) m |= MPI_MODE_NOCHECK;
  if (mode & 2) m |= MPI_MODE_NOSTORE;
  if (mode & 4) m |= MPI_MODE_NOPUT;
  if (mode & 8) m |= MPI_MODE_NOPRECEDE;
  if (mode & 16) m |= MPI_MODE_NOSUCCEED;
  return m;
}
MPI_Op rma_op(const op& o, const char* what) {
  const oompi::op& c = o.core(what);
  if (o.is_user() || !oompi::detail::is_predefined_op(c.native()))
    oompi::detail::throw_user_op(what);
  return c.native();
}
}  // namespace

// The communicator of a new window: an intracommunicator (MPI's rule).
const oompi::intracommunicator& window::comm_of(const comm& c, const char* what) {
  const auto& s = c.live(what);
  if (s.inter()) throw std::invalid_argument(std::string(what) + ": a window needs an intracommunicator");
  return s.c;
}

namespace {
// The caller's no_locks=true hint (MPI 4.0, 12.2.1): lock and lock_all are then refused.
bool no_locks_hint(const info& hints) {
  return !hints.is_null() && hints.contains("no_locks") && hints.get("no_locks") == "true";
}
}  // namespace

window window::create(const comm& c, async_buffer& memory) { return create(c, memory, info()); }
window window::create(const comm& c, async_buffer& memory, const info& hints) {
  check_buffer(memory, "window.create");
  auto s = std::make_shared<state>();
  const std::int64_t unit = memory.extent > 0 ? memory.extent : 1;
  s->w = std::make_unique<oompi::window>(oompi::window::create(
      comm_of(c, "window.create"), memory.data, static_cast<MPI_Aint>(memory.count * memory.extent),
      static_cast<int>(unit), hints.core("window.create")));
  s->memory = std::move(memory.keep);
  s->no_locks = no_locks_hint(hints);
  return window(std::move(s));
}

window window::allocate(const comm& c, std::int64_t count, type_kind kind) {
  return allocate(c, count, kind, info());
}
window window::allocate(const comm& c, std::int64_t count, type_kind kind, const info& hints) {
  if (count < 0) throw std::invalid_argument("window.allocate: negative count");
  const std::int64_t unit = detail::builtin_size(kind);
  if (unit == 0) detail::throw_bad_kind(kind);
  auto s = std::make_shared<state>();
  s->w = std::make_unique<oompi::window>(oompi::window::allocate_bytes(
      comm_of(c, "window.allocate"), static_cast<MPI_Aint>(count * unit), static_cast<int>(unit),
      hints.core("window.allocate")));
  if (count > 0) std::memset(s->w->base(), 0, static_cast<std::size_t>(count * unit));
  s->no_locks = no_locks_hint(hints);
  return window(std::move(s));
}

window window::allocate_shared(const comm& c, std::int64_t count, type_kind kind) {
  return allocate_shared(c, count, kind, info());
}
window window::allocate_shared(const comm& c, std::int64_t count, type_kind kind,
                               const info& hints) {
  if (count < 0) throw std::invalid_argument("window.allocate_shared: negative count");
  const std::int64_t unit = detail::builtin_size(kind);
  if (unit == 0) detail::throw_bad_kind(kind);
  const auto& ic = comm_of(c, "window.allocate_shared");
  auto s = std::make_shared<state>();
  s->w = std::make_unique<oompi::window>(oompi::window::allocate_shared_bytes(
      ic, static_cast<MPI_Aint>(count * unit), static_cast<int>(unit),
      hints.core("window.allocate_shared")));
  s->shared = true;
  s->no_locks = no_locks_hint(hints);
  if (count > 0) std::memset(s->w->base(), 0, static_cast<std::size_t>(count * unit));
  // Every part zero-filled before any process loads another's; a barrier, not a fence, so
  // that no epoch is opened on the caller's behalf.
  OOMPI_CHECK(MPI_Barrier, (ic.native()));
  return window(std::move(s));
}

window window::create_dynamic(const comm& c) { return create_dynamic(c, info()); }
window window::create_dynamic(const comm& c, const info& hints) {
  auto s = std::make_shared<state>();
  s->w = std::make_unique<oompi::window>(oompi::window::create_dynamic(
      comm_of(c, "window.create_dynamic"), hints.core("window.create_dynamic")));
  s->dynamic = true;
  s->no_locks = no_locks_hint(hints);
  return window(std::move(s));
}

namespace {
const oompi::shared_region shared_part(const window::state& s, int rank, const char* what) {
  if (!s.shared)
    throw std::logic_error(std::string(what) + ": not a shared-memory window (allocate_shared)");
  return s.w->shared_query(rank);  // rank checked (std::out_of_range)
}
}  // namespace

std::int64_t window::shared_address(int rank) const {
  const auto& s = *live_ptr(st_, "window.shared_address");
  return reinterpret_cast<std::intptr_t>(shared_part(s, rank, "window.shared_address").base);
}
std::int64_t window::shared_size(int rank) const {
  const auto& s = *live_ptr(st_, "window.shared_size");
  return shared_part(s, rank, "window.shared_size").size;
}

std::int64_t window::attach(async_buffer& memory) {
  auto& s = *live_ptr(st_, "window.attach");
  check_buffer(memory, "window.attach");
  if (!s.dynamic)
    throw std::logic_error("window.attach: only a dynamic window (create_dynamic) takes attached memory");
  const std::int64_t address = oompi::window::address_of(memory.data);
  if (s.attached.count(address))
    throw std::invalid_argument("window.attach: memory at this address is already attached");
  s.w->attach(memory.data, static_cast<MPI_Aint>(memory.count * memory.extent));
  s.attached[address] = std::move(memory.keep);  // held (pinned, referenced) until detach
  return address;
}

void window::detach(std::int64_t address) {
  auto& s = *live_ptr(st_, "window.detach");
  auto it = s.attached.find(address);
  if (it == s.attached.end())
    throw std::invalid_argument("window.detach: no memory is attached at address " +
                                std::to_string(address));
  s.w->detach(reinterpret_cast<const void*>(static_cast<std::intptr_t>(address)));
  s.attached.erase(it);  // MPI no longer exposes it: released
}

std::int64_t window::address() const {
  return reinterpret_cast<std::intptr_t>(live_ptr(st_, "window.address")->w->base());
}
std::int64_t window::size() const { return live_ptr(st_, "window.size")->w->size(); }
int window::disp_unit() const { return live_ptr(st_, "window.disp_unit")->w->disp_unit(); }
int window::rank() const { return live_ptr(st_, "window.rank")->w->rank(); }
int window::group_size() const { return live_ptr(st_, "window.group_size")->w->group_size(); }
std::int64_t window::size_of(int r) const { return live_ptr(st_, "window.size_of")->w->size_of(r); }
group window::get_group() const {
  return group::adopt(live_ptr(st_, "window.get_group")->w->group().release());
}
bool window::is_null() const noexcept { return !st_ || st_->closed; }

// --- operations ------------------------------------------------------------------------

void window::put(const async_buffer& origin, int rank, std::int64_t disp) {
  auto& s = *live_ptr(st_, "window.put");
  check_buffer(origin, "window.put");
  const auto b = raw(origin);
  s.w->put(b, rank, static_cast<MPI_Aint>(disp));
  s.keep(rank, origin);
}

void window::get(async_buffer& result, int rank, std::int64_t disp) {
  auto& s = *live_ptr(st_, "window.get");
  check_buffer(result, "window.get");
  auto b = raw(result);
  s.w->get(b, rank, static_cast<MPI_Aint>(disp));
  s.keep(rank, result);
}

void window::accumulate(const async_buffer& origin, int rank, std::int64_t disp,
                        const op& operation) {
  auto& s = *live_ptr(st_, "window.accumulate");
  check_buffer(origin, "window.accumulate");
  const MPI_Op o = rma_op(operation, "MPI_Accumulate");
  const auto b = raw(origin);
  s.w->accumulate(b, rank, static_cast<MPI_Aint>(disp), o);
  s.keep(rank, origin);
}

void window::get_accumulate(const async_buffer& origin, async_buffer& result, int rank,
                            std::int64_t disp, const op& operation) {
  auto& s = *live_ptr(st_, "window.get_accumulate");
  check_buffer(origin, "window.get_accumulate");
  check_buffer(result, "window.get_accumulate");
  const MPI_Op o = rma_op(operation, "MPI_Get_accumulate");
  const auto b = raw(origin);
  auto r = raw(result);
  s.w->get_accumulate(b, r, rank, static_cast<MPI_Aint>(disp), o);
  s.keep(rank, origin);
  s.keep(rank, result);
}

namespace {
void check_one(const buffer& b, const buffer& like, const char* routine, const char* what) {
  check_buffer(b, routine);
  if (b.count < 1)
    throw std::out_of_range(std::string(routine) + ": the " + what + " holds no element");
  if (b.type != like.type)
    throw std::invalid_argument(std::string(routine) + ": the " + what +
                                " has another element type than the result");
}
}  // namespace

void window::fetch_and_op(const async_buffer& value, async_buffer& result, int rank,
                          std::int64_t disp, const op& operation) {
  auto& s = *live_ptr(st_, "window.fetch_and_op");
  check_one(result, result, "MPI_Fetch_and_op", "result");
  check_one(value, result, "MPI_Fetch_and_op", "value");
  const MPI_Op o = rma_op(operation, "MPI_Fetch_and_op");
  s.w->fetch_and_op(value.data, result.data, result.type, rank, static_cast<MPI_Aint>(disp), o);
  s.keep(rank, value);
  s.keep(rank, result);
}

void window::compare_and_swap(const async_buffer& value, const async_buffer& compare,
                              async_buffer& result, int rank, std::int64_t disp) {
  auto& s = *live_ptr(st_, "window.compare_and_swap");
  check_one(result, result, "MPI_Compare_and_swap", "result");
  check_one(value, result, "MPI_Compare_and_swap", "value");
  check_one(compare, result, "MPI_Compare_and_swap", "compare");
  s.w->compare_and_swap(value.data, compare.data, result.data, result.type, rank,
                        static_cast<MPI_Aint>(disp));
  s.keep(rank, value);
  s.keep(rank, compare);
  s.keep(rank, result);
}

// Request forms: the core borrows the raw views; the request owns the buffers' keep-alives and
// drops them when the operation completes locally.
request window::rput(const async_buffer& origin, int rank, std::int64_t disp) {
  auto& s = *live_ptr(st_, "window.rput");
  check_buffer(origin, "window.rput");
  detail::drain();
  const auto b = raw(origin);
  return request(detail::owning(s.w->rput(b, rank, static_cast<MPI_Aint>(disp)), &origin));
}

request window::rget(async_buffer& result, int rank, std::int64_t disp) {
  auto& s = *live_ptr(st_, "window.rget");
  check_buffer(result, "window.rget");
  detail::drain();
  auto b = raw(result);
  return request(detail::owning(s.w->rget(b, rank, static_cast<MPI_Aint>(disp)), &result));
}

request window::raccumulate(const async_buffer& origin, int rank, std::int64_t disp,
                            const op& operation) {
  auto& s = *live_ptr(st_, "window.raccumulate");
  check_buffer(origin, "window.raccumulate");
  const MPI_Op o = rma_op(operation, "MPI_Raccumulate");
  detail::drain();
  const auto b = raw(origin);
  return request(
      detail::owning(s.w->raccumulate(b, rank, static_cast<MPI_Aint>(disp), o), &origin));
}

request window::rget_accumulate(const async_buffer& origin, async_buffer& result, int rank,
                                std::int64_t disp, const op& operation) {
  auto& s = *live_ptr(st_, "window.rget_accumulate");
  check_buffer(origin, "window.rget_accumulate");
  check_buffer(result, "window.rget_accumulate");
  const MPI_Op o = rma_op(operation, "MPI_Rget_accumulate");
  detail::drain();
  const auto b = raw(origin);
  auto r = raw(result);
  return request(detail::owning(
      s.w->rget_accumulate(b, r, rank, static_cast<MPI_Aint>(disp), o), &origin, &result));
}

namespace {
// A part of an async buffer that carries its keep-alive along.
async_buffer part(const async_buffer& b, std::int64_t offset, std::int64_t count,
                  const char* what) {
  async_buffer p;
  static_cast<buffer&>(p) = b.slice(offset, count, what);
  p.keep = std::move(b.keep);
  return p;
}
}  // namespace

void window::put_part(const async_buffer& origin, std::int64_t offset, std::int64_t count,
                      int rank, std::int64_t disp) {
  put(part(origin, offset, count, "window.put"), rank, disp);
}
void window::get_part(async_buffer& result, std::int64_t offset, std::int64_t count, int rank,
                      std::int64_t disp) {
  async_buffer p = part(result, offset, count, "window.get");
  get(p, rank, disp);
}
void window::accumulate_part(const async_buffer& origin, std::int64_t offset, std::int64_t count,
                             int rank, std::int64_t disp, const op& operation) {
  accumulate(part(origin, offset, count, "window.accumulate"), rank, disp, operation);
}

// --- synchronisation -------------------------------------------------------------------

void window::fence(int mode) {
  auto& s = *live_ptr(st_, "window.fence");
  s.w->fence(mpi_mode(mode));
  s.release(all_ranks);
}

namespace {
oompi::group view(const group& g, const char* what) { return oompi::group(g.native(what), false); }
}  // namespace

epoch window::start(const group& g, int mode) {
  const auto& s = live_ptr(st_, "window.start");
  auto e = std::make_shared<epoch::state>(epoch::state::access, s);
  e->a = std::make_unique<oompi::access_epoch>(s->w->start(view(g, "window.start"), mpi_mode(mode)));
  return epoch(std::move(e));
}
epoch window::post(const group& g, int mode) {
  const auto& s = live_ptr(st_, "window.post");
  auto e = std::make_shared<epoch::state>(epoch::state::exposure, s);
  e->e = std::make_unique<oompi::exposure_epoch>(s->w->post(view(g, "window.post"), mpi_mode(mode)));
  return epoch(std::move(e));
}
epoch window::lock(int rank, lock_type type, int mode) {
  const auto& s = live_ptr(st_, "window.lock");
  if (s->no_locks) oompi::detail::throw_mpi_error("MPI_Win_lock (window made with no_locks=true)", MPI_ERR_RMA_SYNC);
  auto e = std::make_shared<epoch::state>(epoch::state::lock, s);
  e->rank = rank;
  e->l = std::make_unique<oompi::lock_epoch>(s->w->lock(
      rank, type == lock_type::shared ? oompi::lock_type::shared : oompi::lock_type::exclusive,
      mpi_mode(mode)));
  return epoch(std::move(e));
}
epoch window::lock_all(int mode) {
  const auto& s = live_ptr(st_, "window.lock_all");
  if (s->no_locks)
    oompi::detail::throw_mpi_error("MPI_Win_lock_all (window made with no_locks=true)", MPI_ERR_RMA_SYNC);
  auto e = std::make_shared<epoch::state>(epoch::state::lock_all, s);
  e->la = std::make_unique<oompi::lock_all_epoch>(s->w->lock_all(mpi_mode(mode)));
  return epoch(std::move(e));
}
void window::flush(int rank) {
  auto& s = *live_ptr(st_, "window.flush");
  s.w->flush(rank);
  s.release(rank);
}
void window::flush_all() {
  auto& s = *live_ptr(st_, "window.flush_all");
  s.w->flush_all();
  s.release(all_ranks);
}
void window::flush_local(int rank) {
  auto& s = *live_ptr(st_, "window.flush_local");
  s.w->flush_local(rank);
  s.release(rank);  // complete at the origin: its buffers are MPI's no more
}
void window::flush_local_all() {
  auto& s = *live_ptr(st_, "window.flush_local_all");
  s.w->flush_local_all();
  s.release(all_ranks);
}
void window::sync() { live_ptr(st_, "window.sync")->w->sync(); }

void window::close() {
  if (!st_ || st_->closed) return;
  state& s = *st_;
  if (oompi::detail::mpi_usable()) {
    // Memory still attached is detached first: Open MPI 4.1's osc/ucx crashes in
    // MPI_Win_free (ucp_mem_unmap) when a dynamic window still has memory attached.
    while (!s.attached.empty()) {
      auto it = s.attached.begin();
      s.w->detach(reinterpret_cast<const void*>(static_cast<std::intptr_t>(it->first)));
      s.attached.erase(it);
    }
    s.w->free();  // throws (window still usable) if MPI refuses
  }
  s.closed = true;
  s.pending.clear();
  s.attached.clear();
  s.memory.reset();
  s.w.reset();
}

// --- epochs ------------------------------------------------------------------------------

void epoch::close() {
  if (!st_ || !st_->active) return;
  state& e = *st_;
  if (e.win->closed) detail::throw_closed("epoch.close", "window");
  switch (e.kind) {
    case state::access: e.a->complete(); break;
    case state::exposure: e.e->wait(); break;
    case state::lock: e.l->unlock(); break;
    case state::lock_all: e.la->unlock(); break;
  }
  e.active = false;
  // The origins of this epoch's operations (a lock: those to its rank) are MPI's no more.
  if (e.kind != state::exposure) e.win->release(e.kind == state::lock ? e.rank : all_ranks);
}
bool epoch::test() {
  state& e = live_epoch(st_, "epoch.test");
  if (e.kind != state::exposure)
    throw std::logic_error("epoch.test: only an exposure epoch (window.post) can be tested");
  if (!e.e->test()) return false;
  e.active = false;
  return true;
}
void epoch::flush() {
  state& e = live_epoch(st_, "epoch.flush");
  if (e.kind != state::lock) throw std::logic_error("epoch.flush: not a lock epoch");
  e.l->flush();
  e.win->release(e.rank);
}
void epoch::flush_local() {
  state& e = live_epoch(st_, "epoch.flush_local");
  if (e.kind != state::lock) throw std::logic_error("epoch.flush_local: not a lock epoch");
  e.l->flush_local();
  e.win->release(e.rank);
}
bool epoch::is_active() const noexcept { return st_ && st_->active && !st_->win->closed; }

void window::set_info(const info& hints) {
  auto& s = *live_ptr(st_, "window.set_info");
  const MPI_Info i = hints.native("window.set_info");
  if (i == MPI_INFO_NULL)
    throw std::invalid_argument("window.set_info: null info (info.create() makes one)");
  oompi::detail::require_running("MPI_Win_set_info");
  OOMPI_CHECK(MPI_Win_set_info, (s.w->native(), i));
  if (hints.contains("no_locks")) s.no_locks = no_locks_hint(hints);
}

info window::get_info() const {
  const auto& s = *live_ptr(st_, "window.get_info");
  oompi::detail::require_running("MPI_Win_get_info");
  MPI_Info i = MPI_INFO_NULL;
  OOMPI_CHECK(MPI_Win_get_info, (s.w->native(), &i));
  return info::adopt(i);
}

}  // namespace oompi::rt
