// Checks that a run of scripts/multihost.sh really spans several hosts and talks TCP between
// them, so that the other cpp.multihost tests prove something:
//
//   mpirun ... check_hosts <address of host 0> <address of host 1> ...
//
// After each rank has exchanged a message with every other rank, every rank reports its network
// namespace, its processor name, which of the given addresses is its own (on one of its
// interfaces), the remote addresses of its own established TCP connections (its sockets in
// /proc/self/fd matched with /proc/self/net/tcp) and whether it maps a shared-memory segment of
// Open MPI's shared-memory transports. Rank 0 prints the table and fails the job unless the ranks
// are spread over every host (at least one rank per namespace, one namespace per address), no
// rank maps a shared-memory segment, and each rank has a TCP connection of its own to every other
// host that runs a rank. The same program run by plain `mpirun` on one machine fails.
// It also prints the round-trip time between rank 0 and the first rank on another host (1-int
// ping-pong), to show what the link does (scripts/multihost.sh --netem adds delay); no verdict.
#include <oompi/oompi.hpp>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct report {
  std::uint64_t netns = 0;
  int host = -1;                // index of this rank's address among argv's, -1 if none
  std::uint32_t tcp_to = 0;     // bit h: an established TCP connection of this rank to host h
  int shared_memory = 0;        // maps a vader/sm segment
  char name[64] = {};           // MPI_Get_processor_name
};

}  // namespace
OOMPI_STRUCT(report, netns, host, tcp_to, shared_memory, name)

namespace {

std::uint64_t netns_inode() {
  struct stat st {};
  return stat("/proc/self/ns/net", &st) == 0 ? static_cast<std::uint64_t>(st.st_ino) : 0;
}

int own_host(const std::vector<in_addr_t>& hosts) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return -1;
  int found = -1;
  for (ifaddrs* i = list; i; i = i->ifa_next)
    if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET)
      for (std::size_t h = 0; h < hosts.size(); ++h)
        if (reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr == hosts[h])
          found = static_cast<int>(h);
  freeifaddrs(list);
  return found;
}

// Sockets of this process: the inodes behind its descriptors ("socket:[1234]").
std::set<std::string> own_socket_inodes() {
  std::set<std::string> inodes;
  for (int fd = 0; fd < 4096; ++fd) {
    char link[64], target[128];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    if (std::strncmp(target, "socket:[", 8) == 0)
      inodes.insert(std::string(target + 8, std::strchr(target, ']')));
  }
  return inodes;
}

// Bit h set when one of this process's established IPv4 TCP connections goes to hosts[h].
std::uint32_t tcp_peers(const std::vector<in_addr_t>& hosts) {
  const auto mine = own_socket_inodes();
  std::ifstream tcp("/proc/self/net/tcp");
  std::string line;
  std::getline(tcp, line);  // header
  std::uint32_t bits = 0;
  while (std::getline(tcp, line)) {
    std::istringstream in(line);
    std::string slot, local, remote, state, queues, timer, retr, uid, timeout, inode;
    in >> slot >> local >> remote >> state >> queues >> timer >> retr >> uid >> timeout >> inode;
    if (state != "01" || !mine.count(inode)) continue;  // 01: ESTABLISHED
    // The address is the hex of the in_addr_t as it lies in memory, i.e. in host order here.
    const auto addr = static_cast<in_addr_t>(std::stoul(remote.substr(0, 8), nullptr, 16));
    for (std::size_t h = 0; h < hosts.size(); ++h)
      if (addr == hosts[h]) bits |= 1u << h;
  }
  return bits;
}

