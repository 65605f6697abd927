#include <oompi/rt/datatype.hpp>

#include <oompi/rt/buffer.hpp>

#include <oompi/datatype.hpp>

#include "detail/reclaim.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

namespace oompi::rt {

struct datatype::state {
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  bool owned = false;
  bool closed = false;
  state() = default;
  state(const state&) = delete;  // one state per handle: its destructor may free the handle
  state& operator=(const state&) = delete;
  ~state() {
    // Possibly a finalizer thread: no MPI call here, free it on the MPI thread later.
    if (owned && !closed) detail::defer_type_free(handle);
  }
};

namespace {
datatype::state* checked(const std::shared_ptr<datatype::state>& st, const char* what) {
  return detail::live_state(st, what, "datatype");
}
}  // namespace

datatype datatype::of(type_kind kind) {
  auto s = std::make_shared<state>();
  s->handle = detail::builtin_type(kind);
  return datatype(std::move(s));
}

std::int64_t datatype::elements_in(std::int64_t bytes) const {
  const char* what = "datatype.elements_in";
  if (bytes < 0) throw std::invalid_argument(std::string(what) + ": negative byte count");
  MPI_Datatype t = native(what);
  // A status that received `bytes` bytes (MPI keeps the byte count in it), asked in this type.
  MPI_Status st{};
  MPI_Count n = 0;
  int rc = MPI_Status_set_elements_x(&st, MPI_BYTE, static_cast<MPI_Count>(bytes));
  if (rc == MPI_SUCCESS) rc = MPI_Get_elements_x(&st, t, &n);
  if (rc != MPI_SUCCESS) oompi::detail::throw_mpi_error("MPI_Get_elements_x", rc);
  return n == MPI_UNDEFINED ? MPI_UNDEFINED : static_cast<std::int64_t>(n);
}

datatype datatype::packed() { return borrow(MPI_PACKED); }

datatype datatype::value_index(type_kind value) {
  switch (value) {
    case type_kind::float32: return borrow(MPI_FLOAT_INT);
    case type_kind::float64: return borrow(MPI_DOUBLE_INT);
    case type_kind::int16: return borrow(MPI_SHORT_INT);
    case type_kind::int32: return borrow(MPI_2INT);
    case type_kind::int64:
      static_assert(sizeof(long) == 8, "MPI_LONG_INT stands for int64 + int on LP64 only");
      return borrow(MPI_LONG_INT);
    default:
      throw std::invalid_argument("datatype.value_index: MPI has value-index pairs for float32, "
                                  "float64, int16, int32 and int64 values only");
  }
}

void retype(buffer& b, const datatype& type, std::int64_t count, const char* what) {
  const MPI_Datatype t = type.native(what);
  if (count < 0)
    throw std::invalid_argument(std::string(what) + ": negative count " + std::to_string(count));
  const std::int64_t bytes = b.count * b.extent;
  const std::int64_t ext = type.extent();
  std::int64_t lo = 0, hi = 0;  // bytes touched, relative to b.data: [lo, hi)
  if (count > 0) {
    std::int64_t step = 0;
    if (__builtin_mul_overflow(count - 1, ext, &step))
      throw std::out_of_range(std::string(what) + ": " + std::to_string(count) +
                              " elements of this datatype overflow the address space");
    lo = type.true_lb() + std::min<std::int64_t>(0, step);
    hi = type.true_lb() + type.true_extent() + std::max<std::int64_t>(0, step);
  }
  if (lo < 0 || hi > bytes)
    throw std::out_of_range(std::string(what) + ": " + std::to_string(count) +
                            " elements of this datatype span bytes [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "), outside the buffer's " +
                            std::to_string(bytes) + " bytes");
  b.type = t;
  b.count = count;
  b.extent = ext;
}

MPI_Datatype datatype::native(const char* what) const { return checked(st_, what)->handle; }

datatype datatype::borrow(MPI_Datatype type) {
  auto s = std::make_shared<state>();
  s->handle = type;
  return datatype(std::move(s));
}

datatype datatype::adopt(MPI_Datatype type) {
  int ni = 0, na = 0, nd = 0, combiner = MPI_COMBINER_NAMED;
  OOMPI_CHECK(MPI_Type_get_envelope, (type, &ni, &na, &nd, &combiner));
  auto s = std::make_shared<state>();
  s->handle = type;
  s->owned = combiner != MPI_COMBINER_NAMED;  // MPI gave a new derived handle: ours to free
  return datatype(std::move(s));
}

