// Communicators: world/self, dup/idup, split, split_type, create, create_group, compare, free,
// names, attributes (keyvals) and info objects.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using Catch::Matchers::Contains;

namespace {

// Exchanges ranks around a ring on `c` and returns what came from the left.
int ring_from_left(const oompi::communicator& c) {
  const int r = c.rank(), n = c.size();
  int got = -1;
  c.sendrecv(r, (r + 1) % n, 7, got, (r + n - 1) % n, 7);
  return got;
}

// Sum over world with the C API (the collectives are tested elsewhere).
int world_sum(int x) {
  int s = 0;
  MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

}  // namespace

TEST_CASE("world and self are borrowed and usable") {
  auto world = oompi::communicator::world();
  auto self = oompi::communicator::self();
  int n = 0, r = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  CHECK_FALSE(world.owned());
  CHECK_FALSE(self.owned());
  CHECK(world.size() == n);
  CHECK(world.rank() == r);
  CHECK(self.size() == 1);
  CHECK(oompi::intracommunicator::self().size() == 1);  // not ambiguous with mixin helpers
  CHECK(self.rank() == 0);
  CHECK(world.native() == MPI_COMM_WORLD);
  CHECK_FALSE(world.is_inter());
  CHECK(world.compare(world) == oompi::comparison::ident);
  CHECK(world.compare(oompi::communicator::world()) == oompi::comparison::ident);
  CHECK(self.compare(world) ==
        (n == 1 ? oompi::comparison::congruent : oompi::comparison::unequal));
  CHECK(world.name() == "MPI_COMM_WORLD");
  CHECK(ring_from_left(world) == (r + n - 1) % n);
  CHECK(ring_from_left(self) == 0);
  CHECK(std::string(oompi::to_string(oompi::comparison::similar)) == "similar");
}

TEST_CASE("dup makes an owned congruent communicator with its own context") {
  auto world = oompi::communicator::world();
  auto d = world.dup();
  CHECK(d.owned());
  CHECK(d.size() == world.size());
  CHECK(d.rank() == world.rank());
  CHECK(d.compare(world) == oompi::comparison::congruent);
  CHECK(world.compare(d) == oompi::comparison::congruent);
  CHECK(ring_from_left(d) == (world.rank() + world.size() - 1) % world.size());

  // Messages on the duplicate do not match receives on the original. Nonblocking: a blocking
  // send to oneself may wait for its receive (it does with MPICH's UCX device).
  const int out = 42;
  auto sent = d.isend(out, world.rank(), 3);
  CHECK_FALSE(world.iprobe(world.rank(), 3).has_value());
  int got = 0;
  d.recv(got, world.rank(), 3);
  sent.wait();
  CHECK(got == 42);

  d.set_name("dup of world");
  CHECK(d.name() == "dup of world");
  CHECK(world.name() == "MPI_COMM_WORLD");

  auto dd = d.dup();  // dup of a dup
  CHECK(dd.compare(d) == oompi::comparison::congruent);

  oompi::info hints{{"mpi_assert_no_any_tag", "false"}};
  auto di = world.dup(hints);
  CHECK(di.compare(world) == oompi::comparison::congruent);
  CHECK(ring_from_left(di) == (world.rank() + world.size() - 1) % world.size());
}

TEST_CASE("idup yields the communicator when complete") {
  auto world = oompi::communicator::world();
  auto f = world.idup();
  CHECK(f.valid());
  while (!f.test()) {
  }
  auto c = f.get();
  CHECK_FALSE(f.valid());
  CHECK(c.owned());
  CHECK(c.compare(world) == oompi::comparison::congruent);
  CHECK(ring_from_left(c) == (world.rank() + world.size() - 1) % world.size());
  CHECK_THROWS_AS(f.get(), std::logic_error);

  // get() without test(); then a future dropped without get() (its destructor completes and
  // frees, on every rank in the same order).
  auto c2 = world.idup().get();
  CHECK(c2.compare(c) == oompi::comparison::congruent);
  { auto dropped = c2.idup(); }
  auto moved = c.idup();
  auto target = std::move(moved);
  CHECK(target.get().size() == world.size());
}

TEST_CASE("split groups by colour and orders by key") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  auto half = world.split(r % 2, -r);  // reverse order inside each half
  const int members = (n - r % 2 + 1) / 2;  // ranks with my parity
  CHECK_FALSE(half.is_null());
  CHECK(half.owned());
  CHECK(half.size() == members);
  // The highest world rank of my parity is rank 0 in the half.
  int highest = r;
  while (highest + 2 < n) highest += 2;
  CHECK(half.rank() == (highest - r) / 2);
  const auto in_world = half.group().translate_ranks({0}, world.group());
  CHECK(in_world == std::vector<int>{highest});

