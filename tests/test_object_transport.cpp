// Object graphs over MPI: osend/orecv (and ports), iosend, iorecv, obcast, oscatter(v),
// ogather, oallgather, oalltoall, oreduce, oallreduce; isolation from user messages; bad input;
// a list of 10^6 nodes; an object over 2 GiB (at 2 ranks).

#include <catch2/catch.hpp>

#include <oompi/serialization.hpp>
#include <oompi/serialization/boost.hpp>

#include <boost/serialization/vector.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace app {

struct node {
  std::vector<std::int32_t> data;
  std::shared_ptr<node> next, next2;  // next2 is not transported
};
OOMPI_TRANSPORTABLE(node, data, next);

struct item {
  std::string name;
  std::int32_t value = 0;
  std::shared_ptr<std::string> group;  // shared between items
};
OOMPI_TRANSPORTABLE(item, name, value, group);

struct stats {
  std::vector<int> ranks;
  std::string text;
};
OOMPI_TRANSPORTABLE(stats, ranks, text);

struct chain {
  std::int32_t value = 0;
  std::shared_ptr<chain> next;
};
OOMPI_TRANSPORTABLE(chain, value, next);

struct head_first {  // recursion on every link: too deep for long lists
  std::shared_ptr<head_first> next;
  std::int32_t value = 0;
};
OOMPI_TRANSPORTABLE(head_first, next, value);

// A list a -> b -> c -> a with c shared by a.next2 (not transported) and a cycle.
std::shared_ptr<node> make_ring(int seed) {
  auto a = std::make_shared<node>(), b = std::make_shared<node>(), c = std::make_shared<node>();
  a->data = {seed, seed + 1};
  b->data = std::vector<std::int32_t>(1000, seed);
  c->data = {-seed};
  a->next = b;
  b->next = c;
  c->next = a;
  a->next2 = c;
  return a;
}
bool is_ring(const std::shared_ptr<node>& a, int seed) {
  return a && a->data == std::vector<std::int32_t>{seed, seed + 1} && a->next2 == nullptr &&
         a->next && a->next->data == std::vector<std::int32_t>(1000, seed) && a->next->next &&
         a->next->next->data == std::vector<std::int32_t>{-seed} && a->next->next->next == a;
}
void break_ring(const std::shared_ptr<node>& a) {
  if (a && a->next && a->next->next) a->next->next->next.reset();
  if (a) a->next2.reset();
}

template <class N>
std::shared_ptr<N> build_list(std::size_t n) {
  std::shared_ptr<N> head;
  for (std::size_t i = n; i-- > 0;) {
    auto x = std::make_shared<N>();
    x->value = static_cast<std::int32_t>(i);
    x->next = std::move(head);
    head = std::move(x);
  }
  return head;
}
template <class N>
std::size_t count_in_order(const std::shared_ptr<N>& head) {
  std::size_t n = 0;
  for (auto* p = head.get(); p; p = p->next.get())
    if (p->value != static_cast<std::int32_t>(n++)) return 0;
  return n;
}
template <class N>
void dismantle(std::shared_ptr<N>& head) {
  while (head) head = std::move(head->next);
}

// More than 2 GiB on the wire but small in memory: the payload is generated while saving and
// checked while loading, one MiB at a time.
struct big_blob {
  std::uint64_t bytes = 0;
  bool intact = false;

