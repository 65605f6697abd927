#include <oompi/rt/buffer.hpp>
#include <oompi/rt/common.hpp>

#include <string>
#include <string_view>

namespace oompi::rt {
namespace detail {

void throw_bad_kind(type_kind k) {
  throw std::invalid_argument("oompi: unknown type kind " + std::to_string(static_cast<int>(k)));
}

bool valid_kind(int k) noexcept { return k >= 0 && k < type_kind_count; }

MPI_Op builtin_op(op_kind k) {
  switch (k) {
    case op_kind::sum: return MPI_SUM;
    case op_kind::prod: return MPI_PROD;
    case op_kind::max: return MPI_MAX;
    case op_kind::min: return MPI_MIN;
    case op_kind::land: return MPI_LAND;
    case op_kind::lor: return MPI_LOR;
    case op_kind::lxor: return MPI_LXOR;
    case op_kind::band: return MPI_BAND;
    case op_kind::bor: return MPI_BOR;
    case op_kind::bxor: return MPI_BXOR;
    case op_kind::maxloc: return MPI_MAXLOC;
    case op_kind::minloc: return MPI_MINLOC;
    case op_kind::replace: return MPI_REPLACE;
    case op_kind::no_op: return MPI_NO_OP;
  }
  throw std::invalid_argument("oompi: unknown op kind " + std::to_string(static_cast<int>(k)));
}

comparison to_comparison(int r) {
  if (r == MPI_IDENT) return comparison::ident;
  if (r == MPI_CONGRUENT) return comparison::congruent;
  if (r == MPI_SIMILAR) return comparison::similar;
  return comparison::unequal;
}

void throw_closed(const char* what, const char* object) { throw closed_error(what, object); }
void throw_null(const char* what, const char* object, const char* maker) {
  throw null_handle_error(what, object, maker);
}

}  // namespace detail

const char* facade_noun(const char* object) noexcept {
  const std::string_view o(object);
  if (o == "comm") return "communicator";
  if (o == "comm_future") return "communicator future";
  return object;
}

closed_error::closed_error(const char* where, const char* object)
    : std::logic_error(std::string(where) + ": this " + facade_noun(object) + " has been closed"),
      where_(where), object_(object) {}

null_handle_error::null_handle_error(const char* where, const char* object, const char* maker)
    : std::logic_error(std::string(where) + ": null " + facade_noun(object) +
                       (maker ? std::string(" (") + maker + "() makes one)" : std::string())),
      where_(where), object_(object), maker_(maker ? maker : "") {}

buffer buffer::slice(std::int64_t offset, std::int64_t n, const char* what) const {
  if (offset < 0 || n < 0 || offset > count || n > count - offset)
    throw std::out_of_range(std::string(what) + ": offset " + std::to_string(offset) +
                            " and count " + std::to_string(n) + " do not fit in a buffer of " +
                            std::to_string(count) + " elements");
  return buffer(static_cast<char*>(data) + offset * extent, n, type, extent);
}

}  // namespace oompi::rt
