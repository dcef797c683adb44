// Runs a function when a scope ends, by return or by exception.
//
// Usage:
//   reader.prefetch(rows);
//   Finally drop([&] { reader.drop_prefetched(); });
#pragma once

#include <utility>

namespace lance {

/// Calls `f` (which must not throw) from its destructor. Neither copied nor moved.
template <typename F>
class Finally {
 public:
  explicit Finally(F f) : f_(std::move(f)) {}
  ~Finally() { f_(); }
  Finally(const Finally&) = delete;
  Finally& operator=(const Finally&) = delete;

 private:
  F f_;
};

}  // namespace lance
