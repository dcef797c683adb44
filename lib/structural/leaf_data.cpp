#include "structural/leaf_data.h"

#include <cstring>

#include "common/error.h"
#include "structural/dictionary.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;

bool is_list_layer(RepDefLayer layer) {
  return layer == pb::REPDEF_ALL_VALID_LIST || layer == pb::REPDEF_NULLABLE_LIST ||
         layer == pb::REPDEF_EMPTYABLE_LIST || layer == pb::REPDEF_NULL_AND_EMPTY_LIST;
}

int def_levels_of(RepDefLayer layer) {
  switch (layer) {
    case pb::REPDEF_NULLABLE_ITEM:
    case pb::REPDEF_NULLABLE_LIST:
    case pb::REPDEF_EMPTYABLE_LIST:
      return 1;
    case pb::REPDEF_NULL_AND_EMPTY_LIST:
      return 2;
    case pb::REPDEF_ALL_VALID_ITEM:
    case pb::REPDEF_ALL_VALID_LIST:
      return 0;
    default:
      throw_corrupt("unknown repetition/definition layer {}", static_cast<int>(layer));
  }
}

int max_rep_level(const std::vector<RepDefLayer>& layers) {
  int n = 0;
  for (auto l : layers) n += is_list_layer(l);
  return n;
}

int max_visible_def(const std::vector<RepDefLayer>& layers) {
  int d = 0;
  for (auto l : layers) {
    if (is_list_layer(l)) break;
    d += def_levels_of(l);
  }
  return d;
}

void clear_keeping_room(LeafData& leaf) {
  Bytes data = std::move(leaf.values.data);
  std::vector<uint16_t> rep = std::move(leaf.rep), def = std::move(leaf.def);
  data.clear();
  rep.clear();
  def.clear();
  leaf = LeafData();
  leaf.values.data = std::move(data);
  leaf.rep = std::move(rep);
  leaf.def = std::move(def);
}

void append_values(encoding::DataBlock& dst, const encoding::DataBlock& src, uint64_t begin, uint64_t end) {
  check_corrupt(begin <= end && end <= src.num_values, "value range [{}, {}) outside a block of {}", begin, end,
                src.num_values);
  const uint64_t n = end - begin;
  if (!src.children.empty()) {
    // One block per struct field (VariablePackedStruct values): append field by field.
    if (dst.num_values == 0 && dst.children.empty()) dst.children.resize(src.children.size());
    check_corrupt(dst.children.size() == src.children.size(), "pages of one column decode to {} and {} fields",
                  dst.children.size(), src.children.size());
    for (size_t i = 0; i < src.children.size(); ++i) append_values(dst.children[i], src.children[i], begin, end);
    dst.num_values += n;
    return;
  }
  check_corrupt(dst.children.empty(), "pages of one column decode to packed and plain values");
  if (dst.num_values == 0 && dst.data.empty() && dst.offsets.empty()) {
    // A fresh destination takes the source's shape; variable blocks always collect
    // 64-bit offsets.
    dst.bits_per_value = src.bits_per_value;
    dst.bits_per_offset = src.is_variable() ? 64 : 0;
    dst.fsl_dims = src.fsl_dims;
    dst.packed_child_bits = src.packed_child_bits;
    dst.fsl_validity.assign(src.fsl_validity.size(), Bytes());
  }
  check_corrupt(
      dst.is_variable() == src.is_variable() && (src.is_variable() || dst.bits_per_value == src.bits_per_value),
      "pages of one column decode to different value widths");
  if (src.is_variable()) {
    if (dst.bits_per_offset == 32) {
      // A destination taken over whole from a decoder may hold 32-bit offsets: widen.
      Bytes wide;
      for (uint64_t i = 0; i * 4 < dst.offsets.size(); ++i)
        append_le<uint64_t>(wide, ByteView(dst.offsets).read<uint32_t>(i * 4));
      dst.offsets = std::move(wide);
      dst.bits_per_offset = 64;
    }
    if (dst.offsets.empty()) append_le<uint64_t>(dst.offsets, 0);
    uint64_t base = ByteView(dst.offsets).read<uint64_t>(dst.num_values * 8);
    uint64_t s0 = src.offset(begin), s1 = src.offset(end);
    check_corrupt(s0 <= s1 && s1 <= src.data.size(), "variable offsets [{}, {}) outside {} bytes", s0, s1,
                  src.data.size());
    dst.offsets.resize((dst.num_values + 1) * 8);
    for (uint64_t i = begin + 1; i <= end; ++i) {
      uint64_t o = src.offset(i);
      check_corrupt(o >= s0 && o <= s1, "variable offsets are not increasing");
      append_le<uint64_t>(dst.offsets, base + (o - s0));
    }
    dst.data.insert(dst.data.end(), src.data.begin() + s0, src.data.begin() + s1);
  } else {
    // Fixed width; a fixed-size-list value is `items` consecutive items.
    uint64_t items = 1;
    for (auto d : src.fsl_dims) items *= d;
    const uint64_t bits = src.bits_per_value * items;
    if (bits % 8 == 0) {
      const uint64_t w = bits / 8;
      check_corrupt(end * w <= src.data.size(), "fixed-width block of {} bytes holds fewer than {} values",
                    src.data.size(), end);
      dst.data.insert(dst.data.end(), src.data.begin() + begin * w, src.data.begin() + end * w);
    } else {
      check_corrupt(src.bits_per_value == 1, "unsupported value width of {} bits", src.bits_per_value);
      check_corrupt((end * bits + 7) / 8 <= src.data.size(), "bitmap too short");
      const uint64_t have = dst.num_values * bits;
      dst.data.resize((have + n * bits + 7) / 8, 0);
      for (uint64_t i = 0; i < n * bits; ++i)
        if (get_bit(src.data.data(), begin * bits + i)) set_bit(dst.data.data(), have + i);
    }
  }
  // Fixed-size-list item validity: one bit per item (rows × cumulative dimension).
  for (size_t layer = 0; layer < src.fsl_validity.size(); ++layer) {
    if (src.fsl_validity[layer].empty()) continue;
    uint64_t per_row = 1;
    for (size_t k = 0; k <= layer && k < src.fsl_dims.size(); ++k) per_row *= src.fsl_dims[k];
    auto& out = dst.fsl_validity[layer];
    uint64_t have = dst.num_values * per_row;
    out.resize((have + n * per_row + 7) / 8, 0);
    check_corrupt((end * per_row + 7) / 8 <= src.fsl_validity[layer].size(), "item validity too short");
    for (uint64_t i = 0; i < n * per_row; ++i)
      if (get_bit(src.fsl_validity[layer].data(), begin * per_row + i)) set_bit(out.data(), have + i);
  }
  dst.num_values += n;
}

