// Large counts: a message of more than INT_MAX elements (2^31 + 16 chars, about 2 GiB) goes
// through MPI's int counts as one element of a derived datatype, and its status reports the
// exact count. Registered at 2 ranks only; one transfer of 2 GiB takes seconds, so this is the
// only such test (it covers isend of an owned buffer, mprobe, mrecv and the status counts).
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <algorithm>
#include <climits>
#include <vector>

namespace {
// Marks around every 2^30 boundary (where oompi's large type splits the message) and at the
// ends: a misplaced, dropped or repeated chunk changes one of them.
std::vector<std::size_t> marks(std::size_t n) {
  std::vector<std::size_t> at{0, 1, n - 2, n - 1};
  for (std::size_t b = std::size_t{1} << 30; b < n; b += std::size_t{1} << 30) {
    at.push_back(b - 1);
    at.push_back(b);
    at.push_back(b + 1);
  }
  return at;
}
char mark_value(std::size_t i) { return static_cast<char>('A' + (i * 7 + (i >> 30)) % 26); }
}  // namespace

TEST_CASE("a message of more than INT_MAX chars arrives whole, with the right count") {
  auto world = oompi::communicator::world();
  if (world.size() < 2) return;
  const int r = world.rank();
  const std::size_t n = (std::size_t{1} << 31) + 16;
  REQUIRE(n > static_cast<std::size_t>(INT_MAX));

  bool content_ok = true;
  std::size_t probed = 0, received = 0, bytes = 0;
  if (r == 0) {
    std::vector<char> data(n, '.');
    for (std::size_t i : marks(n)) data[i] = mark_value(i);
    auto req = world.isend(std::move(data), 1, 7);  // the request owns the 2 GiB
    CHECK(data.empty());
    req.wait();
  } else if (r == 1) {
    oompi::message m = world.mprobe(0, 7);
    probed = m.count<char>();
    std::vector<char> in(probed);
    oompi::status s = world.mrecv(in, m);
    received = s.count<char>();
    bytes = s.bytes();
    const auto at = marks(n);
    for (std::size_t i : at) content_ok = content_ok && in[i] == mark_value(i);
    for (std::size_t i = 0; i < n && content_ok; i += 4093) {
      const bool marked = std::find(at.begin(), at.end(), i) != at.end();
      content_ok = in[i] == (marked ? mark_value(i) : '.');
    }
  }
  if (r == 1) {
    CHECK(probed == n);
    CHECK(received == n);
    CHECK(bytes == n);
    CHECK(content_ok);
  }
}
