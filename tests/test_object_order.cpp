// Object receives match in posting order (issue 25): two or more iorecv for the same source and
// tag take their messages in the order they were posted, whatever order they are waited on or
// polled in, as MPI's non-overtaking rule has it for receives; wildcards, a blocking orecv
// after pending ones, a dropped earlier receive, and receives waited on from several threads.
// Every rank receives from its left neighbour and sends to its right one (itself at 1 rank).

#include <catch2/catch.hpp>

#include <oompi/serialization.hpp>

#include <string>
#include <thread>
#include <vector>

namespace {

oompi::intracommunicator world() { return oompi::communicator::world(); }

struct ring {
  oompi::intracommunicator w = world();
  int from = (w.rank() + w.size() - 1) % w.size();
  int to = (w.rank() + 1) % w.size();
  std::vector<oompi::request> sends;
  std::vector<std::string> texts;

  /// Sends "<tag>:<text>" to the right neighbour, in order.
  void send(const std::string& text, int tag) {
    texts.push_back(std::to_string(tag) + ":" + text + "@" + std::to_string(w.rank()));
    sends.push_back(w.iosend(texts.back(), to, tag));
  }
  std::string expected(const std::string& text, int tag) const {
    return std::to_string(tag) + ":" + text + "@" + std::to_string(from);
  }
  ~ring() {
    for (auto& r : sends) r.wait();
  }
};

}  // namespace

TEST_CASE("iorecv for the same source and tag: posting order, waited in reverse") {
  ring g;
  std::vector<oompi::object_future<std::string>> f;
  for (int i = 0; i < 4; ++i) f.push_back(g.w.iorecv<std::string>(g.from, 5));
  for (int i = 0; i < 4; ++i) g.send(std::to_string(i), 5);
  std::vector<std::string> got(4);
  for (int i = 3; i >= 0; --i) got[i] = f[i].get();
  for (int i = 0; i < 4; ++i) CHECK(got[i] == g.expected(std::to_string(i), 5));
  g.w.barrier();
}

TEST_CASE("iorecv posting order with test() polls of the newest first") {
  ring g;
  auto a = g.w.iorecv<std::string>(g.from, 6);
  auto b = g.w.iorecv<std::string>(g.from, 6);
  auto c = g.w.iorecv<std::string>(g.from, 6);
  g.w.barrier();
  CHECK_FALSE(c.test());  // nothing sent yet
  g.w.barrier();
  g.send("a", 6);
  g.send("b", 6);
  g.send("c", 6);
  while (!c.test()) {
  }
  CHECK(c.get() == g.expected("c", 6));
  while (!b.test()) {
  }
  CHECK(b.get() == g.expected("b", 6));
  CHECK(a.get() == g.expected("a", 6));
  g.w.barrier();
}

TEST_CASE("iorecv with any_source / any_tag: each message goes to the oldest receive it matches") {
  ring g;
  auto a = g.w.iorecv<std::string>(oompi::any_source, 7);
  auto b = g.w.iorecv<std::string>(g.from, oompi::any_tag);
  auto c = g.w.iorecv<std::string>(g.from, 7);
  auto d = g.w.iorecv<std::string>(oompi::any_source, oompi::any_tag);
  g.send("m1", 7);
  g.send("m2", 8);
  g.send("m3", 7);
  g.send("m4", 9);
  oompi::status sd = d.wait();
  const std::string gd = d.get();
  const std::string gc = c.get();
  const std::string gb = b.get();
  const std::string ga = a.get();
  CHECK(ga == g.expected("m1", 7));
  CHECK(gb == g.expected("m2", 8));
  CHECK(gc == g.expected("m3", 7));
  CHECK(gd == g.expected("m4", 9));
  CHECK(sd.tag() == 9);
  CHECK(sd.source() == g.from);
  g.w.barrier();
}

TEST_CASE("a blocking orecv comes after the pending iorecv, a dropped one lets the next take its place") {
  ring g;
  {
    auto a = g.w.iorecv<std::string>(g.from, 10);
    g.send("first", 10);
    g.send("second", 10);
    CHECK(g.w.orecv<std::string>(g.from, 10) == g.expected("second", 10));
    CHECK(a.get() == g.expected("first", 10));
  }
  {
    auto dropped = std::make_unique<oompi::object_future<std::string>>(g.w.iorecv<std::string>(g.from, 11));
    auto b = g.w.iorecv<std::string>(g.from, 11);
    dropped.reset();  // before any message came: withdrawn
    g.send("x", 11);
    g.send("y", 11);
    CHECK(b.get() == g.expected("x", 11));
    CHECK(g.w.orecv<std::string>(g.from, 11) == g.expected("y", 11));
  }
  {
    // moved futures keep their place
    auto a = g.w.iorecv<std::string>(g.from, 12);
    auto b = g.w.iorecv<std::string>(g.from, 12);
    oompi::object_future<std::string> a2 = std::move(a);
    g.send("p", 12);
    g.send("q", 12);
    CHECK(b.get() == g.expected("q", 12));
    CHECK(a2.get() == g.expected("p", 12));
  }
  {
    // a receive dropped after its message was assigned to it (by a newer one's wait) drops
    // that message, as a matched MPI receive cannot be cancelled
    auto a = std::make_unique<oompi::object_future<std::string>>(g.w.iorecv<std::string>(g.from, 13));
    auto b = g.w.iorecv<std::string>(g.from, 13);
    g.send("lost", 13);
    g.send("kept", 13);
    CHECK(b.get() == g.expected("kept", 13));
    a.reset();
  }
  g.w.barrier();
}

TEST_CASE("iorecv posted in order, waited on from two threads") {
  if (oompi::environment::query_thread() != oompi::thread_level::multiple) {
    WARN("MPI_THREAD_MULTIPLE not provided: skipped");
    return;
  }
  ring g;
  for (int round = 0; round < 20; ++round) {
    auto a = g.w.iorecv<std::string>(g.from, 14);
    auto b = g.w.iorecv<std::string>(g.from, 14);
    std::string ga, gb;
    std::thread tb([&] { gb = b.get(); });
    std::thread ta([&] { ga = a.get(); });
    g.send("a" + std::to_string(round), 14);
    g.send("b" + std::to_string(round), 14);
    ta.join();
    tb.join();
    CHECK(ga == g.expected("a" + std::to_string(round), 14));
    CHECK(gb == g.expected("b" + std::to_string(round), 14));
  }
  g.w.barrier();
}
