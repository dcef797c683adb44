#include "encoding/variable.h"

#include "encoding/sizes.h"

namespace lance::encoding {
namespace {

/// Standard block header: offset width and bytes_start, each as wide as one offset.
constexpr uint64_t kBlockHeaderWords = 2;
/// Pre-release block header: u8 width, then value count and bytes_start as wide as an offset.
constexpr uint64_t kLegacyBlockPrefixBytes = 1;

uint64_t read_offset(ByteView v, unsigned bits, uint64_t i) {
  return bits == 32 ? v.read<uint32_t>(i * 4) : v.read<uint64_t>(i * 8);
}

void check_offset_bits(uint64_t bits, const char* what) {
  if (bits != 32 && bits != 64) throw_unsupported("{} with {}-bit offsets is not supported", what, bits);
}

}  // namespace

DataBlock make_variable_block(ByteView offsets, unsigned offset_bits, uint64_t num_values, ByteView bytes,
                              uint64_t base) {
  check_offset_bits(offset_bits, "Variable");
  const uint64_t width = offset_bits / 8;
  check_corrupt(num_values < offsets.size() / width,
                "Variable: {} values need {} offsets but only {} bytes of offsets are present", num_values,
                num_values + 1, offsets.size());
  const uint64_t first = read_offset(offsets, offset_bits, 0);
  check_corrupt(first >= base, "Variable: offset {} points before the value bytes (at {})", first, base);
  uint64_t prev = first;
  for (uint64_t i = 1; i <= num_values; ++i) {
    const uint64_t o = read_offset(offsets, offset_bits, i);
    check_corrupt(o >= prev, "Variable: offset {} ({}) is below offset {} ({})", i, o, i - 1, prev);
    prev = o;
  }
  check_corrupt(prev - base <= bytes.size(), "Variable: last offset {} is past the {} value bytes", prev - base,
                bytes.size());
  DataBlock block;
  block.num_values = num_values;
  block.bits_per_offset = offset_bits;
  block.data = bytes.slice(first - base, prev - first).to_bytes();
  block.offsets.resize((num_values + 1) * width);
  for (uint64_t i = 0; i <= num_values; ++i) {
    const uint64_t o = read_offset(offsets, offset_bits, i) - first;
    if (offset_bits == 32) {
      const uint32_t o32 = static_cast<uint32_t>(o);
      std::memcpy(block.offsets.data() + i * 4, &o32, 4);
    } else {
      std::memcpy(block.offsets.data() + i * 8, &o, 8);
    }
  }
  return block;
}

void push_variable_offset(DataBlock& block, uint64_t o, const char* what) {
  if (block.bits_per_offset == 32) {
    check_corrupt(o <= UINT32_MAX, "{}: values exceed 32-bit offsets", what);
    append_le<uint32_t>(block.offsets, static_cast<uint32_t>(o));
  } else {
    append_le<uint64_t>(block.offsets, o);
  }
}

/// The offset width of a Variable mini-block chunk's encoding (32 or 64), after checking
/// that it has one uncompressed buffer.
unsigned variable_chunk_offset_bits(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers) {
  const pb::Variable& v = enc.variable();
  check_buffer_count(buffers, 1, "Variable");
  reject_buffer_compression(v.has_values(), v.values(), "Variable");
  const uint64_t bits = flat_bits(require(v.has_offsets(), v.offsets(), "Variable offsets encoding"),
                                  "Variable offsets in a mini-block chunk");
  check_offset_bits(bits, "Variable");
  return static_cast<unsigned>(bits);
}

DataBlock decode_variable_chunk(ByteView chunk, unsigned offset_bits, uint64_t num_values) {
  check_offset_bits(offset_bits, "Variable mini-block chunk");
  const uint64_t width = offset_bits / 8;
  check_corrupt(num_values < chunk.size() / width, "Variable chunk: {} values need {} offsets, chunk has {} bytes",
                num_values, num_values + 1, chunk.size());
  const uint64_t table_end = (num_values + 1) * width;
  const uint64_t first = read_offset(chunk, offset_bits, 0);
  check_corrupt(first >= table_end, "Variable chunk: first offset {} points into the offset table ({} bytes)", first,
                table_end);
  // Offsets count from the chunk start, so the chunk itself is the byte space.
  return make_variable_block(chunk.slice(0, table_end), offset_bits, num_values, chunk, 0);
}

DataBlock decode_variable_block(ByteView buffer, uint64_t num_values) {
  const uint32_t word0 = buffer.read<uint32_t>(0);
  uint64_t bits = 0;
  uint64_t bytes_start = 0;
  uint64_t offsets_start = 0;
  if ((word0 >> 8) != 0) {
    // Pre-release layout: the three bytes after the width byte are the low bytes of a
    // value count, which the standard layout keeps zero.
    bits = buffer[0];
    check_offset_bits(bits, "Variable block");
    const uint64_t width = bits / 8;
    bytes_start = bits == 32 ? buffer.read<uint32_t>(kLegacyBlockPrefixBytes + width)
                             : buffer.read<uint64_t>(kLegacyBlockPrefixBytes + width);
    offsets_start = kLegacyBlockPrefixBytes + 2 * width;
  } else {
    bits = word0;
    check_offset_bits(bits, "Variable block");
    const uint64_t width = bits / 8;
    bytes_start = bits == 32 ? buffer.read<uint32_t>(4) : buffer.read<uint64_t>(8);
    offsets_start = kBlockHeaderWords * width;
  }
  check_corrupt(bytes_start >= offsets_start && bytes_start <= buffer.size(),
                "Variable block: bytes start {} outside [{}, {}]", bytes_start, offsets_start, buffer.size());
  ByteView offsets = buffer.slice(offsets_start, bytes_start - offsets_start);
  ByteView bytes = buffer.slice(bytes_start);
  return make_variable_block(offsets, static_cast<unsigned>(bits), num_values, bytes, 0);
}

void validate_variable_block(const DataBlock& block) {
  check_offset_bits(block.bits_per_offset, "Variable input");
  const uint64_t width = block.bits_per_offset / 8;
  check_corrupt(block.offsets.size() / width > block.num_values, "Variable input: {} values but {} offset bytes",
                block.num_values, block.offsets.size());
  ByteView offsets(block.offsets);
  uint64_t prev = read_offset(offsets, block.bits_per_offset, 0);
  for (uint64_t i = 1; i <= block.num_values; ++i) {
    const uint64_t o = read_offset(offsets, block.bits_per_offset, i);
    check_corrupt(o >= prev, "Variable input: offset {} ({}) is below offset {} ({})", i, o, i - 1, prev);
    prev = o;
  }
  check_corrupt(prev <= block.data.size(), "Variable input: last offset {} is past {} bytes", prev, block.data.size());
}

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

DataBlock variable_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                             uint64_t num_values) {
  return decode_variable_chunk(buffers[0], variable_chunk_offset_bits(enc, buffers), num_values);
}