  // Key 0 for all keeps the old order.
  auto same = world.split(0);
  CHECK(same.compare(world) == oompi::comparison::congruent);
  auto reversed = world.split(0, -r);
  CHECK(reversed.compare(world) ==
        (n == 1 ? oompi::comparison::congruent : oompi::comparison::similar));
  if (n > 1) CHECK(half.compare(world) == oompi::comparison::unequal);
}

TEST_CASE("split with undefined colour gives a null communicator whose calls throw") {
  auto world = oompi::communicator::world();
  const int r = world.rank();
  auto c = world.split(r == 0 ? 0 : oompi::undefined);
  if (r == 0) {
    CHECK_FALSE(c.is_null());
    CHECK(c.size() == 1);
  } else {
    CHECK(c.is_null());
    CHECK(c.native() == MPI_COMM_NULL);
    CHECK_THROWS_AS(c.send(1, 0), std::logic_error);
    CHECK_THROWS_WITH(c.barrier(), Contains("null communicator"));
    CHECK_THROWS_AS(c.group(), std::logic_error);
    CHECK_THROWS_AS(c.dup(), std::logic_error);
    CHECK_THROWS_AS(c.idup(), std::logic_error);
    CHECK_THROWS_AS(c.split(0), std::logic_error);
    CHECK_THROWS_AS(c.name(), std::logic_error);
    CHECK_THROWS_AS(c.compare(world), std::logic_error);
    CHECK_THROWS_AS(world.compare(c), std::logic_error);
    CHECK_THROWS_AS(c.is_inter(), std::logic_error);
    CHECK_THROWS_AS(c.create_intercomm(0, world, 0, 0), std::logic_error);
  }
  oompi::intracommunicator null_comm;
  CHECK(null_comm.is_null());
  CHECK_THROWS_AS(null_comm.split_type(oompi::comm_type::shared), std::logic_error);
}

TEST_CASE("split rejects a negative colour on every rank") {
  auto world = oompi::communicator::world();
  CHECK_THROWS_AS(world.split(-5), std::invalid_argument);
  CHECK_THROWS_WITH(world.split(-1, 3), Contains("negative"));
  // The communicator is still fine afterwards.
  CHECK(world.split(1).size() == world.size());
}

TEST_CASE("split_type shared groups the processes of a node") {
  auto world = oompi::communicator::world();
  auto node = world.split_type(oompi::comm_type::shared, world.rank());
  CHECK_FALSE(node.is_null());
  CHECK(node.size() >= 1);
  CHECK(node.size() <= world.size());
  // Everyone on one node: then it is the whole world, in world order.
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  const unsigned h = static_cast<unsigned>(std::hash<std::string>()(std::string(name, len)) & 0xffff);
  unsigned lo = 0, hi = 0;
  MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED, MPI_MAX, MPI_COMM_WORLD);
  if (lo == hi) CHECK(node.compare(world) == oompi::comparison::congruent);

  auto none = world.split_type(oompi::comm_type::undefined);
  CHECK(none.is_null());
  oompi::info hints;
  auto with_info = world.split_type(oompi::comm_type::shared, 0, hints);
  CHECK(with_info.size() == node.size());
}