  static constexpr std::size_t chunk = std::size_t{1} << 20;
  static void fill(std::vector<unsigned char>& c, std::uint64_t index) {
    for (std::size_t k = 0; k < c.size(); ++k) c[k] = static_cast<unsigned char>(k * 131 + 7);
    std::memcpy(c.data(), &index, sizeof index);
  }
  template <class A>
  void save(A& ar) const {
    ar(cereal::make_size_tag(static_cast<cereal::size_type>(bytes)));
    std::vector<unsigned char> c(chunk);
    for (std::uint64_t done = 0, i = 0; done < bytes; ++i) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, bytes - done));
      fill(c, i);
      ar(cereal::binary_data(c.data(), n));
      done += n;
    }
  }
  template <class A>
  void load(A& ar) {
    cereal::size_type n = 0;
    ar(cereal::make_size_tag(n));
    bytes = n;
    intact = true;
    std::vector<unsigned char> expect(chunk), got(chunk);
    for (std::uint64_t done = 0, i = 0; done < bytes; ++i) {
      const std::size_t m = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, bytes - done));
      fill(expect, i);
      ar(cereal::binary_data(got.data(), m));
      intact = intact && std::memcmp(expect.data(), got.data(), m) == 0;
      done += m;
    }
  }
};

}  // namespace app

namespace legacy {
struct particle {  // Boost.Serialization only
  double x = 0;
  std::vector<int> history;
  template <class Archive>
  void serialize(Archive& ar, const unsigned int) {
    ar & x & history;
  }
};
}  // namespace legacy

namespace {
oompi::intracommunicator world() { return oompi::communicator::world(); }
}  // namespace

TEST_CASE("osend/orecv: a shared, cyclic graph around a ring and through ports") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  auto mine = app::make_ring(r);
  // nonblocking send so that every rank can send first
  auto req = w[(r + 1) % n].iosend(mine, 5);
  auto got = w[(r + n - 1) % n].orecv<std::shared_ptr<app::node>>(5);
  req.wait();
  CHECK(is_ring(got, (r + n - 1) % n));
  break_ring(got);

  // blocking osend between pairs; orecv into an existing object and its status
  if (n >= 2 && r < 2) {
    if (r == 0) {
      w.osend(mine, 1, 6);
      std::shared_ptr<app::node> back;
      const oompi::status s = w.orecv(back, 1, 6);
      CHECK(s.source() == 1);
      CHECK(is_ring(back, 0));
      break_ring(back);
    } else {
      auto x = w.orecv<std::shared_ptr<app::node>>(0, 6);
      CHECK(is_ring(x, 0));
      w[0].osend(x, 6);
      break_ring(x);
    }
  }
  break_ring(mine);
}

TEST_CASE("orecv sizes each message itself: any source, any size") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  if (r != 0) {
    std::vector<std::string> words(static_cast<std::size_t>(r) * 300, std::string(r, 'x'));
    w.osend(words, 0, 8);
  } else {
    int good = 0;
    for (int i = 1; i < n; ++i) {
      std::vector<std::string> words;
      const oompi::status s = w.orecv(words, oompi::any_source, 8);
      const int from = s.source();
      good += words.size() == static_cast<std::size_t>(from) * 300 &&
              words.back() == std::string(from, 'x');
    }
    CHECK(good == n - 1);
  }
}

TEST_CASE("two threads receive objects at once (matched probes)") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  const bool multiple = oompi::environment::query_thread() == oompi::thread_level::multiple;
  if (n < 2 || !multiple) return;
  constexpr int per_sender = 40;
  if (r != 0) {
    for (int k = 0; k < per_sender; ++k) {
      app::stats s;
      s.ranks = std::vector<int>(static_cast<std::size_t>(k + 1) * 50, r);
      s.text = std::to_string(r) + ":" + std::to_string(k);
      w.osend(s, 0, 9);
    }
  } else {
    const int total = (n - 1) * per_sender;
    std::vector<int> seen(static_cast<std::size_t>(total), 0);
    std::atomic<int> bad{0};
    auto receive = [&](int count) {
      for (int i = 0; i < count; ++i) {
        app::stats s = w.orecv<app::stats>(oompi::any_source, 9);
        const auto colon = s.text.find(':');
        const int from = std::stoi(s.text.substr(0, colon));
        const int k = std::stoi(s.text.substr(colon + 1));
        if (s.ranks != std::vector<int>(static_cast<std::size_t>(k + 1) * 50, from)) ++bad;
        ++seen[static_cast<std::size_t>((from - 1) * per_sender + k)];
      }
    };
    std::thread t1(receive, total / 2), t2(receive, total - total / 2);
    t1.join();
    t2.join();
    CHECK(bad == 0);
    CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  }
}