namespace {
// Builds and commits a derived type; the caller wraps the handle in a state (no temporary
// state may exist: its destructor would schedule the handle to be freed).
template <class F>
std::shared_ptr<datatype::state> make_derived(const char* routine, F&& make) {
  oompi::detail::require_running(routine);
  detail::drain();
  MPI_Datatype t = MPI_DATATYPE_NULL;
  if (const int rc = make(&t); rc != MPI_SUCCESS) oompi::detail::throw_mpi_error(routine, rc);
  if (const int rc = MPI_Type_commit(&t); rc != MPI_SUCCESS) {
    MPI_Type_free(&t);
    oompi::detail::throw_mpi_error("MPI_Type_commit", rc);
  }
  auto s = std::make_shared<datatype::state>();
  s->handle = t;
  s->owned = true;
  return s;
}
}  // namespace

datatype datatype::contiguous(int count, const datatype& base) {
  const MPI_Datatype b = base.native("datatype.contiguous");
  if (count < 0) throw std::invalid_argument("datatype.contiguous: negative count");
  return datatype(make_derived("MPI_Type_contiguous", [&](MPI_Datatype* t) {
    return MPI_Type_contiguous(count, b, t);
  }));
}

datatype datatype::vector(int count, int blocklength, int stride, const datatype& base) {
  const MPI_Datatype b = base.native("datatype.vector");
  if (count < 0 || blocklength < 0)
    throw std::invalid_argument("datatype.vector: negative count or block length");
  return datatype(make_derived("MPI_Type_vector", [&](MPI_Datatype* t) {
    return MPI_Type_vector(count, blocklength, stride, b, t);
  }));
}

namespace {
void check_lengths(const char* what, std::size_t a, std::size_t b) {
  if (a != b)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(a) + " block lengths but " +
                                std::to_string(b) + " displacements/types");
}
void check_nonnegative(const char* what, const std::vector<int>& v, const char* name) {
  for (int x : v)
    if (x < 0) throw std::invalid_argument(std::string(what) + ": negative " + name);
}
int int_size(const char* what, std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument(std::string(what) + ": too many blocks");
  return static_cast<int>(n);
}
std::vector<MPI_Aint> aints(const std::vector<long long>& v) {
  return std::vector<MPI_Aint>(v.begin(), v.end());
}
}  // namespace

datatype datatype::hvector(int count, int blocklength, std::int64_t stride_bytes,
                           const datatype& base) {
  const MPI_Datatype b = base.native("datatype.hvector");
  if (count < 0 || blocklength < 0)
    throw std::invalid_argument("datatype.hvector: negative count or block length");
  return datatype(make_derived("MPI_Type_create_hvector", [&](MPI_Datatype* t) {
    return MPI_Type_create_hvector(count, blocklength, static_cast<MPI_Aint>(stride_bytes), b, t);
  }));
}

datatype datatype::indexed(const std::vector<int>& blocklengths,
                           const std::vector<int>& displacements, const datatype& base) {
  const char* what = "datatype.indexed";
  const MPI_Datatype b = base.native(what);
  check_lengths(what, blocklengths.size(), displacements.size());
  check_nonnegative(what, blocklengths, "block length");
  const int n = int_size(what, blocklengths.size());
  return datatype(make_derived("MPI_Type_indexed", [&](MPI_Datatype* t) {
    return MPI_Type_indexed(n, blocklengths.data(), displacements.data(), b, t);
  }));
}

datatype datatype::hindexed(const std::vector<int>& blocklengths,
                            const std::vector<long long>& displacements_bytes,
                            const datatype& base) {
  const char* what = "datatype.hindexed";
  const MPI_Datatype b = base.native(what);
  check_lengths(what, blocklengths.size(), displacements_bytes.size());
  check_nonnegative(what, blocklengths, "block length");
  const int n = int_size(what, blocklengths.size());
  const auto d = aints(displacements_bytes);
  return datatype(make_derived("MPI_Type_create_hindexed", [&](MPI_Datatype* t) {
    return MPI_Type_create_hindexed(n, blocklengths.data(), d.data(), b, t);
  }));
}

datatype datatype::indexed_block(int blocklength, const std::vector<int>& displacements,
                                 const datatype& base) {
  const char* what = "datatype.indexed_block";
  const MPI_Datatype b = base.native(what);
  if (blocklength < 0) throw std::invalid_argument("datatype.indexed_block: negative block length");
  const int n = int_size(what, displacements.size());
  return datatype(make_derived("MPI_Type_create_indexed_block", [&](MPI_Datatype* t) {
    return MPI_Type_create_indexed_block(n, blocklength, displacements.data(), b, t);
  }));
}

