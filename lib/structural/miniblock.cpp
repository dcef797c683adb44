#include "structural/miniblock.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include <boost/container/small_vector.hpp>

#include "common/recycled.h"
#include "encoding/decompress.h"
#include "structural/dictionary.h"
#include "structural/level_scan.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;
using encoding::DataBlock;

/// Chunks and the buffers inside them start on 8-byte boundaries.
inline constexpr uint64_t kMiniBlockAlignment = 8;

std::vector<MiniBlockChunkInfo> parse_miniblock_chunks(ByteView metadata, bool large, uint64_t num_items,
                                                       uint64_t data_size, ByteView rep_index, uint32_t rep_index_depth,
                                                       uint64_t num_rows) {
  const uint64_t word = large ? 4 : 2;
  check_corrupt(metadata.size() % word == 0, "chunk metadata of {} bytes is not a whole number of {}-byte words",
                metadata.size(), word);
  const uint64_t n = metadata.size() / word;
  std::vector<MiniBlockChunkInfo> chunks(n);
  uint64_t offset = 0, values = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t w = large ? metadata.read<uint32_t>(i * 4) : metadata.read<uint16_t>(i * 2);
    auto& c = chunks[i];
    c.offset = offset;
    c.size = ((w >> 4) + 1) * kMiniBlockAlignment;
    if (i + 1 < n) {
      c.num_values = uint64_t{1} << (w & 0xF);
    } else {
      check_corrupt(values <= num_items, "chunks hold more than the page's {} values", num_items);
      c.num_values = num_items - values;
    }
    values += c.num_values;
    offset += c.size;
  }
  check_corrupt(values == num_items || n == 0, "chunk metadata counts {} values, the page {}", values, num_items);
  check_corrupt(n > 0 || num_items == 0, "page of {} values has no chunks", num_items);
  check_corrupt(offset <= data_size, "chunks need {} bytes but the chunk buffer has {}", offset, data_size);

  if (rep_index_depth == 0) {
    uint64_t row = 0;
    for (auto& c : chunks) {
      c.first_row = row;
      c.num_starts = c.num_values;
      row += c.num_values;
    }
    check_corrupt(row == num_rows, "chunks hold {} rows, the page {}", row, num_rows);
    return chunks;
  }
  const uint64_t stride = (uint64_t{rep_index_depth} + 1) * 8;
  check_corrupt(rep_index.size() == n * stride, "repetition index of {} bytes, expected {} for {} chunks",
                rep_index.size(), n * stride, n);
  bool preamble = false;
  uint64_t row = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t ends = rep_index.read<uint64_t>(i * stride);
    uint64_t partial = rep_index.read<uint64_t>(i * stride + 8);
    auto& c = chunks[i];
    c.has_preamble = preamble;
    c.has_trailer = partial > 0;
    check_corrupt(ends + c.has_trailer >= uint64_t{c.has_preamble}, "repetition index entry {} is inconsistent", i);
    c.num_starts = ends + c.has_trailer - c.has_preamble;
    c.first_row = row;
    row += c.num_starts;
    check_corrupt(row <= num_rows, "repetition index counts more rows than the page's {}", num_rows);
    preamble = c.has_trailer;
  }
  check_corrupt(row == num_rows, "repetition index counts {} rows, the page {}", row, num_rows);
  return chunks;
}

namespace {

struct DecodedChunk {
  std::vector<uint16_t> rep, def;
  DataBlock values;
  /// Filled on first use (lists only): level index of every row start in the chunk, and
  /// the visible values before each of them, plus the chunk's total at the end. A take
  /// with many rows in one chunk then finds each row without rescanning the levels.
  std::vector<uint32_t> starts, visible_before;
  bool indexed = false;
  uint32_t lookups = 0;  ///< row ranges that looked for their rows here so far
  /// Row starts and visible values in the whole chunk, counted on first use (lists only).
  int64_t num_starts = -1;
  uint64_t num_visible = 0;
  /// `values` holds only the values of the row ranges that wanted this chunk, in their order
  /// (a take's few rows of a chunk without lists); `consumed` of them were extracted so far.
  bool compact = false;
  uint64_t consumed = 0;

