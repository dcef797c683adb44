#include "dataset/roaring_portable.h"

#include <bit>

#include "common/error.h"

namespace lance::dataset {

namespace {
constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieRuns = 12347;
constexpr uint32_t kMaxArray = 4096;        // above: a bitset container
constexpr uint32_t kNoOffsetThreshold = 4;  // with runs, fewer containers have no offsets
constexpr uint64_t kBitsetBytes = 8192;
}  // namespace

RoaringValues decode_roaring_portable(ByteView bytes, uint64_t max_values) {
  uint64_t pos = 0;
  auto need = [&](uint64_t n, const char* what) {
    check_corrupt(n <= bytes.size() - pos, "roaring bitmap: {} needs {} bytes at {}, {} left", what, n, pos,
                  bytes.size() - pos);
  };
  need(4, "the cookie");
  const uint32_t cookie = bytes.read<uint32_t>(pos);
  pos += 4;
  uint32_t count = 0;
  bool has_runs = false;
  ByteView run_flags;
  if ((cookie & 0xFFFF) == kCookieRuns) {
    has_runs = true;
    count = (cookie >> 16) + 1;
    need((count + 7) / 8, "the run-container bitset");
    run_flags = bytes.slice(pos, (count + 7) / 8);
    pos += (count + 7) / 8;
  } else if (cookie == kCookieNoRuns) {
    need(4, "the container count");
    count = bytes.read<uint32_t>(pos);
    pos += 4;
    check_corrupt(count <= 65536, "roaring bitmap: {} containers (at most 65536)", count);
  } else {
    throw_corrupt("not a roaring bitmap (portable serialization): cookie {:#x}", cookie);
  }
  need(uint64_t{count} * 4, "the container headers");
  const ByteView headers = bytes.slice(pos, uint64_t{count} * 4);
  pos += uint64_t{count} * 4;
  if (!has_runs || count >= kNoOffsetThreshold) {
    need(uint64_t{count} * 4, "the container offsets");
    pos += uint64_t{count} * 4;  // redundant with the sizes; not needed to decode in order
  }
  RoaringValues out;
  int64_t prev_key = -1;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t key = headers.read<uint16_t>(uint64_t{k} * 4);
    const uint32_t card = uint32_t{headers.read<uint16_t>(uint64_t{k} * 4 + 2)} + 1;
    check_corrupt(static_cast<int64_t>(key) > prev_key,
                  "roaring bitmap: container keys are not increasing ({} after {})", key, prev_key);
    prev_key = key;
    const uint32_t high = key << 16;
    const bool is_run = has_runs && (run_flags[k / 8] >> (k % 8) & 1);
    auto push = [&](uint32_t low) {
      check_corrupt(out.values.size() < max_values, "roaring bitmap holds more than {} values", max_values);
      out.values.push_back(high | low);
    };
    if (is_run) {
      need(2, "a run count");
      const uint32_t runs = bytes.read<uint16_t>(pos);
      pos += 2;
      need(uint64_t{runs} * 4, "the runs");
      int64_t prev_end = -1;
      for (uint32_t r = 0; r < runs; ++r) {
        const uint32_t start = bytes.read<uint16_t>(pos + uint64_t{r} * 4);
        const uint32_t len = bytes.read<uint16_t>(pos + uint64_t{r} * 4 + 2);
        check_corrupt(static_cast<int64_t>(start) > prev_end && start + len <= 0xFFFF,
                      "roaring bitmap: run {}+{} of container {} overlaps or passes 65535", start, len, key);
        check_corrupt(out.values.size() + len + 1 <= max_values, "roaring bitmap holds more than {} values",
                      max_values);
        for (uint32_t v = start; v <= start + len; ++v) out.values.push_back(high | v);
        prev_end = start + len;
      }
      pos += uint64_t{runs} * 4;
    } else if (card > kMaxArray) {
      need(kBitsetBytes, "a bitset container");
      uint64_t seen = 0;
      for (uint32_t w = 0; w < 1024; ++w) seen += std::popcount(bytes.read<uint64_t>(pos + uint64_t{w} * 8));
      check_corrupt(seen == card, "roaring bitmap: bitset container {} holds {} values, its header says {}", key, seen,
                    card);
      check_corrupt(out.values.size() + seen <= max_values, "roaring bitmap holds more than {} values", max_values);
      for (uint32_t w = 0; w < 1024; ++w) {
        uint64_t word = bytes.read<uint64_t>(pos + uint64_t{w} * 8);
        while (word) {
          push(w * 64 + static_cast<uint32_t>(std::countr_zero(word)));
          word &= word - 1;
        }
      }
      pos += kBitsetBytes;
    } else {
      need(uint64_t{card} * 2, "an array container");
      check_corrupt(out.values.size() + card <= max_values, "roaring bitmap holds more than {} values", max_values);
      int64_t prev = -1;
      for (uint32_t i = 0; i < card; ++i) {
        const uint32_t v = bytes.read<uint16_t>(pos + uint64_t{i} * 2);
        check_corrupt(static_cast<int64_t>(v) > prev, "roaring bitmap: array container {} is not increasing", key);
        prev = v;
        push(v);
      }
      pos += uint64_t{card} * 2;
    }
  }
  out.bytes_used = pos;
  return out;
}

}  // namespace lance::dataset
