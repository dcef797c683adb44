// The one error model of the library: typed exceptions carrying a kind and a context
// chain (file → column → page → row). Kinds say what went wrong, not how a program reports
// it: `app/main.cpp` maps them to exit codes, capi/lance_c.cpp to C return codes.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

namespace lance {

/// What went wrong.
enum class ErrorKind {
  io,           ///< the OS could not open or read something
  usage,        ///< the caller asked for something invalid (unknown column, bad option)
  unsupported,  ///< valid input this build does not read (a newer encoding or layout)
  corrupt,      ///< the file contradicts the format (bad offsets, sizes, magic)
  internal,     ///< a broken invariant of this library: a bug, not a property of the file
};

/// "io", "usage", "unsupported", "corrupt", "internal".
constexpr const char* error_kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::io:
      return "io";
    case ErrorKind::usage:
      return "usage";
    case ErrorKind::unsupported:
      return "unsupported";
    case ErrorKind::corrupt:
      return "corrupt";
    case ErrorKind::internal:
      return "internal";
  }
  return "internal";
}

/// Base of every error thrown by the library.
///
/// `what()` is the full one-line message: context items (outermost first) joined by
/// ": " followed by the detail. Use `with_context` while an error rises through layers.
class Error : public std::exception {
 public:
  Error(ErrorKind kind, std::string detail) : kind_(kind), detail_(std::move(detail)) { rebuild(); }

  ErrorKind kind() const noexcept { return kind_; }
  const std::string& detail() const noexcept { return detail_; }
  const std::string& context() const noexcept { return context_; }
  const char* what() const noexcept override { return message_.c_str(); }
  /// The same text as `what()`, whole even when it holds a NUL byte (e.g. from a rows file).
  const std::string& message() const noexcept { return message_; }

  /// Prepends one context item (e.g. "column 'price'", "page 3").
  Error& with_context(std::string_view item) {
    if (item.empty()) return *this;
    context_ = context_.empty() ? std::string(item) : std::string(item) + ": " + context_;
    rebuild();
    return *this;
  }

 private:
  void rebuild() { message_ = context_.empty() ? detail_ : context_ + ": " + detail_; }
  ErrorKind kind_;
  std::string detail_;
  std::string context_;
  std::string message_;
};

template <typename... Args>
[[noreturn]] void throw_corrupt(fmt::format_string<Args...> f, Args&&... args) {
  throw Error(ErrorKind::corrupt, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
[[noreturn]] void throw_unsupported(fmt::format_string<Args...> f, Args&&... args) {
  throw Error(ErrorKind::unsupported, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
[[noreturn]] void throw_io(fmt::format_string<Args...> f, Args&&... args) {
  throw Error(ErrorKind::io, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
[[noreturn]] void throw_usage(fmt::format_string<Args...> f, Args&&... args) {
  throw Error(ErrorKind::usage, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
[[noreturn]] void throw_internal(fmt::format_string<Args...> f, Args&&... args) {
  throw Error(ErrorKind::internal, fmt::format(f, std::forward<Args>(args)...));
}

/// Throws a corrupt-file error when `cond` is false.
template <typename... Args>
inline void check_corrupt(bool cond, fmt::format_string<Args...> f, Args&&... args) {
  if (!cond) throw_corrupt(f, std::forward<Args>(args)...);
}

/// Throws an internal error (a broken invariant of this library, not a bad file) when
/// `cond` is false.
template <typename... Args>
inline void check_internal(bool cond, fmt::format_string<Args...> f, Args&&... args) {
  if (!cond) throw_internal(f, std::forward<Args>(args)...);
}

/// Runs `fn`; an `Error` escaping it gets `item` prepended to its context. `item` is either
/// a string (a literal costs nothing until an error) or a callable returning the string,
/// called only when an error passes: use that form for formatted items, so that the happy
/// path formats nothing:
///   with_context([&] { return fmt::format("page {}", page); }, [&] { return decode(); });
template <typename Item, typename Fn>
auto with_context(Item&& item, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (Error& e) {
    if constexpr (std::is_invocable_v<Item&>)
      e.with_context(std::string_view(item()));
    else
      e.with_context(std::string_view(item));
    throw;
  }
}

}  // namespace lance
