// Constant layout (docs/format.md §5.5): every visible value is one scalar (or null); optional
// rep/def buffers give structure. Also the 2.1 all-null layout, which shares its slot.
#pragma once

#include <memory>

#include "structural/page_decoder.h"

namespace lance::structural {

std::unique_ptr<PageDecoder> make_constant_decoder(const PageContext& ctx,
                                                   const ::lance::encodings21::ConstantLayout& layout);

/// The shape of a leaf's decoded values for `type` (bits per value, variable or not,
/// fixed-size-list dims), with no values.
encoding::DataBlock empty_block_for(const DataType& type);

/// `count` copies of a one-value block (`scalar.num_values == 1`), or of a zero/empty
/// value when `scalar` is null. Also used for null slots.
encoding::DataBlock repeat_value(const encoding::DataBlock& shape, const encoding::DataBlock* scalar,
                                 const std::vector<bool>& valid);

}  // namespace lance::structural