  /// Where the values of the chunk's rows [row, row + n) start in `values`: at `row`, or, in a
  /// compact chunk, at the next n it holds (which this call uses up).
  uint64_t values_at(uint64_t row, uint64_t n) {
    if (!compact) return row;
    const uint64_t at = consumed;
    consumed += n;
    return at;
  }
};

/// A chunk wanted for so few of its values that only they are decoded (1 in 16 or fewer).
inline constexpr uint64_t kCompactShare = 16;

/// The decoded chunks of one decode, by chunk index: the chunks of [first, first + slots)
/// that were needed, each decoded once (a flat table: a take of many rows looks one up per
/// row range).
class DecodedChunks {
 public:
  DecodedChunks(size_t first, size_t count, size_t needed) : first_(first), slot_(count, kNone) {
    chunks_.reserve(needed);
  }
  DecodedChunks(const DecodedChunks&) = delete;
  DecodedChunks& operator=(const DecodedChunks&) = delete;
  /// The chunks' levels and values go back to this thread's recycled vectors, for the next
  /// chunks' decoding (common/recycled.h).
  ~DecodedChunks() {
    for (auto& c : chunks_) {
      Recycled<uint16_t>::give(std::move(c.rep));
      Recycled<uint16_t>::give(std::move(c.def));
      Recycled<uint8_t>::give(std::move(c.values.data));
    }
  }
  template <typename Decode>
  DecodedChunk& emplace(size_t c, Decode&& decode) {
    uint32_t& s = slot_.at(c - first_);
    if (s == kNone) {
      chunks_.push_back(decode());
      s = static_cast<uint32_t>(chunks_.size() - 1);
    }
    return chunks_[s];
  }
  DecodedChunk& at(size_t c) {
    check_internal(c >= first_ && c - first_ < slot_.size() && slot_[c - first_] != kNone, "chunk {} not decoded", c);
    return chunks_[slot_[c - first_]];
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  size_t first_;
  std::vector<uint32_t> slot_;
  std::vector<DecodedChunk> chunks_;
};

/// Where a row starts inside a chunk: its level index and the visible values before it.
struct StartPos {
  uint64_t level = 0;
  uint64_t visible_before = 0;
};

uint64_t pad8(uint64_t x) { return (x + kMiniBlockAlignment - 1) / kMiniBlockAlignment * kMiniBlockAlignment; }

/// Bytes of one value of a fixed-width type (fixed-size lists of such, at any depth), as a
/// decoded block holds them; 0 for variable-width types and bit-packed booleans.
uint64_t fixed_value_bytes(const DataType& type) {
  if (type.id == TypeId::fixed_size_list) {
    if (type.children.size() != 1 || !type.children[0] || !type.children[0]->type || type.list_size <= 0) return 0;
    const uint64_t item = fixed_value_bytes(*type.children[0]->type);
    const uint64_t bytes = static_cast<uint64_t>(type.list_size) * item;  // at most 2^31 · 2^20
    return bytes <= (uint64_t{1} << 20) ? bytes : 0;                      // past 1 MiB a value: no estimate
  }
  const int bits = type.bit_width();
  return bits > 0 && bits % 8 == 0 ? static_cast<uint64_t>(bits / 8) : 0;
}

class MiniBlockDecoder final : public PageDecoder {
 public:
  MiniBlockDecoder(const PageContext& ctx, const pb::MiniBlockLayout& layout) : ctx_(ctx), layout_(layout) {
    for (int l : layout.layers()) layers_.push_back(static_cast<RepDefLayer>(l));
    max_rep_ = max_rep_level(layers_);
    const int max_visible = max_visible_def(layers_);
    check_corrupt(max_visible >= 0 && max_visible <= UINT16_MAX, "visible definition limit {}", max_visible);
    visible_limit_ = static_cast<uint16_t>(max_visible);
    check_corrupt(layout.has_value_compression(), "mini-block page has no value compression");
    check_corrupt(layout.num_buffers() >= 1 && layout.num_buffers() <= 64, "mini-block page with {} value buffers",
                  layout.num_buffers());
    if (max_rep_ > 0) check_corrupt(layout.has_rep_compression(), "list layers but no repetition levels");
    if (ctx.version.minor == 1)
      check_corrupt(!layout.has_large_chunk(), "2.1 files must not use large mini-block chunks");
    const bool has_dict = layout_.has_dictionary();
    const bool has_rep_index = layout_.repetition_index_depth() > 0;
    const size_t needed = 2 + has_dict + has_rep_index;
    check_corrupt(ctx.page->buffers.size() >= needed, "mini-block page has {} buffers, expected {}",
                  ctx.page->buffers.size(), needed);
  }

  const char* layout_name() const override { return "mini-block"; }

  std::vector<io::ByteRange> metadata_ranges(std::span<const RowRange>) override {
    if (initialized_) return {};
    const auto& bufs = ctx_.page->buffers;
    std::vector<io::ByteRange> ranges = {bufs[0]};
    if (layout_.has_dictionary()) ranges.push_back(bufs[2]);
    if (layout_.repetition_index_depth() > 0) ranges.push_back(bufs[2 + layout_.has_dictionary()]);
    return ranges;
  }

