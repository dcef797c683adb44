#include "dataset/row_count.h"

#include "dataset/dataset.h"
#include "dataset/table_reader.h"
#include "format/file_reader.h"

namespace lance::dataset {

RowCount count_rows(const std::string& path, std::optional<uint64_t> version, io::IoOptions io) {
  RowCount count;
  const auto store = io::store_for(path);
  if (is_dataset_dir(path, *store)) {
    auto ds = Dataset::open(path, version, io);
    count.rows = ds->num_rows();
    count.fragments = ds->fragments().size();
    uint64_t physical = 0;
    for (const auto& f : ds->fragments()) physical += f.physical_rows;
    count.deleted_rows = physical - count.rows;
    return count;
  }
  count.rows = open_single_file(path, *store, io, version.has_value())->num_rows();
  return count;
}

}  // namespace lance::dataset
