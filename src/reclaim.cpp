#include "detail/reclaim.hpp"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace oompi::rt::detail {

std::atomic<bool> g_reclaim_nonempty{false};

namespace {

// Handles whose free waits for a thread that may call MPI: taken out of the list under its
// lock, freed (locally, no communication) outside it.
struct handles {
  std::vector<MPI_Datatype> types;
  std::vector<MPI_Group> groups;
  std::vector<MPI_Info> infos;
  std::vector<int> keyvals;
  void swap(handles& o) noexcept {
    types.swap(o.types);
    groups.swap(o.groups);
    infos.swap(o.infos);
    keyvals.swap(o.keyvals);
  }
  void free_all() noexcept {
    for (auto& t : types) MPI_Type_free(&t);
    for (auto& g : groups) MPI_Group_free(&g);
    for (auto& i : infos) MPI_Info_free(&i);
    for (auto& k : keyvals) MPI_Comm_free_keyval(&k);
  }
};

struct reclaim_list {
  std::mutex mutex;
  handles deferred;
  std::vector<oompi::request> orphans;
  std::vector<MPI_Comm*> comms;
};

reclaim_list& list() {
  static auto* l = new reclaim_list;  // never destroyed: destructors may run at exit
  return *l;
}

template <class H>
void defer(std::vector<H> handles::*v, H h) noexcept {
  if (!oompi::detail::mpi_usable()) return;
  auto& l = list();
  try {
    std::lock_guard<std::mutex> lock(l.mutex);
    (l.deferred.*v).push_back(h);
    g_reclaim_nonempty.store(true, std::memory_order_release);
  } catch (...) {
    // Out of memory: leak the handle rather than free it on the wrong thread.
  }
}

}  // namespace

void defer_type_free(MPI_Datatype type) noexcept {
  if (type != MPI_DATATYPE_NULL) defer(&handles::types, type);
}

void defer_group_free(MPI_Group group) noexcept {
  if (group != MPI_GROUP_NULL && group != MPI_GROUP_EMPTY) defer(&handles::groups, group);
}

void defer_info_free(MPI_Info info) noexcept {
  if (info != MPI_INFO_NULL && info != MPI_INFO_ENV) defer(&handles::infos, info);
}

void defer_keyval_free(int keyval) noexcept {
  if (keyval != MPI_KEYVAL_INVALID) defer(&handles::keyvals, keyval);
}

void orphan(oompi::request&& r) noexcept {
  if (!r.pending()) return;
  auto& l = list();
  try {
    std::lock_guard<std::mutex> lock(l.mutex);
    l.orphans.push_back(std::move(r));
    g_reclaim_nonempty.store(true, std::memory_order_release);
  } catch (...) {
    // Keep the memory alive forever rather than let MPI write into freed memory.
    (void)r.release_keep().release();
    r.native_handle() = MPI_REQUEST_NULL;
  }
}

void drain_slow() noexcept {
  auto& l = list();
  if (!oompi::detail::mpi_usable()) return;
  handles deferred;
  std::vector<oompi::request> done;
  {
    std::lock_guard<std::mutex> lock(l.mutex);
    deferred.swap(l.deferred);
    for (std::size_t i = 0; i < l.orphans.size();) {
      int flag = 0;
      if (MPI_Test(&l.orphans[i].native_handle(), &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
          flag) {
        // Completed (or failed, which also completes it): release outside the lock.
        l.orphans[i].native_handle() = MPI_REQUEST_NULL;
        done.push_back(std::move(l.orphans[i]));
        l.orphans.erase(l.orphans.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
    g_reclaim_nonempty.store(!l.orphans.empty(), std::memory_order_release);
  }
  deferred.free_all();
  for (auto& r : done) r.on_complete();  // drops pins / global refs / Py_buffers
}

void drain_before_finalize() noexcept {
  auto& l = list();
  handles deferred;
  std::vector<oompi::request> orphans;
  std::vector<MPI_Comm*> comms;
  {
    std::lock_guard<std::mutex> lock(l.mutex);
    deferred.swap(l.deferred);
    orphans.swap(l.orphans);
    comms.swap(l.comms);
    g_reclaim_nonempty.store(false, std::memory_order_release);
  }
  if (!oompi::detail::mpi_usable()) return;
  // A send nobody receives cannot always be cancelled (Open MPI ignores MPI_Cancel on sends):
  // wait a bounded time, then leave it (and its memory) to MPI_Finalize rather than hang.
  const double deadline = MPI_Wtime() + 2.0;
  for (auto& r : orphans) {
    MPI_Cancel(&r.native_handle());
    int flag = 0;
    while (MPI_Test(&r.native_handle(), &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag &&
           MPI_Wtime() < deadline) {
    }
    if (flag) {
      r.native_handle() = MPI_REQUEST_NULL;
      r.on_complete();
    } else {
      (void)r.release_keep().release();  // MPI may still touch the memory: never release it
      r.native_handle() = MPI_REQUEST_NULL;
    }
  }
  deferred.free_all();
  for (MPI_Comm* c : comms)
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

void at_finalize(MPI_Comm* comm) noexcept {
  auto& l = list();
  try {
    std::lock_guard<std::mutex> lock(l.mutex);
    l.comms.push_back(comm);
  } catch (...) {
  }
}

}  // namespace oompi::rt::detail
