#include "encoding/fixed_size_list.h"

#include <algorithm>
#include <cstring>

#include "encoding/flat.h"
#include "encoding/sizes.h"

namespace lance::encoding {
namespace {

/// Copies `nbits` LSB-first bits from `src` (starting at bit 0) into `dst` at bit `at`.
void copy_bits(const uint8_t* src, uint64_t nbits, uint8_t* dst, uint64_t at) {
  if (at % 8 == 0) {
    const uint64_t whole = nbits / 8;
    std::memcpy(dst + at / 8, src, whole);
    for (uint64_t i = whole * 8; i < nbits; ++i) {
      if (get_bit(src, i)) set_bit(dst, at + i);
    }
    return;
  }
  for (uint64_t i = 0; i < nbits; ++i) {
    if (get_bit(src, i)) set_bit(dst, at + i);
  }
}

DataBlock empty_fsl_block(const FslLayout& layout, uint64_t num_rows) {
  DataBlock block;
  block.num_values = num_rows;
  block.bits_per_value = layout.item_bits;
  block.fsl_dims = layout.dims;
  block.fsl_validity.resize(layout.dims.size());
  return block;
}

}  // namespace

uint64_t FslLayout::cum_dim(size_t layer) const {
  uint64_t product = 1;
  for (size_t i = 0; i <= layer && i < dims.size(); ++i)
    product = checked_mul(product, dims[i], "FixedSizeList dimension");
  return product;
}

size_t FslLayout::validity_layers() const {
  return static_cast<size_t>(std::count(has_validity.begin(), has_validity.end(), true));
}

uint64_t FslLayout::zipped_bits_per_row() const {
  uint64_t bytes = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (has_validity[i]) bytes += (cum_dim(i) + 7) / 8;
  }
  return checked_mul(bytes, 8, "FixedSizeList row") + checked_mul(items_per_row(), item_bits, "FixedSizeList row");
}

DataBlock decode_fsl_miniblock(const FslLayout& layout, std::span<const ByteView> buffers, uint64_t num_rows) {
  const size_t expected_buffers = layout.validity_layers() + 1;
  check_corrupt(buffers.size() == expected_buffers, "FixedSizeList chunk: expected {} buffers, got {}",
                expected_buffers, buffers.size());
  DataBlock block = empty_fsl_block(layout, num_rows);
  size_t next = 0;
  for (size_t layer = 0; layer < layout.dims.size(); ++layer) {
    if (!layout.has_validity[layer]) continue;
    const uint64_t bits = checked_mul(num_rows, layout.cum_dim(layer), "FixedSizeList validity");
    const uint64_t bytes = (bits + 7) / 8;
    const ByteView& buf = buffers[next++];
    check_corrupt(buf.size() >= bytes, "FixedSizeList chunk: validity of layer {} needs {} bytes, buffer has {}", layer,
                  bytes, buf.size());
    block.fsl_validity[layer] = buf.slice(0, bytes).to_bytes();
  }
  const uint64_t items = checked_mul(num_rows, layout.items_per_row(), "FixedSizeList items");
  DataBlock flat = decode_flat(buffers[next], layout.item_bits, items);
  block.data = std::move(flat.data);
  return block;
}

DataBlock unzip_fsl_per_value(const FslLayout& layout, Bytes&& zipped, uint64_t num_rows) {
  if (layout.validity_layers() != 0 || layout.zipped_bits_per_row() % 8 != 0)
    return unzip_fsl_per_value(layout, ByteView(zipped), num_rows);
  const uint64_t total = checked_mul(num_rows, layout.zipped_bits_per_row() / 8, "FixedSizeList values");
  check_corrupt(zipped.size() >= total, "FixedSizeList: {} values of {} bytes need {} bytes, got {}", num_rows,
                layout.zipped_bits_per_row() / 8, total, zipped.size());
  DataBlock block = empty_fsl_block(layout, num_rows);
  zipped.resize(total);
  block.data = std::move(zipped);
  return block;
}

