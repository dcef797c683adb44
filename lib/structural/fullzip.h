// Full-zip page layout (format map 5.4): each value stored whole, zipped with its control
// word (rep/def); a repetition index gives each row's byte offset.
#pragma once

#include <memory>

#include "structural/page_decoder.h"

namespace lance::structural {

std::unique_ptr<PageDecoder> make_fullzip_decoder(const PageContext& ctx,
                                                  const ::lance::encodings21::FullZipLayout& layout);

/// Whether full-zip pages keep their whole repetition index after the first partial read,
/// so later takes need one I/O per row range (LANCE_CLI_CACHE_REP_INDEX=1; off by default).
bool cache_rep_index();

/// Bytes of the control word for `bits_rep + bits_def` bits: 0, 1, 2 or 4.
uint32_t control_word_bytes(uint32_t bits_rep, uint32_t bits_def);

}  // namespace lance::structural
