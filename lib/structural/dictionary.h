// Mini-block dictionaries (docs/format.md §5.3): chunk values are indices into a page-level
// dictionary decoded once per page.
#pragma once

#include "encoding/data_block.h"

namespace lance::structural {

/// Gathers `dictionary[indices[i]]` for every index (indices: 8/16/32/64-bit unsigned).
/// Throws Error(corrupt) for an index outside the dictionary.
encoding::DataBlock lookup_dictionary(const encoding::DataBlock& dictionary, const encoding::DataBlock& indices);

}  // namespace lance::structural