TEST_CASE("orecv and iorecv take compact chains (wire 1.1, what Java, C# and Python send)") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  const int from = (r + n - 1) % n, to = (r + 1) % n;
  auto head = app::build_list<app::chain>(5000 + static_cast<std::size_t>(r));
  oompi::byte_buffer compact;
  oompi::wire::save_compact(compact, head);
  const std::vector<unsigned char> bytes(reinterpret_cast<const unsigned char*>(compact.data()),
                                         reinterpret_cast<const unsigned char*>(compact.data()) +
                                             compact.size());
  auto fut = w.iorecv<std::shared_ptr<app::chain>>(from, 21);
  auto req = w.isend(bytes, to, 20);
  auto req2 = w.isend(bytes, to, 21);
  auto got = w.orecv<std::shared_ptr<app::chain>>(from, 20);
  auto got2 = fut.get();
  req.wait();
  req2.wait();
  CHECK(compact.size() < oompi::to_bytes(head).size());
  CHECK(app::count_in_order(got) == 5000 + static_cast<std::size_t>(from));
  CHECK(app::count_in_order(got2) == 5000 + static_cast<std::size_t>(from));
  // a receiving type that is not a chain type (app::item holds another reference) refuses it
  // clearly, and the message is consumed
  auto req3 = w.isend(bytes, to, 22);
  bool clear = false;
  try {
    (void)w.orecv<std::shared_ptr<app::item>>(from, 22);
  } catch (const oompi::serialization_error& e) {
    clear = std::string(e.what()).find("compact chain") != std::string::npos;
  }
  req3.wait();
  CHECK(clear);
  CHECK(!w.iprobe(from, 22));
  for (auto* p : {&head, &got, &got2}) app::dismantle(*p);
}

TEST_CASE("iosend: the request owns the serialized bytes") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  oompi::request req;
  {
    app::stats s;
    s.ranks = std::vector<int>(100000, r);
    s.text = "from " + std::to_string(r);
    req = w.iosend(s, (r + 1) % n, 10);
  }  // the object is gone; the bytes live in the request
  const auto got = w.orecv<app::stats>((r + n - 1) % n, 10);
  req.wait();
  CHECK(got.ranks == std::vector<int>(100000, (r + n - 1) % n));
  CHECK(got.text == "from " + std::to_string((r + n - 1) % n));
}

TEST_CASE("iorecv: a nonblocking receive of unknown size, polled") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  const int from = (r + n - 1) % n, to = (r + 1) % n;
  auto fut = w.iorecv<std::vector<std::string>>(from, 11);
  const bool early = fut.test();  // nothing was sent yet
  w.barrier();
  // 2 MB: far above any eager limit or default buffer size
  std::vector<std::string> out(2000, std::string(1000, static_cast<char>('a' + r % 26)));
  auto req = w.iosend(out, to, 11);
  int polls = 0;
  while (!fut.test()) ++polls;
  const auto got = fut.get();
  req.wait();
  CHECK(!early);
  CHECK(got.size() == 2000);
  CHECK(got[1999] == std::string(1000, static_cast<char>('a' + from % 26)));

  // wait() and get(); a future dropped while still probing receives nothing
  { auto dropped = w.iorecv<std::string>(from, 12); }
  auto req2 = w[to].iosend(std::string("hello ") + std::to_string(r), 12);
  auto fut2 = w[from].iorecv<std::string>(12);
  const oompi::status s = fut2.wait();
  CHECK(s.source() == from);
  CHECK(fut2.get() == "hello " + std::to_string(from));
  req2.wait();
}

