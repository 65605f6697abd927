// Point-to-point: ports, every send mode (blocking, nonblocking, persistent), receives with
// wildcards, send-receive, probes and matched probes, PROC_NULL, ordering and tag matching.
// Runs at 1, 2, 3 and 4 ranks: at 1 rank every message goes to self.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

namespace {
int right(const oompi::communicator& c) { return (c.rank() + 1) % c.size(); }
int left(const oompi::communicator& c) { return (c.rank() + c.size() - 1) % c.size(); }

std::vector<double> payload(int rank, int salt, std::size_t n = 16) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 1000.0 * rank + 10.0 * salt + static_cast<double>(i);
  return v;
}
}  // namespace

TEST_CASE("ports: comm[r] << x and comm[r] >> y around a ring") {
  auto world = oompi::communicator::world();
  const int r = world.rank();
  std::vector<double> out = payload(r, 0), in(out.size());
  // Post the receive first so that the ring cannot deadlock whatever the send protocol.
  auto req = world[left(world)].irecv(in, 0);
  world[right(world)] << out;
  req.wait();
  CHECK(in == payload(left(world), 0));

  // The blocking form with an even/odd order, as OOMPI programs write it.
  if (world.size() > 1) {
    int token = r, got = -1;
    if (r % 2 == 0) {
      world[right(world)] << token;
      world[left(world)] >> got;
    } else {
      world[left(world)] >> got;
      world[right(world)] << token;
    }
    // With an odd size the last even rank and rank 0 are both even: still fine, since the
    // message is small enough for every MPI to buffer it.
    CHECK(got == left(world));
  }
  oompi::port p = world[right(world)];
  CHECK(p.rank() == right(world));
  CHECK(&p.comm() == &world);
}

TEST_CASE("blocking send modes: standard, synchronous, buffered, ready") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world), to = right(world);
  oompi::attached_buffer space(4 * oompi::attached_buffer::space_for<double>(16, world));
  for (int mode = 0; mode < 4; ++mode) {
    std::vector<double> in(16, -1.0);
    // The receive is posted before anyone sends (the barrier), as a ready send requires.
    auto req = world.irecv(in, from, 20 + mode);
    world.barrier();
    const auto out = payload(r, mode);
    switch (mode) {
      case 0: world.send(out, to, 20 + mode); break;
      case 1: world.ssend(out, to, 20 + mode); break;
      case 2: world.bsend(out, to, 20 + mode); break;
      case 3: world.rsend(out, to, 20 + mode); break;
    }
    auto s = req.wait();
    CHECK(in == payload(from, mode));
    CHECK(s.source() == from);
    CHECK(s.tag() == 20 + mode);
    CHECK(s.count<double>() == 16);
  }
}

TEST_CASE("ports in every mode") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world);
  oompi::attached_buffer space(2 * oompi::attached_buffer::space_for<int>(1, world));
  int a = -1, b = -1, c = -1, d = -1;
  auto ra = world[from].irecv(a, 30);
  auto rb = world[from].irecv(b, 31);
  auto rc = world[from].irecv(c, 32);
  auto rd = world[from].irecv(d, 33);
  world.barrier();
  world[right(world)].send(r, 30);
  world[right(world)].ssend(r + 1, 31);
  world[right(world)].bsend(r + 2, 32);
  world[right(world)].rsend(r + 3, 33);
  oompi::wait_all(ra, rb, rc, rd);
  CHECK(a == from);
  CHECK(b == from + 1);
  CHECK(c == from + 2);
  CHECK(d == from + 3);
  // The value-returning receive on a port.
  auto sreq = world[right(world)].isend(std::vector<int>{r, r, r}, 34);
  auto got = world[from].recv<std::vector<int>>(34);
  sreq.wait();
  CHECK(got == std::vector<int>(3, from));
}

TEST_CASE("wildcard receives fill in the status") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  // Everyone sends its rank to rank 0 with tag 40 + rank.
  auto req = world.isend(std::vector<int>(static_cast<std::size_t>(r + 1), r), 0, 40 + r);
  if (r == 0) {
    std::set<int> sources;
    for (int i = 0; i < n; ++i) {
      std::vector<int> in(static_cast<std::size_t>(n), -1);
      auto s = world.recv(in, oompi::any_source, oompi::any_tag);
      sources.insert(s.source());
      CHECK(s.tag() == 40 + s.source());
      CHECK(s.count<int>() == static_cast<std::size_t>(s.source() + 1));
      CHECK(s.elements<int>() == static_cast<std::size_t>(s.source() + 1));
      CHECK(s.bytes() == sizeof(int) * static_cast<std::size_t>(s.source() + 1));
      CHECK(s.error() == MPI_SUCCESS);
      CHECK_FALSE(s.cancelled());
      CHECK(in[0] == s.source());
    }
    CHECK(sources.size() == static_cast<std::size_t>(n));
  }
  req.wait();
  world.barrier();
}

