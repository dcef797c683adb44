#include "structural/sparse.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "encoding/decompress.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;
using encoding::DataBlock;

namespace {

uint64_t pad8(uint64_t x) { return (x + 7) / 8 * 8; }

/// A set of slot positions of one domain, ascending.
struct PositionSet {
  enum class Kind { empty, all, range, list } kind = Kind::empty;
  uint64_t start = 0, length = 0;  // range
  std::vector<uint64_t> list;
  bool contains(uint64_t slot) const {
    switch (kind) {
      case Kind::empty:
        return false;
      case Kind::all:
        return true;
      case Kind::range:
        return slot >= start && slot - start < length;
      case Kind::list:
        return std::binary_search(list.begin(), list.end(), slot);
    }
    return false;
  }
  /// Index of `slot` among the members (slot must be a member).
  uint64_t rank(uint64_t slot) const {
    switch (kind) {
      case Kind::all:
        return slot;
      case Kind::range:
        return slot - start;
      case Kind::list:
        return static_cast<uint64_t>(std::lower_bound(list.begin(), list.end(), slot) - list.begin());
      default:
        return 0;
    }
  }
};

/// One decoded structural layer.
struct Layer {
  enum class Kind { validity, list } kind = Kind::validity;
  uint64_t num_slots = 0;
  bool nulls_listed = true;  // validity: `validity` holds the null slots (else the valid ones)
  PositionSet validity;
  // lists
  PositionSet non_empty;
  std::vector<uint64_t> child_start;  // per non-empty slot (by rank), then the child count total
  bool null(uint64_t slot) const { return nulls_listed ? validity.contains(slot) : !validity.contains(slot); }
};

class SparseDecoder final : public PageDecoder {
 public:
  SparseDecoder(const PageContext& ctx, const pb::SparseLayout& layout) : ctx_(ctx), layout_(layout) {
    check_corrupt(layout.has_value_compression(), "sparse page has no value compression");
    check_corrupt(ctx.page->buffers.size() >= 2, "sparse page has {} buffers", ctx.page->buffers.size());
    for (const auto& l : layout.structural_layers()) {
      if (l.layer_case() == pb::SparseStructuralLayer::kFixedSizeList)
        throw_unsupported("sparse pages with fixed-size-list layers are not supported");
      check_corrupt(l.layer_case() != pb::SparseStructuralLayer::LAYER_NOT_SET, "sparse structural layer of no kind");
    }
  }

  const char* layout_name() const override { return "sparse"; }

  std::vector<io::ByteRange> metadata_ranges(std::span<const RowRange>) override { return {}; }
  void load_metadata(std::span<const RowRange>, std::vector<Bytes>&&) override {}

  std::vector<io::ByteRange> data_ranges(std::span<const RowRange> rows) override {
    for (const auto& r : rows)
      check_corrupt(r.begin < r.end && r.end <= ctx_.page->num_rows, "rows [{}, {}) outside a page of {}", r.begin,
                    r.end, ctx_.page->num_rows);
    if (loaded_ || rows.empty()) return {};
    return ctx_.page->buffers;  // the whole page, decoded once
  }

  LeafData decode(std::span<const RowRange> rows, std::vector<Bytes>&& parts) override {
    if (!loaded_ && !rows.empty()) load(std::move(parts));
    LeafData out;
    out.layers = dense_layers_;
    for (const auto& r : rows) {
      for (uint64_t row = r.begin; row < r.end; ++row) emit(out, 0, row, max_rep_);
      out.num_rows += r.size();
    }
    // values of the leaf slots reached, in order
    out.values = empty_like(values_);
    for (size_t i = 0; i < leaf_slots_.size();) {
      size_t j = i + 1;
      while (j < leaf_slots_.size() && leaf_slots_[j] == leaf_slots_[j - 1] + 1) ++j;
      append_values(out.values, values_, leaf_slots_[i], leaf_slots_[j - 1] + 1);
      i = j;
    }
    leaf_slots_.clear();
    if (max_rep_ == 0) out.rep.clear();
    if (!has_def_) out.def.clear();
    return out;
  }

