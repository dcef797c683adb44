#include "structural/fullzip.h"

#include <cstring>
#include <optional>

#include "encoding/decompress.h"
#include "encoding/general.h"
#include "encoding/sizes.h"
#include "structural/constant.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;
using encoding::DataBlock;

uint32_t control_word_bytes(uint32_t bits_rep, uint32_t bits_def) {
  uint32_t bits = bits_rep + bits_def;
  if (bits == 0) return 0;
  if (bits <= 8) return 1;
  if (bits <= 16) return 2;
  check_corrupt(bits <= 32, "control words of {} bits", bits);
  return 4;
}

namespace {

class FullZipDecoder final : public PageDecoder {
 public:
  FullZipDecoder(const PageContext& ctx, const pb::FullZipLayout& layout) : ctx_(ctx), layout_(layout) {
    for (int l : layout.layers()) layers_.push_back(static_cast<RepDefLayer>(l));
    max_rep_ = max_rep_level(layers_);
    max_visible_def_ = max_visible_def(layers_);
    check_corrupt(layout.bits_rep() <= 16 && layout.bits_def() <= 16, "control word of {}+{} bits", layout.bits_rep(),
                  layout.bits_def());
    cw_bytes_ = control_word_bytes(layout.bits_rep(), layout.bits_def());
    variable_ = layout.details_case() == pb::FullZipLayout::kBitsPerOffset;
    if (variable_) {
      check_corrupt(layout.bits_per_offset() == 32 || layout.bits_per_offset() == 64,
                    "full-zip length prefixes of {} bits", layout.bits_per_offset());
    } else {
      check_corrupt(layout.details_case() == pb::FullZipLayout::kBitsPerValue, "full-zip page without a value width");
      // 0 bits per value only with a Constant value encoding: Lance 1.0-2.0 write an all-null
      // fixed_size_list page (a vector column never filled) as full-zip of control words
      // alone with an empty Constant (lance-encoding 1.x primitive/fullzip, `Constant`).
      const bool constant = layout.has_value_compression() &&
                            layout.value_compression().compression_case() == pb::CompressiveEncoding::kConstant;
      check_corrupt(layout.bits_per_value() % 8 == 0 && (layout.bits_per_value() > 0 || constant),
                    "full-zip values of {} bits", layout.bits_per_value());
    }
    check_corrupt(layout.has_value_compression(), "full-zip page has no value compression");
    has_rep_index_ = variable_ || layout.bits_rep() > 0;
    per_value_general_ =
        variable_ && layout.value_compression().compression_case() == pb::CompressiveEncoding::kGeneral;
    check_corrupt(ctx.page->buffers.size() >= 1u + has_rep_index_, "full-zip page has {} buffers",
                  ctx.page->buffers.size());
  }

  const char* layout_name() const override { return "full-zip"; }

  std::vector<io::ByteRange> metadata_ranges(std::span<const RowRange> rows) override {
    if (!needs_index(rows)) return {};
    const auto& idx_buf = ctx_.page->buffers[1];
    const uint64_t w = index_width();
    for (const auto& r : rows) check_range(r);
    // With the cache on, the whole index is read once and kept for later takes.
    if (ctx_.cache_rep_index) return rep_index_ ? std::vector<io::ByteRange>{} : std::vector<io::ByteRange>{idx_buf};
    std::vector<io::ByteRange> out;
    for (const auto& r : rows) out.push_back({idx_buf.offset + r.begin * w, (r.size() + 1) * w});
    return out;
  }

  void load_metadata(std::span<const RowRange> rows, std::vector<Bytes>&& parts) override {
    byte_ranges_.clear();
    if (!needs_index(rows)) return;
    const auto& data_buf = ctx_.page->buffers[0];
    const uint64_t w = index_width();
    auto entry = [&](ByteView v, uint64_t k) -> uint64_t {
      switch (w) {
        case 1:
          return v.read<uint8_t>(k);
        case 2:
          return v.read<uint16_t>(k * 2);
        case 4:
          return v.read<uint32_t>(k * 4);
        default:
          return v.read<uint64_t>(k * 8);
      }
    };
    auto add = [&](uint64_t lo, uint64_t hi) {
      check_corrupt(lo <= hi && hi <= data_buf.length, "repetition index points at [{}, {}) outside {} bytes", lo, hi,
                    data_buf.length);
      byte_ranges_.push_back({data_buf.offset + lo, hi - lo});
    };
    if (ctx_.cache_rep_index) {
      if (!rep_index_) {
        check_internal(parts.size() == 1, "repetition index read returned {} parts", parts.size());
        rep_index_ = std::move(parts[0]);
      }
      for (const auto& r : rows) add(entry(*rep_index_, r.begin), entry(*rep_index_, r.end));
      return;
    }
    check_internal(parts.size() == rows.size(), "repetition index read returned {} parts", parts.size());
    for (size_t i = 0; i < rows.size(); ++i) add(entry(parts[i], 0), entry(parts[i], rows[i].size()));
  }

