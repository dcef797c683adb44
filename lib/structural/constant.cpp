#include "structural/constant.h"

#include "encoding/decompress.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;
using encoding::DataBlock;

DataBlock empty_block_for(const DataType& type) {
  DataBlock b;
  if (type.is_binary_like()) {
    b.bits_per_offset = 64;
    return b;
  }
  if (type.id == TypeId::fixed_size_list) {
    const DataType* t = &type;
    while (t->id == TypeId::fixed_size_list) {
      b.fsl_dims.push_back(static_cast<uint64_t>(t->list_size));
      t = t->children[0]->type.get();
    }
    b.bits_per_value = static_cast<uint64_t>(t->bit_width());
    b.fsl_validity.assign(b.fsl_dims.size(), Bytes());
    return b;
  }
  if (type.id == TypeId::dictionary) return empty_block_for(*type.value_type);
  b.bits_per_value = static_cast<uint64_t>(type.bit_width());
  check_corrupt(b.bits_per_value > 0 || type.id == TypeId::null, "no value width for type {}", type.to_string());
  return b;
}

DataBlock repeat_value(const DataBlock& shape, const DataBlock* scalar, const std::vector<bool>& valid) {
  DataBlock out = shape;
  out.num_values = 0;
  out.data.clear();
  out.offsets.clear();
  uint64_t items = 1;
  for (auto d : shape.fsl_dims) items *= d;
  const uint64_t n = valid.size();
  if (shape.is_variable()) {
    append_le<uint64_t>(out.offsets, 0);
    uint64_t len = scalar ? scalar->offset(1) - scalar->offset(0) : 0;
    check_alloc(len * n, "constant page values");
    for (uint64_t i = 0; i < n; ++i) {
      if (valid[i] && scalar)
        out.data.insert(out.data.end(), scalar->data.begin() + scalar->offset(0),
                        scalar->data.begin() + scalar->offset(1));
      append_le<uint64_t>(out.offsets, out.data.size());
    }
  } else if (shape.bits_per_value == 1 && items == 1) {
    out.data.assign((n + 7) / 8, 0);
    const bool bit = scalar && !scalar->data.empty() && (scalar->data[0] & 1);
    for (uint64_t i = 0; i < n; ++i)
      if (valid[i] && bit) set_bit(out.data.data(), i);
  } else {
    const uint64_t w = shape.bits_per_value * items / 8;
    check_alloc(w * n, "constant page values");
    out.data.assign(w * n, 0);
    if (scalar) {
      check_corrupt(scalar->data.size() >= w, "constant value of {} bytes, expected {}", scalar->data.size(), w);
      for (uint64_t i = 0; i < n; ++i)
        if (valid[i]) std::memcpy(out.data.data() + i * w, scalar->data.data(), w);
    }
    for (auto& v : out.fsl_validity) v.clear();
  }
  out.num_values = n;
  return out;
}

namespace {

/// Parses the scalar value buffer: u32 count, count × u32 lengths, then the buffers of a
/// length-1 Arrow array (fixed: one value; binary: offsets [0, len] then bytes).
DataBlock parse_scalar_buffer(ByteView buf, const DataBlock& shape) {
  uint32_t count = buf.read<uint32_t>(0);
  check_corrupt(count >= 1 && count <= 3, "constant value with {} buffers", count);
  std::vector<ByteView> parts;
  uint64_t pos = 4 + uint64_t{count} * 4;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t len = buf.read<uint32_t>(4 + i * 4);
    parts.push_back(buf.slice(pos, len));
    pos += len;
  }
  DataBlock s = shape;
  s.num_values = 1;
  if (shape.is_variable()) {
    check_corrupt(count == 2, "variable-width constant needs offsets and data buffers, got {}", count);
    uint64_t b, e;
    if (parts[0].size() == 8)
      b = parts[0].read<uint32_t>(0), e = parts[0].read<uint32_t>(4);
    else if (parts[0].size() == 16)
      b = parts[0].read<uint64_t>(0), e = parts[0].read<uint64_t>(8);
    else
      throw_corrupt("constant offsets buffer of {} bytes", parts[0].size());
    check_corrupt(b <= e && e <= parts[1].size(), "constant value offsets [{}, {}) outside {} bytes", b, e,
                  parts[1].size());
    s.data = parts[1].slice(b, e - b).to_bytes();
    s.offsets.clear();
    append_le<uint64_t>(s.offsets, 0);
    append_le<uint64_t>(s.offsets, e - b);
  } else {
    s.data = parts.back().to_bytes();
  }
  return s;
}

class ConstantDecoder final : public PageDecoder {
 public:
  ConstantDecoder(const PageContext& ctx, const pb::ConstantLayout& layout) : ctx_(ctx), layout_(layout) {
    for (int l : layout.layers()) layers_.push_back(static_cast<RepDefLayer>(l));
    if (layers_.empty()) layers_.push_back(pb::REPDEF_NULLABLE_ITEM);
    max_rep_ = max_rep_level(layers_);
    max_visible_def_ = max_visible_def(layers_);
    shape_ = empty_block_for(*ctx.leaf_type);
  }

  const char* layout_name() const override { return layout_.has_inline_value() ? "constant" : "constant/all-null"; }

  std::vector<io::ByteRange> metadata_ranges(std::span<const RowRange>) override {
    if (initialized_) return {};
    return ctx_.page->buffers;
  }

  void load_metadata(std::span<const RowRange>, std::vector<Bytes>&& parts) override {
    if (!initialized_) init(std::move(parts));
  }

  std::vector<io::ByteRange> data_ranges(std::span<const RowRange>) override { return {}; }

