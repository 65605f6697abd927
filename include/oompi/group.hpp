#ifndef OOMPI_GROUP_HPP
#define OOMPI_GROUP_HPP

// Process groups (MPI_Group) as RAII values.
//
// A group is an ordered set of processes; it is local (no communication) and is used to build
// communicators (intracommunicator::create, create_group) and to translate ranks between
// communicators. Ranks given to incl/excl/translate_ranks are checked before MPI sees them:
// a rank outside the group throws std::out_of_range, a repeated rank std::invalid_argument.

#include "error.hpp"

#include <mpi.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace oompi {

/// MPI_UNDEFINED: a split colour meaning "not in any new communicator", a rank that has no
/// counterpart in another group.
inline constexpr int undefined = MPI_UNDEFINED;

/// Result of comparing two groups or two communicators.
enum class comparison : int {
  ident = MPI_IDENT,          ///< the same object (communicators) / same members, same order
  congruent = MPI_CONGRUENT,  ///< communicators: same group, different contexts
  similar = MPI_SIMILAR,      ///< same members, different order
  unequal = MPI_UNEQUAL,      ///< different members
};

inline const char* to_string(comparison c) noexcept {
  switch (c) {
    case comparison::ident: return "ident";
    case comparison::congruent: return "congruent";
    case comparison::similar: return "similar";
    case comparison::unequal: return "unequal";
  }
  return "unknown";
}

/// A (first, last, stride) triplet of ranks for group::range_incl / range_excl.
/// The triplet names first, first + stride, ... up to and including last.
struct rank_range {
  int first;
  int last;
  int stride = 1;
};

class group {
public:
  /// The null group (MPI_GROUP_NULL).
  group() noexcept = default;
  /// Wraps a handle; with `owned` (the default) this object frees it.
  explicit group(MPI_Group g, bool owned = true) noexcept : g_(g), owned_(owned) {}
  group(group&& o) noexcept
      : g_(std::exchange(o.g_, MPI_GROUP_NULL)), owned_(std::exchange(o.owned_, false)) {}
  group& operator=(group&& o) noexcept {
    if (this != &o) {
      reset();
      g_ = std::exchange(o.g_, MPI_GROUP_NULL);
      owned_ = std::exchange(o.owned_, false);
    }
    return *this;
  }
  group(const group&) = delete;  // copy() makes a new handle
  group& operator=(const group&) = delete;
  ~group() { reset(); }

  /// The group with no members (MPI_GROUP_EMPTY).
  static group empty() noexcept { return group(MPI_GROUP_EMPTY, false); }

  MPI_Group native() const noexcept { return g_; }
  bool is_null() const noexcept { return g_ == MPI_GROUP_NULL; }
  bool owned() const noexcept { return owned_; }
  /// Gives up the handle without freeing it; the caller frees it (MPI_Group_free).
  MPI_Group release() noexcept {
    owned_ = false;
    return std::exchange(g_, MPI_GROUP_NULL);
  }

  /// Number of members.
  int size() const {
    require("MPI_Group_size");
    int n = 0;
    OOMPI_CHECK(MPI_Group_size, (g_, &n));
    return n;
  }
  /// This process's rank in the group; nothing when it is not a member.
  std::optional<int> rank() const {
    require("MPI_Group_rank");
    int r = MPI_UNDEFINED;
    OOMPI_CHECK(MPI_Group_rank, (g_, &r));
    if (r == MPI_UNDEFINED) return std::nullopt;
    return r;
  }
  /// True when the calling process is a member.
  bool contains_me() const { return rank().has_value(); }

  /// A new handle to the same group.
  group copy() const {
    require("MPI_Group_union");
    MPI_Group g = MPI_GROUP_NULL;
    OOMPI_CHECK(MPI_Group_union, (g_, MPI_GROUP_EMPTY, &g));
    return group(g);
  }

  /// The members with the given ranks, in that order.
  group incl(const std::vector<int>& ranks) const {
    require("MPI_Group_incl");
    check_ranks("MPI_Group_incl", ranks, size());
    MPI_Group g = MPI_GROUP_NULL;
    OOMPI_CHECK(MPI_Group_incl, (g_, static_cast<int>(ranks.size()), ranks.data(), &g));
    return group(g);
  }
  /// All members but the given ranks, in their group order.
  group excl(const std::vector<int>& ranks) const {
    require("MPI_Group_excl");
    check_ranks("MPI_Group_excl", ranks, size());
    MPI_Group g = MPI_GROUP_NULL;
    OOMPI_CHECK(MPI_Group_excl, (g_, static_cast<int>(ranks.size()), ranks.data(), &g));
    return group(g);
  }
  /// The members named by the rank triplets, in that order.
  group range_incl(const std::vector<rank_range>& ranges) const {
    require("MPI_Group_range_incl");
    auto tri = check_ranges("MPI_Group_range_incl", ranges, size());
    MPI_Group g = MPI_GROUP_NULL;
    OOMPI_CHECK(MPI_Group_range_incl,
                (g_, static_cast<int>(ranges.size()), to_triplets(tri), &g));
    return group(g);
  }
  /// All members but those named by the rank triplets.
  group range_excl(const std::vector<rank_range>& ranges) const {
    require("MPI_Group_range_excl");
    auto tri = check_ranges("MPI_Group_range_excl", ranges, size());
    MPI_Group g = MPI_GROUP_NULL;
    OOMPI_CHECK(MPI_Group_range_excl,
                (g_, static_cast<int>(ranges.size()), to_triplets(tri), &g));
    return group(g);
  }

