// Java wrapper support: reusable native memory for the copies of array ranges.
// Part of oompi_java.hpp (the Java wrapper's support code), which includes the parts.
#ifndef OOMPI_SWIG_JAVA_NATIVE_POOL_HPP
#define OOMPI_SWIG_JAVA_NATIVE_POOL_HPP

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <utility>

namespace oompi::java {

/// Blocks of native memory for copies of Java array ranges (nonblocking operations, one-sided
/// origins, blocking copies larger than a thread keeps), reused across calls and threads.
/// Why: a fresh block per call costs a malloc/free and, from 128 KiB on (glibc's mmap
/// threshold), an mmap, a page fault per 4 KiB page touched and an munmap: issue 29 measured a
/// nonblocking 4 MiB slice at 1.6x the direct buffer, mostly that. Blocks are not zeroed (the
/// copy overwrites what MPI reads). Sizes are rounded up to a power of two (a block serves any
/// request of its class); the pool keeps at most `per_class` free blocks a class and `max_kept`
/// bytes in all, and frees blocks of `large` bytes or more that no call took for `idle`.
class native_pool {
public:
  static constexpr int min_class = 10;      // 1 KiB
  static constexpr int max_class = 40;
  static constexpr int per_class = 4;       // a call has up to three arrays; a few in flight
  static constexpr std::size_t max_kept = std::size_t(64) << 20;
  static constexpr std::size_t large = std::size_t(1) << 20;
  static constexpr auto idle = std::chrono::seconds(2);

  /// A block of at least `n` bytes (its class's size in `capacity`), or nullptr.
  char* take(std::size_t n, std::size_t& capacity) noexcept {
    const int c = class_of(n);
    if (c > max_class) return nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      free_list& f = free_[c - min_class];
      if (f.count > 0) {
        --f.count;
        kept_ -= class_bytes(c);
        capacity = class_bytes(c);
        return std::exchange(f.blocks[f.count].data, nullptr);
      }
    }
    capacity = class_bytes(c);
    return allocate(capacity);
  }

  /// Gives back a block from take(); freed instead where the pool is full. Large blocks idle
  /// since the last sweep are freed (at most one sweep per `idle`).
  void give(char* data, std::size_t capacity) noexcept {
    if (!data) return;
    const int c = class_of(capacity);
    const auto now = std::chrono::steady_clock::now();
    char* drop = data;
    char* stale[per_class * (max_class - min_class + 1)];
    int stale_count = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      free_list& f = free_[c - min_class];
      if (f.count < per_class && kept_ + capacity <= max_kept) {
        f.blocks[f.count++] = {data, now};
        kept_ += capacity;
        drop = nullptr;
      }
      if (now - last_sweep_ >= idle) {
        last_sweep_ = now;
        for (int k = class_of(large); k <= max_class; ++k) {
          free_list& g = free_[k - min_class];
          int kept = 0;
          for (int i = 0; i < g.count; ++i) {
            if (now - g.blocks[i].since >= idle) {
              stale[stale_count++] = g.blocks[i].data;
              kept_ -= class_bytes(k);
            } else {
              g.blocks[kept++] = g.blocks[i];
            }
          }
          g.count = kept;
        }
      }
    }
    release(drop);  // outside the lock: an munmap takes time
    for (int i = 0; i < stale_count; ++i) release(stale[i]);
  }

  static native_pool& instance() noexcept {
    static native_pool* p = new native_pool();  // lives as long as the library
    return *p;
  }

private:
  /// Where a block starts in its page: 16 bytes in, as glibc places large malloc blocks (an
  /// mmap's page plus its header), and so as Java's direct buffers of 128 KiB and more. MPI's
  /// own copies from and into a block then see the page offsets a direct buffer gives them:
  /// glibc's memcpy slows down 25-50x for some distances modulo 4096 between source and
  /// destination on AMD CPUs (copy_bytes in oompi_java_pins.hpp), and a malloc block's offset
  /// varied from run to run (issue 29's bench: one run slow, the next not).
  static constexpr std::size_t page_offset = 16;
  static char* allocate(std::size_t capacity) noexcept {
    void* p = nullptr;
    if (posix_memalign(&p, 4096, capacity + page_offset) != 0) return nullptr;
    return static_cast<char*>(p) + page_offset;
  }
  static void release(char* data) noexcept {
    if (data) std::free(data - page_offset);
  }
  struct entry {
    char* data = nullptr;
    std::chrono::steady_clock::time_point since;  // given back then
  };
  struct free_list {
    entry blocks[per_class];
    int count = 0;
  };
  static int class_of(std::size_t n) noexcept {
    int c = min_class;
    while (c <= max_class && class_bytes(c) < n) ++c;
    return c;
  }
  static constexpr std::size_t class_bytes(int c) noexcept { return std::size_t(1) << c; }

  std::mutex mutex_;
  free_list free_[max_class - min_class + 1];
  std::size_t kept_ = 0;
  std::chrono::steady_clock::time_point last_sweep_{};
};

/// A block of native_pool memory owned by one copy (given back when destroyed).
class pooled_bytes {
public:
  pooled_bytes() = default;
  pooled_bytes(const pooled_bytes&) = delete;
  pooled_bytes& operator=(const pooled_bytes&) = delete;
  pooled_bytes(pooled_bytes&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), capacity_(std::exchange(o.capacity_, 0)) {}
  pooled_bytes& operator=(pooled_bytes&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = std::exchange(o.data_, nullptr);
      capacity_ = std::exchange(o.capacity_, 0);
    }
    return *this;
  }
  ~pooled_bytes() { reset(); }

  /// At least `n` bytes (the contents are not kept); false if there is no memory.
  bool reserve(std::size_t n) noexcept {
    if (data_ && n <= capacity_) return true;
    reset();
    data_ = native_pool::instance().take(n ? n : 1, capacity_);
    if (!data_) capacity_ = 0;
    return data_ != nullptr;
  }
  void reset() noexcept {
    if (data_) native_pool::instance().give(std::exchange(data_, nullptr), capacity_);
    capacity_ = 0;
  }
  char* get() const noexcept { return data_; }
  std::size_t size() const noexcept { return capacity_; }

private:
  char* data_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace oompi::java

#endif  // OOMPI_SWIG_JAVA_NATIVE_POOL_HPP