  LeafData decode(std::span<const RowRange> rows, std::vector<Bytes>&&) override {
    LeafData out;
    out.layers = layers_;
    if (rows.empty()) return out;
    if (!initialized_) {
      check_internal(ctx_.page->buffers.empty(), "constant page decoded before its buffers were read");
      init({});
    }
    for (const auto& r : rows) append_leaf(out, read_range(r.begin, r.end));
    return out;
  }

 private:
  LeafData read_range(uint64_t begin, uint64_t end) {
    LeafData out;
    out.layers = layers_;
    out.num_rows = end - begin;
    check_corrupt(end <= ctx_.page->num_rows, "rows [{}, {}) outside a page of {}", begin, end, ctx_.page->num_rows);
    uint64_t level_begin = begin, level_end = end;
    if (!rep_.empty()) {
      const uint16_t top = static_cast<uint16_t>(max_rep_);
      uint64_t starts = 0;
      level_begin = level_end = rep_.size();
      for (uint64_t i = 0; i < rep_.size(); ++i) {
        if (rep_[i] == top) {
          if (starts == begin) level_begin = i;
          if (starts == end) {
            level_end = i;
            break;
          }
          ++starts;
        }
      }
      if (begin == end) level_end = level_begin;
      out.rep.assign(rep_.begin() + level_begin, rep_.begin() + level_end);
    }
    std::vector<bool> valid;
    if (!def_.empty()) {
      check_corrupt(level_end <= def_.size(), "constant page has {} definition levels, needs {}", def_.size(),
                    level_end);
      out.def.assign(def_.begin() + level_begin, def_.begin() + level_end);
      for (auto d : out.def)
        if (d <= max_visible_def_) valid.push_back(d == 0);
    } else if (!rep_.empty()) {
      valid.assign(level_end - level_begin, true);
    } else {
      // No levels: either every row holds the scalar, or (simple all-null) every row is null.
      valid.assign(end - begin, has_scalar_);
      if (!has_scalar_) out.def.assign(end - begin, 1);
    }
    out.values = repeat_value(shape_, has_scalar_ ? &scalar_ : nullptr, valid);
    return out;
  }

  void init(std::vector<Bytes>&& parts) {
    initialized_ = true;
    const auto& bufs = ctx_.page->buffers;
    const bool inl = layout_.has_inline_value();
    size_t value_buf = SIZE_MAX, rep_buf = SIZE_MAX, def_buf = SIZE_MAX;
    switch (bufs.size()) {
      case 0:
        break;
      case 1:
        check_corrupt(!inl, "constant page with an inline value and one buffer");
        value_buf = 0;
        break;
      case 2:
        rep_buf = 0, def_buf = 1;
        break;
      case 3:
        check_corrupt(!inl, "constant page with an inline value and three buffers");
        value_buf = 0, rep_buf = 1, def_buf = 2;
        break;
      default:
        throw_corrupt("constant page with {} buffers", bufs.size());
    }
    has_scalar_ = inl || value_buf != SIZE_MAX;
    check_internal(parts.size() == bufs.size(), "constant page read returned {} of {} buffers", parts.size(),
                   bufs.size());
    if (inl) {
      scalar_ = shape_;
      scalar_.num_values = 1;
      const auto& v = layout_.inline_value();
      if (shape_.is_variable()) {
        scalar_.data.assign(v.begin(), v.end());
        append_le<uint64_t>(scalar_.offsets, 0);
        append_le<uint64_t>(scalar_.offsets, v.size());
      } else {
        scalar_.data.assign(v.begin(), v.end());
      }
    } else if (value_buf != SIZE_MAX) {
      scalar_ = with_context("constant value", [&] { return parse_scalar_buffer(parts[value_buf], shape_); });
    }
    auto levels = [&](size_t idx, bool has_enc, const pb::CompressiveEncoding& enc, uint64_t n) {
      std::vector<uint16_t> out;
      if (idx == SIZE_MAX || parts[idx].empty()) return out;
      ByteView b(parts[idx]);
      if (has_enc) return encoding::decode_levels(enc, b, n);
      check_corrupt(b.size() % 2 == 0, "raw levels buffer of odd size {}", b.size());
      out.resize(b.size() / 2);
      std::memcpy(out.data(), b.data(), b.size());
      return out;
    };
    rep_ = with_context("repetition levels", [&] {
      return levels(rep_buf, layout_.has_rep_compression(), layout_.rep_compression(), layout_.num_rep_values());
    });
    def_ = with_context("definition levels", [&] {
      return levels(def_buf, layout_.has_def_compression(), layout_.def_compression(), layout_.num_def_values());
    });
    if (!rep_.empty() && !def_.empty())
      check_corrupt(rep_.size() == def_.size(), "{} repetition but {} definition levels", rep_.size(), def_.size());
    if (rep_.empty() && !def_.empty())
      check_corrupt(def_.size() == ctx_.page->num_rows, "{} definition levels for {} rows", def_.size(),
                    ctx_.page->num_rows);
    if (max_rep_ > 0) check_corrupt(!rep_.empty() || ctx_.page->num_rows == 0, "list page without repetition levels");
  }

  PageContext ctx_;
  const pb::ConstantLayout& layout_;
  std::vector<RepDefLayer> layers_;
  int max_rep_ = 0;
  int max_visible_def_ = 0;
  DataBlock shape_;
  DataBlock scalar_;
  bool has_scalar_ = false;
  bool initialized_ = false;
  std::vector<uint16_t> rep_, def_;
};

}  // namespace

std::unique_ptr<PageDecoder> make_constant_decoder(const PageContext& ctx, const pb::ConstantLayout& layout) {
  return std::make_unique<ConstantDecoder>(ctx, layout);
}

}  // namespace lance::structural
