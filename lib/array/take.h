// Gathering rows of an array by index (Arrow's "take").
#pragma once

#include <span>

#include "array/array.h"

namespace lance {

/// A new array whose row i is `array`'s row `indices[i]` (indices may repeat, any order).
/// Throws Error(usage) for an index outside the array.
ArrayPtr take_array(const ArrayPtr& array, std::span<const int64_t> indices);

}  // namespace lance