datatype datatype::create_struct(const std::vector<int>& blocklengths,
                                 const std::vector<long long>& displacements_bytes,
                                 const std::vector<datatype>& types) {
  const char* what = "datatype.create_struct";
  check_lengths(what, blocklengths.size(), displacements_bytes.size());
  check_lengths(what, blocklengths.size(), types.size());
  check_nonnegative(what, blocklengths, "block length");
  const int n = int_size(what, blocklengths.size());
  std::vector<MPI_Datatype> t(types.size());
  for (std::size_t i = 0; i < types.size(); ++i) t[i] = types[i].native(what);
  const auto d = aints(displacements_bytes);
  return datatype(make_derived("MPI_Type_create_struct", [&](MPI_Datatype* out) {
    return MPI_Type_create_struct(n, blocklengths.data(), d.data(), t.data(), out);
  }));
}

datatype datatype::subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes,
                            const std::vector<int>& starts, const datatype& base) {
  const char* what = "datatype.subarray";
  const MPI_Datatype b = base.native(what);
  if (sizes.empty() || sizes.size() != subsizes.size() || sizes.size() != starts.size())
    throw std::invalid_argument("datatype.subarray: sizes, subsizes and starts must have the "
                                "same, nonzero length");
  for (std::size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] < 1 || subsizes[i] < 1 || starts[i] < 0 || subsizes[i] > sizes[i] ||
        starts[i] > sizes[i] - subsizes[i])
      throw std::invalid_argument("datatype.subarray: dimension " + std::to_string(i) +
                                  ": the sub-array (start " + std::to_string(starts[i]) +
                                  ", size " + std::to_string(subsizes[i]) +
                                  ") is not inside 0.." + std::to_string(sizes[i]));
  const int n = int_size(what, sizes.size());
  return datatype(make_derived("MPI_Type_create_subarray", [&](MPI_Datatype* t) {
    return MPI_Type_create_subarray(n, sizes.data(), subsizes.data(), starts.data(),
                                    MPI_ORDER_C, b, t);
  }));
}

datatype datatype::darray(int nprocs, int rank, const std::vector<int>& sizes,
                          const std::vector<int>& distribs, const std::vector<int>& dargs,
                          const std::vector<int>& procs, const datatype& base) {
  const MPI_Datatype b = base.native("datatype.darray");
  std::vector<oompi::distribution> d(distribs.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    d[i] = static_cast<oompi::distribution>(distribs[i]);
    if (d[i] != oompi::distribution::block && d[i] != oompi::distribution::cyclic &&
        d[i] != oompi::distribution::none)
      throw std::invalid_argument("datatype.darray: dimension " + std::to_string(i) +
                                  ": the distribution must be distribute_block, "
                                  "distribute_cyclic or distribute_none");
  }
  // The core checks the arguments and builds the type; the facade keeps a duplicate of it
  // (the core's handle is freed when `core` goes away).
  return datatype(make_derived("MPI_Type_create_darray", [&](MPI_Datatype* t) {
    const auto core = oompi::datatype::darray(nprocs, rank, sizes, d, dargs, procs,
                                              oompi::datatype(b));  // borrowed
    return MPI_Type_dup(core.native(), t);
  }));
}

datatype datatype::resized(const datatype& base, std::int64_t lb, std::int64_t extent) {
  const MPI_Datatype b = base.native("datatype.resized");
  if (extent < 0) throw std::invalid_argument("datatype.resized: negative extent");
  return datatype(make_derived("MPI_Type_create_resized", [&](MPI_Datatype* t) {
    return MPI_Type_create_resized(b, static_cast<MPI_Aint>(lb), static_cast<MPI_Aint>(extent), t);
  }));
}

datatype datatype::dup() const {
  const MPI_Datatype b = native("datatype.dup");
  return datatype(make_derived("MPI_Type_dup", [&](MPI_Datatype* t) { return MPI_Type_dup(b, t); }));
}