namespace {

bool can_be_null(RepDefLayer l) {
  return l == pb::REPDEF_NULLABLE_ITEM || l == pb::REPDEF_NULLABLE_LIST || l == pb::REPDEF_NULL_AND_EMPTY_LIST;
}
bool can_be_empty(RepDefLayer l) { return l == pb::REPDEF_EMPTYABLE_LIST || l == pb::REPDEF_NULL_AND_EMPTY_LIST; }

RepDefLayer widest(RepDefLayer a, RepDefLayer b) {
  check_corrupt(is_list_layer(a) == is_list_layer(b), "pages of one column disagree on their structure");
  const bool null = can_be_null(a) || can_be_null(b);
  if (!is_list_layer(a)) return null ? pb::REPDEF_NULLABLE_ITEM : pb::REPDEF_ALL_VALID_ITEM;
  const bool empty = can_be_empty(a) || can_be_empty(b);
  if (null && empty) return pb::REPDEF_NULL_AND_EMPTY_LIST;
  if (null) return pb::REPDEF_NULLABLE_LIST;
  if (empty) return pb::REPDEF_EMPTYABLE_LIST;
  return pb::REPDEF_ALL_VALID_LIST;
}

}  // namespace

void remap_def_levels(LeafData& leaf, const std::vector<RepDefLayer>& to) {
  const auto& from = leaf.layers;
  check_corrupt(from.size() == to.size(), "pages of one column have {} and {} layers", from.size(), to.size());
  if (from == to) return;
  // Translation table: old def value -> new def value.
  std::vector<uint16_t> table(1, 0);
  int cum_to = 0;
  for (size_t i = 0; i < from.size(); ++i) {
    int n = def_levels_of(from[i]);
    for (int k = 1; k <= n; ++k) {
      bool is_null = can_be_null(from[i]) && k == 1;
      int new_k = is_null ? 1 : (to[i] == pb::REPDEF_NULL_AND_EMPTY_LIST ? 2 : 1);
      table.push_back(static_cast<uint16_t>(cum_to + new_k));
    }
    cum_to += def_levels_of(to[i]);
  }
  for (auto& d : leaf.def) {
    check_corrupt(d < table.size(), "definition level {} above the maximum {}", d, table.size() - 1);
    d = table[d];
  }
  leaf.layers = to;
}

void expand_dictionary(LeafData& leaf) {
  if (!leaf.dictionary) return;
  leaf.values = lookup_dictionary(*leaf.dictionary, leaf.values);
  leaf.dictionary.reset();
}

