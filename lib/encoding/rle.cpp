#include "encoding/rle.h"

#include <algorithm>
#include <cstring>

#include "encoding/sizes.h"

namespace lance::encoding {
namespace {

/// Byte length of the u64 header of the block form that gives the values section size.
constexpr uint64_t kRleBlockHeaderBytes = 8;

/// Calls `f.template operator()<L>()` with `L` the unsigned word of `length_bits` (a word width).
template <typename F>
decltype(auto) with_length_word(unsigned length_bits, F&& f) {
  switch (length_bits) {
    case 8:
      return f.template operator()<uint8_t>();
    case 16:
      return f.template operator()<uint16_t>();
    case 32:
      return f.template operator()<uint32_t>();
    default:
      return f.template operator()<uint64_t>();
  }
}

/// Bytes a run may write past its end (expand_runs): the output carries this much slack.
constexpr uint64_t kRunOvershoot = 16;

/// `v` repeated over 8 bytes.
template <typename V>
uint64_t repeat8(V v) {
  uint64_t word = v;
  for (unsigned shift = sizeof(V) * 8; shift < 64; shift *= 2) word |= word << shift;
  return word;
}

/// Writes runs [0, runs) of `V` values into `out` until `num_values` are written; returns the
/// first run not (wholly) written, with `produced` the values written. A run longer than what
/// is left is cut, and `cut` set (the caller decides whether that is allowed). Each run is
/// written 16 bytes at a time, so it may write up to kRunOvershoot bytes past its end (the
/// next run overwrites them): `out` needs that much room past num_values values.
template <typename V, typename L>
uint64_t expand_runs(const uint8_t* values, const uint8_t* lengths, uint64_t runs, uint8_t* out, uint64_t num_values,
                     uint64_t& produced, bool& cut) {
  uint64_t r = 0;
  for (; r < runs && produced < num_values; ++r) {
    uint64_t len = load_at<L>(lengths, r);
    if (len > num_values - produced) {
      cut = true;
      len = num_values - produced;
    }
    const uint64_t word = repeat8(load_at<V>(values, r));
    uint8_t* dst = out + produced * sizeof(V);
    const uint64_t bytes = len * sizeof(V);
    for (uint64_t b = 0; b < bytes; b += 16) {
      std::memcpy(dst + b, &word, 8);
      std::memcpy(dst + b + 8, &word, 8);
    }
    produced += len;
  }
  return r;
}

uint64_t run_count(ByteView values, ByteView run_lengths, unsigned value_bits, unsigned length_bits) {
  if (!is_word_width(value_bits)) throw_unsupported("Rle with {}-bit values is not supported", value_bits);
  if (!is_word_width(length_bits)) throw_unsupported("Rle with {}-bit run lengths is not supported", length_bits);
  const uint64_t value_bytes = value_bits / 8;
  const uint64_t length_bytes = length_bits / 8;
  check_corrupt(values.size() % value_bytes == 0, "Rle: values buffer of {} bytes is not a multiple of {}",
                values.size(), value_bytes);
  check_corrupt(run_lengths.size() % length_bytes == 0, "Rle: run-length buffer of {} bytes is not a multiple of {}",
                run_lengths.size(), length_bytes);
  const uint64_t runs = values.size() / value_bytes;
  check_corrupt(runs == run_lengths.size() / length_bytes, "Rle: {} run values but {} run lengths", runs,
                run_lengths.size() / length_bytes);
  return runs;
}

}  // namespace

uint64_t rle_total_length(ByteView run_lengths, unsigned length_bits) {
  if (!is_word_width(length_bits)) throw_unsupported("Rle with {}-bit run lengths is not supported", length_bits);
  const uint64_t runs = run_lengths.size() / (length_bits / 8);
  return with_length_word(length_bits, [&]<typename L>() {
    // Lengths narrower than 64 bits cannot overflow a block's sum of 4096 of them: the limit is
    // checked per block, not per run.
    constexpr uint64_t kBlock = 4096;
    uint64_t total = 0;
    for (uint64_t lo = 0; lo < runs; lo += kBlock) {
      const uint64_t hi = std::min(runs, lo + kBlock);
      uint64_t block = 0;
      for (uint64_t r = lo; r < hi; ++r) {
        const uint64_t len = load_at<L>(run_lengths.data(), r);
        if constexpr (sizeof(L) == 8)
          check_corrupt(len <= kMaxDecodedBufferBytes && block <= kMaxDecodedBufferBytes - len,
                        "Rle: run lengths sum past the decode limit");
        block += len;
      }
      check_corrupt(block <= kMaxDecodedBufferBytes && total <= kMaxDecodedBufferBytes - block,
                    "Rle: run lengths sum past the decode limit");
      total += block;
    }
    return total;
  });
}

namespace {

/// rle_expand into storage of the caller's: checks the runs against `num_values` (before
/// anything is allocated), calls `room(bytes)` for the output, which must return at least
/// `bytes` writable bytes (the values plus kRunOvershoot of slack), and expands the runs there.
template <typename Room>
void expand_rle_into(ByteView values, ByteView run_lengths, unsigned value_bits, unsigned length_bits,
                     uint64_t num_values, bool clamp_overflow, Room&& room) {
  const uint64_t runs = run_count(values, run_lengths, value_bits, length_bits);
  const uint64_t value_bytes = value_bits / 8;
  const uint64_t out_bytes = checked_value_bytes(num_values, value_bits, "Rle output");
  // Only allocate what the runs can actually cover.
  const uint64_t max_run = length_bits >= 64 ? UINT64_MAX : (uint64_t{1} << length_bits) - 1;
  check_corrupt(runs > 0 ? num_values / runs <= max_run : num_values == 0, "Rle: {} runs cannot encode {} values", runs,
                num_values);
  uint8_t* const out = room(out_bytes + kRunOvershoot);
  uint64_t produced = 0;
  bool cut = false;
  const uint64_t next_run = with_length_word(length_bits, [&]<typename L>() {
    switch (value_bytes) {
      case 1:
        return expand_runs<uint8_t, L>(values.data(), run_lengths.data(), runs, out, num_values, produced, cut);
      case 2:
        return expand_runs<uint16_t, L>(values.data(), run_lengths.data(), runs, out, num_values, produced, cut);
      case 4:
        return expand_runs<uint32_t, L>(values.data(), run_lengths.data(), runs, out, num_values, produced, cut);
      default:
        return expand_runs<uint64_t, L>(values.data(), run_lengths.data(), runs, out, num_values, produced, cut);
    }
  });
  check_corrupt(!cut || clamp_overflow, "Rle: runs encode more than the expected {} values", num_values);
  check_corrupt(produced == num_values, "Rle: runs encode {} values, expected {}", produced, num_values);
  if (!clamp_overflow) {
    // Block form: the lengths sum exactly, so any runs left over must be empty.
    const uint64_t rest = rle_total_length(run_lengths.slice(next_run * (length_bits / 8)), length_bits);
    check_corrupt(rest == 0, "Rle: runs encode more than the expected {} values", num_values);
  }
}

}  // namespace

Bytes rle_expand(ByteView values, ByteView run_lengths, unsigned value_bits, unsigned length_bits, uint64_t num_values,
                 bool clamp_overflow) {
  Bytes out;
  expand_rle_into(values, run_lengths, value_bits, length_bits, num_values, clamp_overflow, [&](uint64_t bytes) {
    out.resize(bytes);
    return out.data();
  });
  out.resize(out.size() - kRunOvershoot);  // drops the slack (the capacity stays)
  return out;
}

RleBlockParts split_rle_block(ByteView buffer) {
  const uint64_t values_bytes = buffer.read<uint64_t>(0);
  check_corrupt(values_bytes <= buffer.size() - kRleBlockHeaderBytes,
                "Rle block: values section of {} bytes overruns a buffer of {} bytes", values_bytes, buffer.size());
  return RleBlockParts{buffer.slice(kRleBlockHeaderBytes, values_bytes),
                       buffer.slice(kRleBlockHeaderBytes + values_bytes)};
}

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

namespace {

/// One child of `Rle` (run values or run lengths), any fixed-width encoding, decoded to
/// `count` words; `bits` receives their width.
Bytes decode_rle_child(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t count, unsigned& bits,
                       const char* what) {
  DataBlock block = decode_block(enc, buffer, count);
  check_corrupt(!block.all_null && !block.is_variable() && block.num_values == count,
                "Rle: {} did not decode to {} fixed-width values", what, count);
  bits = word_bits_of(block.bits_per_value, what);
  check_corrupt(block.data.size() >= count * (bits / 8), "Rle: {} decoded to {} bytes for {} values", what,
                block.data.size(), count);
  return std::move(block.data);
}

/// Expands `Rle` whose children are not both plain `Flat` (Lance 12 writes e.g. values
/// under OutOfLineBitpacking or General): the run count comes from whichever child states
/// it (by its size: `count_by_size`), then both children are decoded and the runs expanded.
/// Upstream: lance-format/lance rust/lance-encoding/src/encodings/physical/rle.rs.
DataBlock expand_rle_children(const pb::Rle& rle, ByteView values, ByteView lengths, uint64_t num_values,
                              bool clamp_overflow) {
  const auto& venc = require(rle.has_values(), rle.values(), "Rle values encoding");
  const auto& lenc = require(rle.has_run_lengths(), rle.run_lengths(), "Rle run-lengths encoding");
  std::optional<uint64_t> runs = count_by_size(lenc, lengths);
  if (!runs) runs = count_by_size(venc, values);
  if (!runs)
    throw_unsupported("Rle with values as {} and run lengths as {} (neither states the run count) is not supported",
                      encoding_name(venc), encoding_name(lenc));
  check_corrupt(*runs <= kMaxDecodedBufferBytes, "Rle: {} runs", *runs);
  unsigned vb = 0, lb = 0;
  const Bytes v = decode_rle_child(venc, values, *runs, vb, "Rle values");
  const Bytes l = decode_rle_child(lenc, lengths, *runs, lb, "Rle run lengths");
  if (num_values == 0) return fixed_block(0, vb, {});
  return fixed_block(num_values, vb,
                     rle_expand(ByteView(v).slice(0, *runs * (vb / 8)), ByteView(l).slice(0, *runs * (lb / 8)), vb, lb,
                                num_values, clamp_overflow));
}

bool rle_children_flat(const pb::Rle& rle) {
  return rle.values().compression_case() == EncodingCase::kFlat &&
         rle.run_lengths().compression_case() == EncodingCase::kFlat;
}

/// The widths of plain Flat children.
struct FlatChildBits {
  unsigned values = 0;       ///< a word width (checked)
  uint64_t run_lengths = 0;  ///< checked by the caller, after its own checks
};

FlatChildBits flat_child_bits(const pb::Rle& rle) {
  const uint64_t value_bits = flat_bits(require(rle.has_values(), rle.values(), "Rle values encoding"), "Rle values");
  const uint64_t length_bits =
      flat_bits(require(rle.has_run_lengths(), rle.run_lengths(), "Rle run-lengths encoding"), "Rle run lengths");
  return {word_bits_of(value_bits, "Rle"), length_bits};
}

}  // namespace

DataBlock rle_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values) {
  const pb::Rle& rle = enc.rle();
  if (rle.has_values() && rle.has_run_lengths() && !rle_children_flat(rle)) {
    check_buffer_count(buffers, 2, "Rle");
    return expand_rle_children(rle, buffers[0], buffers[1], num_values, /*clamp_overflow=*/true);
  }
  const FlatChildBits bits = flat_child_bits(rle);
  const unsigned vb = bits.values;
  if (num_values == 0) return fixed_block(0, vb, {});
  check_buffer_count(buffers, 2, "Rle");
  return fixed_block(
      num_values, vb,
      rle_expand(buffers[0], buffers[1], vb, word_bits_of(bits.run_lengths, "Rle run lengths"), num_values,
                 /*clamp_overflow=*/true));
}