TEST_CASE("create and create_group build a communicator of a subgroup") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  std::vector<int> evens;
  for (int i = 0; i < n; i += 2) evens.push_back(i);
  auto g = world.group().incl(evens);

  auto c = world.create(g);  // collective over world
  if (r % 2 == 0) {
    REQUIRE_FALSE(c.is_null());
    CHECK(c.size() == static_cast<int>(evens.size()));
    CHECK(c.rank() == r / 2);
    CHECK(c.group().compare(g) == oompi::comparison::ident);
  } else {
    CHECK(c.is_null());
  }

  // Only the members take part; the others get a null communicator without calling MPI.
  auto cg = world.create_group(g, 5);
  if (r % 2 == 0) {
    REQUIRE_FALSE(cg.is_null());
    CHECK(cg.size() == static_cast<int>(evens.size()));
    CHECK(cg.rank() == r / 2);
    CHECK(ring_from_left(cg) == (cg.rank() + cg.size() - 1) % cg.size());
  } else {
    CHECK(cg.is_null());
  }

  // A subgroup taken in reverse order gives reversed ranks.
  std::vector<int> rev(evens.rbegin(), evens.rend());
  auto cr = world.create_group(world.group().incl(rev));
  if (r % 2 == 0) CHECK(cr.rank() == static_cast<int>(evens.size()) - 1 - r / 2);

  // Bad input, the same on every rank.
  CHECK_THROWS_AS(world.create(oompi::group()), std::logic_error);
  CHECK_THROWS_AS(world.create_group(oompi::group()), std::logic_error);
  CHECK_THROWS_AS(world.create_group(g, -1), std::invalid_argument);
  // An empty group: everyone gets null.
  CHECK(world.create(oompi::group::empty()).is_null());
}

TEST_CASE("free releases an owned communicator now; a borrowed one is only forgotten") {
  auto world = oompi::communicator::world();
  auto d = world.dup();
  d.free();
  CHECK(d.is_null());
  CHECK_THROWS_AS(d.send(1, 0), std::logic_error);
  d.free();  // twice is harmless
  CHECK(d.is_null());

  auto w = oompi::communicator::world();
  w.free();
  CHECK(w.is_null());
  CHECK(oompi::communicator::world().size() == world.size());  // MPI_COMM_WORLD untouched
  world.barrier();
}

TEST_CASE("communicators are moved, not copied, and freed by their destructor") {
  auto world = oompi::communicator::world();
  int deleted = 0;
  oompi::keyval<int> kv(oompi::attribute_copy::none, [&](int&) { ++deleted; });
  {
    auto d = world.dup();
    kv.set(d, 5);
    auto moved = std::move(d);
    CHECK(d.is_null());
    CHECK(*kv.get(moved) == 5);
    CHECK(deleted == 0);
  }  // moved is freed here: MPI runs the attribute's delete callback
  CHECK(deleted == 1);
  static_assert(!std::is_copy_constructible_v<oompi::intracommunicator>,
                "communicators are move-only");
}

TEST_CASE("keyvals attach typed values that dup copies as the keyval says") {
  auto world = oompi::communicator::world();
  auto d = world.dup();
  oompi::keyval<std::string> copied;  // attribute_copy::copy by default
  oompi::keyval<std::vector<int>> not_copied(oompi::attribute_copy::none);
  oompi::keyval<int> incremented([](const int& v) { return v + 1; });
  oompi::keyval<int> only_even([](const int& v) -> std::optional<int> {
    if (v % 2) return std::nullopt;
    return v;
  });

  CHECK(copied.get(d) == nullptr);
  CHECK_FALSE(copied.has(d));
  copied.set(d, "solver");
  not_copied.set(d, std::vector<int>{1, 2, 3});
  d.set_attr(incremented, 10);
  only_even.set(d, 3);

  auto d2 = d.dup();
  REQUIRE(copied.get(d2) != nullptr);
  CHECK(*copied.get(d2) == "solver");
  *copied.get(d2) += "!";  // a separate copy
  CHECK(*copied.get(d) == "solver");
  CHECK(*copied.get(d2) == "solver!");
  CHECK(not_copied.get(d2) == nullptr);
  REQUIRE(not_copied.get(d) != nullptr);
  CHECK(*not_copied.get(d) == std::vector<int>{1, 2, 3});
  REQUIRE(d2.get_attr(incremented) != nullptr);
  CHECK(*d2.get_attr(incremented) == 11);
  CHECK(only_even.get(d2) == nullptr);

  // idup copies attributes too.
  auto d3 = d2.idup().get();
  CHECK(*incremented.get(d3) == 12);

  // Replace and erase.
  copied.set(d, std::string("other"));
  CHECK(*copied.get(d) == "other");
  CHECK(copied.erase(d));
  CHECK_FALSE(copied.erase(d));
  CHECK(d.get_attr(copied) == nullptr);
  CHECK(d2.delete_attr(copied));

  // Attributes on world (borrowed) work too.
  oompi::keyval<double> on_world;
  world.set_attr(on_world, 2.5);
  CHECK(*world.get_attr(on_world) == 2.5);
  CHECK(world.delete_attr(on_world));
}

