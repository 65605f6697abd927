#ifndef OOMPI_RT_GROUP_HPP
#define OOMPI_RT_GROUP_HPP

// Process groups for the bindings (MPI_Group): the members of a communicator, set operations,
// rank translation. Groups are local objects (no communication). Copies share one handle;
// close() frees it for every copy. A group never closed is freed later on the MPI thread (never
// from a finalizer thread, never after MPI_Finalize).

#include "common.hpp"

#include <memory>
#include <vector>

namespace oompi::rt {

class group {
public:
  /// A null group.
  group() = default;
  /// The empty group (MPI_GROUP_EMPTY).
  static group empty();

  /// Number of members.
  int size() const;
  /// This process's rank in the group, or `undefined` (MPI_UNDEFINED) when it is not a member.
  int rank() const;
  /// The group of the members ranks[0], ranks[1], ... in that order (MPI_Group_incl).
  group incl(const std::vector<int>& ranks) const;
  /// The group without the members `ranks` (MPI_Group_excl).
  group excl(const std::vector<int>& ranks) const;
  /// The members named by (first, last, stride) triplets, flattened: {f0, l0, s0, f1, ...}
  /// (MPI_Group_range_incl); each names first, first + stride, ... up to and including last.
  group range_incl(const std::vector<int>& triplets) const;
  /// All members but those named by the triplets (MPI_Group_range_excl).
  group range_excl(const std::vector<int>& triplets) const;
  /// Members of this group, then those of `other` not in it (MPI_Group_union).
  group set_union(const group& other) const;
  /// Members of this group that are also in `other` (MPI_Group_intersection).
  group set_intersection(const group& other) const;
  /// Members of this group that are not in `other` (MPI_Group_difference).
  group set_difference(const group& other) const;
  /// The ranks in `other` of the members `ranks` of this group; `undefined` for those not in
  /// `other` (MPI_Group_translate_ranks).
  std::vector<int> translate_ranks(const std::vector<int>& ranks, const group& other) const;
  /// ident (same members, same order), similar (same members) or unequal.
  comparison compare(const group& other) const;
  /// Frees the group for every copy.
  void close();
  /// True when this handle is null or closed.
  bool is_null() const noexcept;

#ifndef SWIG
  struct state;
  MPI_Group native(const char* what) const;
  /// Takes ownership of a new group handle.
  static group adopt(MPI_Group g);
#endif

private:
  explicit group(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_GROUP_HPP