DataBlock unzip_fsl_per_value(const FslLayout& layout, ByteView zipped, uint64_t num_rows) {
  const uint64_t row_bits = layout.zipped_bits_per_row();
  check_corrupt(row_bits % 8 == 0, "FixedSizeList value of {} bits is not a whole number of bytes", row_bits);
  const uint64_t row_bytes = row_bits / 8;
  const uint64_t total = checked_mul(num_rows, row_bytes, "FixedSizeList values");
  check_corrupt(zipped.size() >= total, "FixedSizeList: {} values of {} bytes need {} bytes, got {}", num_rows,
                row_bytes, total, zipped.size());
  DataBlock block = empty_fsl_block(layout, num_rows);
  const uint64_t items_per_row = layout.items_per_row();
  if (layout.validity_layers() == 0) {
    block.data = zipped.slice(0, total).to_bytes();
    return block;
  }
  check_corrupt(layout.item_bits % 8 == 0, "FixedSizeList: {}-bit items with item validity cannot be unzipped",
                layout.item_bits);
  const uint64_t item_row_bytes = items_per_row * (layout.item_bits / 8);
  for (size_t layer = 0; layer < layout.dims.size(); ++layer) {
    if (layout.has_validity[layer]) {
      block.fsl_validity[layer].assign((checked_mul(num_rows, layout.cum_dim(layer), "FixedSizeList validity") + 7) / 8,
                                       0);
    }
  }
  block.data.resize(checked_mul(num_rows, item_row_bytes, "FixedSizeList items"));
  const uint8_t* in = zipped.data();
  for (uint64_t row = 0; row < num_rows; ++row) {
    const uint8_t* p = in + row * row_bytes;
    for (size_t layer = 0; layer < layout.dims.size(); ++layer) {
      if (!layout.has_validity[layer]) continue;
      const uint64_t bits = layout.cum_dim(layer);
      copy_bits(p, bits, block.fsl_validity[layer].data(), row * bits);
      p += (bits + 7) / 8;
    }
    std::memcpy(block.data.data() + row * item_row_bytes, p, item_row_bytes);
  }
  return block;
}

DataBlock decode_fsl_block(const FslLayout& layout, ByteView buffer, uint64_t num_rows) {
  if (layout.validity_layers() != 0) {
    throw_unsupported("FixedSizeList with item validity in a block buffer is not supported");
  }
  DataBlock block = empty_fsl_block(layout, num_rows);
  const uint64_t items = checked_mul(num_rows, layout.items_per_row(), "FixedSizeList items");
  block.data = decode_flat(buffer, layout.item_bits, items).data;
  return block;
}

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

namespace {

/// The shape of the FixedSizeList tree rooted at `outer`.
FslLayout fsl_layout(const pb::FixedSizeList& outer) {
  FslLayout layout;
  const pb::FixedSizeList* fsl = &outer;
  while (true) {
    check_corrupt(fsl->items_per_value() > 0, "FixedSizeList with 0 items per value");
    layout.dims.push_back(fsl->items_per_value());
    layout.has_validity.push_back(fsl->has_validity());
    const pb::CompressiveEncoding& inner = require(fsl->has_values(), fsl->values(), "FixedSizeList values encoding");
    if (inner.compression_case() == EncodingCase::kFixedSizeList) {
      fsl = &inner.fixed_size_list();
      continue;
    }
    layout.item_bits = flat_bits(inner, "FixedSizeList items");
    check_corrupt(layout.item_bits > 0, "FixedSizeList items of 0 bits");
    return layout;
  }
}

}  // namespace

DataBlock fixed_size_list_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                    uint64_t num_values) {
  return decode_fsl_miniblock(fsl_layout(enc.fixed_size_list()), buffers, num_values);
}

DataBlock fixed_size_list_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) {
  return decode_fsl_block(fsl_layout(enc.fixed_size_list()), buffer, num_values);
}

DataBlock fixed_size_list_fixed_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  const FslLayout layout = fsl_layout(enc.fixed_size_list());
  check_corrupt(zipped.bits_per_value == layout.zipped_bits_per_row(),
                "FixedSizeList full-zip values are {} bits, the encoding implies {}", zipped.bits_per_value,
                layout.zipped_bits_per_row());
  return unzip_fsl_per_value(layout, std::move(zipped.data), zipped.num_values);
}

std::string describe_fixed_size_list(const pb::CompressiveEncoding& enc) {
  const pb::FixedSizeList& f = enc.fixed_size_list();
  return fmt::format("FixedSizeList({}{}) › {}", f.items_per_value(), f.has_validity() ? ", item validity" : "",
                     describe_child(f.has_values(), f.values()));
}

}  // namespace lance::encoding
