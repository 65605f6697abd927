#ifndef OOMPI_RT_FILE_HPP
#define OOMPI_RT_FILE_HPP

// MPI-IO files for the bindings, over the core's oompi::file (include/oompi/file.hpp, which
// docs/io.md describes: views, short reads at the end of the file, error classes).
//
// Copies share one file. close() is collective (MPI_File_close) and marks every copy closed;
// further use throws closed_error. A file that is never closed is not closed by the garbage
// collector (a finalizer thread must not make a collective call): MPI_Finalize closes it (Open
// MPI) or it leaks. Close files you open (with / try-with-resources / using).
//
// Offsets are in units of the view's elementary type (bytes with the default view), never
// negative (std::invalid_argument). Reads return the status of what was actually read
// (status.get_count(type)). Nonblocking calls take async buffers, which the request keeps alive
// until it completes; complete them before closing the file.

#include "buffer.hpp"
#include "comm.hpp"
#include "datatype.hpp"
#include "info.hpp"
#include "request.hpp"
#include "status.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace oompi::rt {

/// Where seek counts from (MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END).
enum class seek_from : int { set = 0, current = 1, end = 2 };

/// A file's view (file.get_view): the byte displacement, the elementary type, the file type
/// and the data representation. The types are new handles for derived types (close them, or
/// let them go), shared constants for predefined ones.
class file_view {
public:
  std::int64_t displacement() const noexcept { return displacement_; }
  datatype etype() const { return etype_; }
  datatype filetype() const { return filetype_; }
  std::string datarep() const { return datarep_; }

#ifndef SWIG
  file_view() = default;
  file_view(std::int64_t d, datatype e, datatype f, std::string rep)
      : displacement_(d), etype_(std::move(e)), filetype_(std::move(f)), datarep_(std::move(rep)) {}
#endif

private:
  std::int64_t displacement_ = 0;
  datatype etype_, filetype_;
  std::string datarep_;
};

class file {
public:
  /// A null file.
  file() = default;

  /// Opens `path` collectively over `c` (MPI_File_open). `mode` is a bitwise OR of the
  /// mode_* constants (mode_create | mode_wronly). A missing file: oompi::error of class
  /// MPI_ERR_NO_SUCH_FILE.
  static file open(const comm& c, const std::string& path, int mode);
  /// open() with hints (an info object; a null info means none).
  static file open(const comm& c, const std::string& path, int mode, const info& hints);
  /// Deletes a file (MPI_File_delete); a missing file: class MPI_ERR_NO_SUCH_FILE.
  static void remove(const std::string& path);
  /// Closes the file (collective) and every copy of this handle. Idempotent.
  void close();
  /// True when this handle is null or closed.
  bool is_null() const noexcept;
  /// Gives hints (MPI_File_set_info; collective); MPI may ignore any of them.
  void set_info(const info& hints) const;
  /// The hints in use (MPI_File_get_info): a new info object (close it).
  info get_info() const;

  // --- views ------------------------------------------------------------------------------
  /// Sets the view (collective): from byte `displacement` on, the file is a tiling of
  /// `filetype` in units of `etype`. Resets both file pointers.
  void set_view(std::int64_t displacement, const datatype& etype, const datatype& filetype,
                const std::string& datarep = "native");
  /// The current view (MPI_File_get_view); its derived types are new handles (close them, or
  /// let them go).
  file_view get_view() const;
  /// Byte position in the file of view offset `offset`.
  std::int64_t byte_offset(std::int64_t offset) const;

  // --- explicit offsets -------------------------------------------------------------------
  status read_at(std::int64_t offset, buffer& buf) const;
  status read_at_all(std::int64_t offset, buffer& buf) const;  // collective
  status write_at(std::int64_t offset, const buffer& buf) const;
  status write_at_all(std::int64_t offset, const buffer& buf) const;  // collective

  // --- individual file pointer ------------------------------------------------------------
  status read(buffer& buf) const;
  status read_all(buffer& buf) const;  // collective
  status write(const buffer& buf) const;
  status write_all(const buffer& buf) const;  // collective
  /// Moves the individual file pointer (negative offsets only from current or end).
  void seek(std::int64_t offset, seek_from whence = seek_from::set) const;
  std::int64_t position() const;

  // --- shared file pointer ----------------------------------------------------------------
  status read_shared(buffer& buf) const;
  status write_shared(const buffer& buf) const;
  status read_ordered(buffer& buf) const;         // collective, in rank order
  status write_ordered(const buffer& buf) const;  // collective, in rank order
  /// Moves the shared file pointer (collective, same arguments everywhere).
  void seek_shared(std::int64_t offset, seek_from whence = seek_from::set) const;
  std::int64_t position_shared() const;

  // --- nonblocking ------------------------------------------------------------------------
  request iread_at(std::int64_t offset, async_buffer& buf) const;
  request iwrite_at(std::int64_t offset, const async_buffer& buf) const;
  request iread_at_all(std::int64_t offset, async_buffer& buf) const;         // collective
  request iwrite_at_all(std::int64_t offset, const async_buffer& buf) const;  // collective
  request iread(async_buffer& buf) const;
  request iwrite(const async_buffer& buf) const;
  request iread_all(async_buffer& buf) const;         // collective
  request iwrite_all(const async_buffer& buf) const;  // collective
  request iread_shared(async_buffer& buf) const;
  request iwrite_shared(const async_buffer& buf) const;

  // --- split collectives (MPI_File_read_all_begin ... write_all_end) -------------------------
  // One split collective at a time per file (MPI's rule): a second begin before the end, or an
  // end without its begin, throws std::logic_error. The file holds the buffer from begin
  // until end returns; MPI may read or write it in between.
  void read_all_begin(async_buffer& buf) const;
  status read_all_end() const;
  void write_all_begin(const async_buffer& buf) const;
  status write_all_end() const;

  // --- size, consistency ------------------------------------------------------------------
  /// Size in bytes.
  std::int64_t size() const;
  /// Truncates or extends the file (collective).
  void set_size(std::int64_t bytes) const;
  /// Reserves storage for the first `bytes` bytes (collective).
  void preallocate(std::int64_t bytes) const;
  /// Flushes this process's writes to storage (collective).
  void sync() const;
  /// The access mode the file was opened with (the mode_* bits).
  int amode() const;
  /// Atomic mode (set is collective).
  void set_atomicity(bool atomic) const;
  bool atomicity() const;

#ifndef SWIG
  struct state;
#endif

private:
  explicit file(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
  state& live(const char* what) const;
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_FILE_HPP
