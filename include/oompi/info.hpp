#ifndef OOMPI_INFO_HPP
#define OOMPI_INFO_HPP

// Info objects (MPI_Info): string key/value hints, as an RAII type.
//
//   oompi::info hints{{"mpi_assert_no_any_tag", "true"}};
//   auto c = world.dup(hints);
//
// `info()` makes a new, empty object (MPI must be running); `info::null()` is MPI_INFO_NULL,
// the "no hints" argument every function taking an info defaults to. Keys longer than
// MPI_MAX_INFO_KEY, empty keys or values, and values longer than MPI_MAX_INFO_VAL throw
// std::invalid_argument.

#include "error.hpp"

#include <mpi.h>

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace oompi {

class info {
public:
  /// A new, empty info object.
  info() {
    detail::require_running("MPI_Info_create");
    OOMPI_CHECK(MPI_Info_create, (&info_));
    owned_ = true;
  }
  /// A new info object holding the given pairs.
  info(std::initializer_list<std::pair<std::string, std::string>> pairs) : info() {
    for (const auto& kv : pairs) set(kv.first, kv.second);
  }
  /// Wraps a handle; with `owned` (the default) this object frees it.
  explicit info(MPI_Info handle, bool owned = true) noexcept : info_(handle), owned_(owned) {}
  info(info&& o) noexcept
      : info_(std::exchange(o.info_, MPI_INFO_NULL)), owned_(std::exchange(o.owned_, false)) {}
  info& operator=(info&& o) noexcept {
    if (this != &o) {
      reset();
      info_ = std::exchange(o.info_, MPI_INFO_NULL);
      owned_ = std::exchange(o.owned_, false);
    }
    return *this;
  }
  info(const info&) = delete;  // dup() makes a new object
  info& operator=(const info&) = delete;
  ~info() { reset(); }

  /// MPI_INFO_NULL: no hints. Needs no running MPI.
  static info null() noexcept { return info(MPI_INFO_NULL, false); }
  /// MPI_INFO_ENV: how the program was started (command, argv, maxprocs, ...); not owned.
  static info env() {
    detail::require_running("oompi::info::env");
    return info(MPI_INFO_ENV, false);
  }

  MPI_Info native() const noexcept { return info_; }
  bool is_null() const noexcept { return info_ == MPI_INFO_NULL; }
  bool owned() const noexcept { return owned_; }

  /// Sets (or replaces) a key.
  void set(const std::string& key, const std::string& value) {
    require("MPI_Info_set");
    check_key("MPI_Info_set", key);
    if (value.empty())  // Open MPI refuses it, MPICH takes it: refuse it everywhere
      throw std::invalid_argument("MPI_Info_set: empty value for \"" + key + "\"");
    if (value.size() > static_cast<std::size_t>(MPI_MAX_INFO_VAL))
      throw std::invalid_argument("MPI_Info_set: the value of \"" + key + "\" is longer than " +
                                  "MPI_MAX_INFO_VAL (" + std::to_string(MPI_MAX_INFO_VAL) +
                                  ") characters");
    OOMPI_CHECK(MPI_Info_set, (info_, key.c_str(), value.c_str()));
  }
  /// The value of a key; nothing when it is not set.
  std::optional<std::string> get(const std::string& key) const {
    require("MPI_Info_get");
    check_key("MPI_Info_get", key);
    int len = 0, flag = 0;
    OOMPI_CHECK(MPI_Info_get_valuelen, (info_, key.c_str(), &len, &flag));
    if (!flag) return std::nullopt;
    std::string value(static_cast<std::size_t>(len) + 1, '\0');
    OOMPI_CHECK(MPI_Info_get, (info_, key.c_str(), len, &value[0], &flag));
    if (!flag) return std::nullopt;
    value.resize(static_cast<std::size_t>(len));
    return value;
  }
  bool contains(const std::string& key) const { return get(key).has_value(); }
  /// Removes a key (MPI_Info_delete); returns false when it was not set.
  bool erase(const std::string& key) {
    require("MPI_Info_delete");
    check_key("MPI_Info_delete", key);
    int len = 0, flag = 0;
    OOMPI_CHECK(MPI_Info_get_valuelen, (info_, key.c_str(), &len, &flag));
    if (!flag) return false;
    OOMPI_CHECK(MPI_Info_delete, (info_, key.c_str()));
    return true;
  }
  /// Number of keys.
  int size() const {
    require("MPI_Info_get_nkeys");
    int n = 0;
    OOMPI_CHECK(MPI_Info_get_nkeys, (info_, &n));
    return n;
  }
  /// All keys, in MPI's order.
  std::vector<std::string> keys() const {
    const int n = size();
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(n));
    char key[MPI_MAX_INFO_KEY + 1];
    for (int i = 0; i < n; ++i) {
      OOMPI_CHECK(MPI_Info_get_nthkey, (info_, i, key));
      out.emplace_back(key);
    }
    return out;
  }
  /// All (key, value) pairs.
  std::vector<std::pair<std::string, std::string>> items() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& k : keys()) {
      auto v = get(k);
      out.emplace_back(std::move(k), v.value_or(std::string()));
    }
    return out;
  }
  /// A new info object with the same pairs.
  info dup() const {
    require("MPI_Info_dup");
    MPI_Info copy = MPI_INFO_NULL;
    OOMPI_CHECK(MPI_Info_dup, (info_, &copy));
    return info(copy, true);
  }

private:
  void require(const char* routine) const {
    detail::require_running(routine);
    if (info_ == MPI_INFO_NULL)
      throw std::logic_error(std::string(routine) + ": null info object (info::null())");
  }
  static void check_key(const char* routine, const std::string& key) {
    if (key.empty()) throw std::invalid_argument(std::string(routine) + ": empty key");
    if (key.size() > static_cast<std::size_t>(MPI_MAX_INFO_KEY))
      throw std::invalid_argument(std::string(routine) + ": key \"" + key +
                                  "\" is longer than MPI_MAX_INFO_KEY (" +
                                  std::to_string(MPI_MAX_INFO_KEY) + ") characters");
  }
  void reset() noexcept {
    if (owned_ && info_ != MPI_INFO_NULL && detail::mpi_usable()) MPI_Info_free(&info_);
    info_ = MPI_INFO_NULL;
    owned_ = false;
  }

  MPI_Info info_ = MPI_INFO_NULL;
  bool owned_ = false;
};

}  // namespace oompi

#endif  // OOMPI_INFO_HPP