  std::vector<io::ByteRange> likely_data_ranges(std::span<const RowRange> rows) override {
    if (rows.empty()) return {};
    if (!has_rep_index_ || !needs_index(rows)) return data_ranges(rows);  // known without metadata
    return likely_share_of_rows(ctx_.page->buffers[0], ctx_.page->num_rows, rows);
  }

  std::vector<io::ByteRange> data_ranges(std::span<const RowRange> rows) override {
    const auto& data_buf = ctx_.page->buffers[0];
    const uint64_t n = ctx_.page->num_rows;
    std::vector<io::ByteRange> out;
    if (!has_rep_index_) {
      const uint64_t stride = cw_bytes_ + layout_.bits_per_value() / 8;
      check_corrupt(n * stride <= data_buf.length, "page of {} rows × {} bytes exceeds its {}-byte buffer", n, stride,
                    data_buf.length);
      for (const auto& r : rows) {
        check_range(r);
        out.push_back({data_buf.offset + r.begin * stride, r.size() * stride});
      }
      return out;
    }
    if (!needs_index(rows)) return {data_buf};  // the whole page in one read, no index needed
    check_internal(byte_ranges_.size() == rows.size(), "full-zip page planned before its repetition index was read");
    return byte_ranges_;
  }

  /// Per-value General (zstd, lz4) values of variable width are decompressed straight into
  /// `out` when it has this page's shape: no gathered copy of the frames, no buffer of this
  /// page's own to join to the column's earlier pages.
  bool decodes_in_place() const override { return per_value_general_; }

  void decode_into(std::span<const RowRange> rows, std::vector<Bytes>&& parts, LeafData& out) override {
    const bool fresh = out.num_rows == 0 && out.num_levels() == 0;
    const bool direct = per_value_general_ && !rows.empty() && !out.dictionary &&
                        (fresh || (out.layers == layers_ && out.rep.empty() == (layout_.bits_rep() == 0) &&
                                   out.def.empty() == (layout_.bits_def() == 0) && out.values.children.empty() &&
                                   out.values.is_variable() && out.values.bits_per_offset == 64));
    if (!direct) {
      append_leaf(out, decode(rows, std::move(parts)));
      return;
    }
    check_internal(parts.size() == rows.size(), "full-zip read returned {} parts for {} ranges", parts.size(),
                   rows.size());
    // A fresh `out` holds no levels nor values, but maybe room the caller reserved
    // (size_hint).
    if (fresh) out.layers = layers_;
    std::vector<ByteView> values;
    values.reserve(rows.size());
    for (const auto& r : rows) out.num_rows += r.size();
    walk(parts, rows, out, [&](ByteView v) { values.push_back(v); });
    encoding::general_variable_per_value_append(layout_.value_compression(), values, out.values);
  }

  /// Exact: the frames' stated sizes (bounded by their bytes: general_decompressed_size) and
  /// the control words counted.
  DecodeSizeHint size_hint(std::span<const RowRange> rows, const std::vector<Bytes>& parts) const override {
    if (!per_value_general_ || parts.size() != rows.size()) return {};
    std::vector<ByteView> values;
    values.reserve(rows.size());
    LeafData levels;  // walked past and counted, not kept
    walk(parts, rows, levels, [&](ByteView v) { values.push_back(v); });
    return {encoding::general_variable_per_value_bytes(layout_.value_compression(), values).value_or(0),
            levels.rep.size(), levels.def.size()};
  }