DataBlock rle_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) {
  const pb::Rle& rle = enc.rle();
  if (rle.has_values() && rle.has_run_lengths() && !rle_children_flat(rle)) {
    if (num_values == 0 && buffer.empty()) return fixed_block(0, 0, {});
    const RleBlockParts parts = split_rle_block(buffer);
    return expand_rle_children(rle, parts.values, parts.run_lengths, num_values, /*clamp_overflow=*/false);
  }
  const FlatChildBits bits = flat_child_bits(rle);
  const unsigned vb = bits.values;
  if (num_values == 0 && buffer.empty()) return fixed_block(0, vb, {});
  const RleBlockParts parts = split_rle_block(buffer);
  return fixed_block(num_values, vb,
                     rle_expand(parts.values, parts.run_lengths, vb, word_bits_of(bits.run_lengths, "Rle run lengths"),
                                num_values, /*clamp_overflow=*/false));
}

std::optional<uint64_t> rle_block_num_values(const pb::CompressiveEncoding& enc, ByteView buffer) {
  const pb::Rle& rle = enc.rle();
  const uint64_t length_bits =
      flat_bits(require(rle.has_run_lengths(), rle.run_lengths(), "Rle run-lengths encoding"), "Rle run lengths");
  if (buffer.empty()) return 0;
  return rle_total_length(split_rle_block(buffer).run_lengths, word_bits_of(length_bits, "Rle run lengths"));
}