TEST_CASE("attribute delete callbacks run on replace, erase and free") {
  auto world = oompi::communicator::world();
  std::vector<int> deleted;
  oompi::keyval<int> kv(oompi::attribute_copy::copy, [&](int& v) { deleted.push_back(v); });
  {
    auto d = world.dup();
    kv.set(d, 1);
    kv.set(d, 2);  // deletes 1
    CHECK(deleted == std::vector<int>{1});
    {
      auto d2 = d.dup();  // copies 2
      kv.set(d2, 3);      // deletes d2's copy of 2
      CHECK(deleted == std::vector<int>{1, 2});
    }  // d2 freed: deletes 3
    CHECK(deleted == std::vector<int>{1, 2, 3});
    CHECK(kv.erase(d));  // deletes 2
    CHECK(deleted == std::vector<int>{1, 2, 3, 2});
  }
  CHECK(deleted.size() == 4);

  // A keyval destroyed while its values are attached: they stay valid and are deleted with
  // their communicator.
  int late = 0;
  auto d = world.dup();
  {
    oompi::keyval<std::string> k(oompi::attribute_copy::none, [&](std::string&) { ++late; });
    k.set(d, "kept");
  }
  CHECK(late == 0);
  d.free();
  CHECK(late == 1);
}

TEST_CASE("keyval misuse and throwing callbacks give clear exceptions") {
  auto world = oompi::communicator::world();
  // A move-only type cannot be copied on dup.
  CHECK_THROWS_AS(oompi::keyval<std::unique_ptr<int>>(oompi::attribute_copy::copy),
                  std::invalid_argument);
  oompi::keyval<std::unique_ptr<int>> ptrs(oompi::attribute_copy::none);
  auto d = world.dup();
  ptrs.set(d, std::make_unique<int>(7));
  CHECK(**ptrs.get(d) == 7);
  CHECK(ptrs.get(d.dup()) == nullptr);

  // A copy function that throws: dup fails on every rank with that exception, the original
  // communicator is intact.
  oompi::keyval<int> bad_copy([](const int& v) -> int {
    if (v == 13) throw std::runtime_error("unlucky attribute");
    return v;
  });
  bad_copy.set(d, 13);
  CHECK_THROWS_WITH(d.dup(), Contains("unlucky attribute"));
  CHECK(ring_from_left(d) == (d.rank() + d.size() - 1) % d.size());
  bad_copy.set(d, 14);
  CHECK(*bad_copy.get(d.dup()) == 14);

  // A delete callback that throws: the value is still deleted, the exception surfaces.
  oompi::keyval<int> bad_delete(oompi::attribute_copy::none,
                                [](int& v) {
                                  if (v < 0) throw std::runtime_error("negative deleted");
                                });
  bad_delete.set(d, -1);
  CHECK_THROWS_WITH(bad_delete.erase(d), Contains("negative deleted"));
  CHECK_FALSE(bad_delete.has(d));
  bad_delete.set(d, -2);
  CHECK_THROWS_WITH(bad_delete.set(d, 5), Contains("negative deleted"));  // replacing deletes
  CHECK(*bad_delete.get(d) == 5);

  // Null communicator, moved-from keyval.
  oompi::intracommunicator null_comm;
  CHECK_THROWS_AS(bad_delete.set(null_comm, 1), std::logic_error);
  CHECK_THROWS_AS(bad_delete.get(null_comm), std::logic_error);
  oompi::keyval<int> moved_to(std::move(bad_delete));
  CHECK_THROWS_WITH(bad_delete.get(d), Contains("moved from"));
  CHECK(*moved_to.get(d) == 5);
}

