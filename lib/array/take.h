// Gathering rows of an array by index (Arrow's "take").
#pragma once

#include <span>

#include "array/array.h"

namespace lance {

/// A new array whose row i is `array`'s row `indices[i]` (indices may repeat, any order).
/// Throws Error(usage) for an index outside the array.
ArrayPtr take_array(const ArrayPtr& array, std::span<const int64_t> indices);

/// The values a dictionary array's rows name, as a plain array of its value type (Arrow's
/// "dictionary decode"; a row is null where its index or the value it names is). Throws
/// Error(corrupt) for an index outside the dictionary.
ArrayPtr dictionary_values(const ArrayPtr& array);

}  // namespace lance