 private:
  static DataBlock empty_like(const DataBlock& b) {
    DataBlock e;
    e.bits_per_value = b.bits_per_value;
    e.bits_per_offset = b.bits_per_offset;
    e.fsl_dims = b.fsl_dims;
    e.packed_child_bits = b.packed_child_bits;
    return e;
  }

  /// Dense entries of slot `slot` of layer `k` (outer first) and everything below it.
  void emit(LeafData& out, size_t k, uint64_t slot, int rep) {
    if (k == layers_.size()) {
      push(out, rep, 0);
      check_corrupt(slot < values_.num_values, "leaf slot {} outside {} values", slot, values_.num_values);
      leaf_slots_.push_back(slot);
      return;
    }
    const Layer& L = layers_[k];
    check_corrupt(slot < L.num_slots, "slot {} outside a layer of {}", slot, L.num_slots);
    if (L.null(slot)) {
      push(out, rep, null_def_[k]);
      // A null item or struct still holds its leaf slot unless a list lies below it.
      if (L.kind == Layer::Kind::validity && !list_below_[k]) {
        uint64_t s = slot;  // validity layers keep the slot number down to the leaf
        check_corrupt(s < values_.num_values, "leaf slot {} outside {} values", s, values_.num_values);
        leaf_slots_.push_back(s);
      }
      return;
    }
    if (L.kind == Layer::Kind::validity) return emit(out, k + 1, slot, rep);
    if (!L.non_empty.contains(slot)) {
      push(out, rep, empty_def_[k]);
      return;
    }
    const uint64_t r = L.non_empty.rank(slot);
    const uint64_t begin = L.child_start[r], end = L.child_start[r + 1];
    for (uint64_t c = begin; c < end; ++c) emit(out, k + 1, c, c == begin ? rep : list_depth_[k] - 1);
  }

  void push(LeafData& out, int rep, int def) {
    out.rep.push_back(static_cast<uint16_t>(rep));
    out.def.push_back(static_cast<uint16_t>(def));
  }

  PositionSet positions(const pb::SparsePositionSet& set, uint64_t domain, std::vector<Bytes>& parts, size_t& next) {
    PositionSet p;
    switch (set.positions_case()) {
      case pb::SparsePositionSet::kEmpty:
      case pb::SparsePositionSet::POSITIONS_NOT_SET:
        p.kind = PositionSet::Kind::empty;
        break;
      case pb::SparsePositionSet::kAll:
        p.kind = PositionSet::Kind::all;
        break;
      case pb::SparsePositionSet::kRange:
        p.kind = PositionSet::Kind::range;
        p.start = set.range().start();
        p.length = set.range().length();
        check_corrupt(p.start <= domain && p.length <= domain - p.start, "position range outside {} slots", domain);
        break;
      case pb::SparsePositionSet::kExplicit: {
        p.kind = PositionSet::Kind::list;
        const uint64_t n = set.num_positions();
        check_corrupt(n <= domain, "{} positions in a domain of {}", n, domain);
        const std::vector<uint64_t> deltas = words(set.explicit_(), parts, next, n, "positions");
        uint64_t at = 0;
        for (uint64_t i = 0; i < n; ++i) {
          at = i == 0 ? deltas[0] : at + deltas[i];
          check_corrupt(at < domain && (i == 0 || deltas[i] > 0), "position {} ({}) outside {} slots or not increasing",
                        i, at, domain);
          p.list.push_back(at);
        }
        break;
      }
    }
    return p;
  }

