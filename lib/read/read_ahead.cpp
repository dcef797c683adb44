#include "read/read_ahead.h"

#include <algorithm>

#include "io/remote/uri.h"

namespace lance::read {

std::vector<io::ObjectStore::OpenAhead> data_files_to_open(const io::NetworkModel& m, const std::string& data_dir,
                                                           const std::vector<io::ListEntry>& entries,
                                                           const ReadAheadHint& hint) {
  if (!m.remote) return {};
  std::vector<const io::ListEntry*> files;
  for (const auto& e : entries)
    if (!e.is_dir && e.name.size() > 6 && e.name.ends_with(".lance")) files.push_back(&e);
  if (files.empty()) return {};
  const uint64_t rows_per_file = hint.sparse_rows / files.size();
  std::vector<io::ObjectStore::OpenAhead> opens;
  for (const auto* e : files) {
    // Some columns of every row: files a tail reads whole, and files too large to fetch
    // whole, whose tail the reader fetches after the manifest anyway (a file in between may be
    // fetched whole then, which a tail ahead would only add a request to).
    if (hint.small_files_only && (e->size == 0 || (e->size > m.tail_read_size && e->size <= m.whole_file_limit)))
      continue;
    const bool needed_whole = hint.whole_files || (rows_per_file > 0 && e->size / rows_per_file <= m.coalesce_gap);
    const bool whole = needed_whole && e->size > 0 && e->size <= m.whole_file_limit;
    opens.push_back({io::join_path(data_dir, e->name), whole ? e->size : 0, !whole && hint.whole_files ? e->size : 0});
  }
  return opens;
}

uint64_t open_tail_bytes(const io::NetworkModel& m, uint64_t size, uint64_t needed) {
  if (!m.remote || size == 0 || size > m.whole_file_limit) return 0;
  return size - std::min(size, needed) <= m.round_trip_bytes ? size : 0;
}

bool worth_prefetch(const io::NetworkModel& m, size_t opens, size_t reads, bool any_whole) {
  return m.remote && (opens + reads > 1 || any_whole);
}

io::ByteRange rows_part_of_buffer(const io::ByteRange& buffer, uint64_t page_first_row, uint64_t page_rows,
                                  uint64_t first_row, uint64_t last_row) {
  // (Corrupt metadata may put a page's rows past 2^64: no estimate then.)
  if (buffer.length <= kWholeBufferBytes || page_rows == 0 || page_rows > UINT64_MAX - page_first_row) return buffer;
  const uint64_t lo = std::clamp(first_row, page_first_row, page_first_row + page_rows) - page_first_row;
  const uint64_t hi = std::clamp(last_row, page_first_row, page_first_row + page_rows) - page_first_row;
  if (lo == 0 && hi == page_rows) return buffer;
  // Bytes in proportion to rows; long double keeps 64-bit lengths times row counts exact enough.
  auto at = [&](uint64_t row) {
    return static_cast<uint64_t>(static_cast<long double>(buffer.length) * row / page_rows);
  };
  const uint64_t a = at(lo), b = at(hi);
  const uint64_t margin = std::max(kRowsPartMargin, (b - a) / 4);
  const uint64_t start = a > margin ? a - margin : 0;
  const uint64_t stop = std::min(buffer.length, b + margin);
  if (stop - start >= buffer.length - buffer.length / 8) return buffer;  // nearly all of it
  return io::ByteRange{buffer.offset + start, stop - start};
}

std::vector<io::ByteRange> scan_page_buffers(const format::FileReader& file, const std::vector<size_t>& fields,
                                             uint64_t first_row, uint64_t last_row) {
  const bool by_rows = file.version().is_structural();
  std::vector<io::ByteRange> units;
  for (const format::ColumnInfo* col : file.columns_of(fields)) {
    for (const auto& page : col->pages) {
      // The page holds rows [priority, priority + num_rows) of the file.
      if (by_rows && (page.priority >= last_row || page.priority + page.num_rows <= first_row)) continue;
      if (!by_rows) {
        units.insert(units.end(), page.buffers.begin(), page.buffers.end());
        continue;
      }
      // A page the rows cover in part: of its large buffers, the share of those rows.
      for (const auto& b : page.buffers)
        units.push_back(rows_part_of_buffer(b, page.priority, page.num_rows, first_row, last_row));
    }
    units.insert(units.end(), col->buffers.begin(), col->buffers.end());
  }
  return units;
}

bool announce_page_buffers(const io::NetworkModel& m) { return m.remote; }

bool overlap_fragments(const io::NetworkModel& m) { return m.remote; }

bool chain_threads(const io::NetworkModel& m) { return m.remote; }

size_t batches_in_flight(const io::NetworkModel& m, size_t configured) {
  if (configured > 0) return configured;
  return m.remote ? kRemoteBatchesInFlight : 0;
}

}  // namespace lance::read