  LeafData decode(std::span<const RowRange> rows, std::vector<Bytes>&& parts) override {
    LeafData out;
    out.layers = layers_;
    if (rows.empty()) return out;
    check_internal(parts.size() == rows.size(), "full-zip read returned {} parts for {} ranges", parts.size(),
                   rows.size());
    // Every range starts at a row boundary, so the ranges' bytes one after another read as the
    // zipped bytes of all their rows: one pass gathers them, one decompression sizes the
    // output once (a take of 2048 scattered rows is 2048 ranges).
    for (const auto& r : rows) out.num_rows += r.size();
    unzip(parts, rows, out.num_rows, out);
    return out;
  }

 private:
  void check_range(const RowRange& r) const {
    check_corrupt(r.begin < r.end && r.end <= ctx_.page->num_rows, "rows [{}, {}) outside a page of {}", r.begin, r.end,
                  ctx_.page->num_rows);
  }

  uint64_t index_width() const {
    const auto& idx_buf = ctx_.page->buffers[1];
    const uint64_t n = ctx_.page->num_rows;
    check_corrupt(idx_buf.length % (n + 1) == 0, "repetition index of {} bytes for {} rows", idx_buf.length, n);
    const uint64_t w = idx_buf.length / (n + 1);
    check_corrupt(w == 1 || w == 2 || w == 4 || w == 8, "repetition index entries of {} bytes", w);
    return w;
  }

  /// Whether `rows` need the repetition index (not when they are the whole page).
  bool needs_index(std::span<const RowRange> rows) const {
    if (!has_rep_index_ || rows.empty()) return false;
    return !(rows.size() == 1 && rows[0].begin == 0 && rows[0].end == ctx_.page->num_rows);
  }

  /// The values (and levels) of `num_rows` rows from their zipped bytes, `parts` one after
  /// another; part i holds the whole rows of `rows[i]`, and exactly those.
  void unzip(std::vector<Bytes>& parts, std::span<const RowRange> rows, uint64_t num_rows, LeafData& out) const {
    const uint64_t value_bytes = variable_ ? 0 : layout_.bits_per_value() / 8;
    DataBlock zipped;
    zipped.bits_per_value = variable_ ? 0 : layout_.bits_per_value();
    zipped.bits_per_offset = variable_ ? 64 : 0;
    if (variable_) append_le<uint64_t>(zipped.offsets, 0);
    size_t total = 0;
    for (const auto& p : parts) total += p.size();

    if (cw_bytes_ == 0 && !variable_) {
      // No control words: the zipped bytes are the values, one after another. One part is
      // handed on as it is; several are joined once.
      check_corrupt(value_bytes > 0 && total == encoding::checked_mul(num_rows, value_bytes, "full-zip values"),
                    "full-zip data of {} bytes for {} rows of {} bytes", total, num_rows, value_bytes);
      if (parts.size() == 1) {
        zipped.data = std::move(parts[0]);
      } else {
        zipped.data.resize(total);
        size_t at = 0;
        for (const auto& p : parts) {
          if (!p.empty()) std::memcpy(zipped.data.data() + at, p.data(), p.size());
          at += p.size();
        }
      }
      zipped.num_values = num_rows;
      finish_values(std::move(zipped), out);
      return;
    }
    // The values are the zipped bytes less control words and length prefixes. One part (a scan's
    // page, a contiguous take) is compacted where it lies: every value moves towards the front,
    // never past bytes not yet read, and no second buffer of the part's size is allocated and
    // touched. Several parts are gathered into one buffer, which `total` bounds.
    const bool in_place = parts.size() == 1;
    if (!in_place) zipped.data.reserve(total);
    uint64_t written = 0;
    if (variable_ && max_rep_ == 0) zipped.offsets.reserve((num_rows + 1) * 8);
    walk(parts, rows, out, [&](ByteView v) {
      if (in_place) {
        if (!v.empty()) std::memmove(parts[0].data() + written, v.data(), v.size());
      } else {
        zipped.data.insert(zipped.data.end(), v.data(), v.data() + v.size());
      }
      written += v.size();
      if (variable_) append_le<uint64_t>(zipped.offsets, written);
      ++zipped.num_values;
    });
    if (in_place) {
      parts[0].resize(written);
      zipped.data = std::move(parts[0]);
    }
    finish_values(std::move(zipped), out);
  }