  /// The next page buffer decoded with `enc` to `n` u64 words.
  std::vector<uint64_t> words(const pb::CompressiveEncoding& enc, std::vector<Bytes>& parts, size_t& next, uint64_t n,
                              const char* what) {
    check_corrupt(next < parts.size(), "sparse page lacks the buffer of its {} (buffer {})", what, next);
    DataBlock b = encoding::decode_block(enc, ByteView(parts[next++]), n);
    check_corrupt(!b.all_null && !b.is_variable() && b.num_values == n && b.bits_per_value % 8 == 0 &&
                      b.bits_per_value > 0 && b.bits_per_value <= 64 && b.data.size() >= n * (b.bits_per_value / 8),
                  "sparse {} did not decode to {} integers", what, n);
    std::vector<uint64_t> out(n);
    const uint64_t w = b.bits_per_value / 8;
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, b.data.data() + i * w, w);
      out[i] = v;
    }
    return out;
  }

  void validity(Layer& L, const pb::SparseValiditySet& v, std::vector<Bytes>& parts, size_t& next) {
    L.nulls_listed = v.meaning() != pb::SparseValiditySet::SPARSE_VALIDITY_VALID_POSITIONS;
    if (!v.has_positions()) {
      L.validity.kind = L.nulls_listed ? PositionSet::Kind::empty : PositionSet::Kind::all;
      return;
    }
    L.validity = positions(v.positions(), L.num_slots, parts, next);
  }

  void load(std::vector<Bytes>&& parts) {
    check_corrupt(parts.size() == ctx_.page->buffers.size(), "sparse page read returned {} parts", parts.size());
    size_t next = 2;
    uint64_t domain = ctx_.page->num_rows;
    for (const auto& pl : layout_.structural_layers()) {
      Layer L;
      if (pl.layer_case() == pb::SparseStructuralLayer::kValidity) {
        L.kind = Layer::Kind::validity;
        L.num_slots = pl.validity().num_slots();
        check_corrupt(L.num_slots == domain, "validity layer of {} slots under a domain of {}", L.num_slots, domain);
        validity(L, pl.validity().validity(), parts, next);
      } else {
        const auto& l = pl.list();
        L.kind = Layer::Kind::list;
        L.num_slots = l.num_slots();
        check_corrupt(L.num_slots == domain, "list layer of {} slots under a domain of {}", L.num_slots, domain);
        L.non_empty = positions(l.non_empty_positions(), L.num_slots, parts, next);
        const uint64_t ne = L.non_empty.kind == PositionSet::Kind::list    ? L.non_empty.list.size()
                            : L.non_empty.kind == PositionSet::Kind::all   ? L.num_slots
                            : L.non_empty.kind == PositionSet::Kind::range ? L.non_empty.length
                                                                           : 0;
        // every non-empty slot has at least one child; child slots are bounded by the values
        check_corrupt(ne <= l.num_child_slots() && l.num_child_slots() <= kMaxDecodedBufferBytes,
                      "{} non-empty lists for {} child slots", ne, l.num_child_slots());
        L.child_start.assign(1, 0);
        std::vector<uint64_t> counts;
        switch (l.counts().counts_case()) {
          case pb::SparseCountSet::kConstant:
            check_corrupt(l.counts().constant().value() > 0, "constant list count 0");
            counts.assign(ne, l.counts().constant().value());
            break;
          case pb::SparseCountSet::kExplicit:
            counts = words(l.counts().explicit_(), parts, next, ne, "list counts");
            break;
          default:
            check_corrupt(ne == 0, "{} non-empty lists without counts", ne);
        }
        for (uint64_t c : counts) {
          check_corrupt(c > 0 && c <= l.num_child_slots() && L.child_start.back() <= l.num_child_slots() - c,
                        "list counts exceed {} child slots", l.num_child_slots());
          L.child_start.push_back(L.child_start.back() + c);
        }
        check_corrupt(L.child_start.back() == l.num_child_slots(),
                      "list counts sum to {}, the layer has {} child slots", L.child_start.back(), l.num_child_slots());
        validity(L, l.validity(), parts, next);
        domain = l.num_child_slots();
      }
      layers_.push_back(std::move(L));
    }
    check_corrupt(domain == layout_.num_visible_items(), "the layers end in {} slots, the page has {} values", domain,
                  layout_.num_visible_items());
    // Dense layers, inner first, and each layer's def codes.
    const size_t m = layers_.size();
    null_def_.assign(m, 0);
    empty_def_.assign(m, 0);
    list_depth_.assign(m, 0);
    list_below_.assign(m, false);
    int cum = 0, depth = 0;
    bool list_seen = false;
    // The innermost dense layer is an item layer; without a validity layer there, all valid.
    if (m == 0 || layers_[m - 1].kind == Layer::Kind::list) dense_layers_.push_back(pb::REPDEF_ALL_VALID_ITEM);
    for (size_t i = m; i-- > 0;) {
      list_below_[i] = list_seen;
      if (layers_[i].kind == Layer::Kind::list) {
        dense_layers_.push_back(pb::REPDEF_NULL_AND_EMPTY_LIST);
        null_def_[i] = cum + 1;
        empty_def_[i] = cum + 2;
        cum += 2;
        list_depth_[i] = ++depth;
        list_seen = true;
      } else {
        dense_layers_.push_back(pb::REPDEF_NULLABLE_ITEM);
        null_def_[i] = cum + 1;
        cum += 1;
      }
    }
    max_rep_ = depth;
    has_def_ = cum > 0;
    load_values(parts);
    loaded_ = true;
  }

  void load_values(const std::vector<Bytes>& parts) {
    const ByteView meta(parts[0]), data(parts[1]);
    const bool large = layout_.has_large_chunk();
    const uint64_t entry = large ? 8 : 4;
    check_corrupt(meta.size() % entry == 0, "sparse chunk metadata of {} bytes", meta.size());
    values_ = DataBlock{};
    bool first = true;
    uint64_t offset = 0, total = 0;
    for (uint64_t c = 0; c < meta.size() / entry; ++c) {
      const uint64_t words = large ? meta.read<uint32_t>(c * 8) : meta.read<uint16_t>(c * 4);
      const uint64_t n = large ? meta.read<uint32_t>(c * 8 + 4) : meta.read<uint16_t>(c * 4 + 2);
      const uint64_t size = (words + 1) * 8;
      check_corrupt(offset <= data.size() && size <= data.size() - offset,
                    "sparse chunk {} of {} bytes at {} overruns {}", c, size, offset, data.size());
      ByteView chunk = data.slice(offset, size);
      offset += size;
      uint64_t pos = 2;  // u16 level count (no levels in sparse chunks)
      std::vector<uint64_t> sizes(layout_.num_buffers());
      for (auto& s : sizes) {
        s = large ? chunk.read<uint32_t>(pos) : chunk.read<uint16_t>(pos);
        pos += large ? 4 : 2;
      }
      pos = pad8(pos);
      std::vector<ByteView> buffers;
      for (auto s : sizes) {
        check_corrupt(pos <= chunk.size() && s <= chunk.size() - pos, "sparse chunk {} buffer overruns the chunk", c);
        buffers.push_back(chunk.slice(pos, s));
        pos = pad8(pos + s);
      }
      DataBlock v = with_context(fmt::format("chunk {}", c),
                                 [&] { return encoding::decode_miniblock(layout_.value_compression(), buffers, n); });
      check_corrupt(v.num_values == n, "sparse chunk {} decoded {} values, expected {}", c, v.num_values, n);
      if (first) values_ = empty_like(v), first = false;
      append_values(values_, v, 0, n);
      total += n;
    }
    check_corrupt(total == layout_.num_visible_items(), "sparse chunks hold {} values, the page has {}", total,
                  layout_.num_visible_items());
  }

  PageContext ctx_;
  const pb::SparseLayout& layout_;
  bool loaded_ = false;
  std::vector<Layer> layers_;              // outer first
  std::vector<RepDefLayer> dense_layers_;  // inner first
  std::vector<int> null_def_, empty_def_, list_depth_;
  std::vector<bool> list_below_;
  int max_rep_ = 0;
  bool has_def_ = false;
  DataBlock values_;
  std::vector<uint64_t> leaf_slots_;
};

}  // namespace

std::unique_ptr<PageDecoder> make_sparse_decoder(const PageContext& ctx, const pb::SparseLayout& layout) {
  return std::make_unique<SparseDecoder>(ctx, layout);
}

}  // namespace lance::structural
