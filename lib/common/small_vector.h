#pragma once
// A vector that keeps its first N elements inline, and moves without throwing.

#include <cstddef>
#include <type_traits>
#include <utility>

#include <boost/container/small_vector.hpp>

namespace lance {

/// boost::container::small_vector<T, N> whose move constructor and move assignment are
/// noexcept. Boost's are not declared so (in Boost 1.74), which makes any struct holding one
/// "may throw on move": std::vector then copies such structs when it grows
/// (std::move_if_noexcept), a whole decoded page per element for encoding::DataBlock.
/// Moving cannot throw here: a heap buffer is handed over, and inline elements are moved
/// one by one, which the static_assert below requires to be nothrow.
template <class T, std::size_t N>
class SmallVector : public boost::container::small_vector<T, N> {
  using Base = boost::container::small_vector<T, N>;
  static_assert(std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>,
                "SmallVector moves its inline elements and must not throw");

 public:
  using Base::Base;
  using Base::operator=;
  SmallVector() = default;
  SmallVector(const SmallVector&) = default;
  SmallVector& operator=(const SmallVector&) = default;
  SmallVector(SmallVector&& other) noexcept : Base(std::move(static_cast<Base&>(other))) {}
  SmallVector& operator=(SmallVector&& other) noexcept {
    Base::operator=(std::move(static_cast<Base&>(other)));
    return *this;
  }
  ~SmallVector() = default;
};

}  // namespace lance
