// Blob page layout (docs/format.md §5.6): the 2.1 legacy blob column (`lance-encoding:blob` on
// large_binary). The page stores one descriptor {position u64, size u64} per level entry in
// an inner page layout (a mini-block PackedStruct in practice); the blob bytes themselves
// are elsewhere in the data file, at [position, position + size).
//
// Descriptors also carry the structure, since the inner page has no levels of its own:
//
//   size > 0                  a value: the bytes at [position, position + size)
//   size == 0, position == 0  an empty value
//   size == 0, position != 0  no value: rep = bits 0..15, def = bits 16..31 of position
//
// and `BlobLayout.layers` says what the def levels mean (e.g. [NULLABLE_ITEM]).
//
// Reading takes three I/O rounds (inner metadata, descriptors, blob bytes). Through the
// PageDecoder protocol: metadata round 1 loads the inner page's metadata, and
// `more_metadata_ranges` then asks for the descriptors as round 2 (when the inner page
// needs no metadata, round 1 *is* the descriptor read); the data round reads the blob bytes.
#pragma once

#include <memory>

#include "structural/page_decoder.h"

namespace lance::structural {

std::unique_ptr<PageDecoder> make_blob_decoder(const PageContext& ctx, const ::lance::encodings21::BlobLayout& layout);

/// One blob descriptor as stored in the inner page.
struct BlobDescriptor {
  uint64_t position = 0;
  uint64_t size = 0;
};

/// The descriptors of a decoded inner page: a PackedStruct block of 128-bit rows (two
/// u64 children) or a struct block with two 64-bit children. Throws Error(corrupt) for
/// anything else.
std::vector<BlobDescriptor> blob_descriptors(const encoding::DataBlock& values);

}  // namespace lance::structural