TEST_CASE("obcast: a graph from any root") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  for (int root : {0, n - 1}) {
    std::shared_ptr<app::node> x;
    if (r == root) x = app::make_ring(100 + root);
    w.obcast(x, root);
    if (r == root) x->next2.reset();  // the root keeps its own object (next2 included)
    CHECK(is_ring(x, 100 + root));
    break_ring(x);
  }
}

TEST_CASE("oscatter / oscatterv: each rank gets its slice, an independent graph") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  const int root = n - 1;
  std::vector<app::item> all;
  if (r == root) {
    auto group = std::make_shared<std::string>("shared");
    for (int i = 0; i < 10 * n + 3; ++i) all.push_back({"item" + std::to_string(i), i, group});
  }
  const auto mine = w.oscatter(all, root);
  // blocks as even as possible, the first (10n+3) % n ranks one more
  const int total = 10 * n + 3, base = total / n, extra = total % n;
  const int count = base + (r < extra), first = r * base + std::min(r, extra);
  REQUIRE(mine.size() == static_cast<std::size_t>(count));
  bool ok = true;
  for (int i = 0; i < count; ++i) {
    ok &= mine[i].value == first + i && mine[i].name == "item" + std::to_string(first + i);
    ok &= mine[i].group && *mine[i].group == "shared" && mine[i].group == mine[0].group;
  }
  CHECK(ok);
  if (r == root) CHECK(mine[0].group != all[0].group);  // a copy, even at the root

  // explicit counts, some zero
  std::vector<std::size_t> counts;
  std::vector<std::int64_t> numbers;
  if (r == 0) {
    for (int i = 0; i < n; ++i) counts.push_back(i % 2 ? 0 : static_cast<std::size_t>(i + 1));
    numbers.resize(std::accumulate(counts.begin(), counts.end(), std::size_t{0}));
    std::iota(numbers.begin(), numbers.end(), 0);
  }
  const auto part = w.oscatterv(numbers, counts, 0);
  CHECK(part.size() == (r % 2 ? 0u : static_cast<std::size_t>(r + 1)));
}

TEST_CASE("ogather / oallgather: concatenation in rank order") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  std::vector<app::stats> mine(static_cast<std::size_t>(r + 1));
  for (auto& s : mine) {
    s.ranks = {r};
    s.text = std::string(static_cast<std::size_t>(r) * 10, 'z');
  }
  const int root = n / 2;
  const auto at_root = w.ogather(mine, root);
  const auto everywhere = w.oallgather(mine);
  auto check = [&](const std::vector<app::stats>& v) {
    if (v.size() != static_cast<std::size_t>(n * (n + 1) / 2)) return false;
    std::size_t k = 0;
    for (int q = 0; q < n; ++q)
      for (int j = 0; j <= q; ++j, ++k)
        if (v[k].ranks != std::vector<int>{q} || v[k].text.size() != static_cast<std::size_t>(q) * 10)
          return false;
    return true;
  };
  if (r == root)
    CHECK(check(at_root));
  else
    CHECK(at_root.empty());
  CHECK(check(everywhere));
}

TEST_CASE("oalltoall: one object to each rank") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  std::vector<app::stats> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    out[i].ranks = std::vector<int>(static_cast<std::size_t>(i + r + 1), r);
    out[i].text = std::to_string(r) + "->" + std::to_string(i);
  }
  const auto in = w.oalltoall(out);
  REQUIRE(in.size() == static_cast<std::size_t>(n));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok &= in[i].text == std::to_string(i) + "->" + std::to_string(r) &&
          in[i].ranks == std::vector<int>(static_cast<std::size_t>(i + r + 1), i);
  CHECK(ok);
}

