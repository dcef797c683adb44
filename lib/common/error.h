// The one error model of the library: typed exceptions carrying a kind and a context
// chain (file → column → page → row). `app/main.cpp` maps kinds to exit codes.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace lance {

/// What went wrong, as the CLI reports it. Exit codes: io 1, usage 2, unsupported 3, corrupt 4.
enum class ErrorKind { io = 1, usage = 2, unsupported = 3, corrupt = 4 };

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

  /// Prepends one context item (e.g. "column 'price'", "page 3").
  Error& with_context(const std::string& item) {
    context_ = context_.empty() ? item : item + ": " + context_;
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

/// Throws a corrupt-file error when `cond` is false.
template <typename... Args>
inline void check_corrupt(bool cond, fmt::format_string<Args...> f, Args&&... args) {
  if (!cond) throw_corrupt(f, std::forward<Args>(args)...);
}

/// Runs `fn`; an `Error` escaping it gets `item` prepended to its context.
template <typename Fn>
auto with_context(const std::string& item, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (Error& e) {
    e.with_context(item);
    throw;
  }
}

}  // namespace lance
