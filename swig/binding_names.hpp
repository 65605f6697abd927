// Each binding's messages in its own names. The facade raises its exceptions in its own names
// ("window.put: this window has been closed", rt/common.hpp); a Java, C# or Python user knows
// Window.put, MpiWindow... only by the names the binding's rename rules give the facade's
// classes and methods (java.i, csharp.i, python.i). A binding describes those rules once
// (binding_names below: the method case, the classes it renames, its word for close) and
// shows every facade message, and its own closed-proxy checks, in them:
//   Java    File.writeAt: this File has been closed
//   C#      MpiFile.WriteAt: this MpiFile has been disposed
//   Python  File.write_at: this File has been closed
#ifndef OOMPI_SWIG_BINDING_NAMES_HPP
#define OOMPI_SWIG_BINDING_NAMES_HPP

#include <oompi/rt/common.hpp>

#include <cctype>
#include <exception>
#include <string>
#include <string_view>

namespace oompi::binding {

enum class method_case { snake, lower_camel, upper_camel };

/// A facade class the binding names otherwise than by its class rule (C#: file is MpiFile).
struct class_rename {
  const char* facade;
  const char* language;
};

struct binding_names {
  method_case methods;           // the rename rule of functions (classes are always CamelCase)
  const char* close;             // the language's close: close, Dispose
  const char* closed;            // what a closed handle is: "closed", "disposed"
  const class_rename* renames;   // ends with {nullptr, nullptr}
};

/// The three bindings' names (the rename rules of java_naming.i, csharp_naming.i, python.i).
inline constexpr binding_names java_names{method_case::lower_camel, "close", "closed", nullptr};
inline constexpr class_rename csharp_renames[] = {
    {"environment", "MpiEnvironment"}, {"file", "MpiFile"}, {nullptr, nullptr}};
inline constexpr binding_names csharp_names{method_case::upper_camel, "Dispose", "disposed",
                                            csharp_renames};
inline constexpr binding_names python_names{method_case::snake, "close", "closed", nullptr};

namespace detail {
inline std::string camel(std::string_view s, bool upper_first) {
  std::string r;
  bool up = upper_first;
  for (char c : s) {
    if (c == '_') {
      up = true;
    } else {
      r += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      up = false;
    }
  }
  return r;
}

/// The facade's classes: a message's "<class>.<method>: " is rewritten only for these.
inline bool facade_class(std::string_view c) {
  static constexpr std::string_view classes[] = {
      "buffer_attachment", "cart_comm", "comm", "comm_future", "datatype", "datatype_contents",
      "dist_graph_comm", "environment", "epoch", "file", "file_view", "graph_comm", "group",
      "info", "intercomm", "interop", "keyval", "message", "op", "request", "status",
      "topo_comm", "window"};
  for (std::string_view k : classes)
    if (k == c) return true;
  return false;
}
}  // namespace detail

/// The binding's class for a facade class (window -> Window; C# file -> MpiFile).
inline std::string class_name(std::string_view facade, const binding_names& n) {
  for (const class_rename* r = n.renames; r && r->facade; ++r)
    if (facade == r->facade) return r->language;
  return detail::camel(facade, true);
}

/// The binding's method for a facade method (write_at -> writeAt, WriteAt, write_at).
inline std::string method_name(std::string_view facade, const binding_names& n) {
  if (facade == "close") return n.close;
  switch (n.methods) {
    case method_case::lower_camel: return detail::camel(facade, false);
    case method_case::upper_camel: return detail::camel(facade, true);
    case method_case::snake: break;
  }
  return std::string(facade);
}

/// "file.write_at" in the binding's names ("File.writeAt"); anything else as it is.
inline std::string where(std::string_view facade_where, const binding_names& n) {
  const auto dot = facade_where.find('.');
  if (dot == std::string_view::npos || !detail::facade_class(facade_where.substr(0, dot)))
    return std::string(facade_where);
  return class_name(facade_where.substr(0, dot), n) + "." +
         method_name(facade_where.substr(dot + 1), n);
}

/// The message of a facade exception in the binding's names: a closed or null handle says
/// its class and where in them; any other message its leading "<class>.<method>".
inline std::string message(const std::exception& e, const binding_names& n) {
  if (auto* c = dynamic_cast<const rt::closed_error*>(&e); c && !c->object().empty())
    return where(c->where(), n) + ": this " + class_name(c->object(), n) + " has been " +
           n.closed;
  if (auto* z = dynamic_cast<const rt::null_handle_error*>(&e)) {
    std::string m = where(z->where(), n) + ": null " + class_name(z->object(), n);
    if (!z->maker().empty()) m += " (" + where(z->maker(), n) + "() makes one)";
    return m;
  }
  const std::string_view text(e.what());
  std::size_t end = 0;
  while (end < text.size() && (std::islower(static_cast<unsigned char>(text[end])) ||
                               std::isdigit(static_cast<unsigned char>(text[end])) ||
                               text[end] == '_' || text[end] == '.'))
    ++end;
  if (end == 0 || (end < text.size() && text[end] != ':' && text[end] != ' '))
    return std::string(text);
  return where(text.substr(0, end), n) + std::string(text.substr(end));
}

/// Where a call on a closed proxy was made, from SWIG's $symname of the wrapper
/// ("<Class>_<method>", in the binding's names already): "Comm_isendAny" -> "Comm.isend".
/// Attributes are "<Class>_<Name>_get/_set" (Java getName/setName, C# Name). The bindings'
/// private helpers behind a public method are named <public> and a suffix (java_*.i,
/// csharp_*.i: putAny, putPart, waitNative, IsendPinned, sendDirect, recvArrayStatus,
/// isendLight): the public name is shown; closeHandle is the language's close. (No public
/// member method ends so: waitAny/testAny are static, and a static call has no proxy to check.)
inline std::string symbol_where(std::string_view sym, const binding_names& n) {
  const auto us = sym.find('_');
  if (us == std::string_view::npos) return std::string(sym);
  const std::string cls(sym.substr(0, us));
  std::string_view m = sym.substr(us + 1);
  const auto ends = [&](std::string_view suffix) {
    return m.size() > suffix.size() && m.substr(m.size() - suffix.size()) == suffix;
  };
  if (ends("_get") || ends("_set")) {
    const std::string_view verb = m.substr(m.size() - 3);
    m.remove_suffix(4);
    if (n.methods == method_case::lower_camel) return cls + "." + std::string(verb) + std::string(m);
    if (n.methods == method_case::snake) return cls + "." + detail::camel(m, false);
    return cls + "." + std::string(m);
  }
  if (m == "closeHandle" || m == "CloseHandle") return cls + "." + n.close;
  for (std::string_view suffix : {"DirectStatus", "ArrayStatus", "DirectCount", "ArrayCount", "Any",
                                  "Part", "Native", "Pinned", "Direct", "Array", "Light"})
    if (ends(suffix)) {
      m.remove_suffix(suffix.size());
      break;
    }
  return cls + "." + std::string(m);
}

/// The message of a call on a closed proxy: "Comm.getSize: this Comm has been closed".
inline std::string closed_self(const char* sym, const binding_names& n) {
  const std::string w = symbol_where(sym, n);
  return w + ": this " + w.substr(0, w.find('.')) + " has been " + n.closed;
}

/// The message of a null reference argument: "Comm.compare: a null argument".
inline std::string null_argument(const char* sym, const binding_names& n) {
  return symbol_where(sym, n) + ": a null argument";
}

}  // namespace oompi::binding

#endif  // OOMPI_SWIG_BINDING_NAMES_HPP