  /// Walks the zipped bytes of `parts` (part i holds the whole rows of `rows[i]`, and exactly
  /// those): control words go to `out.rep` / `out.def`, and every visible item to
  /// `on_value(bytes)`: a fixed-width value's bytes, a variable-width value's bytes after its
  /// length prefix, or nothing (an empty view) for a null item. `on_value` may write over
  /// bytes of a part already walked, never past the view it is given.
  template <typename OnValue>
  void walk(const std::vector<Bytes>& parts, std::span<const RowRange> rows, LeafData& out, OnValue&& on_value) const {
    const uint32_t bits_def = layout_.bits_def();
    const uint16_t def_mask = static_cast<uint16_t>((1u << bits_def) - 1);
    const uint16_t top = static_cast<uint16_t>(max_rep_);
    const uint64_t value_bytes = variable_ ? 0 : layout_.bits_per_value() / 8;
    const bool has_levels = cw_bytes_ > 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      const ByteView bytes(parts[k]);
      uint64_t rows_seen = 0;
      uint64_t pos = 0;
      while (pos < bytes.size()) {
        uint16_t rep = 0, def = 0;
        const bool part_start = pos == 0;
        if (has_levels) {
          uint32_t word = cw_bytes_ == 1   ? bytes.read<uint8_t>(pos)
                          : cw_bytes_ == 2 ? bytes.read<uint16_t>(pos)
                                           : bytes.read<uint32_t>(pos);
          pos += cw_bytes_;
          def = static_cast<uint16_t>(word & def_mask);
          rep = static_cast<uint16_t>(word >> bits_def);
          if (layout_.bits_rep() > 0) out.rep.push_back(rep);
          if (bits_def > 0) out.def.push_back(def);
        }
        check_corrupt(max_rep_ == 0 || !part_start || rep == top, "full-zip data of a row range starts inside a row");
        if (max_rep_ == 0 || rep == top) ++rows_seen;
        if (def > max_visible_def_) continue;
        if (!variable_) {
          on_value(bytes.slice(pos, value_bytes));
          pos += value_bytes;
        } else if (def == 0) {
          uint64_t len = layout_.bits_per_offset() == 32 ? bytes.read<uint32_t>(pos) : bytes.read<uint64_t>(pos);
          pos += layout_.bits_per_offset() / 8;
          on_value(bytes.slice(pos, len));
          pos += len;
        } else {
          on_value(ByteView());
        }
      }
      check_corrupt(pos == bytes.size(), "full-zip data has {} trailing bytes", bytes.size() - pos);
      check_corrupt(rows_seen == rows[k].size(), "full-zip data of rows [{}, {}) holds {} rows", rows[k].begin,
                    rows[k].end, rows_seen);
    }
  }

  /// Decompresses the gathered values into `out.values` (zero-filled slots for a page
  /// without values).
  void finish_values(DataBlock&& zipped, LeafData& out) const {
    out.values = variable_ ? encoding::decode_variable_per_value(layout_.value_compression(), std::move(zipped))
                           : encoding::decode_fixed_per_value(layout_.value_compression(), std::move(zipped));
    if (out.values.all_null) {
      // An empty Constant (the 0-bit pages of Lance 1.0-2.0): zero-filled slots of the leaf's
      // shape; the def levels make them null, and none may claim a value.
      for (uint16_t d : out.def) check_corrupt(d > 0, "full-zip page without values (empty Constant) has a valid item");
      check_corrupt(layout_.bits_def() > 0 || out.values.num_values == 0,
                    "full-zip page without values has no definition levels");
      const uint64_t n = out.values.num_values;
      out.values = repeat_value(empty_block_for(*ctx_.leaf_type), nullptr, std::vector<bool>(n, false));
    }
  }

  PageContext ctx_;
  const pb::FullZipLayout& layout_;
  std::vector<RepDefLayer> layers_;
  int max_rep_ = 0;
  int max_visible_def_ = 0;
  uint32_t cw_bytes_ = 0;
  bool variable_ = false;
  bool has_rep_index_ = false;
  bool per_value_general_ = false;          // variable-width values, each its own General frame
  std::vector<io::ByteRange> byte_ranges_;  // per row range, after load_metadata
  std::optional<Bytes> rep_index_;          // the whole index, when cached
};

}  // namespace

std::unique_ptr<PageDecoder> make_fullzip_decoder(const PageContext& ctx, const pb::FullZipLayout& layout) {
  return std::make_unique<FullZipDecoder>(ctx, layout);
}

}  // namespace lance::structural
