#ifndef OOMPI_FILE_HPP
#define OOMPI_FILE_HPP

// MPI-IO: oompi::file is the RAII handle of an open MPI file (MPI_File).
//
//   auto f = oompi::file::open(world, path, oompi::file_mode::create | oompi::file_mode::wronly);
//   f.set_view(0, oompi::datatype::of<double>(), block);   // block: a subarray or darray type
//   f.write_all(local);                                     // collective, through the view
//
// Buffers are inferred as for messages (buffer.hpp): containers, scalars, oompi::buffer views,
// raw (address, count, MPI_Datatype) buffers. Offsets are MPI_Offset in units of the view's
// elementary type (bytes with the default view) and are never negative. Every MPI error is an
// oompi::error (MPI_ERRORS_RETURN is installed on the file; MPI_File_open and MPI_File_delete
// report through MPI_FILE_NULL, which oompi::environment sets to MPI_ERRORS_RETURN): a missing
// file is class MPI_ERR_NO_SUCH_FILE on Open MPI 4.1 (OMPIO and ROMIO) and MPICH 4.0 alike.
// Bad input (a closed file, a negative offset, a count outside a container) throws the standard
// exception before MPI sees it.
//
// Short reads. A read's status counts what was actually read (status::count<T>()), so a read
// across the end of the file is visible. MPI libraries do not all keep that promise: measured
// with Open MPI 4.1.4 and MPICH 4.0, blocking independent reads are right everywhere; collective
// reads (read_all, read_at_all; ROMIO also iread_all/iread_at_all) report the requested count,
// ROMIO 3.2.1's nonblocking reads too, and Open MPI's OMPIO never completes a nonblocking read
// that reaches past the end of the file. oompi therefore limits collective and nonblocking reads
// to the elements that exist when the read starts (MPI_File_get_size and the view's
// MPI_File_get_byte_offset): the status then reports the truth on every library and no read
// asks for bytes past the end. Consequences: a whole number of buffer elements is read (a
// trailing partial element is left out); after such a short read the individual file pointer
// stands after what was read; for iread_shared the shared pointer's position is read first,
// so a concurrent shared-pointer access by another process can still reach past the end.
//
// Closing is collective (MPI_File_close): destroy files in the same order on every process.
// A pending nonblocking operation must complete before its file is closed. Nothing is closed
// after MPI_Finalize.