TEST_CASE("sendrecv and sendrecv_replace") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world), to = right(world);
  std::vector<double> out = payload(r, 1), in(out.size());
  auto s = world.sendrecv(out, to, 50, in, from, 50);
  CHECK(in == payload(from, 1));
  CHECK(s.source() == from);
  CHECK(s.tag() == 50);

  std::vector<double> buf = payload(r, 2);
  s = world.sendrecv_replace(buf, to, 51, from, 51);
  CHECK(buf == payload(from, 2));
  CHECK(s.count<double>() == buf.size());

  // Different types and sizes on the two sides.
  int scalar = r;
  std::array<int, 1> one{-1};
  world.sendrecv(scalar, to, 52, one, oompi::any_source, 52);
  CHECK(one[0] == from);

  // One buffer on both sides is refused before MPI (MPICH aborts the job on it).
  CHECK_THROWS_AS(world.sendrecv(buf, to, 53, buf, from, 53), std::invalid_argument);
}

TEST_CASE("nonblocking sends in every mode, and irecv") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world), to = right(world);
  oompi::attached_buffer space(2 * oompi::attached_buffer::space_for<double>(16, world));
  std::vector<std::vector<double>> in(4, std::vector<double>(16));
  std::vector<oompi::request> recvs;
  for (int m = 0; m < 4; ++m) recvs.push_back(world.irecv(in[m], from, 60 + m));
  world.barrier();  // every receive is posted: irsend is legal
  std::vector<std::vector<double>> out;
  for (int m = 0; m < 4; ++m) out.push_back(payload(r, 60 + m));
  std::vector<oompi::request> sends;
  sends.push_back(world.isend(out[0], to, 60));
  sends.push_back(world.issend(out[1], to, 61));
  sends.push_back(world.ibsend(out[2], to, 62));
  sends.push_back(world.irsend(out[3], to, 63));
  auto rs = oompi::wait_all(recvs);
  oompi::wait_all(sends);
  for (int m = 0; m < 4; ++m) {
    CHECK(in[m] == payload(from, 60 + m));
    CHECK(rs[m].tag() == 60 + m);
    CHECK(rs[m].source() == from);
  }
  for (auto& q : sends) CHECK_FALSE(q.pending());
}

TEST_CASE("persistent requests: start, wait, start_all, in every mode") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world), to = right(world);
  oompi::attached_buffer space(2 * oompi::attached_buffer::space_for<int>(4, world));
  std::array<int, 4> out{}, in{};
  std::array<std::array<int, 4>, 4> outs{}, ins{};

  auto recv = world.recv_init(in, from, 70);
  auto send = world.send_init(out, to, 70);
  CHECK_FALSE(recv.active());
  for (int iter = 0; iter < 5; ++iter) {
    out.fill(100 * r + iter);
    recv.start();
    send.start();
    CHECK(send.active());
    auto s = recv.wait();
    send.wait();
    CHECK_FALSE(recv.active());
    CHECK(in[0] == 100 * from + iter);
    CHECK(s.source() == from);
  }

  std::vector<oompi::prequest> recvs, sends;
  for (int m = 0; m < 4; ++m) recvs.push_back(world.recv_init(ins[m], from, 71 + m));
  sends.push_back(world.send_init(outs[0], to, 71));
  sends.push_back(world.ssend_init(outs[1], to, 72));
  sends.push_back(world.bsend_init(outs[2], to, 73));
  sends.push_back(world.rsend_init(outs[3], to, 74));
  for (int iter = 0; iter < 3; ++iter) {
    for (int m = 0; m < 4; ++m) outs[m].fill(1000 * r + 10 * m + iter);
    oompi::start_all(recvs);
    world.barrier();  // receives are active before the ready send starts
    oompi::start_all(sends);
    for (auto& q : sends) CHECK(q.active());
    auto statuses = oompi::wait_all(recvs);
    oompi::wait_all(sends);
    for (auto& q : recvs) CHECK_FALSE(q.active());
    for (int m = 0; m < 4; ++m) {
      CHECK(ins[m][3] == 1000 * from + 10 * m + iter);
      CHECK(statuses[m].tag() == 71 + m);
    }
  }
}