TEST_CASE("split collectives take the point-to-point path above the int limit") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  oompi::detail::object_int_limit = 64;  // pretend slices are huge
  std::vector<app::stats> all;
  if (r == 0)
    for (int i = 0; i < 3 * n; ++i) all.push_back({{i}, std::string(40, 'q')});
  const auto mine = w.oscatter(all, 0);
  const auto back = w.ogather(mine, 0);
  const auto every = w.oallgather(mine);
  std::vector<std::string> out(static_cast<std::size_t>(n), std::string(50, static_cast<char>('A' + r)));
  const auto in = w.oalltoall(out);
  oompi::detail::object_int_limit = static_cast<std::size_t>(INT_MAX);
  CHECK(mine.size() == 3u);
  CHECK(mine[2].ranks == std::vector<int>{3 * r + 2});
  if (r == 0) {
    CHECK(back.size() == static_cast<std::size_t>(3 * n));
    CHECK(back.back().ranks == std::vector<int>{3 * n - 1});
  }
  CHECK(every.size() == static_cast<std::size_t>(3 * n));
  CHECK(in.back() == std::string(50, static_cast<char>('A' + n - 1)));
}

TEST_CASE("oreduce / oallreduce: any callable, in rank order") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  app::stats mine{{r}, std::to_string(r)};
  auto concat = [](const app::stats& a, const app::stats& b) {
    app::stats c = a;
    c.ranks.insert(c.ranks.end(), b.ranks.begin(), b.ranks.end());
    c.text += "," + b.text;
    return c;
  };
  std::vector<int> expect_ranks(static_cast<std::size_t>(n));
  std::iota(expect_ranks.begin(), expect_ranks.end(), 0);
  std::string expect_text = "0";
  for (int i = 1; i < n; ++i) expect_text += "," + std::to_string(i);
  for (int root : {0, n - 1}) {
    const app::stats got = w.oreduce(mine, concat, root);
    if (r == root) {
      CHECK(got.ranks == expect_ranks);
      CHECK(got.text == expect_text);
    } else {
      CHECK(got.ranks.empty());
    }
  }
  const app::stats all = w.oallreduce(mine, concat);
  CHECK(all.text == expect_text);
  // a reduction of graphs
  auto longer = [](const std::shared_ptr<app::node>& a, const std::shared_ptr<app::node>& b) {
    return a->next->data.size() >= b->next->data.size() && a->data[0] >= b->data[0] ? a : b;
  };
  auto ring = app::make_ring(r);
  auto best = w.oallreduce(ring, longer);
  CHECK(is_ring(best, n - 1));
  break_ring(best);
  break_ring(ring);
}

TEST_CASE("a throwing reduction fails on every rank of oallreduce, and nothing is left over") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  auto picky = [](const app::stats& a, const app::stats& b) -> app::stats {
    if (b.ranks.front() == 1) throw std::runtime_error("rank 1's value is unwelcome");
    app::stats c = a;
    c.ranks.insert(c.ranks.end(), b.ranks.begin(), b.ranks.end());
    return c;
  };
  bool threw = false;
  try {
    (void)w.oallreduce(app::stats{{r}, ""}, picky);
  } catch (const std::exception&) {
    threw = true;
  }
  CHECK(threw == (n >= 2));
  // the private communicator is clean: the next reduction works
  const app::stats ok = w.oallreduce(app::stats{{r}, ""}, [](const app::stats& a, const app::stats& b) {
    app::stats c = a;
    c.ranks.insert(c.ranks.end(), b.ranks.begin(), b.ranks.end());
    return c;
  });
  CHECK(ok.ranks.size() == static_cast<std::size_t>(n));
}

namespace app {
// Cannot be written once poisoned (the flag itself does not travel).
struct poisoned {
  int value = 0;
  bool poison = false;
  template <class Archive>
  void serialize(Archive& ar) {
    if (poison) throw std::runtime_error("a poisoned value cannot be written");
    ar(value);
  }
};
}  // namespace app