  void load_metadata(std::span<const RowRange>, std::vector<Bytes>&& parts) override {
    if (initialized_) return;
    const auto& bufs = ctx_.page->buffers;
    const bool has_dict = layout_.has_dictionary();
    const bool has_rep_index = layout_.repetition_index_depth() > 0;
    check_internal(parts.size() == 1u + has_dict + has_rep_index, "mini-block metadata read returned {} parts",
                   parts.size());
    Bytes empty;
    chunks_ = parse_miniblock_chunks(parts[0], layout_.has_large_chunk(), layout_.num_items(), bufs[1].length,
                                     has_rep_index ? ByteView(parts.back()) : ByteView(empty),
                                     layout_.repetition_index_depth(), ctx_.page->num_rows);
    if (has_dict) {
      check_alloc(layout_.num_dictionary_items(), "dictionary");
      dictionary_ = with_context("dictionary", [&] {
        return std::make_shared<const DataBlock>(
            encoding::decode_block(layout_.dictionary(), parts[1], layout_.num_dictionary_items()));
      });
    }
    initialized_ = true;
  }

  std::vector<io::ByteRange> likely_data_ranges(std::span<const RowRange> rows) override {
    if (initialized_) return ranges_of(chunk_runs(rows));  // whole runs: units for a remote read-ahead
    return likely_share_of_rows(ctx_.page->buffers.at(1), ctx_.page->num_rows, rows);
  }

  std::vector<io::ByteRange> data_ranges(std::span<const RowRange> rows) override {
    return ranges_of(read_pieces(chunk_runs(rows)));
  }

  LeafData decode(std::span<const RowRange> rows, std::vector<Bytes>&& parts) override {
    LeafData out;
    out.layers = layers_;
    decode_into(rows, std::move(parts), out);
    return out;
  }

  bool decodes_in_place() const override { return true; }
  bool edge_ranges_shared() const override { return true; }

  /// A page without lists appends one level (when it has definition levels) and one value
  /// per row; one with lists about the page's average items per row, and a level per item
  /// or row (an estimate: the room is reserved, not touched, and a short one only means
  /// growing as before). Values only when fixed-width and without a dictionary. Bounded by
  /// the bytes read, whatever the page's metadata claims: at most 64 bytes of values and 8
  /// items and levels per byte (bit-packed booleans), plus one per row.
  DecodeSizeHint size_hint(std::span<const RowRange> rows, const std::vector<Bytes>& parts) const override {
    if (!initialized_ || ctx_.page->num_rows == 0) return {};
    uint64_t wanted = 0, read = 0;
    for (const auto& r : rows) wanted += r.size();
    for (const auto& p : parts) read += p.size();
    const double most_items = 8.0 * static_cast<double>(read) + static_cast<double>(wanted);
    double items = static_cast<double>(wanted);
    if (max_rep_ > 0) {
      const double per_row = static_cast<double>(layout_.num_items()) / static_cast<double>(ctx_.page->num_rows);
      items = std::min(static_cast<double>(wanted) * per_row * 1.125, most_items);
    }
    const uint64_t width = ctx_.leaf_type && !dictionary_ ? fixed_value_bytes(*ctx_.leaf_type) : 0;
    const double value_bytes = std::min(items * static_cast<double>(width), 64.0 * static_cast<double>(read));
    const uint64_t levels = static_cast<uint64_t>(max_rep_ > 0 ? std::min(items + wanted, most_items) : wanted);
    return {static_cast<uint64_t>(value_bytes), max_rep_ > 0 ? levels : 0, layout_.has_def_compression() ? levels : 0};
  }

