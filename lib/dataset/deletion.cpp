#include "dataset/deletion.h"

#include <algorithm>
#include <memory>

#include "arrow/ipc_file_reader.h"
#include "dataset/roaring_portable.h"
#include "io/object_store.h"
#include "io/remote/uri.h"

namespace lance::dataset {

namespace {

/// Column name of `.arrow` deletion files (Lance writes a non-null UInt32 `row_id`).
constexpr std::string_view kDeletionColumn = "row_id";

}  // namespace

DeletionVector DeletionVector::from_offsets(std::vector<uint64_t> offsets, uint64_t physical_rows) {
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  DeletionVector dv;
  dv.deleted_.reserve(offsets.size());
  for (uint64_t o : offsets) {
    check_corrupt(o < physical_rows, "deleted row {} is past the fragment's {} rows", o, physical_rows);
    dv.deleted_.push_back(static_cast<uint32_t>(o));
  }
  return dv;
}

bool DeletionVector::is_deleted(uint64_t row) const {
  return row <= UINT32_MAX && std::binary_search(deleted_.begin(), deleted_.end(), static_cast<uint32_t>(row));
}

uint64_t DeletionVector::physical_row(uint64_t live) const {
  // Before the i-th deleted offset d_i lie d_i - i surviving rows, a non-decreasing
  // sequence; the answer skips every deleted offset with d_i - i <= live.
  size_t lo = 0, hi = deleted_.size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (static_cast<uint64_t>(deleted_[mid]) - mid <= live)
      lo = mid + 1;
    else
      hi = mid;
  }
  return live + lo;
}

std::vector<std::pair<uint64_t, uint64_t>> DeletionVector::live_runs(uint64_t begin, uint64_t end) const {
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  auto it = std::lower_bound(deleted_.begin(), deleted_.end(), begin,
                             [](uint32_t d, uint64_t v) { return static_cast<uint64_t>(d) < v; });
  uint64_t cur = begin;
  for (; it != deleted_.end() && *it < end; ++it) {
    if (*it > cur) runs.emplace_back(cur, *it);
    cur = static_cast<uint64_t>(*it) + 1;
  }
  if (cur < end) runs.emplace_back(cur, end);
  return runs;
}

DeletionVector parse_deletion_bitmap(ByteView bytes, uint64_t physical_rows) {
  // Our own strict decoder: libroaring's accepts self-contradicting containers (fuzz finding).
  RoaringValues r = decode_roaring_portable(bytes, physical_rows);
  check_corrupt(r.bytes_used == bytes.size(), "roaring bitmap uses {} of the file's {} bytes", r.bytes_used,
                bytes.size());
  std::vector<uint64_t> offsets(r.values.begin(), r.values.end());
  return DeletionVector::from_offsets(std::move(offsets), physical_rows);
}

DeletionVector parse_deletion_arrow(ByteView bytes, uint64_t physical_rows) {
  return DeletionVector::from_offsets(arrow::read_arrow_file_integer_column(bytes, kDeletionColumn), physical_rows);
}

DeletionVector read_deletion_file(const std::string& dataset_dir, const Fragment& fragment,
                                  const io::ObjectStore& store) {
  if (!fragment.deletion) return {};
  const DeletionFileRef& ref = *fragment.deletion;
  const std::string path = io::join_path(dataset_dir, ref.relative_path(fragment.id));
  // The store's errors already name the path; the parse errors get it as context.
  const Bytes data = store.read_all(path);
  return with_context(io::display_location(path), [&] {
    DeletionVector dv = ref.kind == DeletionFileRef::Kind::bitmap
                            ? parse_deletion_bitmap(ByteView(data), fragment.physical_rows)
                            : parse_deletion_arrow(ByteView(data), fragment.physical_rows);
    check_corrupt(ref.num_deleted_rows == 0 || ref.num_deleted_rows == dv.num_deleted(),
                  "holds {} deleted rows, the manifest says {} (fragment {})", dv.num_deleted(), ref.num_deleted_rows,
                  fragment.id);
    return dv;
  });
}

}  // namespace lance::dataset