std::optional<DataBlock> variable_miniblock_ranges(const pb::CompressiveEncoding& enc,
                                                   std::span<const ByteView> buffers, uint64_t num_values,
                                                   std::span<const ValueRange> ranges) {
  const unsigned bits = variable_chunk_offset_bits(enc, buffers);
  const ByteView chunk = buffers[0];
  const uint64_t width = bits / 8;
  check_corrupt(num_values < chunk.size() / width, "Variable chunk: {} values need {} offsets, chunk has {} bytes",
                num_values, num_values + 1, chunk.size());
  const uint64_t table_end = (num_values + 1) * width;
  // Only the wanted values' offsets are read and checked; each range's bytes are copied once.
  DataBlock out;
  out.bits_per_offset = bits;
  uint64_t count = 0, bytes = 0;
  for (const ValueRange& r : ranges) {
    count += r.end - r.begin;
    const uint64_t lo = read_offset(chunk, bits, r.begin);
    const uint64_t hi = read_offset(chunk, bits, r.end);
    check_corrupt(table_end <= lo && lo <= hi && hi <= chunk.size(),
                  "Variable chunk: values [{}, {}) at bytes [{}, {}) outside [{}, {}]", r.begin, r.end, lo, hi,
                  table_end, chunk.size());
    bytes += hi - lo;
  }
  check_alloc(bytes, "Variable values");  // ranges may repeat values
  out.num_values = count;
  out.offsets.reserve((count + 1) * width);
  out.data.reserve(bytes);
  auto push = [&](uint64_t o) { push_variable_offset(out, o, "Variable chunk"); };
  push(0);
  for (const ValueRange& r : ranges) {
    uint64_t prev = read_offset(chunk, bits, r.begin);
    for (uint64_t i = r.begin + 1; i <= r.end; ++i) {
      const uint64_t o = read_offset(chunk, bits, i);
      check_corrupt(prev <= o, "Variable chunk: offset {} ({}) is below offset {} ({})", i, o, i - 1, prev);
      out.data.insert(out.data.end(), chunk.data() + prev, chunk.data() + o);
      push(out.data.size());
      prev = o;
    }
  }
  return out;
}

DataBlock variable_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) {
  reject_buffer_compression(enc.variable().has_values(), enc.variable().values(), "Variable");
  return decode_variable_block(buffer, num_values);
}

DataBlock variable_variable_per_value(const pb::CompressiveEncoding&, DataBlock zipped) { return zipped; }

std::string describe_variable(const pb::CompressiveEncoding& enc) {
  const pb::Variable& v = enc.variable();
  return fmt::format("Variable(offsets: {}{})", describe_child(v.has_offsets(), v.offsets()),
                     buffer_compression_suffix(v.has_values(), v.values()));
}

}  // namespace lance::encoding