  void decode_into(std::span<const RowRange> rows, std::vector<Bytes>&& parts, LeafData& out) override {
    if (rows.empty()) {
      if (out.num_rows == 0 && out.num_levels() == 0) out.layers = layers_;
      return;
    }
    check_internal(initialized_, "mini-block page decoded before its metadata was loaded");
    // Decode every needed chunk once.
    std::vector<std::pair<size_t, size_t>> range_chunks;  // of each row range, found once
    const auto runs = read_pieces(chunk_runs(rows, &range_chunks));
    check_internal(parts.size() == runs.size(), "mini-block data read returned {} parts for {} pieces", parts.size(),
                   runs.size());
    size_t needed = 0;
    for (const auto& [first, last] : runs) needed += last - first + 1;
    DecodedChunks decoded(runs.front().first, runs.back().second - runs.front().first + 1, needed);
    size_t next_range = 0;  // the first row range that may still want the chunk at hand
    std::vector<encoding::ValueRange> chunk_wanted;
    uint64_t levels = 0, value_bytes = 0, offset_bytes = 0;
    for (size_t r = 0; r < runs.size(); ++r) {
      auto [first, last] = runs[r];
      const uint64_t base = chunks_[first].offset;
      for (size_t c = first; c <= last; ++c) {
        const auto& info = chunks_[c];
        if (ctx_.stats) ctx_.stats->chunks_decoded++;
        if (max_rep_ == 0) few_wanted(c, rows, range_chunks, next_range, chunk_wanted);
        auto& dc = decoded.emplace(c, [&] {
          return with_context([&] { return fmt::format("chunk {}", c); },
                              [&] {
                                return decode_chunk(ByteView(parts[r]).slice(info.offset - base, info.size),
                                                    info.num_values, chunk_wanted);
                              });
        });
        levels += std::max(dc.rep.size(), dc.def.size());
        value_bytes += dc.values.data.size();
        offset_bytes += dc.values.offsets.size();
      }
    }
    // Levels and values go straight into `out` when it has this page's shape (or is
    // empty): each chunk's slice is copied once. Otherwise through a LeafData of its own.
    const bool fresh = out.num_rows == 0 && out.num_levels() == 0;
    const bool has_def = layout_.has_def_compression();
    const bool direct =
        !dictionary_ && !out.dictionary &&
        (fresh || (out.layers == layers_ && out.rep.empty() == (max_rep_ == 0) && out.def.empty() == !has_def));
    LeafData own;
    LeafData& dst = direct ? out : own;
    if (direct && fresh) {
      const uint64_t rows_before = out.num_rows;
      clear_keeping_room(out);
      out.num_rows = rows_before;
    }
    dst.layers = layers_;
    if (max_rep_ > 0) reserve_more(dst.rep, levels);
    if (has_def) reserve_more(dst.def, levels);
    if (!dictionary_) {
      reserve_more(dst.values.data, value_bytes);
      if (offset_bytes) reserve_more(dst.values.offsets, offset_bytes * 2 + 8);
    }
    encoding::DataBlock indices;  // dictionary pages: looked up once at the end
    encoding::DataBlock& values = dictionary_ ? indices : dst.values;
    if (!(max_rep_ == 0 && copy_fixed_width(rows, range_chunks, decoded, dst, values)))
      for (size_t i = 0; i < rows.size(); ++i)
        extract_into(rows[i], range_chunks[i].first, range_chunks[i].second, decoded, dst, values);
    if (dictionary_ && keeps_dictionary()) {
      dst.values = std::move(indices);
      dst.dictionary = dictionary_;
    } else if (dictionary_) {
      dst.values = lookup_dictionary(*dictionary_, indices);
    }
    if (!direct) append_leaf(out, std::move(own));
  }

 private:
  /// Whether this page's rows leave with its dictionary (PageContext::keep_dictionary): for
  /// string and binary columns without lists, the only ones the filter compares that way.
  bool keeps_dictionary() const {
    return ctx_.keep_dictionary && max_rep_ == 0 && ctx_.leaf_type && ctx_.leaf_type->is_binary_like();
  }

  /// The chunks holding rows [range.begin, range.end): from the one where the first row
  /// starts to the one where the last row ends.
  /// `hint`: a chunk at or before the range's first (0 when unknown); set to the chunk of the
  /// range's last row, the hint for a following range of sorted ones.
  std::pair<size_t, size_t> chunks_of(const RowRange& range, size_t& hint) const {
    check_corrupt(range.begin < range.end && range.end <= ctx_.page->num_rows, "rows [{}, {}) outside a page of {}",
                  range.begin, range.end, ctx_.page->num_rows);
    size_t first = find_chunk_of_row(range.begin, hint);
    size_t last = range.size() == 1 ? first : find_chunk_of_row(range.end - 1, first);
    hint = last;
    const uint64_t last_row = range.end - 1;
    while (chunks_[last].has_trailer && last_row == chunks_[last].first_row + chunks_[last].num_starts - 1) {
      check_corrupt(last + 1 < chunks_.size(), "the last chunk ends in the middle of a row");
      ++last;
      if (chunks_[last].num_starts > 0 || !chunks_[last].has_trailer) break;
    }
    return {first, last};
  }

