#include <oompi/rt/file.hpp>

#include "detail/comm_state.hpp"
#include "detail/reclaim.hpp"

#include <oompi/file.hpp>

#include <climits>
#include <exception>

namespace oompi::rt {

using detail::check_buffer;
using detail::raw;

struct file::state {
  // A borrowed view of the handle: this state decides when to close it. Never closed in the
  // destructor (MPI_File_close is collective; this may be a finalizer thread).
  oompi::file f;
  bool closed = false;
  // The split collective in progress (at most one, MPI's rule) and what keeps its buffer.
  enum { none, reading, writing } split = none;
  void* split_data = nullptr;
  std::unique_ptr<keep_alive> split_keep;
  ~state() {
    // A split collective never ended: MPI may still touch the buffer until MPI_Finalize.
    if (split != none && oompi::detail::mpi_usable()) (void)split_keep.release();
  }
};

file::state& file::live(const char* what) const {
  return *detail::live_state(st_, what, "file");
}

file file::open(const comm& c, const std::string& path, int mode) {
  return open(c, path, mode, info());
}

file file::open(const comm& c, const std::string& path, int mode, const info& hints) {
  const MPI_Comm h = c.native("file.open");
  oompi::detail::require_running("MPI_File_open");
  detail::drain();
  // A closed info at one process must throw at every process rather than leave the others in
  // the collective open: agree first, and throw the same kind everywhere (one catch in SPMD code).
  MPI_Info i = MPI_INFO_NULL;
  std::exception_ptr fault;
  try {
    i = hints.native("file.open");
  } catch (...) {
    fault = std::current_exception();
  }
  int ok = fault ? 0 : 1, all = 0;
  OOMPI_CHECK(MPI_Allreduce, (&ok, &all, 1, MPI_INT, MPI_MIN, h));
  if (fault) std::rethrow_exception(fault);
  if (!all)
    throw closed_error("file.open: the hints (an info) have been closed at another process");
  MPI_File fh = MPI_FILE_NULL;
  // Opened here rather than by oompi::file::open, whose result would close the handle when it
  // goes away; the core's borrowed wrapper installs MPI_ERRORS_RETURN and reads the view.
  OOMPI_CHECK(MPI_File_open, (h, path.c_str(), mode, i, &fh));
  auto s = std::make_shared<state>();
  try {
    s->f = oompi::file(fh, false);
  } catch (...) {
    MPI_File_close(&fh);
    throw;
  }
  return file(std::move(s));
}

void file::remove(const std::string& path) { oompi::file::remove(path); }

void file::close() {
  if (!st_ || st_->closed) return;
  if (st_->split != state::none)
    throw std::logic_error("file.close: a split collective is in progress (call its _end first)");
  MPI_File h = st_->f.native();
  st_->f = oompi::file();
  st_->closed = true;
  if (h != MPI_FILE_NULL && oompi::detail::mpi_usable()) OOMPI_CHECK(MPI_File_close, (&h));
}

bool file::is_null() const noexcept { return !st_ || st_->closed; }

void file::set_view(std::int64_t displacement, const datatype& etype, const datatype& filetype,
                    const std::string& datarep) {
  live("file.set_view").f.set_view(displacement, etype.native("file.set_view"),
                                    filetype.native("file.set_view"), datarep);
}

file_view file::get_view() const {
  const auto& s = live("file.get_view");
  MPI_Offset disp = 0;
  MPI_Datatype et = MPI_DATATYPE_NULL, ft = MPI_DATATYPE_NULL;
  char rep[MPI_MAX_DATAREP_STRING + 1] = {};
  OOMPI_CHECK(MPI_File_get_view, (s.f.native(), &disp, &et, &ft, rep));
  datatype e = datatype::adopt(et);  // owned at once: freed even if the next throws
  return file_view(disp, std::move(e), datatype::adopt(ft), rep);
}

namespace {
int split_count(const buffer& b, const char* what) {
  if (b.count > INT_MAX)
    throw std::length_error(std::string(what) + ": more than INT_MAX elements");
  return static_cast<int>(b.count);
}
[[noreturn]] void throw_split(const char* what, const char* why) {
  throw std::logic_error(std::string(what) + ": " + why);
}

// The two halves of a split collective (at most one in progress per file, MPI's rule): begin
// records its direction and keeps the buffer alive; end checks that direction and completes it.
template <class State, class Begin>
void begin_split(State& s, decltype(State::split) direction, const async_buffer& buf,
                 const char* what, const char* mpi_name, Begin&& begin) {
  check_buffer(buf, what);
  if (s.split != State::none)
    throw_split(what, "a split collective of this file is still in progress");
  begin(split_count(buf, mpi_name));
  s.split = direction;
  s.split_data = buf.data;
  s.split_keep = std::move(buf.keep);
}
template <class State, class End>
status end_split(State& s, decltype(State::split) direction, const char* what, const char* why,
                 End&& end) {
  if (s.split != direction) throw_split(what, why);
  MPI_Status st;
  end(&st);
  s.split = State::none;
  s.split_keep.reset();
  return status(oompi::status(st));
}
}  // namespace

void file::read_all_begin(async_buffer& buf) const {
  auto& s = const_cast<state&>(live("file.read_all_begin"));
  begin_split(s, state::reading, buf, "file.read_all_begin", "MPI_File_read_all_begin",
              [&](int n) {
                OOMPI_CHECK(MPI_File_read_all_begin, (s.f.native(), buf.data, n, buf.type));
              });
}

status file::read_all_end() const {
  auto& s = const_cast<state&>(live("file.read_all_end"));
  return end_split(s, state::reading, "file.read_all_end", "no read_all_begin to end",
                   [&](MPI_Status* st) {
                     OOMPI_CHECK(MPI_File_read_all_end, (s.f.native(), s.split_data, st));
                   });
}

void file::write_all_begin(const async_buffer& buf) const {
  auto& s = const_cast<state&>(live("file.write_all_begin"));
  begin_split(s, state::writing, buf, "file.write_all_begin", "MPI_File_write_all_begin", [&](int n) {
    OOMPI_CHECK(MPI_File_write_all_begin, (s.f.native(), buf.data, n, buf.type));
  });
}

status file::write_all_end() const {
  auto& s = const_cast<state&>(live("file.write_all_end"));
  return end_split(s, state::writing, "file.write_all_end", "no write_all_begin to end",
                   [&](MPI_Status* st) {
                     OOMPI_CHECK(MPI_File_write_all_end, (s.f.native(), s.split_data, st));
                   });
}

std::int64_t file::byte_offset(std::int64_t offset) const {
  return live("file.byte_offset").f.byte_offset(offset);
}

// Blocking calls: the buffer checked, then the core's call on a raw view of it.
#define OOMPI_RT_FILE_READ(NAME)                                       \
  status file::NAME(buffer& buf) const {                               \
    const auto& s = live("file." #NAME);                               \
    check_buffer(buf, "file." #NAME);                                  \
    auto rb = raw(buf);                                                \
    return status(s.f.NAME(rb));                                       \
  }
#define OOMPI_RT_FILE_WRITE(NAME)                                      \
  status file::NAME(const buffer& buf) const {                         \
    const auto& s = live("file." #NAME);                               \
    check_buffer(buf, "file." #NAME);                                  \
    return status(s.f.NAME(raw(buf)));                                 \
  }
#define OOMPI_RT_FILE_READ_AT(NAME)                                    \
  status file::NAME(std::int64_t offset, buffer& buf) const {          \
    const auto& s = live("file." #NAME);                               \
    check_buffer(buf, "file." #NAME);                                  \
    auto rb = raw(buf);                                                \
    return status(s.f.NAME(offset, rb));                               \
  }
#define OOMPI_RT_FILE_WRITE_AT(NAME)                                   \
  status file::NAME(std::int64_t offset, const buffer& buf) const {    \
    const auto& s = live("file." #NAME);                               \
    check_buffer(buf, "file." #NAME);                                  \
    return status(s.f.NAME(offset, raw(buf)));                         \
  }
// Nonblocking calls: the core borrows the raw view; the request owns the buffer's keep-alive.
#define OOMPI_RT_FILE_IREAD(NAME)                                      \
  request file::NAME(async_buffer& buf) const {                        \
    const auto& s = live("file." #NAME);                               \
    check_buffer(buf, "file." #NAME);                                  \
    detail::drain();                                                   \
    auto rb = raw(buf);                                                \
    return request(detail::owning(s.f.NAME(rb), &buf));                \
  }
#define OOMPI_RT_FILE_IWRITE(NAME)                                     \
  request file::NAME(const async_buffer& buf) const {                  \
    const auto& s = live("file." #NAME);                               \
    check_buffer(buf, "file." #NAME);                                  \
    detail::drain();                                                   \
    auto rb = raw(buf);                                                \
    return request(detail::owning(s.f.NAME(rb), &buf));                \
  }
#define OOMPI_RT_FILE_IREAD_AT(NAME)                                   \
  request file::NAME(std::int64_t offset, async_buffer& buf) const {   \
    const auto& s = live("file." #NAME);                               \
    check_buffer(buf, "file." #NAME);                                  \
    detail::drain();                                                   \
    auto rb = raw(buf);                                                \
    return request(detail::owning(s.f.NAME(offset, rb), &buf));        \
  }
#define OOMPI_RT_FILE_IWRITE_AT(NAME)                                        \
  request file::NAME(std::int64_t offset, const async_buffer& buf) const {   \
    const auto& s = live("file." #NAME);                                     \
    check_buffer(buf, "file." #NAME);                                        \
    detail::drain();                                                         \
    auto rb = raw(buf);                                                      \
    return request(detail::owning(s.f.NAME(offset, rb), &buf));              \
  }

OOMPI_RT_FILE_READ_AT(read_at)
OOMPI_RT_FILE_READ_AT(read_at_all)
OOMPI_RT_FILE_WRITE_AT(write_at)
OOMPI_RT_FILE_WRITE_AT(write_at_all)
OOMPI_RT_FILE_READ(read)
OOMPI_RT_FILE_READ(read_all)
OOMPI_RT_FILE_WRITE(write)
OOMPI_RT_FILE_WRITE(write_all)
OOMPI_RT_FILE_READ(read_shared)
OOMPI_RT_FILE_WRITE(write_shared)
OOMPI_RT_FILE_READ(read_ordered)
OOMPI_RT_FILE_WRITE(write_ordered)
OOMPI_RT_FILE_IREAD_AT(iread_at)
OOMPI_RT_FILE_IWRITE_AT(iwrite_at)
OOMPI_RT_FILE_IREAD_AT(iread_at_all)
OOMPI_RT_FILE_IWRITE_AT(iwrite_at_all)
OOMPI_RT_FILE_IREAD(iread)
OOMPI_RT_FILE_IWRITE(iwrite)
OOMPI_RT_FILE_IREAD(iread_all)
OOMPI_RT_FILE_IWRITE(iwrite_all)
OOMPI_RT_FILE_IREAD(iread_shared)
OOMPI_RT_FILE_IWRITE(iwrite_shared)

#undef OOMPI_RT_FILE_READ
#undef OOMPI_RT_FILE_WRITE
#undef OOMPI_RT_FILE_READ_AT
#undef OOMPI_RT_FILE_WRITE_AT
#undef OOMPI_RT_FILE_IREAD
#undef OOMPI_RT_FILE_IWRITE
#undef OOMPI_RT_FILE_IREAD_AT
#undef OOMPI_RT_FILE_IWRITE_AT

namespace {
oompi::seek_from core_whence(seek_from w) {
  switch (w) {
    case seek_from::set: return oompi::seek_from::set;
    case seek_from::current: return oompi::seek_from::current;
    case seek_from::end: return oompi::seek_from::end;
  }
  throw std::invalid_argument("file.seek: whence must be seek_from set, current or end");
}
}  // namespace

void file::seek(std::int64_t offset, seek_from whence) const {
  live("file.seek").f.seek(offset, core_whence(whence));
}
std::int64_t file::position() const { return live("file.position").f.position(); }
void file::seek_shared(std::int64_t offset, seek_from whence) const {
  live("file.seek_shared").f.seek_shared(offset, core_whence(whence));
}
std::int64_t file::position_shared() const {
  return live("file.position_shared").f.position_shared();
}

std::int64_t file::size() const { return live("file.size").f.size(); }
void file::set_size(std::int64_t bytes) const { live("file.set_size").f.set_size(bytes); }
void file::preallocate(std::int64_t bytes) const {
  live("file.preallocate").f.preallocate(bytes);
}
void file::sync() const { live("file.sync").f.sync(); }
int file::amode() const { return static_cast<int>(live("file.amode").f.amode()); }
void file::set_atomicity(bool atomic) const {
  live("file.set_atomicity").f.set_atomicity(atomic);
}
bool file::atomicity() const { return live("file.atomicity").f.atomicity(); }

// --- hints (binding parity, issue 15) ----------------------------------------------------------

void file::set_info(const info& hints) const {
  const MPI_Info i = hints.native("file.set_info");
  if (i == MPI_INFO_NULL)
    throw std::invalid_argument("file.set_info: null info (info.create() makes one)");
  OOMPI_CHECK(MPI_File_set_info, (live("file.set_info").f.native(), i));
}

info file::get_info() const {
  const MPI_File h = live("file.get_info").f.native();
  detail::drain();
  MPI_Info i = MPI_INFO_NULL;
  OOMPI_CHECK(MPI_File_get_info, (h, &i));
  return info::adopt(i);
}

}  // namespace oompi::rt