TEST_CASE("predefined attributes") {
  CHECK(oompi::tag_ub() >= 32767);
  (void)oompi::wtime_is_global();
  if (auto u = oompi::universe_size()) CHECK(*u >= 1);
  (void)oompi::appnum();
}

TEST_CASE("info objects: set, get, erase, keys, dup") {
  oompi::info i;
  CHECK_FALSE(i.is_null());
  CHECK(i.size() == 0);
  CHECK_FALSE(i.get("absent").has_value());
  i.set("alpha", "1");
  i.set("beta", "two words");
  i.set("alpha", "one");  // replace
  CHECK(i.size() == 2);
  CHECK(i.get("alpha") == std::optional<std::string>("one"));
  CHECK(i.get("beta").value() == "two words");
  CHECK(i.keys() == std::vector<std::string>{"alpha", "beta"});
  CHECK(i.items().size() == 2);
  CHECK(i.contains("beta"));

  auto copy = i.dup();
  CHECK(copy.erase("alpha"));
  CHECK_FALSE(copy.erase("alpha"));
  CHECK(copy.size() == 1);
  CHECK(i.size() == 2);  // the original is separate
  CHECK(i.get("alpha").value() == "one");

  oompi::info list{{"a", "x"}, {"b", "y"}};
  CHECK(list.size() == 2);
  CHECK(list.get("b").value() == "y");

  oompi::info moved = std::move(list);
  CHECK(list.is_null());
  CHECK(moved.size() == 2);

  // Bad input.
  CHECK_THROWS_AS(i.set("", "v"), std::invalid_argument);
  CHECK_THROWS_WITH(i.set("k", ""), Contains("empty value"));
  CHECK_THROWS_WITH(i.set(std::string(MPI_MAX_INFO_KEY + 1, 'k'), "v"),
                    Contains("MPI_MAX_INFO_KEY"));
  CHECK_THROWS_AS(i.get(std::string(MPI_MAX_INFO_KEY + 5, 'k')), std::invalid_argument);
  CHECK_THROWS_AS(i.set("k", std::string(MPI_MAX_INFO_VAL + 1, 'v')), std::invalid_argument);
  auto null_info = oompi::info::null();
  CHECK(null_info.is_null());
  CHECK_THROWS_AS(null_info.set("k", "v"), std::logic_error);
  CHECK_THROWS_WITH(null_info.keys(), Contains("null info"));
  CHECK_THROWS_AS(list.get("a"), std::logic_error);  // moved from

  auto env = oompi::info::env();
  CHECK_FALSE(env.owned());
  CHECK(env.size() >= 0);
}

TEST_CASE("communicator hints through info") {
  auto world = oompi::communicator::world();
  auto d = world.dup();
  oompi::info hints{{"mpi_assert_no_any_source", "false"}};
  d.set_info(hints);
  auto got = d.get_info();  // what MPI reports using; content is implementation-defined
  CHECK_FALSE(got.is_null());
  CHECK(got.owned());
  CHECK(got.size() >= 0);
  CHECK_THROWS_AS(d.set_info(oompi::info::null()), std::invalid_argument);
  CHECK(world_sum(1) == world.size());
}

TEST_CASE("handles that outlive MPI are not freed after MPI_Finalize") {
  // Destroyed at program exit, after the test main's environment has finalised MPI: freeing
  // them then would abort the job (and fail this test).
  auto world = oompi::communicator::world();
  static oompi::intracommunicator late_comm = world.dup();
  static oompi::group late_group = world.group();
  static oompi::info late_info{{"k", "v"}};
  static oompi::keyval<int> late_key;
  late_key.set(late_comm, 1);
  CHECK(late_comm.size() == world.size());
  CHECK(late_group.size() == world.size());
  CHECK(late_info.size() == 1);
}
