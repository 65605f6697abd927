#ifndef OOMPI_ATTRIBUTE_HPP
#define OOMPI_ATTRIBUTE_HPP

// Attribute caching on communicators (MPI keyvals), typed and RAII.
//
//   oompi::keyval<std::string> tag;                      // copied on dup (the default)
//   tag.set(comm, "solver");   /  comm.set_attr(tag, "solver")
//   std::string* s = tag.get(comm);                      // nullptr when not set
//
// A keyval<T> attaches C++ values of type T. What MPI_Comm_dup does with them is the keyval's
// copy policy: attribute_copy::copy (copy-construct T), attribute_copy::none (the new
// communicator has no value), or a callable (const T&) -> T or std::optional<T> (nullopt: no
// value). Values are destroyed when replaced, erased, or when their communicator is freed; an
// optional delete callable (T&) runs first. An exception thrown by a copy or delete callable is
// caught before it reaches MPI and rethrown by the oompi call that ran it (dup, set, erase,
// free); during a communicator's destructor it is dropped.
//
// The keyval itself is freed (MPI_Comm_free_keyval) by its destructor; values still attached
// stay valid and are deleted with their communicators. Values attached to world are not
// deleted at MPI_Finalize (MPI only deletes those on self).

#include "communicator.hpp"
#include "detail/comm_ops.hpp"
#include "error.hpp"