  /// Runs of consecutive needed chunks for sorted row ranges; `range_chunks`, when given,
  /// receives the chunks of each range.
  std::vector<std::pair<size_t, size_t>> chunk_runs(
      std::span<const RowRange> rows, std::vector<std::pair<size_t, size_t>>* range_chunks = nullptr) const {
    check_internal(initialized_, "mini-block page planned before its metadata was loaded");
    std::vector<std::pair<size_t, size_t>> runs;
    if (range_chunks) range_chunks->reserve(rows.size());
    size_t hint = 0;
    for (const auto& r : rows) {
      auto [first, last] = chunks_of(r, hint);
      if (range_chunks) range_chunks->emplace_back(first, last);
      if (!runs.empty() && first <= runs.back().second + 1)
        runs.back().second = std::max(runs.back().second, last);
      else
        runs.emplace_back(first, last);
    }
    return runs;
  }

  /// The file bytes of each run of chunks [first, last].
  std::vector<io::ByteRange> ranges_of(const std::vector<std::pair<size_t, size_t>>& runs) const {
    const auto& data_buf = ctx_.page->buffers.at(1);
    std::vector<io::ByteRange> out;
    out.reserve(runs.size());
    for (auto [first, last] : runs)
      out.push_back(
          {data_buf.offset + chunks_[first].offset, chunks_[last].offset + chunks_[last].size - chunks_[first].offset});
    return out;
  }

  /// The byte ranges a read of chunk `runs` asks for: the runs, with the first chunk of the
  /// first run and the last chunk of the last run each a range of its own. Those are the
  /// chunks a batch may share with the batch before or after it (a chunk holding rows of
  /// both), and read::ColumnReader hands such a range's bytes from one batch's read to the
  /// next instead of reading them twice. The scheduler merges the neighbouring ranges into
  /// one read again.
  static std::vector<std::pair<size_t, size_t>> read_pieces(std::vector<std::pair<size_t, size_t>> runs) {
    if (runs.empty()) return runs;
    if (runs.front().first < runs.front().second) {
      const size_t c = runs.front().first;
      runs.front().first = c + 1;
      runs.insert(runs.begin(), {c, c});
    }
    if (runs.back().first < runs.back().second) {
      const size_t c = runs.back().second;
      runs.back().second = c - 1;
      runs.emplace_back(c, c);
    }
    return runs;
  }

  /// Pages without lists whose chunks decoded to plain fixed-width values (whole bytes each,
  /// no item validity): appends every range's definition levels and values to `out` and
  /// `values` with one growth of each and a copy per range and chunk, as extract_into would
  /// one range at a time (a take of 83,223 single rows spent a tenth of its time in the
  /// generic append). False, with nothing appended, for any other shape.
  bool copy_fixed_width(std::span<const RowRange> rows, const std::vector<std::pair<size_t, size_t>>& range_chunks,
                        DecodedChunks& decoded, LeafData& out, encoding::DataBlock& values) const {
    uint64_t width = 0;  // bytes a value
    const encoding::DataBlock* shape = nullptr;
    for (size_t i = 0; i < rows.size(); ++i)
      for (size_t c = range_chunks[i].first; c <= range_chunks[i].second; ++c) {
        const encoding::DataBlock& v = decoded.at(c).values;
        if (v.is_variable() || !v.children.empty() || !v.fsl_validity.empty()) return false;
        uint64_t items = 1;
        for (auto d : v.fsl_dims) items *= d;
        const uint64_t bits = v.bits_per_value * items;
        if (bits == 0 || bits % 8 != 0 || (width != 0 && bits / 8 != width)) return false;
        width = bits / 8;
        shape = &v;
      }
    if (!shape) return false;
    const bool fresh = values.num_values == 0 && values.data.empty() && values.offsets.empty();
    if (fresh) {
      values.bits_per_value = shape->bits_per_value;
      values.bits_per_offset = 0;
      values.fsl_dims = shape->fsl_dims;
      values.packed_child_bits = shape->packed_child_bits;
    } else if (values.is_variable() || !values.children.empty() || !values.fsl_validity.empty() ||
               values.bits_per_value != shape->bits_per_value || values.fsl_dims != shape->fsl_dims) {
      return false;
    }
    uint64_t total = 0;
    for (const auto& r : rows) total += r.size();
    const bool has_def = layout_.has_def_compression();
    const uint64_t value_base = values.data.size(), def_base = out.def.size();
    values.data.resize(value_base + total * width);
    if (has_def) out.def.resize(def_base + total);
    uint8_t* vp = values.data.data() + value_base;
    uint16_t* dp = has_def ? out.def.data() + def_base : nullptr;
    for (size_t i = 0; i < rows.size(); ++i) {
      const RowRange& range = rows[i];
      uint64_t covered = 0;
      for (size_t c = range_chunks[i].first; c <= range_chunks[i].second; ++c) {
        DecodedChunk& dc = decoded.at(c);
        const uint64_t fr = chunks_[c].first_row, n = chunks_[c].num_values;
        const uint64_t lo = std::max(range.begin, fr), hi = std::min(range.end, fr + n);
        if (lo >= hi) continue;
        const uint64_t k = hi - lo;
        if (has_def) {
          check_corrupt(dc.def.size() >= hi - fr, "chunk {} has {} definition levels for {} values", c, dc.def.size(),
                        n);
          std::memcpy(dp, dc.def.data() + (lo - fr), k * sizeof(uint16_t));
          dp += k;
        }
        const uint64_t from = dc.values_at(lo - fr, k);
        check_corrupt((from + k) * width <= dc.values.data.size(),
                      "fixed-width block of {} bytes holds fewer than {} values", dc.values.data.size(), from + k);
        std::memcpy(vp, dc.values.data.data() + from * width, k * width);
        vp += k * width;
        covered += k;
      }
      check_corrupt(covered == range.size(), "chunks hold fewer rows than the page claims");
    }
    values.num_values += total;
    out.num_rows += total;
    return true;
  }