TEST_CASE("probe, iprobe, mprobe + mrecv, improbe + imrecv") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world), to = right(world);
  std::vector<long> out(static_cast<std::size_t>(5 + r), r);
  auto s1 = world.isend(out, to, 80);
  auto s2 = world.isend(out, to, 81);
  auto s3 = world.isend(out, to, 82);

  // probe: the size before receiving.
  oompi::status st = world.probe(from, 80);
  CHECK(st.source() == from);
  CHECK(st.tag() == 80);
  const std::size_t n = st.count<long>();
  CHECK(n == static_cast<std::size_t>(5 + from));
  std::vector<long> in(n);
  world.recv(in, from, 80);
  CHECK(in == std::vector<long>(n, from));

  // iprobe: poll until it is there.
  std::optional<oompi::status> maybe;
  while (!(maybe = world.iprobe(from, 81))) {
  }
  CHECK(maybe->count<long>() == n);

  // mprobe + mrecv: the message is ours alone.
  oompi::message m = world.mprobe(from, 81);
  CHECK(m.valid());
  CHECK(m.count<long>() == n);
  CHECK(m.status().tag() == 81);
  std::vector<long> in2(m.count<long>());
  auto rs = world.mrecv(in2, m);
  CHECK_FALSE(m.valid());
  CHECK(in2 == std::vector<long>(n, from));
  CHECK(rs.source() == from);
  CHECK_THROWS_AS(world.mrecv(in2, m), std::logic_error);  // used up

  // improbe + imrecv.
  std::optional<oompi::message> mm;
  while (!(mm = world.improbe(oompi::any_source, 82))) {
  }
  std::vector<long> in3(mm->count<long>());
  auto req = world.imrecv(in3, *mm);
  auto rs3 = req.wait();
  CHECK(in3 == std::vector<long>(n, from));
  CHECK(rs3.tag() == 82);

  // Nothing left.
  CHECK_FALSE(world.iprobe(from, 82).has_value());
  CHECK_FALSE(world.improbe(from, 80).has_value());
  oompi::wait_all(s1, s2, s3);
}

TEST_CASE("messages to and from PROC_NULL complete at once") {
  auto world = oompi::communicator::world();
  std::vector<int> v(4, 7);
  world.send(v, oompi::proc_null, 1);
  auto s = world.recv(v, oompi::proc_null, 1);
  CHECK(s.source() == oompi::proc_null);
  CHECK(s.tag() == oompi::any_tag);
  CHECK(s.count<int>() == 0);
  CHECK(v == std::vector<int>(4, 7));  // untouched
  auto req = world.irecv(v, oompi::proc_null);
  CHECK(req.test().has_value());
  auto st = world.probe(oompi::proc_null);
  CHECK(st.source() == oompi::proc_null);
  oompi::message m = world.mprobe(oompi::proc_null);
  world.mrecv(v, m);
  CHECK(v == std::vector<int>(4, 7));
  auto sr = world.sendrecv(v, oompi::proc_null, 0, v, oompi::proc_null, 0);
  CHECK(sr.source() == oompi::proc_null);
}

TEST_CASE("messages between a pair do not overtake; tags select") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world), to = right(world);
  constexpr int count = 20;
  std::vector<oompi::request> sends;
  for (int i = 0; i < count; ++i) sends.push_back(world.isend(100 * r + i, to, 90));
  // A message with another tag, sent last, received first.
  sends.push_back(world.isend(-r, to, 91));
  int first = 0;
  world.recv(first, from, 91);
  CHECK(first == -from);
  std::vector<int> got;
  for (int i = 0; i < count; ++i) {
    int x = -1;
    world.recv(x, from, 90);
    got.push_back(x);
  }
  std::vector<int> expected(count);
  std::iota(expected.begin(), expected.end(), 100 * from);
  CHECK(got == expected);
  oompi::wait_all(sends);
}

TEST_CASE("point-to-point on a duplicated communicator is separate from world") {
  auto world = oompi::communicator::world();
  auto other = world.dup();
  const int r = world.rank(), from = left(world), to = right(world);
  auto a = world.isend(r, to, 5);
  auto b = other.isend(-r, to, 5);
  int x = 0, y = 0;
  other.recv(y, from, 5);  // only the message sent on `other` matches here
  world.recv(x, from, 5);
  oompi::wait_all(a, b);
  CHECK(x == from);
  CHECK(y == -from);
}