#include "buffer.hpp"
#include "communicator.hpp"
#include "datatype.hpp"
#include "error.hpp"
#include "group.hpp"
#include "info.hpp"
#include "request.hpp"
#include "status.hpp"

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace oompi {

/// Access mode of MPI_File_open, combined with |: file_mode::create | file_mode::wronly.
enum class file_mode : int {
  rdonly = MPI_MODE_RDONLY,
  wronly = MPI_MODE_WRONLY,
  rdwr = MPI_MODE_RDWR,
  create = MPI_MODE_CREATE,
  excl = MPI_MODE_EXCL,
  delete_on_close = MPI_MODE_DELETE_ON_CLOSE,
  unique_open = MPI_MODE_UNIQUE_OPEN,
  sequential = MPI_MODE_SEQUENTIAL,
  append = MPI_MODE_APPEND
};
constexpr file_mode operator|(file_mode a, file_mode b) noexcept {
  return static_cast<file_mode>(static_cast<int>(a) | static_cast<int>(b));
}
constexpr file_mode operator&(file_mode a, file_mode b) noexcept {
  return static_cast<file_mode>(static_cast<int>(a) & static_cast<int>(b));
}
/// True when every flag of `flags` is set in `mode`.
constexpr bool has(file_mode mode, file_mode flags) noexcept { return (mode & flags) == flags; }

/// Where seek counts from.
enum class seek_from : int { set = MPI_SEEK_SET, current = MPI_SEEK_CUR, end = MPI_SEEK_END };

/// A file view as MPI_File_get_view returns it (derived types owned, builtins borrowed).
struct file_view {
  MPI_Offset displacement;
  datatype etype;
  datatype filetype;
  std::string datarep;
};

class file {
public:
  /// A null (closed) file.
  file() noexcept = default;
  /// Opens `path` collectively over `comm` (MPI_File_open).
  file(const communicator& comm, const std::string& path, file_mode mode,
       const info& hints = info::null()) {
    detail::require_running("MPI_File_open");
    if (comm.is_null()) throw std::logic_error("MPI_File_open: null communicator");
    OOMPI_CHECK(MPI_File_open,
                (comm.native(), path.c_str(), static_cast<int>(mode), hints.native(), &fh_));
    // A file starts with MPI_FILE_NULL's handler: install MPI_ERRORS_RETURN whatever that is.
    if (const int rc = MPI_File_set_errhandler(fh_, MPI_ERRORS_RETURN); rc != MPI_SUCCESS) {
      MPI_File_close(&fh_);
      detail::throw_mpi_error("MPI_File_set_errhandler", rc);
    }
  }
  static file open(const communicator& comm, const std::string& path, file_mode mode,
                   const info& hints = info::null()) {
    return file(comm, path, mode, hints);
  }
  /// Wraps an open handle; with `owned` this object closes it. MPI_ERRORS_RETURN is installed.
  explicit file(MPI_File fh, bool owned = false) : fh_(fh), owned_(owned) {
    if (fh_ != MPI_FILE_NULL) {
      detail::require_running("oompi::file");
      OOMPI_CHECK(MPI_File_set_errhandler, (fh_, MPI_ERRORS_RETURN));
      refresh_view();
    }
  }
  file(file&& o) noexcept
      : fh_(std::exchange(o.fh_, MPI_FILE_NULL)), owned_(o.owned_), etype_size_(o.etype_size_),
        etype_file_size_(o.etype_file_size_), byte_view_(o.byte_view_) {}
  file& operator=(file&& o) noexcept {
    if (this != &o) {
      reset();
      fh_ = std::exchange(o.fh_, MPI_FILE_NULL);
      owned_ = o.owned_;
      etype_size_ = o.etype_size_;
      etype_file_size_ = o.etype_file_size_;
      byte_view_ = o.byte_view_;
    }
    return *this;
  }
  file(const file&) = delete;
  file& operator=(const file&) = delete;
  /// Closes the file (collective), ignoring errors: call close() to see them.
  ~file() { reset(); }

  /// Closes the file (collective); throws oompi::error if MPI reports a failure. The object is
  /// null afterwards either way.
  void close() {
    if (fh_ == MPI_FILE_NULL) return;
    detail::require_running("MPI_File_close");
    if (!std::exchange(owned_, true)) {  // borrowed: only forgotten
      fh_ = MPI_FILE_NULL;
      return;
    }
    if (const int rc = MPI_File_close(&fh_); rc != MPI_SUCCESS) {
      fh_ = MPI_FILE_NULL;
      detail::throw_mpi_error("MPI_File_close", rc);
    }
  }
  /// Deletes a file (MPI_File_delete). A missing file is an oompi::error of class
  /// MPI_ERR_NO_SUCH_FILE.
  static void remove(const std::string& path, const info& hints = info::null()) {
    detail::require_running("MPI_File_delete");
    OOMPI_CHECK(MPI_File_delete, (path.c_str(), hints.native()));
  }

  MPI_File native() const noexcept { return fh_; }
  bool is_null() const noexcept { return fh_ == MPI_FILE_NULL; }
  bool is_open() const noexcept { return fh_ != MPI_FILE_NULL; }

  // --- views ------------------------------------------------------------------------------

  /// Sets the view (collective): the file seen from byte `displacement` on as a tiling of
  /// `filetype`, in units of `etype`. Both types may be freed afterwards (MPI keeps them).
  /// Resets both file pointers to 0.
  void set_view(MPI_Offset displacement, MPI_Datatype etype, MPI_Datatype filetype,
                const std::string& datarep = "native", const info& hints = info::null()) {
    require("MPI_File_set_view");
    if (displacement < 0 && displacement != MPI_DISPLACEMENT_CURRENT)
      throw std::invalid_argument("MPI_File_set_view: negative displacement " +
                                  std::to_string(displacement));
    OOMPI_CHECK(MPI_File_set_view, (fh_, displacement, etype, filetype, datarep.c_str(),
                                    hints.native()));
    refresh_view();
  }
  void set_view(MPI_Offset displacement, const datatype& etype, const datatype& filetype,
                const std::string& datarep = "native", const info& hints = info::null()) {
    set_view(displacement, etype.native(), filetype.native(), datarep, hints);
  }
  /// A contiguous view of T from `displacement` (etype = filetype = T).
  template <class T>
  void set_view(MPI_Offset displacement = 0) {
    set_view(displacement, datatype_of<T>(), datatype_of<T>());
  }
  file_view get_view() const {
    require("MPI_File_get_view");
    MPI_Offset disp = 0;
    MPI_Datatype et = MPI_DATATYPE_NULL, ft = MPI_DATATYPE_NULL;
    char rep[MPI_MAX_DATAREP_STRING + 1] = {};
    OOMPI_CHECK(MPI_File_get_view, (fh_, &disp, &et, &ft, rep));
    datatype e = datatype::adopt(et);
    return {disp, std::move(e), datatype::adopt(ft), rep};
  }
  /// Byte position in the file of view offset `offset` (MPI_File_get_byte_offset).
  MPI_Offset byte_offset(MPI_Offset offset) const {
    require("MPI_File_get_byte_offset");
    check_offset("MPI_File_get_byte_offset", offset);
    MPI_Offset b = 0;
    OOMPI_CHECK(MPI_File_get_byte_offset, (fh_, offset, &b));
    return b;
  }
  /// Extent of `type` in the file's data representation.
  MPI_Aint type_extent(const datatype& type) const {
    require("MPI_File_get_type_extent");
    MPI_Aint e = 0;
    OOMPI_CHECK(MPI_File_get_type_extent, (fh_, type.native(), &e));
    return e;
  }

  // --- explicit offsets -------------------------------------------------------------------

  template <class B, class = detail::enable_if_receivable<B>>
  status read_at(MPI_Offset offset, B&& buf) const {
    return read_at_impl<MPI_File_read_at>("MPI_File_read_at", offset, detail::describe_out(buf),
                                          false);
  }
  /// Collective.
  template <class B, class = detail::enable_if_receivable<B>>
  status read_at_all(MPI_Offset offset, B&& buf) const {
    return read_at_impl<MPI_File_read_at_all>("MPI_File_read_at_all", offset,
                                              detail::describe_out(buf), true);
  }
  template <class B>
  status write_at(MPI_Offset offset, const B& buf) const {
    return write_at_impl<MPI_File_write_at>("MPI_File_write_at", offset, detail::describe(buf));
  }
  /// Collective.
  template <class B>
  status write_at_all(MPI_Offset offset, const B& buf) const {
    return write_at_impl<MPI_File_write_at_all>("MPI_File_write_at_all", offset,
                                                detail::describe(buf));
  }

  // --- individual file pointer ------------------------------------------------------------

  template <class B, class = detail::enable_if_receivable<B>>
  status read(B&& buf) const {
    return read_impl<MPI_File_read>("MPI_File_read", detail::describe_out(buf), nullptr);
  }
  /// Collective.
  template <class B, class = detail::enable_if_receivable<B>>
  status read_all(B&& buf) const {
    return read_impl<MPI_File_read_all>("MPI_File_read_all", detail::describe_out(buf),
                                        &MPI_File_get_position);
  }
  template <class B>
  status write(const B& buf) const {
    return write_impl<MPI_File_write>("MPI_File_write", detail::describe(buf));
  }
  /// Collective.
  template <class B>
  status write_all(const B& buf) const {
    return write_impl<MPI_File_write_all>("MPI_File_write_all", detail::describe(buf));
  }
  /// Moves the individual file pointer (view offsets; negative only from current or end).
  void seek(MPI_Offset offset, seek_from whence = seek_from::set) const {
    require("MPI_File_seek");
    if (whence == seek_from::set) check_offset("MPI_File_seek", offset);
    OOMPI_CHECK(MPI_File_seek, (fh_, offset, static_cast<int>(whence)));
  }
  /// The individual file pointer (a view offset).
  MPI_Offset position() const {
    require("MPI_File_get_position");
    MPI_Offset p = 0;
    OOMPI_CHECK(MPI_File_get_position, (fh_, &p));
    return p;
  }

  // --- shared file pointer ----------------------------------------------------------------

  template <class B, class = detail::enable_if_receivable<B>>
  status read_shared(B&& buf) const {
    return read_impl<MPI_File_read_shared>("MPI_File_read_shared", detail::describe_out(buf),
                                           nullptr);
  }
  template <class B>
  status write_shared(const B& buf) const {
    return write_impl<MPI_File_write_shared>("MPI_File_write_shared", detail::describe(buf));
  }
  /// Collective, in rank order.
  template <class B, class = detail::enable_if_receivable<B>>
  status read_ordered(B&& buf) const {
    return read_impl<MPI_File_read_ordered>("MPI_File_read_ordered", detail::describe_out(buf),
                                            nullptr);
  }
  /// Collective, in rank order.
  template <class B>
  status write_ordered(const B& buf) const {
    return write_impl<MPI_File_write_ordered>("MPI_File_write_ordered", detail::describe(buf));
  }
  /// Moves the shared file pointer (collective; every process gives the same arguments).
  void seek_shared(MPI_Offset offset, seek_from whence = seek_from::set) const {
    require("MPI_File_seek_shared");
    if (whence == seek_from::set) check_offset("MPI_File_seek_shared", offset);
    OOMPI_CHECK(MPI_File_seek_shared, (fh_, offset, static_cast<int>(whence)));
  }
  MPI_Offset position_shared() const {
    require("MPI_File_get_position_shared");
    MPI_Offset p = 0;
    OOMPI_CHECK(MPI_File_get_position_shared, (fh_, &p));
    return p;
  }

  // --- nonblocking ------------------------------------------------------------------------
  // A read's buffer (a named variable or a view) is borrowed: keep it alive until the request
  // completes. A write of a temporary container (std::move(v)) moves it into the request. A
  // request destroyed early waits for the operation (MPI cannot cancel file I/O).

  template <class B, class = detail::enable_if_receivable<B>>
  request iread_at(MPI_Offset offset, B&& buf) const {
    return iread_at_impl<MPI_File_iread_at>("MPI_File_iread_at", offset,
                                            detail::describe_out(buf));
  }
  /// Collective (MPI-3.1).
  template <class B, class = detail::enable_if_receivable<B>>
  request iread_at_all(MPI_Offset offset, B&& buf) const {
    return iread_at_impl<MPI_File_iread_at_all>("MPI_File_iread_at_all", offset,
                                                detail::describe_out(buf));
  }
  template <class B>
  request iwrite_at(MPI_Offset offset, B&& buf) const {
    check_offset("MPI_File_iwrite_at", offset);
    return iwrite_impl("MPI_File_iwrite_at", std::forward<B>(buf),
                       [&](void* p, int n, MPI_Datatype t, MPI_Request* r) {
                         return MPI_File_iwrite_at(fh_, offset, p, n, t, r);
                       });
  }
  /// Collective (MPI-3.1).
  template <class B>
  request iwrite_at_all(MPI_Offset offset, B&& buf) const {
    check_offset("MPI_File_iwrite_at_all", offset);
    return iwrite_impl("MPI_File_iwrite_at_all", std::forward<B>(buf),
                       [&](void* p, int n, MPI_Datatype t, MPI_Request* r) {
                         return MPI_File_iwrite_at_all(fh_, offset, p, n, t, r);
                       });
  }
  template <class B, class = detail::enable_if_receivable<B>>
  request iread(B&& buf) const {
    return iread_impl<MPI_File_iread>("MPI_File_iread", detail::describe_out(buf),
                                      &MPI_File_get_position);
  }
  /// Collective (MPI-3.1).
  template <class B, class = detail::enable_if_receivable<B>>
  request iread_all(B&& buf) const {
    return iread_impl<MPI_File_iread_all>("MPI_File_iread_all", detail::describe_out(buf),
                                          &MPI_File_get_position);
  }
  template <class B, class = detail::enable_if_receivable<B>>
  request iread_shared(B&& buf) const {
    return iread_impl<MPI_File_iread_shared>("MPI_File_iread_shared", detail::describe_out(buf),
                                             &MPI_File_get_position_shared);
  }
  template <class B>
  request iwrite(B&& buf) const {
    return iwrite_impl("MPI_File_iwrite", std::forward<B>(buf),
                       [&](void* p, int n, MPI_Datatype t, MPI_Request* r) {
                         return MPI_File_iwrite(fh_, p, n, t, r);
                       });
  }
  /// Collective (MPI-3.1).
  template <class B>
  request iwrite_all(B&& buf) const {
    return iwrite_impl("MPI_File_iwrite_all", std::forward<B>(buf),
                       [&](void* p, int n, MPI_Datatype t, MPI_Request* r) {
                         return MPI_File_iwrite_all(fh_, p, n, t, r);
                       });
  }
  template <class B>
  request iwrite_shared(B&& buf) const {
    return iwrite_impl("MPI_File_iwrite_shared", std::forward<B>(buf),
                       [&](void* p, int n, MPI_Datatype t, MPI_Request* r) {
                         return MPI_File_iwrite_shared(fh_, p, n, t, r);
                       });
  }

  // --- size, consistency, hints -----------------------------------------------------------

  /// Size of the file in bytes.
  MPI_Offset size() const {
    require("MPI_File_get_size");
    MPI_Offset n = 0;
    OOMPI_CHECK(MPI_File_get_size, (fh_, &n));
    return n;
  }
  /// Truncates or extends the file to `bytes` (collective).
  void set_size(MPI_Offset bytes) const {
    require("MPI_File_set_size");
    check_offset("MPI_File_set_size", bytes);
    OOMPI_CHECK(MPI_File_set_size, (fh_, bytes));
  }
  /// Reserves storage for the first `bytes` bytes (collective).
  void preallocate(MPI_Offset bytes) const {
    require("MPI_File_preallocate");
    check_offset("MPI_File_preallocate", bytes);
    OOMPI_CHECK(MPI_File_preallocate, (fh_, bytes));
  }
  /// Flushes this process's writes to the storage device (collective).
  void sync() const {
    require("MPI_File_sync");
    OOMPI_CHECK(MPI_File_sync, (fh_));
  }
  /// The access mode the file was opened with.
  file_mode amode() const {
    require("MPI_File_get_amode");
    int m = 0;
    OOMPI_CHECK(MPI_File_get_amode, (fh_, &m));
    return static_cast<file_mode>(m);
  }
  /// Atomic mode (collective): conflicting accesses of different processes are serialised.
  void set_atomicity(bool atomic) const {
    require("MPI_File_set_atomicity");
    OOMPI_CHECK(MPI_File_set_atomicity, (fh_, atomic ? 1 : 0));
  }
  bool atomicity() const {
    require("MPI_File_get_atomicity");
    int flag = 0;
    OOMPI_CHECK(MPI_File_get_atomicity, (fh_, &flag));
    return flag != 0;
  }
  /// Gives hints (collective); MPI may ignore any of them.
  void set_info(const info& hints) const {
    require("MPI_File_set_info");
    OOMPI_CHECK(MPI_File_set_info, (fh_, hints.native()));
  }
  /// The hints in use (a new info object).
  info get_info() const {
    require("MPI_File_get_info");
    MPI_Info i = MPI_INFO_NULL;
    OOMPI_CHECK(MPI_File_get_info, (fh_, &i));
    return info(i, true);
  }
  /// The group of the communicator the file was opened on.
  oompi::group group() const {
    require("MPI_File_get_group");
    MPI_Group g = MPI_GROUP_NULL;
    OOMPI_CHECK(MPI_File_get_group, (fh_, &g));
    return oompi::group(g, true);
  }

private:
  using at_fn = int (*)(MPI_File, MPI_Offset, void*, int, MPI_Datatype, MPI_Status*);
  using wat_fn = int (*)(MPI_File, MPI_Offset, const void*, int, MPI_Datatype, MPI_Status*);
  using ptr_fn = int (*)(MPI_File, void*, int, MPI_Datatype, MPI_Status*);
  using wptr_fn = int (*)(MPI_File, const void*, int, MPI_Datatype, MPI_Status*);
  using iat_fn = int (*)(MPI_File, MPI_Offset, void*, int, MPI_Datatype, MPI_Request*);
  using iptr_fn = int (*)(MPI_File, void*, int, MPI_Datatype, MPI_Request*);
  using pos_fn = int (*)(MPI_File, MPI_Offset*);

  void require(const char* routine) const {
    detail::require_running(routine);
    if (OOMPI_DETAIL_UNLIKELY(fh_ == MPI_FILE_NULL))
      throw std::logic_error(std::string(routine) + ": the file is not open (closed or null)");
  }
  static void check_offset(const char* routine, MPI_Offset offset) {
    // Checked here: Open MPI's OMPIO takes a negative offset without an error.
    if (offset < 0)
      throw std::invalid_argument(std::string(routine) + ": negative offset " +
                                  std::to_string(offset));
  }

  // MPI requires the data of a buffer to be a whole number of the view's elementary type;
  // OMPIO does not check it (the default byte view takes anything, and costs nothing here).
  void check_fits(const char* routine, const detail::buffer_desc& d) const {
    if (OOMPI_DETAIL_LIKELY(etype_size_ == 1)) return;
    MPI_Count tsize = 0;
    OOMPI_CHECK(MPI_Type_size_x, (d.type, &tsize));
    if (tsize > 0 && (static_cast<MPI_Count>(d.count) * tsize) % etype_size_ != 0)
      throw std::invalid_argument(std::string(routine) + ": the buffer holds " +
                                  std::to_string(static_cast<MPI_Count>(d.count) * tsize) +
                                  " bytes, not a whole number of the view's elementary type (" +
                                  std::to_string(etype_size_) + " bytes)");
  }

  // The view's elementary size, and whether it is the default byte view (offset = byte).
  void refresh_view() {
    MPI_Offset disp = 0;
    MPI_Datatype et = MPI_DATATYPE_NULL, ft = MPI_DATATYPE_NULL;
    char rep[MPI_MAX_DATAREP_STRING + 1] = {};
    OOMPI_CHECK(MPI_File_get_view, (fh_, &disp, &et, &ft, rep));
    datatype e = datatype::adopt(et), f = datatype::adopt(ft);
    etype_size_ = e.size();
    MPI_Aint in_file = 0;  // an elementary item's size in the file's data representation
    OOMPI_CHECK(MPI_File_get_type_extent, (fh_, et, &in_file));
    etype_file_size_ = in_file;
    byte_view_ = disp == 0 && et == MPI_BYTE && ft == MPI_BYTE &&
                 std::string(rep) == "native";
  }

  // How many of the d.count elements read from view offset `offset` exist in the file now
  // (see "Short reads" above). The view's byte offsets grow with the view offset (MPI requires
  // monotone filetypes), so the elementary items inside the file are a prefix: binary search.
  std::size_t elements_in_file(MPI_Offset offset, const detail::buffer_desc& d) const {
    MPI_Count tsize = 0;
    OOMPI_CHECK(MPI_Type_size_x, (d.type, &tsize));
    if (tsize <= 0 || etype_size_ <= 0 || d.count == 0) return d.count;
    const MPI_Count bytes = static_cast<MPI_Count>(d.count) * tsize;
    if (bytes % etype_size_ != 0) return d.count;  // MPI reports the mismatch
    const MPI_Offset items = bytes / etype_size_;
    MPI_Offset fsize = 0;
    OOMPI_CHECK(MPI_File_get_size, (fh_, &fsize));
    auto inside = [&](MPI_Offset k) {  // is item k (0-based) inside the file?
      MPI_Offset b = offset + k;
      if (!byte_view_) OOMPI_CHECK(MPI_File_get_byte_offset, (fh_, offset + k, &b));
      return b + etype_file_size_ <= fsize;
    };
    MPI_Offset lo = 0, hi = items;  // items [0, lo) inside, [hi, items) outside
    if (inside(items - 1)) return d.count;
    hi = items - 1;
    while (lo < hi) {
      const MPI_Offset mid = lo + (hi - lo) / 2;
      if (inside(mid))
        lo = mid + 1;
      else
        hi = mid;
    }
    return static_cast<std::size_t>(lo * etype_size_ / tsize);
  }

  MPI_Offset position_by(pos_fn where) const {
    MPI_Offset at = 0;
    if (const int rc = where(fh_, &at); rc != MPI_SUCCESS)
      detail::throw_mpi_error(where == &MPI_File_get_position ? "MPI_File_get_position"
                                                              : "MPI_File_get_position_shared",
                              rc);
    return at;
  }
  template <at_fn Fn>
  status read_at_impl(const char* routine, MPI_Offset offset, detail::buffer_desc d,
                      bool limit) const {
    require(routine);
    check_offset(routine, offset);
    check_fits(routine, d);
    if (limit) d.count = elements_in_file(offset, d);
    status s;
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
      if (const int rc = Fn(fh_, offset, p, n, t, &s.native()); rc != MPI_SUCCESS)
        detail::throw_mpi_error(routine, rc);
    });
    return s;
  }
  template <wat_fn Fn>
  status write_at_impl(const char* routine, MPI_Offset offset,
                       const detail::buffer_desc& d) const {
    require(routine);
    check_offset(routine, offset);
    check_fits(routine, d);
    status s;
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
      if (const int rc = Fn(fh_, offset, p, n, t, &s.native()); rc != MPI_SUCCESS)
        detail::throw_mpi_error(routine, rc);
    });
    return s;
  }
  // `where` (a position query) given: limit the read to the file's end, as for collectives.
  template <ptr_fn Fn>
  status read_impl(const char* routine, detail::buffer_desc d, pos_fn where) const {
    require(routine);
    check_fits(routine, d);
    if (where) d.count = elements_in_file(position_by(where), d);
    status s;
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
      if (const int rc = Fn(fh_, p, n, t, &s.native()); rc != MPI_SUCCESS)
        detail::throw_mpi_error(routine, rc);
    });
    return s;
  }
  template <wptr_fn Fn>
  status write_impl(const char* routine, const detail::buffer_desc& d) const {
    require(routine);
    check_fits(routine, d);
    status s;
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
      if (const int rc = Fn(fh_, p, n, t, &s.native()); rc != MPI_SUCCESS)
        detail::throw_mpi_error(routine, rc);
    });
    return s;
  }
  // Nonblocking reads: the large-count datatype (if any) may be freed at once (MPI keeps a
  // reference while the operation runs).
  template <iat_fn Fn>
  request iread_at_impl(const char* routine, MPI_Offset offset, detail::buffer_desc d) const {
    require(routine);
    check_offset(routine, offset);
    check_fits(routine, d);
    d.count = elements_in_file(offset, d);
    MPI_Request r = MPI_REQUEST_NULL;
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
      if (const int rc = Fn(fh_, offset, p, n, t, &r); rc != MPI_SUCCESS)
        detail::throw_mpi_error(routine, rc);
    });
    return request(r);
  }
  template <iptr_fn Fn>
  request iread_impl(const char* routine, detail::buffer_desc d, pos_fn where) const {
    require(routine);
    check_fits(routine, d);
    d.count = elements_in_file(position_by(where), d);
    MPI_Request r = MPI_REQUEST_NULL;
    detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
      if (const int rc = Fn(fh_, p, n, t, &r); rc != MPI_SUCCESS)
        detail::throw_mpi_error(routine, rc);
    });
    return request(r);
  }
  template <class B, class Start>
  request iwrite_impl(const char* routine, B&& buf, Start&& start) const {
    require(routine);
    MPI_Request r = MPI_REQUEST_NULL;
    auto go = [&](const auto& b) {
      const detail::buffer_desc d = detail::describe(b);
      check_fits(routine, d);
      detail::with_int_count(d, [&](void* p, int n, MPI_Datatype t) {
        if (const int rc = start(p, n, t, &r); rc != MPI_SUCCESS)
          detail::throw_mpi_error(routine, rc);
      });
    };
    if constexpr (std::is_lvalue_reference_v<B> || is_view_v<B>) {
      go(buf);
      return request(r);
    } else {
      using V = std::remove_cv_t<std::remove_reference_t<B>>;
      auto owned = std::make_unique<detail::kept<V>>(std::move(buf));
      go(owned->value);
      return request(r, std::move(owned));
    }
  }

  void reset() noexcept {
    if (owned_ && fh_ != MPI_FILE_NULL && detail::mpi_usable()) MPI_File_close(&fh_);
    fh_ = MPI_FILE_NULL;
  }

  MPI_File fh_ = MPI_FILE_NULL;
  bool owned_ = true;
  MPI_Count etype_size_ = 1;       // in memory
  MPI_Offset etype_file_size_ = 1;  // in the file (differs for datarep "external32")
  bool byte_view_ = true;
};

}  // namespace oompi

#endif  // OOMPI_FILE_HPP