  /// Appends rows `range` (held by chunks [first, last]) to `out`: levels to out.rep /
  /// out.def, visible values to `values`; each chunk's slice is copied once.
  void extract_into(const RowRange& range, size_t first, size_t last, DecodedChunks& decoded, LeafData& out,
                    encoding::DataBlock& values) const {
    out.num_rows += range.size();
    if (max_rep_ == 0) {
      // One level (and one value slot) per row.
      uint64_t covered = 0;
      for (size_t c = first; c <= last; ++c) {
        DecodedChunk& dc = decoded.at(c);
        const uint64_t fr = chunks_[c].first_row, n = chunks_[c].num_values;
        const uint64_t lo = std::max(range.begin, fr), hi = std::min(range.end, fr + n);
        if (lo >= hi) continue;
        if (!dc.def.empty()) {
          check_corrupt(dc.def.size() >= hi - fr, "chunk {} has {} definition levels for {} values", c, dc.def.size(),
                        n);
          out.def.insert(out.def.end(), dc.def.begin() + (lo - fr), dc.def.begin() + (hi - fr));
        }
        const uint64_t from = dc.values_at(lo - fr, hi - lo);
        append_values(values, dc.values, from, from + (hi - lo));
        covered += hi - lo;
      }
      check_corrupt(covered == range.size(), "chunks hold fewer rows than the page claims");
      return;
    }
    // Levels from the `skip`-th row start of chunk `first` (skipping its preamble, the tail
    // of a row started earlier) to the start of the row after the range, which may lie in
    // a later chunk.
    const uint64_t skip = range.begin - chunks_[first].first_row;
    const uint64_t need = range.size();
    uint64_t rows_started = 0;  // rows of the range whose start has been passed
    bool begun = false;
    for (size_t c = first; c <= last; ++c) {
      DecodedChunk& dc = decoded.at(c);
      // A chunk that many row ranges look into (a take's scattered rows) is indexed once;
      // one or two ranges (a scan's batch, a contiguous take) find their starts by a scan of
      // the levels instead, which writes nothing.
      if (++dc.lookups > 2) index_chunk(dc);
      count_starts(dc);
      const uint64_t num_starts = static_cast<uint64_t>(dc.num_starts);
      uint64_t seg_begin = 0, items_begin = 0;
      uint64_t first_start = 0;  // the start (index among the chunk's starts) after seg_begin's
      if (!begun) {
        if (skip >= num_starts) {
          check_corrupt(c == first, "row {} not found in its chunks", range.begin);
          continue;
        }
        begun = true;
        const StartPos p = start_at(dc, skip);
        seg_begin = p.level;
        items_begin = p.visible_before;
        rows_started = 1;
        first_start = skip + 1;  // later starts in this chunk end rows
      }
      // The start ending the range: the (need - rows_started)-th start from `first_start`.
      const uint64_t k = first_start + (need - rows_started);
      uint64_t seg_end = dc.rep.size(), items_end = dc.num_visible;
      bool finished = false;
      if (k < num_starts) {
        const StartPos p = start_at(dc, k);
        seg_end = p.level;
        items_end = p.visible_before;
        finished = true;
      } else {
        rows_started += num_starts - first_start;
      }
      out.rep.insert(out.rep.end(), dc.rep.begin() + seg_begin, dc.rep.begin() + seg_end);
      if (!dc.def.empty()) out.def.insert(out.def.end(), dc.def.begin() + seg_begin, dc.def.begin() + seg_end);
      append_values(values, dc.values, items_begin, items_end);
      if (finished) break;
    }
    check_corrupt(begun, "row {} not found in its chunks", range.begin);
  }

