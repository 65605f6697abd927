#include <oompi/rt/group.hpp>

#include "detail/reclaim.hpp"

#include <oompi/group.hpp>

namespace oompi::rt {

struct group::state {
  oompi::group g;  // owns its handle unless predefined
  bool closed = false;
  explicit state(oompi::group&& h) noexcept : g(std::move(h)) {}
  state(const state&) = delete;
  state& operator=(const state&) = delete;
  ~state() {
    // Possibly a finalizer thread: no MPI call here, free it on the MPI thread later.
    if (g.owned()) detail::defer_group_free(g.release());
  }
};

namespace {
const oompi::group& live(const std::shared_ptr<group::state>& st, const char* what) {
  return detail::live_state(st, what, "group")->g;
}
}  // namespace

group group::adopt(MPI_Group g) {
  return group(std::make_shared<state>(oompi::group(g, true)));
}
group group::empty() { return group(std::make_shared<state>(oompi::group::empty())); }

MPI_Group group::native(const char* what) const { return live(st_, what).native(); }
int group::size() const { return live(st_, "group.size").size(); }
int group::rank() const { return live(st_, "group.rank").rank().value_or(MPI_UNDEFINED); }
bool group::is_null() const noexcept { return !st_ || st_->closed; }

group group::incl(const std::vector<int>& ranks) const {
  auto g = live(st_, "group.incl").incl(ranks);
  return group(std::make_shared<state>(std::move(g)));
}
group group::excl(const std::vector<int>& ranks) const {
  auto g = live(st_, "group.excl").excl(ranks);
  return group(std::make_shared<state>(std::move(g)));
}
namespace {
std::vector<oompi::rank_range> triplets_of(const std::vector<int>& flat, const char* what) {
  if (flat.size() % 3 != 0)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(flat.size()) +
                                " numbers are not (first, last, stride) triplets");
  std::vector<oompi::rank_range> r;
  for (std::size_t i = 0; i < flat.size(); i += 3) r.push_back({flat[i], flat[i + 1], flat[i + 2]});
  return r;
}
}  // namespace
group group::range_incl(const std::vector<int>& triplets) const {
  auto g = live(st_, "group.range_incl").range_incl(triplets_of(triplets, "group.range_incl"));
  return group(std::make_shared<state>(std::move(g)));
}
group group::range_excl(const std::vector<int>& triplets) const {
  auto g = live(st_, "group.range_excl").range_excl(triplets_of(triplets, "group.range_excl"));
  return group(std::make_shared<state>(std::move(g)));
}
group group::set_union(const group& other) const {
  auto g = live(st_, "group.set_union").set_union(live(other.st_, "group.set_union"));
  return group(std::make_shared<state>(std::move(g)));
}
group group::set_intersection(const group& other) const {
  auto g = live(st_, "group.set_intersection")
               .set_intersection(live(other.st_, "group.set_intersection"));
  return group(std::make_shared<state>(std::move(g)));
}
group group::set_difference(const group& other) const {
  auto g =
      live(st_, "group.set_difference").set_difference(live(other.st_, "group.set_difference"));
  return group(std::make_shared<state>(std::move(g)));
}

std::vector<int> group::translate_ranks(const std::vector<int>& ranks, const group& other) const {
  return live(st_, "group.translate_ranks")
      .translate_ranks(ranks, live(other.st_, "group.translate_ranks"));
}

comparison group::compare(const group& other) const {
  const auto c = live(st_, "group.compare").compare(live(other.st_, "group.compare"));
  return detail::to_comparison(static_cast<int>(c));
}

void group::close() {
  if (!st_ || st_->closed) return;
  if (st_->g.owned() && oompi::detail::mpi_usable()) {
    MPI_Group h = st_->g.release();
    MPI_Group_free(&h);
  }
  st_->closed = true;
}

}  // namespace oompi::rt
