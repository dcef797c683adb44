#include "structural/blob.h"

#include <algorithm>
#include <deque>
#include <utility>

#include "encoding/sizes.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;
using encoding::DataBlock;

std::vector<BlobDescriptor> blob_descriptors(const DataBlock& values) {
  std::vector<BlobDescriptor> out(values.num_values);
  if (!values.children.empty()) {
    // A struct block (e.g. from a VariablePackedStruct): one child per descriptor field.
    check_corrupt(values.children.size() == 2, "blob descriptors have {} fields, expected 2", values.children.size());
    for (const auto& c : values.children) {
      check_corrupt(!c.is_variable() && c.bits_per_value == 64 && c.num_values == values.num_values,
                    "blob descriptor fields must be {} u64 values", values.num_values);
    }
    ByteView pos(values.children[0].data), size(values.children[1].data);
    for (uint64_t i = 0; i < values.num_values; ++i) out[i] = {pos.read<uint64_t>(i * 8), size.read<uint64_t>(i * 8)};
    return out;
  }
  check_corrupt(!values.is_variable() && values.bits_per_value == 128,
                "blob descriptors must be 128-bit {{position, size}} rows, got {}-bit values", values.bits_per_value);
  check_corrupt(
      values.packed_child_bits.empty() || (values.packed_child_bits.size() == 2 && values.packed_child_bits[0] == 64 &&
                                           values.packed_child_bits[1] == 64),
      "blob descriptors must pack two u64 fields");
  ByteView rows(values.data);
  for (uint64_t i = 0; i < values.num_values; ++i)
    out[i] = {rows.read<uint64_t>(i * 16), rows.read<uint64_t>(i * 16 + 8)};
  return out;
}

namespace {

/// Bits of a placeholder descriptor's position that hold the repetition level (below) and
/// the definition level (above).
inline constexpr unsigned kBlobLevelBits = 16;

class BlobDecoder final : public PageDecoder {
 public:
  BlobDecoder(const PageContext& ctx, const pb::BlobLayout& layout) : ctx_(ctx), file_size_(ctx.file_size) {
    for (int l : layout.layers()) layers_.push_back(static_cast<RepDefLayer>(l));
    if (layers_.empty()) layers_.push_back(pb::REPDEF_ALL_VALID_ITEM);
    for (auto l : layers_) def_levels_of(l);  // rejects unknown layers
    if (max_rep_level(layers_) > 0) throw_unsupported("blob columns inside lists are not supported");
    has_def_ = max_visible_def(layers_) > 0;
    check_corrupt(layout.has_inner_layout(), "blob page has no inner layout");
    const pb::PageLayout& inner = layout.inner_layout();
    check_corrupt(inner.layout_case() != pb::PageLayout::kBlobLayout, "blob page nested in a blob page");
    check_corrupt(inner.layout_case() != pb::PageLayout::LAYOUT_NOT_SET, "blob page has an empty inner layout");
    // The inner page: same buffers and rows, the inner layout (shares ownership of the
    // outer protobuf), descriptors typed as 16-byte values.
    inner_page_ = *ctx.page;
    inner_page_.layout = std::shared_ptr<const pb::PageLayout>(ctx.page->layout, &inner);
    PageContext inner_ctx = ctx;
    inner_ctx.page = &inner_page_;
    inner_ctx.leaf_type = make_fixed_size_binary(16);
    inner_ = with_context("blob descriptors", [&] { return make_page_decoder(inner_ctx); });
  }

  const char* layout_name() const override { return "blob"; }

  // Round 1 is the inner page's metadata (when it has any), round 2 its data (the
  // descriptors); the blob bytes are the data round.
  std::vector<io::ByteRange> metadata_ranges(std::span<const RowRange> rows) override {
    auto meta = inner_->metadata_ranges(rows);
    if (!meta.empty()) {
      stage_ = Stage::inner_metadata;
      return meta;
    }
    return descriptor_ranges(rows);
  }

  void load_metadata(std::span<const RowRange> rows, std::vector<Bytes>&& parts) override {
    with_context("blob descriptors", [&] {
      if (stage_ == Stage::inner_metadata) {
        inner_->load_metadata(rows, std::move(parts));
        stage_ = Stage::inner_loaded;
        return;
      }
      check_internal(stage_ == Stage::descriptors, "blob page: metadata loaded out of order");
      take_descriptors(rows, inner_->decode(rows, std::move(parts)));
      stage_ = Stage::none;
    });
  }

  std::vector<io::ByteRange> more_metadata_ranges(std::span<const RowRange> rows) override {
    if (stage_ != Stage::inner_loaded) return {};
    return with_context("blob descriptors", [&] {
      auto more = inner_->more_metadata_ranges(rows);
      if (!more.empty()) {
        stage_ = Stage::inner_metadata;
        return more;
      }
      return descriptor_ranges(rows);
    });
  }

  std::vector<io::ByteRange> data_ranges(std::span<const RowRange> rows) override {
    std::vector<io::ByteRange> out;
    for (const auto& d : descriptors_of(rows))
      if (d.size > 0) out.push_back({d.position, d.size});
    return out;
  }

