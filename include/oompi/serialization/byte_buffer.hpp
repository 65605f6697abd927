#ifndef OOMPI_SERIALIZATION_BYTE_BUFFER_HPP
#define OOMPI_SERIALIZATION_BYTE_BUFFER_HPP

// A growable byte array for serialized objects: like std::vector<std::byte> but growth never
// zero-fills (a receive buffer of several GiB is allocated, not written twice) and appending is
// one capacity check and one memcpy. Move-only.

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

namespace oompi {

class byte_buffer {
public:
  byte_buffer() noexcept = default;
  /// A buffer of n bytes with unspecified contents.
  explicit byte_buffer(std::size_t n) { resize(n); }
  byte_buffer(byte_buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
        capacity_(std::exchange(o.capacity_, 0)) {}
  byte_buffer& operator=(byte_buffer&& o) noexcept {
    if (this != &o) {
      std::free(data_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
    }
    return *this;
  }
  byte_buffer(const byte_buffer&) = delete;
  byte_buffer& operator=(const byte_buffer&) = delete;
  ~byte_buffer() { std::free(data_); }

  std::byte* data() noexcept { return data_; }
  const std::byte* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return capacity_; }
  bool empty() const noexcept { return size_ == 0; }
  const std::byte* begin() const noexcept { return data_; }
  const std::byte* end() const noexcept { return data_ + size_; }

  void clear() noexcept { size_ = 0; }
  void reserve(std::size_t n) {
    if (n > capacity_) reallocate(n);
  }
  /// Sets the size; new bytes are left unspecified.
  void resize(std::size_t n) {
    reserve(n);
    size_ = n;
  }
  /// Appends n unspecified bytes and returns where they start.
  std::byte* extend(std::size_t n) {
    if (capacity_ - size_ < n) grow(n);
    std::byte* p = data_ + size_;
    size_ += n;
    return p;
  }
  void append(const void* p, std::size_t n) {
    if (n != 0) std::memcpy(extend(n), p, n);
  }
  /// Frees the memory when more than `keep` bytes are held (for buffers reused across calls).
  void release_if_larger(std::size_t keep) noexcept {
    if (capacity_ > keep) {
      std::free(std::exchange(data_, nullptr));
      size_ = capacity_ = 0;
    }
  }
  std::vector<std::byte> to_vector() const { return std::vector<std::byte>(begin(), end()); }

private:
  void grow(std::size_t n) {
    std::size_t want = capacity_ * 2;
    if (want < size_ + n) want = size_ + n;
    if (want < 256) want = 256;
    reallocate(want);
  }
  void reallocate(std::size_t n) {
    void* p = std::realloc(data_, n);
    if (p == nullptr) throw std::bad_alloc();
    data_ = static_cast<std::byte*>(p);
    capacity_ = n;
  }

  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace oompi

#endif  // OOMPI_SERIALIZATION_BYTE_BUFFER_HPP
