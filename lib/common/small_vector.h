#pragma once
// A vector that keeps its first N elements inline, and is built by move without throwing.

#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include <boost/container/small_vector.hpp>

namespace lance {

/// boost::container::small_vector<T, N> whose move constructor is noexcept. Boost's is not
/// declared so (in Boost 1.74, for elements such as std::vector), which makes any struct
/// holding one "may throw on move": std::vector then copies such structs when it grows
/// (std::move_if_noexcept), a whole decoded page per element for encoding::DataBlock.
/// Constructing by move cannot throw: a heap buffer is handed over, and inline elements are
/// moved one by one into the new object's inline storage, which holds N (the static_assert
/// below requires those moves to be nothrow). Move assignment is Boost's and may allocate
/// (into a moved-from vector whose buffer went away), so it stays potentially throwing.
template <class T, std::size_t N>
class SmallVector : public boost::container::small_vector<T, N> {
  using Base = boost::container::small_vector<T, N>;
  static_assert(std::is_nothrow_move_constructible_v<T>, "SmallVector moves its inline elements and must not throw");

 public:
  using Base::Base;
  SmallVector() = default;
  SmallVector(const SmallVector&) = default;
  SmallVector(SmallVector&& other) noexcept : Base(std::move(static_cast<Base&>(other))) {}
  SmallVector& operator=(const SmallVector&) = default;
  SmallVector& operator=(SmallVector&&) = default;
  SmallVector& operator=(std::initializer_list<T> values) {
    Base::assign(values.begin(), values.end());
    return *this;
  }
  ~SmallVector() = default;
};

}  // namespace lance