namespace {
// A type's lower bound and extent (MPI_Type_get_extent_x), or its true ones
// (MPI_Type_get_true_extent_x), in bytes.
struct extent_pair {
  std::int64_t lb, extent;
};
extent_pair extent_of(MPI_Datatype t) {
  MPI_Count lb = 0, ext = 0;
  OOMPI_CHECK(MPI_Type_get_extent_x, (t, &lb, &ext));
  return {static_cast<std::int64_t>(lb), static_cast<std::int64_t>(ext)};
}
extent_pair true_extent_of(MPI_Datatype t) {
  MPI_Count lb = 0, ext = 0;
  OOMPI_CHECK(MPI_Type_get_true_extent_x, (t, &lb, &ext));
  return {static_cast<std::int64_t>(lb), static_cast<std::int64_t>(ext)};
}
}  // namespace

std::int64_t datatype::lb() const { return extent_of(native("datatype.lb")).lb; }

std::int64_t datatype::true_extent() const {
  return true_extent_of(native("datatype.true_extent")).extent;
}

std::int64_t datatype::true_lb() const { return true_extent_of(native("datatype.true_lb")).lb; }

std::int64_t datatype::size() const {
  const MPI_Datatype t = native("datatype.size");
  MPI_Count n = 0;
  OOMPI_CHECK(MPI_Type_size_x, (t, &n));
  return static_cast<std::int64_t>(n);
}

std::int64_t datatype::extent() const { return extent_of(native("datatype.extent")).extent; }

std::string datatype::name() const {
  const MPI_Datatype t = native("datatype.name");
  oompi::detail::require_running("MPI_Type_get_name");
  char text[MPI_MAX_OBJECT_NAME];
  int len = 0;
  OOMPI_CHECK(MPI_Type_get_name, (t, text, &len));
  return std::string(text, static_cast<std::size_t>(len));
}

bool datatype::is_builtin() const { return !checked(st_, "datatype.is_builtin")->owned; }

int datatype::element_kind() const {
  const MPI_Datatype h = checked(st_, "datatype.element_kind")->handle;
  for (int k = 0; k < type_kind_count; ++k)
    if (detail::builtin_type(static_cast<type_kind>(k)) == h) return k;
  return -1;
}

bool datatype::is_null() const noexcept { return !st_ || st_->closed; }

void datatype::close() {
  if (!st_ || st_->closed || !st_->owned) return;  // builtins are never closed
  if (oompi::detail::mpi_usable()) MPI_Type_free(&st_->handle);
  st_->closed = true;
  st_->handle = MPI_DATATYPE_NULL;
}

// --- envelope and contents --------------------------------------------------------------------

int datatype::combiner() const {
  const MPI_Datatype t = native("datatype.combiner");
  oompi::detail::require_running("MPI_Type_get_envelope");
  int ni = 0, na = 0, nt = 0, c = MPI_COMBINER_NAMED;
  OOMPI_CHECK(MPI_Type_get_envelope, (t, &ni, &na, &nt, &c));
  return c;
}

datatype_contents datatype::contents() const {
  const MPI_Datatype t = native("datatype.contents");
  oompi::detail::require_running("MPI_Type_get_contents");
  detail::drain();
  datatype_contents out;
  int ni = 0, na = 0, nt = 0;
  OOMPI_CHECK(MPI_Type_get_envelope, (t, &ni, &na, &nt, &out.combiner_));
  if (out.combiner_ == MPI_COMBINER_NAMED) return out;  // MPI forbids asking for its contents
  std::vector<MPI_Aint> addresses(static_cast<std::size_t>(na));
  std::vector<MPI_Datatype> types(static_cast<std::size_t>(nt), MPI_DATATYPE_NULL);
  out.integers_.resize(static_cast<std::size_t>(ni));
  OOMPI_CHECK(MPI_Type_get_contents, (t, ni, na, nt, out.integers_.data(), addresses.data(),
                                      types.data()));
  out.addresses_.assign(addresses.begin(), addresses.end());
  // Every handle is wrapped before anything can throw, so each derived one is freed once.
  std::vector<std::shared_ptr<state>> states;
  for (MPI_Datatype& h : types) {
    int i = 0, a = 0, d = 0, c = MPI_COMBINER_NAMED;
    MPI_Type_get_envelope(h, &i, &a, &d, &c);
    auto s = std::make_shared<state>();
    s->handle = h;
    s->owned = c != MPI_COMBINER_NAMED;  // MPI returns new handles for derived types only
    states.push_back(std::move(s));
  }
  for (auto& s : states) {
    // Committed so that they can be used for communication as they are.
    if (s->owned) OOMPI_CHECK(MPI_Type_commit, (&s->handle));
    out.types_.push_back(datatype(s));
  }
  return out;
}

}  // namespace oompi::rt