namespace {

/// `indices` (8/16/32/64-bit unsigned) as 32-bit ones plus `shift`.
void widen_indices(encoding::DataBlock& indices, uint32_t shift) {
  const uint64_t n = indices.num_values;
  Bytes out(n * 4);
  with_typed_indices(indices, [&](auto index) {
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t k = index(i);
      check_corrupt(k < UINT32_MAX - shift, "dictionary index {}", k);
      const auto v = static_cast<uint32_t>(k + shift);
      std::memcpy(out.data() + i * 4, &v, 4);
    }
  });
  indices.data = std::move(out);
  indices.bits_per_value = 32;
}

/// Makes `dst` and `src` (one of them keeping a dictionary) index one dictionary: the same
/// one already, or `dst`'s followed by `src`'s (indices widened to 32 bits, `src`'s shifted
/// past `dst`'s entries) while that has fewer entries than they have values; otherwise both
/// are expanded to values.
void join_dictionaries(LeafData& dst, LeafData& src) {
  if (dst.dictionary == src.dictionary && dst.values.bits_per_value == src.values.bits_per_value) return;
  const uint64_t entries =
      (dst.dictionary ? dst.dictionary->num_values : 0) + (src.dictionary ? src.dictionary->num_values : 0);
  if (!dst.dictionary || !src.dictionary || entries > dst.values.num_values + src.values.num_values ||
      entries >= UINT32_MAX) {
    expand_dictionary(dst);
    expand_dictionary(src);
    return;
  }
  auto joined = std::make_shared<encoding::DataBlock>();
  append_values(*joined, *dst.dictionary, 0, dst.dictionary->num_values);
  append_values(*joined, *src.dictionary, 0, src.dictionary->num_values);
  if (dst.values.bits_per_value != 32) widen_indices(dst.values, 0);
  widen_indices(src.values, static_cast<uint32_t>(dst.dictionary->num_values));
  dst.dictionary = joined;
  src.dictionary = joined;
}

}  // namespace

void append_leaf(LeafData& dst, LeafData&& src) {
  if (dst.num_rows == 0 && dst.num_levels() == 0) {
    uint64_t rows = dst.num_rows;
    dst = std::move(src);
    dst.num_rows += rows;
    return;
  }
  if (dst.dictionary || src.dictionary) join_dictionaries(dst, src);
  // Levels: materialise implicit zeros when one side has levels and the other not.
  auto merge = [](std::vector<uint16_t>& a, uint64_t a_len, std::vector<uint16_t>& b, uint64_t b_len) {
    if (a.empty() && b.empty()) return;
    if (a.empty()) a.assign(a_len, 0);
    if (b.empty()) b.assign(b_len, 0);
    a.insert(a.end(), b.begin(), b.end());
  };
  if (dst.layers != src.layers) {
    check_corrupt(dst.layers.size() == src.layers.size(), "pages of one column have {} and {} layers",
                  dst.layers.size(), src.layers.size());
    std::vector<RepDefLayer> wide(dst.layers.size());
    for (size_t i = 0; i < wide.size(); ++i) wide[i] = widest(dst.layers[i], src.layers[i]);
    remap_def_levels(dst, wide);
    remap_def_levels(src, wide);
  }
  uint64_t a_levels = dst.num_levels(), b_levels = src.num_levels();
  merge(dst.rep, a_levels, src.rep, b_levels);
  merge(dst.def, a_levels, src.def, b_levels);
  append_values(dst.values, src.values, 0, src.values.num_values);
  dst.num_rows += src.num_rows;
}

void append_leaves(LeafData& dst, std::vector<LeafData>&& pieces) {
  if (pieces.empty()) return;
  size_t first = 0;
  if (dst.num_rows == 0 && dst.num_levels() == 0) append_leaf(dst, std::move(pieces[first++]));  // taken over whole
  if (first == pieces.size()) return;
  uint64_t data = dst.values.data.size(), offsets = dst.values.offsets.size(), rep = dst.rep.size(),
           def = dst.def.size();
  for (size_t i = first; i < pieces.size(); ++i) {
    const LeafData& p = pieces[i];
    data += p.values.data.size();
    offsets += p.values.num_values * 8;
    rep += p.rep.empty() ? p.num_levels() : p.rep.size();
    def += p.def.empty() ? p.num_levels() : p.def.size();
  }
  if (dst.values.children.empty()) {
    dst.values.data.reserve(data);
    if (dst.values.is_variable()) dst.values.offsets.reserve(offsets + 8);
  }
  if (!dst.rep.empty()) dst.rep.reserve(rep);
  if (!dst.def.empty()) dst.def.reserve(def);
  for (size_t i = first; i < pieces.size(); ++i) append_leaf(dst, std::move(pieces[i]));
}

}  // namespace lance::structural
