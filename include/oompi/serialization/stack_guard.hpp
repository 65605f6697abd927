#ifndef OOMPI_SERIALIZATION_STACK_GUARD_HPP
#define OOMPI_SERIALIZATION_STACK_GUARD_HPP

// How deep may (de)serialization recurse? Reference chains in the last field of an
// OOMPI_TRANSPORTABLE type are followed by a loop, so lists of any length use no stack; every
// other nesting (a field, a container element, a reference that is not the last field) recurses.
// Before each nested object the archives compare the current frame address with a limit a safety
// margin above the lowest address of this thread's stack, and stop with serialization_error
// there instead of overflowing. The limit is computed once per thread. Where the stack bounds are
// unknown, a plain depth limit is used instead.

#include <cstddef>
#include <cstdint>

#if defined(__linux__) || defined(__APPLE__) || defined(__FreeBSD__)
#include <pthread.h>
#if defined(__FreeBSD__)
#include <pthread_np.h>
#endif
#define OOMPI_DETAIL_HAVE_STACK_BOUNDS 1
#endif

namespace oompi::detail {

/// Nesting depth used where the stack bounds cannot be found.
inline constexpr std::size_t fallback_max_depth = 4000;

inline const char* compute_stack_limit() noexcept {
#if defined(OOMPI_DETAIL_HAVE_STACK_BOUNDS)
  char* low = nullptr;
  std::size_t size = 0;
#if defined(__APPLE__)
  char* high = static_cast<char*>(pthread_get_stackaddr_np(pthread_self()));
  size = pthread_get_stacksize_np(pthread_self());
  low = high - size;
#else
  pthread_attr_t attr;
#if defined(__FreeBSD__)
  if (pthread_attr_init(&attr) != 0) return nullptr;
  if (pthread_attr_get_np(pthread_self(), &attr) != 0) {
#else
  if (pthread_getattr_np(pthread_self(), &attr) != 0) {
#endif
    return nullptr;
  }
  void* addr = nullptr;
  const int rc = pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  if (rc != 0 || addr == nullptr) return nullptr;
  low = static_cast<char*>(addr);
#endif
  // Keep a margin for one level of nesting, the allocator and unwinding the exception:
  // 1/8 of the stack, between 32 KiB and 256 KiB (sanitizer frames are several times larger).
  std::size_t margin = size / 8;
  if (margin < (32u << 10)) margin = 32u << 10;
  if (margin > (256u << 10)) margin = 256u << 10;
  if (margin >= size) return nullptr;
  return low + margin;
#else
  return nullptr;
#endif
}

/// The lowest frame address this thread's (de)serialization may reach, or null if unknown.
inline const char* stack_limit() noexcept {
  thread_local const char* const limit = compute_stack_limit();
  return limit;
}

/// True when a nested call must not go deeper. `depth` counts nesting where bounds are unknown.
[[gnu::always_inline]] inline bool stack_exhausted(const char* limit, std::size_t depth) noexcept {
  if (limit != nullptr) {
#if defined(__GNUC__) || defined(__clang__)
    return static_cast<const char*>(__builtin_frame_address(0)) < limit;
#else
    const char here = 0;
    return &here < limit;
#endif
  }
  return depth > fallback_max_depth;
}

}  // namespace oompi::detail

#endif  // OOMPI_SERIALIZATION_STACK_GUARD_HPP
