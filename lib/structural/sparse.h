// Sparse page layout (file version 2.3 as Lance 12 writes it; lance-format/lance
// protos/encodings_v2_1.proto `SparseLayout`, rust/lance-encoding/src/encodings/logical/
// primitive/sparse.rs). The values are mini-block chunks; the structure (null and empty
// lists, null items and structs) is a set of slot positions per layer. The decoder reads the
// whole page and turns the requested rows into dense rep/def levels for the assembler.
#pragma once

#include <memory>

#include "structural/page_decoder.h"

namespace lance::structural {

std::unique_ptr<PageDecoder> make_sparse_decoder(const PageContext& ctx,
                                                 const ::lance::encodings21::SparseLayout& layout);

}  // namespace lance::structural