#include <mpi.h>

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace oompi {

/// What MPI_Comm_dup does with an attribute.
enum class attribute_copy {
  none,  ///< the duplicate has no value for this keyval
  copy,  ///< the duplicate gets a copy (T must be copy-constructible)
};

template <class T>
class keyval {
  static_assert(std::is_move_constructible_v<T>, "oompi::keyval<T>: T must be movable");

public:
  using copy_function = std::function<std::optional<T>(const T&)>;
  using delete_function = std::function<void(T&)>;

  /// A keyval whose values are copied on dup (attribute_copy::copy) or not (none).
  explicit keyval(attribute_copy policy = attribute_copy::copy) {
    auto ctl = std::make_shared<control>();
    if (policy == attribute_copy::copy) {
      if constexpr (std::is_copy_constructible_v<T>) {
        ctl->copy = [](const T& v) { return std::optional<T>(v); };
      } else {
        throw std::invalid_argument(
            "oompi::keyval: attribute_copy::copy needs a copy-constructible type; use "
            "attribute_copy::none or give a copy function");
      }
    }
    create(std::move(ctl));
  }
  /// A keyval whose values dup copies with `copy` ((const T&) -> T, or -> std::optional<T> where
  /// nullopt means "no value on the duplicate"), and optionally observes deletions.
  template <class Copy, class = std::enable_if_t<!std::is_same_v<std::decay_t<Copy>, attribute_copy>>>
  explicit keyval(Copy copy, delete_function on_delete = nullptr) {
    static_assert(std::is_invocable_v<Copy&, const T&>,
                  "oompi::keyval: the copy function must be callable as f(const T&) and return "
                  "T or std::optional<T>");
    auto ctl = std::make_shared<control>();
    ctl->copy = [f = std::move(copy)](const T& v) mutable -> std::optional<T> { return f(v); };
    ctl->on_delete = std::move(on_delete);
    create(std::move(ctl));
  }
  /// A keyval with a copy policy and a deletion callback.
  keyval(attribute_copy policy, delete_function on_delete) : keyval(policy) {
    std::const_pointer_cast<control>(ctl_)->on_delete = std::move(on_delete);
  }

  keyval(keyval&& o) noexcept
      : key_(std::exchange(o.key_, MPI_KEYVAL_INVALID)), ctl_(std::move(o.ctl_)) {}
  keyval& operator=(keyval&& o) noexcept {
    if (this != &o) {
      reset();
      key_ = std::exchange(o.key_, MPI_KEYVAL_INVALID);
      ctl_ = std::move(o.ctl_);
    }
    return *this;
  }
  keyval(const keyval&) = delete;
  keyval& operator=(const keyval&) = delete;
  ~keyval() { reset(); }

  int native() const noexcept { return key_; }

  /// Attaches `value` to `comm` (an earlier value is deleted first).
  template <class V>
  void set(const communicator& comm, V&& value) const {
    require(comm, "MPI_Comm_set_attr");
    auto h = std::make_unique<holder>(holder{T(std::forward<V>(value)), ctl_});
    detail::callback_scope cs;
    const int rc = MPI_Comm_set_attr(comm.native(), key_, h.get());
    if (rc == MPI_SUCCESS) h.release();
    cs.check("MPI_Comm_set_attr", rc);
  }
  /// The value attached to `comm`; nullptr when there is none.
  T* get(const communicator& comm) const {
    require(comm, "MPI_Comm_get_attr");
    void* p = nullptr;
    int flag = 0;
    OOMPI_CHECK(MPI_Comm_get_attr, (comm.native(), key_, &p, &flag));
    return flag ? &static_cast<holder*>(p)->value : nullptr;
  }
  /// True when `comm` has a value for this keyval.
  bool has(const communicator& comm) const { return get(comm) != nullptr; }
  /// Deletes the value attached to `comm`; false when there was none.
  bool erase(const communicator& comm) const {
    if (!has(comm)) return false;
    detail::callback_scope cs;
    cs.check("MPI_Comm_delete_attr", MPI_Comm_delete_attr(comm.native(), key_));
    return true;
  }

private:
  struct control {
    copy_function copy;  // empty: not copied
    delete_function on_delete;
  };
  // What MPI stores: the value and the callbacks (shared, so they outlive the keyval object
  // for values still attached after it is gone).
  struct holder {
    T value;
    std::shared_ptr<const control> ctl;
  };

  static int copy_cb(MPI_Comm, int, void*, void* in, void* out, int* flag) noexcept {
    *flag = 0;
    const auto* h = static_cast<const holder*>(in);
    if (!h->ctl->copy) return MPI_SUCCESS;
    try {
      std::optional<T> v = h->ctl->copy(h->value);
      if (!v) return MPI_SUCCESS;
      *static_cast<void**>(out) = new holder{std::move(*v), h->ctl};
      *flag = 1;
      return MPI_SUCCESS;
    } catch (...) {
      detail::callback_exception() = std::current_exception();
      return MPI_ERR_OTHER;
    }
  }
  // Always frees the value and reports success: an error would leave MPI holding a pointer to
  // a deleted holder. A throwing on_delete is reported through callback_exception().
  static int delete_cb(MPI_Comm, int, void* val, void*) noexcept {
    std::unique_ptr<holder> h(static_cast<holder*>(val));
    if (h->ctl->on_delete) {
      try {
        h->ctl->on_delete(h->value);
      } catch (...) {
        detail::callback_exception() = std::current_exception();
      }
    }
    return MPI_SUCCESS;
  }

  void create(std::shared_ptr<control> ctl) {
    detail::require_running("MPI_Comm_create_keyval");
    OOMPI_CHECK(MPI_Comm_create_keyval, (&copy_cb, &delete_cb, &key_, nullptr));
    ctl_ = std::move(ctl);
  }
  void require(const communicator& comm, const char* routine) const {
    detail::require_running(routine);
    if (key_ == MPI_KEYVAL_INVALID)
      throw std::logic_error(std::string(routine) + ": this keyval was moved from");
    if (comm.is_null()) throw std::logic_error(std::string(routine) + ": null communicator");
  }
  void reset() noexcept {
    if (key_ != MPI_KEYVAL_INVALID && detail::mpi_usable()) MPI_Comm_free_keyval(&key_);
    key_ = MPI_KEYVAL_INVALID;
  }

  int key_ = MPI_KEYVAL_INVALID;
  std::shared_ptr<const control> ctl_;
};

// --- predefined attributes ------------------------------------------------------------------

namespace detail {
inline std::optional<int> predefined_int(MPI_Comm comm, int key, const char* routine) {
  require_running(routine);
  void* p = nullptr;
  int flag = 0;
  OOMPI_CHECK(MPI_Comm_get_attr, (comm, key, &p, &flag));
  if (!flag || p == nullptr) return std::nullopt;
  return *static_cast<int*>(p);
}
}  // namespace detail

/// The largest tag value (MPI_TAG_UB, at least 32767).
inline int tag_ub() {
  return detail::predefined_int(MPI_COMM_WORLD, MPI_TAG_UB, "oompi::tag_ub").value_or(32767);
}
/// Whether MPI_Wtime is synchronised across all processes (MPI_WTIME_IS_GLOBAL).
inline bool wtime_is_global() {
  return detail::predefined_int(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, "oompi::wtime_is_global")
             .value_or(0) != 0;
}
/// How many processes the job may have in all (MPI_UNIVERSE_SIZE), if the launcher says.
inline std::optional<int> universe_size() {
  return detail::predefined_int(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, "oompi::universe_size");
}
/// This program's number in an MPMD launch (MPI_APPNUM), if any.
inline std::optional<int> appnum() {
  return detail::predefined_int(MPI_COMM_WORLD, MPI_APPNUM, "oompi::appnum");
}

}  // namespace oompi

#endif  // OOMPI_ATTRIBUTE_HPP