TEST_CASE("oreduce to a root other than 0: a result rank 0 cannot write still reaches the root") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  if (n < 2) return;  // the result is forwarded only when the root is not rank 0
  const int root = n - 1;
  auto sum = [](const app::poisoned& a, const app::poisoned& b) {
    return app::poisoned{a.value + b.value, a.poison || b.poison};
  };
  // Rank 0 only writes the final result (to forward it): poison its own value.
  const app::poisoned mine{r, r == 0};
  if (r == 0) {
    CHECK_THROWS_WITH(w.oreduce(mine, sum, root), Catch::Matchers::Contains("poisoned"));
  } else if (r == root) {
    CHECK_THROWS_AS(w.oreduce(mine, sum, root), oompi::serialization_error);
  } else {
    CHECK(w.oreduce(mine, sum, root).value == 0);
  }
  // nothing is left over on the private communicator
  const app::poisoned ok = w.oreduce(app::poisoned{r, false}, sum, root);
  if (r == root) CHECK(ok.value == n * (n - 1) / 2);
}

TEST_CASE("object collectives never match user messages") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  std::int32_t user = -1;
  auto pending = w.irecv(user, oompi::any_source, oompi::any_tag);
  std::string s = r == 0 ? "root" : "";
  w.obcast(s, 0);
  std::vector<int> all(static_cast<std::size_t>(n), 3);
  const auto mine = w.oscatter(all, 0);
  const auto gathered = w.oallgather(mine);
  const auto swapped = w.oalltoall(std::vector<int>(static_cast<std::size_t>(n), r));
  const auto sum = w.oallreduce(r, [](int a, int b) { return a + b; });
  const bool still_pending = !pending.test().has_value();
  CHECK(still_pending);
  CHECK(s == "root");
  CHECK(gathered.size() == static_cast<std::size_t>(n));
  CHECK(sum == n * (n - 1) / 2);
  w.send(std::int32_t{42}, r, 0);  // now satisfy the user's receive
  pending.wait();
  CHECK(user == 42);

  // a duplicate gets its own private communicator; freeing it frees that one too
  {
    auto d = w.dup();
    std::vector<int> v{r};
    const auto every = d.oallgather(v);
    CHECK(every.size() == static_cast<std::size_t>(n));
  }
}

TEST_CASE("bad input: corrupt bytes, another type, bad arguments, failures at the root") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  // raw bytes that are no object
  {
    const std::vector<unsigned char> junk{1, 2, 3};
    auto req = w.isend(junk, r, 13);
    CHECK_THROWS_AS(w.orecv<std::string>(r, 13), oompi::serialization_error);
    req.wait();
    CHECK(!w.iprobe(r, 13));  // the bad message was consumed
  }
  // another type, with the type check on
  {
    oompi::set_object_type_check(true);
    auto req = w.iosend(std::vector<std::int32_t>{1, 2, 3}, r, 14);
    bool clear = false;
    try {
      (void)w.orecv<std::string>(r, 14);
    } catch (const oompi::serialization_error& e) {
      clear = std::string(e.what()).find("type check failed") != std::string::npos;
    }
    req.wait();
    auto req2 = w.iosend(std::string("same type"), r, 14);
    const auto fine = w.orecv<std::string>(r, 14);
    req2.wait();
    oompi::set_object_type_check(false);
    CHECK(clear);
    CHECK(fine == "same type");
  }
  // bad counts at the root: every rank throws
  {
    std::vector<std::size_t> counts(static_cast<std::size_t>(n), 1);
    std::vector<int> values(static_cast<std::size_t>(n) + 5, 0);  // counts do not add up
    CHECK_THROWS_AS(w.oscatterv(values, counts, 0), std::invalid_argument);
  }
  // a wrong array size on one rank: every rank throws
  {
    std::vector<int> out(static_cast<std::size_t>(r == n - 1 ? n + 1 : n), 0);
    CHECK_THROWS_AS(w.oalltoall(out), std::invalid_argument);
  }
  // an object the root cannot serialize (too deep): every rank throws
  {
    std::shared_ptr<app::head_first> deep;
    if (r == 0) deep = app::build_list<app::head_first>(1000000);
    CHECK_THROWS_AS(w.obcast(deep, 0), oompi::serialization_error);
    app::dismantle(deep);
  }
}