bool maps_shared_memory_transport() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("vader_segment") != std::string::npos ||
        line.find("sm_segment") != std::string::npos)
      return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  std::vector<in_addr_t> hosts;
  for (int i = 1; i < argc && i <= 32; ++i) hosts.push_back(inet_addr(argv[i]));
  if (hosts.size() < 2) {
    if (r == 0) std::fprintf(stderr, "usage: check_hosts <address of host 0> <address of host 1> ...\n");
    return 2;
  }

  // Traffic with every rank, so that every pair has opened its connection (they open lazily).
  for (int k = 1; k < n; ++k) {
    int got = -1;
    world.sendrecv(r, (r + k) % n, 1, got, (r + n - k) % n, 1);
    if (got != (r + n - k) % n) oompi::environment::abort(3);
  }

  report mine;
  mine.netns = netns_inode();
  mine.host = own_host(hosts);
  mine.tcp_to = tcp_peers(hosts);
  mine.shared_memory = maps_shared_memory_transport() ? 1 : 0;
  std::snprintf(mine.name, sizeof mine.name, "%s", oompi::environment::processor_name().c_str());
  const std::vector<report> all = world.gather(mine, 0);

  int failures = 0;
  if (r == 0) {
    auto fail = [&](const std::string& what) {
      std::printf("check_hosts: FAILED: %s\n", what.c_str());
      ++failures;
    };
    std::uint32_t used = 0;
    for (int i = 0; i < n; ++i) {
      const report& x = all[static_cast<std::size_t>(i)];
      std::string to;
      for (std::size_t h = 0; h < hosts.size(); ++h)
        if (x.tcp_to >> h & 1u) to += std::string(to.empty() ? "" : ",") + argv[h + 1];
      std::printf("rank %d: processor %s, netns %llu, host %s, own TCP connections to {%s}, "
                  "shared-memory segment %s\n",
                  i, x.name, static_cast<unsigned long long>(x.netns),
                  x.host >= 0 ? argv[x.host + 1] : "(none of the addresses)", to.c_str(),
                  x.shared_memory ? "MAPPED" : "none");
      if (x.host < 0) fail("rank " + std::to_string(i) + " has none of the host addresses");
      if (x.shared_memory) fail("rank " + std::to_string(i) + " maps a shared-memory segment");
      if (x.host >= 0) used |= 1u << x.host;
    }
    std::set<std::uint64_t> spaces;
    for (const report& x : all) spaces.insert(x.netns);
    const std::size_t expected = std::min<std::size_t>(hosts.size(), static_cast<std::size_t>(n));
    if (static_cast<std::size_t>(__builtin_popcount(used)) != expected)
      fail("the ranks run on " + std::to_string(__builtin_popcount(used)) + " hosts, not " +
           std::to_string(expected));
    if (spaces.size() != static_cast<std::size_t>(__builtin_popcount(used)))
      fail("one network namespace per host expected, found " + std::to_string(spaces.size()));
    bool consistent = true;
    for (const report& x : all)
      for (const report& y : all)
        consistent = consistent && (x.netns == y.netns) == (x.host == y.host);
    if (!consistent) fail("ranks on the same host in different namespaces, or the reverse");
    for (int i = 0; i < n; ++i) {
      const report& x = all[static_cast<std::size_t>(i)];
      const std::uint32_t others = used & ~(x.host >= 0 ? 1u << x.host : 0u);
      if ((x.tcp_to & others) != others)
        fail("rank " + std::to_string(i) + " has no TCP connection of its own to every other host");
    }
    std::printf("check_hosts: %s (%d ranks on %d hosts)\n", failures ? "FAILED" : "ok", n,
                __builtin_popcount(used));
    std::fflush(stdout);
  }
  world.bcast(failures, 0);

  // Round trips between rank 0 and the first rank elsewhere (-1: none), median and minimum.
  int peer = -1;
  if (r == 0 && failures == 0)
    for (int i = 1; i < n && peer < 0; ++i)
      if (all[static_cast<std::size_t>(i)].host != all[0].host) peer = i;
  world.bcast(peer, 0);
  if (peer > 0 && (r == 0 || r == peer)) {
    constexpr int rounds = 200;
    std::vector<double> us;
    int ball = 0;
    for (int k = 0; k < rounds; ++k) {
      const double t = oompi::environment::wtime();
      if (r == 0) {
        world.send(ball, peer, 2);
        world.recv(ball, peer, 2);
      } else {
        world.recv(ball, 0, 2);
        world.send(ball, 0, 2);
      }
      us.push_back((oompi::environment::wtime() - t) * 1e6);
    }
    if (r == 0) {
      std::sort(us.begin(), us.end());
      std::printf("check_hosts: round trip rank 0 (%s) <-> rank %d (%s): median %.0f us, "
                  "min %.0f us, max %.0f us over %d\n",
                  argv[all[0].host + 1], peer, argv[all[static_cast<std::size_t>(peer)].host + 1],
                  us[rounds / 2], us.front(), us.back(), rounds);
      std::fflush(stdout);
    }
  }
  return failures ? 1 : 0;
}
