// Mini-block page layout (docs/format.md §5.3): values compressed in small chunks, each chunk
// carrying its own slice of rep/def levels; chunk metadata words, an optional dictionary
// and an optional repetition index locate the chunks that hold a row range.
#pragma once

#include <memory>

#include "structural/page_decoder.h"

namespace lance::structural {

std::unique_ptr<PageDecoder> make_miniblock_decoder(const PageContext& ctx,
                                                    const ::lance::encodings21::MiniBlockLayout& layout);

/// One chunk's place in the page, from the chunk metadata (and repetition index).
struct MiniBlockChunkInfo {
  uint64_t offset = 0;        ///< byte offset inside the chunk data buffer
  uint64_t size = 0;          ///< bytes
  uint64_t num_values = 0;    ///< visible items in the chunk
  uint64_t first_row = 0;     ///< row number (page-relative) of the first row that starts here
  uint64_t num_starts = 0;    ///< rows that start in this chunk
  bool has_preamble = false;  ///< begins with the tail of a row started earlier
  bool has_trailer = false;   ///< ends with the head of a row finished later
};

/// Parses the chunk metadata buffer (u16 words, or u32 with `large`) and, when given, the
/// repetition index (`rep_index_depth + 1` u64 per chunk). Pure; throws Error(corrupt).
std::vector<MiniBlockChunkInfo> parse_miniblock_chunks(ByteView metadata, bool large, uint64_t num_items,
                                                       uint64_t data_size, ByteView rep_index, uint32_t rep_index_depth,
                                                       uint64_t num_rows);

}  // namespace lance::structural