TEST_CASE("collectives with the type check on") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  oompi::set_object_type_check(true);
  std::vector<app::stats> all;
  if (r == 0)
    for (int i = 0; i < 2 * n; ++i) all.push_back({{i}, "x"});
  const auto mine = w.oscatter(all, 0);
  const auto every = w.oallgather(mine);
  std::string s = r == 0 ? "checked" : "";
  w.obcast(s, 0);
  const auto in = w.oalltoall(std::vector<int>(static_cast<std::size_t>(n), r));
  const int sum = w.oallreduce(r, [](int a, int b) { return a + b; });
  oompi::set_object_type_check(false);
  CHECK(mine.size() == 2u);
  CHECK(every.size() == static_cast<std::size_t>(2 * n));
  CHECK(s == "checked");
  CHECK(in.back() == n - 1);
  CHECK(sum == n * (n - 1) / 2);
}

TEST_CASE("a linked list of 10^6 nodes round-trips") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  constexpr std::size_t N = 1000000;
  if (n == 1) {
    auto head = app::build_list<app::chain>(N);
    auto req = w.iosend(head, 0, 15);
    auto got = w.orecv<std::shared_ptr<app::chain>>(0, 15);
    req.wait();
    CHECK(app::count_in_order(got) == N);
    app::dismantle(head);
    app::dismantle(got);
  } else if (r == 0) {
    auto head = app::build_list<app::chain>(N);
    w.osend(head, 1, 15);
    auto back = w.orecv<std::shared_ptr<app::chain>>(1, 15);
    CHECK(app::count_in_order(back) == N);
    app::dismantle(head);
    app::dismantle(back);
  } else if (r == 1) {
    auto got = w.orecv<std::shared_ptr<app::chain>>(0, 15);
    CHECK(app::count_in_order(got) == N);
    w.osend(got, 0, 15);
    app::dismantle(got);
  }
}

TEST_CASE("an object of more than 2 GiB moves (2 ranks)") {
  auto w = world();
  if (w.size() != 2) return;  // memory: about 2.2 GB on each of the two ranks
  const std::uint64_t bytes = (std::uint64_t{1} << 31) + 12345;
  if (w.rank() == 0) {
    app::big_blob b;
    b.bytes = bytes;
    w.osend(b, 1, 16);
  } else {
    app::big_blob got;
    const oompi::status s = w.orecv(got, 0, 16);
    CHECK(s.count(MPI_BYTE) == bytes + 8);
    CHECK(got.bytes == bytes);
    CHECK(got.intact);
  }
}

TEST_CASE("object collectives need an intracommunicator") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  if (n < 2) return;
  MPI_Comm half = MPI_COMM_NULL, inter = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, r % 2 ? 0 : 1, 77, &inter);
  {
    oompi::communicator ic(inter, true);
    int x = 1;
    CHECK_THROWS_AS(ic.obcast(x, 0), std::logic_error);
  }
  MPI_Comm_free(&half);
}

TEST_CASE("Boost.Serialization types travel too") {
  auto w = world();
  const int r = w.rank(), n = w.size();
  legacy::particle p;
  p.x = r + 0.5;
  p.history = std::vector<int>(static_cast<std::size_t>(r + 1), r);
  auto req = w.iosend(p, (r + 1) % n, 17);
  const auto got = w.orecv<legacy::particle>((r + n - 1) % n, 17);
  req.wait();
  const int from = (r + n - 1) % n;
  CHECK(got.x == from + 0.5);
  CHECK(got.history == std::vector<int>(static_cast<std::size_t>(from + 1), from));
  const auto every = w.oallgather(std::vector<legacy::particle>{p});
  CHECK(every.size() == static_cast<std::size_t>(n));
  CHECK(every.back().x == n - 1 + 0.5);
}