  LeafData decode(std::span<const RowRange> rows, std::vector<Bytes>&& parts) override {
    LeafData out;
    out.layers = layers_;
    if (rows.empty()) return out;
    const std::vector<BlobDescriptor> descriptors = take_loaded(rows);
    uint64_t num_rows = 0;
    for (const auto& r : rows) num_rows += r.size();
    check_corrupt(descriptors.size() == num_rows, "{} blob descriptors for {} rows", descriptors.size(), num_rows);
    out.num_rows = num_rows;
    DataBlock& values = out.values;
    values.bits_per_offset = 64;
    values.num_values = num_rows;
    append_le<uint64_t>(values.offsets, 0);
    if (has_def_) out.def.reserve(num_rows);
    size_t next = 0;
    for (uint64_t i = 0; i < descriptors.size(); ++i) {
      const BlobDescriptor& d = descriptors[i];
      uint16_t def = 0;
      if (d.size > 0) {
        check_internal(next < parts.size(), "blob read returned {} parts, fewer than the values", parts.size());
        const Bytes& bytes = parts[next++];
        check_corrupt(bytes.size() == d.size, "blob of {} bytes read as {}", d.size, bytes.size());
        check_alloc(values.data.size() + bytes.size(), "blob values");
        values.data.insert(values.data.end(), bytes.begin(), bytes.end());
      } else if (d.position != 0) {
        // A placeholder: the levels of an entry without a value.
        check_corrupt(d.position >> (2 * kBlobLevelBits) == 0, "blob descriptor {} has position {} but size 0", i,
                      d.position);
        const uint64_t rep = d.position & ((uint64_t{1} << kBlobLevelBits) - 1);
        def = static_cast<uint16_t>(d.position >> kBlobLevelBits);
        check_corrupt(rep == 0, "blob descriptor {} carries repetition level {} in a page without lists", i, rep);
        check_corrupt(def > 0 && def <= max_visible_def(layers_), "blob descriptor {} carries definition level {}", i,
                      def);
      }
      if (has_def_) out.def.push_back(def);
      append_le<uint64_t>(values.offsets, values.data.size());
    }
    check_internal(next == parts.size(), "blob read returned {} parts for {} values", parts.size(), next);
    return out;
  }

 private:
  /// Where the metadata rounds are: none (idle or done), inner_metadata (the inner page's
  /// metadata was asked for), inner_loaded (it arrived), descriptors (the descriptors were
  /// asked for).
  enum class Stage { none, inner_metadata, inner_loaded, descriptors };

  /// The inner page's data ranges (the descriptors of `rows`). When there are none the
  /// descriptors are decoded at once and no round is needed.
  std::vector<io::ByteRange> descriptor_ranges(std::span<const RowRange> rows) {
    auto data = inner_->data_ranges(rows);
    if (data.empty()) {
      take_descriptors(rows, inner_->decode(rows, {}));
      stage_ = Stage::none;
      return {};
    }
    stage_ = Stage::descriptors;
    return data;
  }

  /// Keeps the descriptors of `rows` (decoded inner page) after checking them.
  void take_descriptors(std::span<const RowRange> rows, LeafData inner) {
    check_corrupt(inner.rep.empty() && inner.values.num_values == inner.num_levels(),
                  "blob descriptor page has its own levels");
    std::vector<BlobDescriptor> descriptors = blob_descriptors(inner.values);
    for (size_t i = 0; i < descriptors.size(); ++i) {
      const BlobDescriptor& d = descriptors[i];
      if (d.size == 0) continue;  // empty values and placeholders point nowhere
      check_corrupt(d.position <= file_size_ && d.size <= file_size_ - d.position,
                    "blob {} at [{}, +{}) lies outside the {}-byte file", i, d.position, d.size, file_size_);
    }
    for (auto it = loaded_.begin(); it != loaded_.end(); ++it) {
      if (same_rows(it->first, rows)) {
        loaded_.erase(it);
        break;
      }
    }
    // A scan plans batch k+1 before it decodes batch k: keep a few row sets, oldest dropped.
    if (loaded_.size() >= kMaxLoaded) loaded_.pop_front();
    loaded_.emplace_back(std::vector<RowRange>(rows.begin(), rows.end()), std::move(descriptors));
  }

  /// The loaded descriptors of `rows`: the metadata rounds must have run for them (the
  /// planner runs them before data_ranges and decode).
  const std::vector<BlobDescriptor>& descriptors_of(std::span<const RowRange> rows) const {
    for (const auto& [r, d] : loaded_)
      if (same_rows(r, rows)) return d;
    throw_internal("blob page: data asked for rows whose descriptors were not loaded");
  }

  /// Same, handed over (decode is the last use).
  std::vector<BlobDescriptor> take_loaded(std::span<const RowRange> rows) {
    for (auto it = loaded_.begin(); it != loaded_.end(); ++it) {
      if (!same_rows(it->first, rows)) continue;
      std::vector<BlobDescriptor> d = std::move(it->second);
      loaded_.erase(it);
      return d;
    }
    throw_internal("blob page: decoding rows whose descriptors were not loaded");
  }

  static bool same_rows(std::span<const RowRange> a, std::span<const RowRange> b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }

  static constexpr size_t kMaxLoaded = 4;

  PageContext ctx_;
  uint64_t file_size_;
  std::vector<RepDefLayer> layers_;
  bool has_def_ = false;
  format::PageInfo inner_page_;
  std::unique_ptr<PageDecoder> inner_;
  Stage stage_ = Stage::none;
  /// Descriptors per planned row set, oldest first (see take_descriptors).
  std::deque<std::pair<std::vector<RowRange>, std::vector<BlobDescriptor>>> loaded_;
};

}  // namespace

std::unique_ptr<PageDecoder> make_blob_decoder(const PageContext& ctx, const pb::BlobLayout& layout) {
  return std::make_unique<BlobDecoder>(ctx, layout);
}

}  // namespace lance::structural