  /// Pages without lists: the values of chunk `c` that the row ranges want, in their order,
  /// into `wanted`, when they are few enough to decode alone (1 in kCompactShare or fewer);
  /// else `wanted` is left empty. `next_range`: the first range that may want chunk `c` or a
  /// later one, advanced as the chunks are visited in order.
  void few_wanted(size_t c, std::span<const RowRange> rows, const std::vector<std::pair<size_t, size_t>>& range_chunks,
                  size_t& next_range, std::vector<encoding::ValueRange>& wanted) const {
    wanted.clear();
    while (next_range < rows.size() && range_chunks[next_range].second < c) ++next_range;
    const uint64_t fr = chunks_[c].first_row, n = chunks_[c].num_values;
    uint64_t count = 0;
    for (size_t i = next_range; i < rows.size() && range_chunks[i].first <= c; ++i) {
      const uint64_t lo = std::max(rows[i].begin, fr), hi = std::min(rows[i].end, fr + n);
      if (lo >= hi) continue;
      count += hi - lo;
      if (count * kCompactShare > n) {
        wanted.clear();
        return;
      }
      wanted.push_back({lo - fr, hi - fr});
    }
  }

  /// Counts the chunk's row starts and visible values (once): two passes that write nothing.
  void count_starts(DecodedChunk& dc) const {
    if (dc.num_starts >= 0) return;
    const uint16_t top = static_cast<uint16_t>(max_rep_);
    const uint64_t n = dc.rep.size();
    const uint64_t count = count_levels_equal(dc.rep.data(), n, top);
    check_corrupt(dc.def.empty() || dc.def.size() == n, "rep and def level counts differ");
    dc.num_starts = static_cast<int64_t>(count);
    dc.num_visible = dc.def.empty() ? n : count_visible(dc.def, 0, n);
  }

  /// The `k`-th row start of a chunk (k below its count of starts): from the index when the
  /// chunk has one, else by a scan of its levels up to that start.
  StartPos start_at(const DecodedChunk& dc, uint64_t k) const {
    if (dc.indexed) return {dc.starts[k], dc.visible_before[k]};
    const uint16_t top = static_cast<uint16_t>(max_rep_);
    const uint16_t* rp = dc.rep.data();
    const uint64_t n = dc.rep.size();
    if (k == 0 && n > 0 && rp[0] == top) return {0, 0};
    const uint64_t i = find_nth_level_equal(rp, n, top, k);
    check_corrupt(i < n, "row start {} not found in a chunk of {} levels", k, n);
    return {i, dc.def.empty() ? i : count_visible(dc.def, 0, i)};
  }

  /// Fills `dc.starts` / `dc.visible_before` (once).
  void index_chunk(DecodedChunk& dc) const {
    if (dc.indexed) return;
    count_starts(dc);  // also checks the level counts
    const uint16_t top = static_cast<uint16_t>(max_rep_);
    const uint64_t n = dc.rep.size();
    // Level positions fit 32 bits (half the memory of 64-bit ones; a take touches many chunks).
    check_corrupt(n <= UINT32_MAX, "a mini-block chunk of {} levels", n);
    const uint16_t* rp = dc.rep.data();
    // Sized from the count, then filled through raw cursors: no capacity check per start.
    dc.starts.resize(static_cast<uint64_t>(dc.num_starts) + 1);  // + 1: index_level_starts' scratch entry
    dc.visible_before.resize(static_cast<uint64_t>(dc.num_starts) + 1);
    dc.visible_before.back() = index_level_starts(rp, dc.def.empty() ? nullptr : dc.def.data(), n, top, visible_limit_,
                                                  dc.starts.data(), dc.visible_before.data());
    dc.starts.pop_back();
    dc.indexed = true;
  }

  /// Levels in [from, to) that hold a visible value (an item slot, null or not).
  uint64_t count_visible(const std::vector<uint16_t>& def, uint64_t from, uint64_t to) const {
    check_internal(from <= to && to <= def.size(), "levels [{}, {}) outside {}", from, to, def.size());
    return count_levels_at_most(def.data() + from, to - from, visible_limit_);
  }

