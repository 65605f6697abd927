#ifndef OOMPI_RT_OP_HPP
#define OOMPI_RT_OP_HPP

// Reduction operations. For now the predefined ones (they never enter a managed runtime);
// user functions (directors) will be added here as a second kind of op.

#include "common.hpp"

namespace oompi::rt {

class op {
public:
  op() = default;
  /// A predefined operation (MPI_SUM, MPI_MAX, ...).
  static op of(op_kind kind);
  op_kind kind() const noexcept { return kind_; }
  bool is_null() const noexcept { return !set_; }
#ifndef SWIG
  MPI_Op native(const char* what) const;
#endif

private:
  op_kind kind_ = op_kind::sum;
  bool set_ = false;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_OP_HPP
