#ifndef OOMPI_DETAIL_TYPE_CACHE_HPP
#define OOMPI_DETAIL_TYPE_CACHE_HPP

// Datatypes built once per process (std::array<T,N>, OOMPI_STRUCT types) are kept here and
// freed when MPI_Finalize starts: MPI deletes the attributes of MPI_COMM_SELF first thing in
// MPI_Finalize, so a delete callback on a keyval there runs while freeing is still allowed,
// whoever calls MPI_Finalize (oompi::environment or the user).

#include "../error.hpp"

#include <mpi.h>

#include <mutex>
#include <vector>

namespace oompi::detail {

struct type_cache {
  std::mutex mutex;
  std::vector<MPI_Datatype> types;
  bool hooked = false;

  static type_cache& instance() {
    static type_cache cache;
    return cache;
  }

  static int free_all(MPI_Comm, int, void*, void*) {
    auto& self = instance();
    std::lock_guard<std::mutex> lock(self.mutex);
    for (auto& t : self.types) MPI_Type_free(&t);
    self.types.clear();
    self.hooked = false;
    return MPI_SUCCESS;
  }

  void add(MPI_Datatype t) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!hooked) {
      int keyval = MPI_KEYVAL_INVALID;
      OOMPI_CHECK(MPI_Comm_create_keyval, (MPI_COMM_NULL_COPY_FN, &type_cache::free_all, &keyval, nullptr));
      OOMPI_CHECK(MPI_Comm_set_attr, (MPI_COMM_SELF, keyval, nullptr));
      MPI_Comm_free_keyval(&keyval);  // the attribute keeps the keyval alive until deleted
      hooked = true;
    }
    types.push_back(t);
  }
};

/// Commits t and keeps it until MPI_Finalize.
inline MPI_Datatype cache_committed(MPI_Datatype t) {
  if (const int rc = MPI_Type_commit(&t); rc != MPI_SUCCESS) {
    MPI_Type_free(&t);
    throw_mpi_error("MPI_Type_commit", rc);
  }
  type_cache::instance().add(t);
  return t;
}

inline MPI_Datatype cache_contiguous(std::size_t n, MPI_Datatype base) {
  require_running("oompi datatype");
  MPI_Datatype t = MPI_DATATYPE_NULL;
  OOMPI_CHECK(MPI_Type_contiguous, (static_cast<int>(n), base, &t));
  return cache_committed(t);
}

}  // namespace oompi::detail

#endif  // OOMPI_DETAIL_TYPE_CACHE_HPP
