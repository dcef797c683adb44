// Full-zip page layout (docs/format.md §5.4): each value stored whole, zipped with its control
// word (rep/def); a repetition index gives each row's byte offset.
#pragma once

#include <memory>

#include "structural/page_decoder.h"

namespace lance::structural {

std::unique_ptr<PageDecoder> make_fullzip_decoder(const PageContext& ctx,
                                                  const ::lance::encodings21::FullZipLayout& layout);

/// Bytes of the control word for `bits_rep + bits_def` bits: 0, 1, 2 or 4.
uint32_t control_word_bytes(uint32_t bits_rep, uint32_t bits_def);

}  // namespace lance::structural
