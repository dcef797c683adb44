#include "corrupt_variants.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "format/file_reader.h"

namespace lance::testing {

std::vector<FileRegion> file_regions(const std::string& path) {
  auto file = format::FileReader::open(path);
  const auto& f = file->footer();
  const uint64_t size = file->file_size();
  std::vector<FileRegion> out;
  out.push_back({"footer", size - format::kFooterSize, format::kFooterSize, true});
  out.push_back(
      {"column metadata offset table", f.column_meta_offsets_start, f.num_columns * format::kOffsetEntrySize, true});
  out.push_back({"global buffer offset table", f.global_buff_offsets_start,
                 f.num_global_buffers * format::kOffsetEntrySize, true});
  for (size_t i = 0; i < file->global_buffers().size(); ++i)
    out.push_back(
        {fmt::format("global buffer {}", i), file->global_buffers()[i].offset, file->global_buffers()[i].length, true});
  for (const auto& col : file->columns()) {
    out.push_back(
        {fmt::format("column {} metadata", col.index), col.metadata_range.offset, col.metadata_range.length, true});
    for (size_t b = 0; b < col.buffers.size(); ++b)
      out.push_back(
          {fmt::format("column {} buffer {}", col.index, b), col.buffers[b].offset, col.buffers[b].length, false});
    for (size_t p = 0; p < col.pages.size(); ++p)
      for (size_t b = 0; b < col.pages[p].buffers.size(); ++b)
        out.push_back({fmt::format("column {} page {} buffer {}", col.index, p, b), col.pages[p].buffers[b].offset,
                       col.pages[p].buffers[b].length, false});
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const FileRegion& r) { return r.length == 0; }), out.end());
  return out;
}

namespace {

/// Picks at most `n` regions, always keeping every metadata region: the structure is
/// where the parsing is, page buffers are many and alike.
std::vector<FileRegion> pick_regions(const std::vector<FileRegion>& regions, size_t n, std::mt19937_64& rng) {
  std::vector<FileRegion> meta, data;
  for (const auto& r : regions) (r.metadata ? meta : data).push_back(r);
  std::shuffle(data.begin(), data.end(), rng);
  if (meta.size() > n / 2) {
    std::shuffle(meta.begin() + 3, meta.end(), rng);  // footer and the two tables first
    meta.resize(n / 2);
  }
  if (data.size() > n - meta.size()) data.resize(n - meta.size());
  meta.insert(meta.end(), data.begin(), data.end());
  return meta;
}

void flip_some(std::string& b, uint64_t from, uint64_t len, std::mt19937_64& rng, std::string& what) {
  const int count = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < count; ++i) {
    // Headers and lengths sit at the start of buffers: aim there half of the time.
    uint64_t span = (rng() % 2 == 0) ? std::min<uint64_t>(len, 32) : len;
    uint64_t pos = from + rng() % span;
    uint8_t mask = static_cast<uint8_t>(rng() % 3 == 0 ? 0xFF : 1u << (rng() % 8));
    b[pos] = static_cast<char>(static_cast<uint8_t>(b[pos]) ^ mask);
    what += fmt::format(" @{}^{:02x}", pos, mask);
  }
}

}  // namespace

std::vector<Variant> make_variants(const std::string& original, const std::vector<FileRegion>& regions, uint64_t seed,
                                   int meta_flips, int data_flips) {
  std::mt19937_64 rng(seed);
  std::vector<Variant> out;
  for (const auto& r : pick_regions(regions, 10, rng)) {
    out.push_back({fmt::format("truncated at start of {} ({})", r.what, r.offset), original.substr(0, r.offset)});
    uint64_t mid = r.offset + r.length / 2;
    out.push_back({fmt::format("truncated in the middle of {} ({})", r.what, mid), original.substr(0, mid)});
    // A hole: the region's bytes removed, everything after moves up.
    std::string hole = original.substr(0, r.offset) + original.substr(r.offset + r.length);
    out.push_back({fmt::format("{} removed ({} bytes at {})", r.what, r.length, r.offset), std::move(hole)});
    // The region's second half overwritten with 0xFF (huge counts, widths and offsets).
    std::string fill = original;
    std::fill(fill.begin() + static_cast<long>(mid), fill.begin() + static_cast<long>(r.offset + r.length), '\xff');
    out.push_back({fmt::format("second half of {} set to 0xFF", r.what), std::move(fill)});
  }
  std::vector<FileRegion> meta, data;
  for (const auto& r : regions) (r.metadata ? meta : data).push_back(r);
  for (int i = 0; i < meta_flips && !meta.empty(); ++i) {
    const auto& r = meta[rng() % meta.size()];
    Variant v{"flipped in " + r.what + ":", original};
    flip_some(v.bytes, r.offset, r.length, rng, v.name);
    out.push_back(std::move(v));
  }
  for (int i = 0; i < data_flips && !data.empty(); ++i) {
    const auto& r = data[rng() % data.size()];
    Variant v{"flipped in " + r.what + ":", original};
    flip_some(v.bytes, r.offset, r.length, rng, v.name);
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<Variant> make_blind_variants(const std::string& original, uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::vector<Variant> out;
  if (original.empty()) return out;
  for (uint64_t cut : {uint64_t{0}, uint64_t{1}, original.size() / 2, original.size() - 1})
    out.push_back({fmt::format("truncated to {} bytes", cut), original.substr(0, cut)});
  for (int i = 0; i < count; ++i) {
    Variant v{"flipped:", original};
    flip_some(v.bytes, 0, original.size(), rng, v.name);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace lance::testing
