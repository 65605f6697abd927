// Large counts: a message of more than INT_MAX elements (2^31 + 16 chars, about 2 GiB) goes
// through MPI's int counts as one element of a derived datatype and round-trips with its
// exact count. Registered at 2 ranks only; it moves 2 GiB each way and takes seconds.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <climits>
#include <cstdint>
#include <vector>

namespace {
// A pattern that catches misplaced chunks: byte i holds a mix of i's low and high bits.
char pattern(std::size_t i, int salt) {
  return static_cast<char>((i * 31u) ^ (i >> 29) ^ static_cast<std::size_t>(salt));
}
}  // namespace

TEST_CASE("a message of more than INT_MAX chars round-trips with the right count") {
  auto world = oompi::communicator::world();
  if (world.size() < 2) return;
  const int r = world.rank();
  const std::size_t n = (std::size_t{1} << 31) + 16;
  REQUIRE(n > static_cast<std::size_t>(INT_MAX));

  bool ok = true;
  std::size_t count = 0, probed = 0;
  if (r == 0) {
    {
      std::vector<char> data(n);
      for (std::size_t i = 0; i < n; ++i) data[i] = pattern(i, 1);
      world.send(data, 1, 7);
    }  // freed before the answer arrives: at most 2 GiB per rank
    // Back again from rank 1, received into a vector sized by a matched probe.
    auto back = world.recv<std::vector<char>>(1, 8);
    count = back.size();
    for (std::size_t i = 0; i < n && ok; i += 4093) ok = back[i] == pattern(i, 2);
    ok = ok && back[n - 1] == pattern(n - 1, 2) && back[0] == pattern(0, 2);
    probed = count;
  } else if (r == 1) {
    std::vector<char> data(n);
    oompi::status s = world.recv(data, 0, 7);
    count = s.count<char>();
    probed = s.bytes();
    for (std::size_t i = 0; i < n && ok; i += 4093) ok = data[i] == pattern(i, 1);
    ok = ok && data[n - 1] == pattern(n - 1, 1) && data[n - 17] == pattern(n - 17, 1);
    for (std::size_t i = 0; i < n; ++i) data[i] = pattern(i, 2);
    world.send(data, 0, 8);
  }
  if (r < 2) {
    CHECK(ok);
    CHECK(count == n);
    CHECK(probed == n);
  }
}

TEST_CASE("a nonblocking message of more than INT_MAX elements, and sendrecv_replace") {
  auto world = oompi::communicator::world();
  if (world.size() < 2) return;
  const int r = world.rank();
  // 2^31 + 8 one-byte elements of std::byte: received with irecv, sent with isend.
  const std::size_t n = (std::size_t{1} << 31) + 8;
  bool ok = true;
  std::size_t count = 0;
  if (r == 0) {
    std::vector<std::byte> data(n, std::byte{0x5A});
    data[n - 1] = std::byte{0x11};
    auto req = world.isend(std::move(data), 1, 9);  // the request owns the 2 GiB
    req.wait();
  } else if (r == 1) {
    std::vector<std::byte> in(n);
    auto req = world.irecv(in, 0, 9);
    oompi::status s = req.wait();
    count = s.count<std::byte>();
    ok = in[0] == std::byte{0x5A} && in[n / 2] == std::byte{0x5A} && in[n - 1] == std::byte{0x11};
  }
  if (r == 1) {
    CHECK(ok);
    CHECK(count == n);
  }
}