  /// The last chunk whose first_row ≤ row that has a row start covering `row`. `from`: a
  /// chunk that may start at or before `row` (sorted lookups pass the previous answer): the
  /// search starts there, and a row inside that chunk itself (most of a take's rows) costs
  /// one comparison with the next chunk's first row.
  size_t find_chunk_of_row(uint64_t row, size_t from) const {
    const size_t n = chunks_.size();
    const size_t lo = from < n && chunks_[from].first_row <= row ? from : 0;
    check_corrupt(n > 0 && chunks_[lo].first_row <= row, "row {} precedes the first chunk", row);
    size_t i = lo;
    if (i + 1 < n && chunks_[i + 1].first_row <= row) {
      auto it = std::upper_bound(chunks_.begin() + static_cast<std::ptrdiff_t>(lo + 1), chunks_.end(), row,
                                 [](uint64_t r, const MiniBlockChunkInfo& c) { return r < c.first_row; });
      i = static_cast<size_t>(it - chunks_.begin()) - 1;
    }
    while (i > 0 && chunks_[i].num_starts == 0) --i;
    check_corrupt(row < chunks_[i].first_row + chunks_[i].num_starts, "row {} lies in no chunk", row);
    return i;
  }

  /// Decodes one chunk: its levels, and its values, all of them or, when `wanted` is not empty
  /// (few_wanted: pages without lists, few values) and its encoding allows it, only those.
  DecodedChunk decode_chunk(ByteView chunk, uint64_t num_values, std::span<const encoding::ValueRange> wanted) const {
    DecodedChunk out;
    const bool has_rep = layout_.has_rep_compression(), has_def = layout_.has_def_compression();
    const bool large = layout_.has_large_chunk();
    uint64_t pos = 0;
    uint64_t num_levels = chunk.read<uint16_t>(pos);
    pos += 2;
    uint64_t rep_size = 0, def_size = 0;
    if (has_rep) rep_size = chunk.read<uint16_t>(pos), pos += 2;
    if (has_def) def_size = chunk.read<uint16_t>(pos), pos += 2;
    // Inline for the usual few buffers: this runs once per chunk, on the decoding threads.
    boost::container::small_vector<uint64_t, 8> sizes(layout_.num_buffers());
    for (auto& s : sizes) {
      s = large ? chunk.read<uint32_t>(pos) : chunk.read<uint16_t>(pos);
      pos += large ? 4 : 2;
    }
    pos = pad8(pos);
    ByteView rep_buf, def_buf;
    if (has_rep) rep_buf = chunk.slice(pos, rep_size), pos = pad8(pos + rep_size);
    if (has_def) def_buf = chunk.slice(pos, def_size), pos = pad8(pos + def_size);
    boost::container::small_vector<ByteView, 8> buffers;
    for (auto s : sizes) buffers.push_back(chunk.slice(pos, s)), pos = pad8(pos + s);
    const std::span<const ByteView> views(buffers.data(), buffers.size());

    // Without repetition there is one level per value; with it, the stored u16 count may
    // have wrapped in a large chunk: RLE levels know their own count.
    if (!has_rep && has_def) num_levels = num_values;
    if (has_rep) {
      auto inferred = encoding::infer_block_num_values(layout_.rep_compression(), rep_buf);
      if (inferred && *inferred > num_levels && *inferred % 65536 == num_levels) num_levels = *inferred;
    }
    if (has_rep)
      out.rep = with_context("repetition levels",
                             [&] { return encoding::decode_levels(layout_.rep_compression(), rep_buf, num_levels); });
    if (has_def)
      out.def = with_context("definition levels",
                             [&] { return encoding::decode_levels(layout_.def_compression(), def_buf, num_levels); });
    if (!wanted.empty()) {
      if (auto some = encoding::decode_miniblock_ranges(layout_.value_compression(), views, num_values, wanted)) {
        out.values = std::move(*some);
        out.compact = true;
        return out;
      }
    }
    out.values = encoding::decode_miniblock(layout_.value_compression(), views, num_values);
    check_corrupt(out.values.num_values == num_values, "chunk decoded to {} values, expected {}", out.values.num_values,
                  num_values);
    return out;
  }

  PageContext ctx_;
  const pb::MiniBlockLayout& layout_;
  std::vector<RepDefLayer> layers_;
  int max_rep_ = 0;
  uint16_t visible_limit_ = 0;  ///< the highest definition level that still holds an item slot
  bool initialized_ = false;
  std::vector<MiniBlockChunkInfo> chunks_;
  std::shared_ptr<const DataBlock> dictionary_;
};

}  // namespace

std::unique_ptr<PageDecoder> make_miniblock_decoder(const PageContext& ctx, const pb::MiniBlockLayout& layout) {
  return std::make_unique<MiniBlockDecoder>(ctx, layout);
}

}  // namespace lance::structural