  /// Members of this group, then those of `other` not in this one.
  group set_union(const group& other) const {
    return combine("MPI_Group_union", MPI_Group_union, other);
  }
  /// Members of this group that are also in `other`, in this group's order.
  group set_intersection(const group& other) const {
    return combine("MPI_Group_intersection", MPI_Group_intersection, other);
  }
  /// Members of this group that are not in `other`.
  group set_difference(const group& other) const {
    return combine("MPI_Group_difference", MPI_Group_difference, other);
  }

  /// The ranks in `other` of the processes with the given ranks here; oompi::undefined for a
  /// process that is not in `other`. oompi::proc_null maps to itself.
  std::vector<int> translate_ranks(const std::vector<int>& ranks, const group& other) const {
    require("MPI_Group_translate_ranks");
    other.require("MPI_Group_translate_ranks");
    const int n = size();
    for (int r : ranks)
      if (r != MPI_PROC_NULL && (r < 0 || r >= n))
        throw std::out_of_range("MPI_Group_translate_ranks: rank " + std::to_string(r) +
                                " is not in the group (size " + std::to_string(n) + ")");
    // proc_null is mapped here: some libraries get it wrong for an empty target group.
    std::vector<int> asked, found;
    asked.reserve(ranks.size());
    for (int r : ranks)
      if (r != MPI_PROC_NULL) asked.push_back(r);
    found.resize(asked.size(), MPI_UNDEFINED);
    if (!asked.empty())
      OOMPI_CHECK(MPI_Group_translate_ranks,
                  (g_, static_cast<int>(asked.size()), asked.data(), other.g_, found.data()));
    std::vector<int> out(ranks.size(), MPI_PROC_NULL);
    for (std::size_t i = 0, j = 0; i < ranks.size(); ++i)
      if (ranks[i] != MPI_PROC_NULL) out[i] = found[j++];
    return out;
  }
  /// One rank translated: nothing when the process is not in `other`.
  std::optional<int> translate_rank(int rank, const group& other) const {
    const int r = translate_ranks({rank}, other)[0];
    if (r == MPI_UNDEFINED) return std::nullopt;
    return r;
  }

  /// ident (same members, same order), similar (same members) or unequal.
  comparison compare(const group& other) const {
    require("MPI_Group_compare");
    other.require("MPI_Group_compare");
    int result = MPI_UNEQUAL;
    OOMPI_CHECK(MPI_Group_compare, (g_, other.g_, &result));
    return static_cast<comparison>(result);
  }

  friend group operator|(const group& a, const group& b) { return a.set_union(b); }
  friend group operator&(const group& a, const group& b) { return a.set_intersection(b); }
  friend group operator-(const group& a, const group& b) { return a.set_difference(b); }

private:
  void require(const char* routine) const {
    detail::require_running(routine);
    if (g_ == MPI_GROUP_NULL) throw std::logic_error(std::string(routine) + ": null group");
  }
  void reset() noexcept {
    if (owned_ && g_ != MPI_GROUP_NULL && g_ != MPI_GROUP_EMPTY && detail::mpi_usable())
      MPI_Group_free(&g_);
    g_ = MPI_GROUP_NULL;
    owned_ = false;
  }
  group combine(const char* routine, int (*fn)(MPI_Group, MPI_Group, MPI_Group*),
                const group& other) const {
    require(routine);
    other.require(routine);
    MPI_Group g = MPI_GROUP_NULL;
    if (const int rc = fn(g_, other.g_, &g); rc != MPI_SUCCESS)
      detail::throw_mpi_error(routine, rc);
    return group(g);
  }

  static void check_ranks(const char* routine, const std::vector<int>& ranks, int n) {
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    for (int r : ranks) {
      if (r < 0 || r >= n)
        throw std::out_of_range(std::string(routine) + ": rank " + std::to_string(r) +
                                " is not in the group (size " + std::to_string(n) + ")");
      if (seen[static_cast<std::size_t>(r)]++)
        throw std::invalid_argument(std::string(routine) + ": rank " + std::to_string(r) +
                                    " is given twice");
    }
  }
  // Validates the triplets (ranks in the group, nonzero stride pointing from first to last,
  // no rank named twice) and returns them flattened for MPI.
  static std::vector<int> check_ranges(const char* routine, const std::vector<rank_range>& ranges,
                                       int n) {
    std::vector<int> flat;
    flat.reserve(ranges.size() * 3);
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    for (const auto& r : ranges) {
      const std::string which = "(" + std::to_string(r.first) + ", " + std::to_string(r.last) +
                                ", " + std::to_string(r.stride) + ")";
      if (r.stride == 0)
        throw std::invalid_argument(std::string(routine) + ": range " + which +
                                    " has stride 0");
      if (r.first < 0 || r.first >= n || r.last < 0 || r.last >= n)
        throw std::out_of_range(std::string(routine) + ": range " + which +
                                " leaves the group (size " + std::to_string(n) + ")");
      if ((r.stride > 0 && r.first > r.last) || (r.stride < 0 && r.first < r.last))
        throw std::invalid_argument(std::string(routine) + ": range " + which +
                                    " has a stride pointing away from its last rank");
      for (long long k = r.first; r.stride > 0 ? k <= r.last : k >= r.last; k += r.stride)
        if (seen[static_cast<std::size_t>(k)]++)
          throw std::invalid_argument(std::string(routine) + ": rank " + std::to_string(k) +
                                      " is named by more than one range");
      flat.insert(flat.end(), {r.first, r.last, r.stride});
    }
    return flat;
  }
  static int (*to_triplets(std::vector<int>& flat) noexcept)[3] {
    return reinterpret_cast<int(*)[3]>(flat.data());
  }

  MPI_Group g_ = MPI_GROUP_NULL;
  bool owned_ = false;
};

}  // namespace oompi

#endif  // OOMPI_GROUP_HPP
