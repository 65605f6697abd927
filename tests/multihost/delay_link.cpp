// A point-to-point link with a fixed one-way delay, for scripts/multihost.sh where the kernel has
// neither netem nor fq (which would honour an eBPF departure time):
//
//   delay_link <netns file 1> <netns file 2> <interface> <delay in microseconds>
//
// creates a tun device named <interface> in each of the two network namespaces (files such as
// /run/netns/x) and carries every IP packet written to one to the other, <delay> later, in both
// directions. The devices exist while this process runs (they are not persistent), so killing it
// removes them. Loss is not done here: the script drops packets with nftables on the receiving
// side. Prints "ready" once both devices exist; the script then gives them their addresses.
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <vector>

namespace {

constexpr std::size_t max_packet = 65536;
constexpr std::size_t max_queued = 8192;  // per direction; beyond, packets are dropped (as netem's limit)

std::int64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return std::int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
}

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "delay_link: %s: %s\n", what, std::strerror(errno));
  std::exit(1);
}

// The tun device <name> in the namespace of the file <netns>, non-blocking.
int open_tun(const char* netns, const char* name) {
  const int ns = open(netns, O_RDONLY | O_CLOEXEC);
  if (ns < 0 || setns(ns, CLONE_NEWNET) != 0) die(netns);
  close(ns);
  const int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) die("/dev/net/tun");
  ifreq req{};
  req.ifr_flags = IFF_TUN | IFF_NO_PI;  // bare IP packets: nothing to translate between the ends
  std::snprintf(req.ifr_name, IFNAMSIZ, "%s", name);
  if (ioctl(fd, TUNSETIFF, &req) != 0) die("TUNSETIFF");
  return fd;
}

struct packet {
  std::int64_t due;
  std::vector<char> bytes;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: delay_link <netns file 1> <netns file 2> <interface> <delay us>\n");
    return 2;
  }
  const std::int64_t delay = std::atoll(argv[4]) * 1000;
  const int fd[2] = {open_tun(argv[1], argv[3]), open_tun(argv[2], argv[3])};
  std::printf("ready\n");
  std::fflush(stdout);

  std::deque<packet> queue[2];  // queue[i]: read from fd[i], to be written to fd[1 - i]
  std::vector<char> buffer(max_packet);
  for (;;) {
    std::int64_t next = -1;
    for (const auto& q : queue)
      if (!q.empty() && (next < 0 || q.front().due < next)) next = q.front().due;
    pollfd watch[2] = {{fd[0], POLLIN, 0}, {fd[1], POLLIN, 0}};
    timespec wait{}, *timeout = nullptr;
    if (next >= 0) {
      const std::int64_t left = std::max<std::int64_t>(0, next - now_ns());
      wait = {static_cast<time_t>(left / 1000000000), static_cast<long>(left % 1000000000)};
      timeout = &wait;
    }
    if (ppoll(watch, 2, timeout, nullptr) < 0 && errno != EINTR) die("ppoll");
    for (int i = 0; i < 2; ++i)
      for (;;) {  // everything that arrived, stamped with its time of arrival
        const ssize_t n = read(fd[i], buffer.data(), buffer.size());
        if (n < 0 && errno != EAGAIN && errno != EINTR) die("read");
        if (n <= 0) break;
        if (queue[i].size() < max_queued)
          queue[i].push_back({now_ns() + delay, {buffer.begin(), buffer.begin() + n}});
      }
    const std::int64_t t = now_ns();
    for (int i = 0; i < 2; ++i)
      while (!queue[i].empty() && queue[i].front().due <= t) {
        const auto& p = queue[i].front().bytes;
        // A write into the other namespace's stack fails only for a malformed packet: drop it.
        (void)!write(fd[1 - i], p.data(), p.size());
        queue[i].pop_front();
      }
  }
}