bool rle_levels_u16(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_levels,
                    std::vector<uint16_t>& levels) {
  if (enc.compression_case() != EncodingCase::kRle) return false;
  const pb::Rle& rle = enc.rle();
  if (!rle.has_values() || !rle.has_run_lengths() || !rle_children_flat(rle)) return false;
  const FlatChildBits bits = flat_child_bits(rle);
  if (bits.values != 16) return false;
  levels.clear();
  if (num_levels == 0 && buffer.empty()) return true;
  const RleBlockParts parts = split_rle_block(buffer);
  static_assert(kRunOvershoot % sizeof(uint16_t) == 0);
  expand_rle_into(parts.values, parts.run_lengths, 16, word_bits_of(bits.run_lengths, "Rle run lengths"), num_levels,
                  /*clamp_overflow=*/false, [&](uint64_t bytes) {
                    levels.resize(bytes / sizeof(uint16_t));
                    return reinterpret_cast<uint8_t*>(levels.data());
                  });
  levels.resize(num_levels);
  return true;
}

std::string describe_rle(const pb::CompressiveEncoding& enc) {
  const pb::Rle& r = enc.rle();
  return fmt::format("Rle(values: {}, run_lengths: {})", describe_child(r.has_values(), r.values()),
                     describe_child(r.has_run_lengths(), r.run_lengths()));
}

}  // namespace lance::encoding
