#include "dataset/row_count.h"

#include "dataset/dataset.h"
#include "dataset/table_reader.h"
#include "format/file_reader.h"
#include "io/remote/stores.h"

namespace lance::dataset {

RowCount count_rows(const std::string& path, std::optional<uint64_t> version, const read::ReaderOptions& options,
                    const std::optional<std::vector<IdRange>>& fragments) {
  RowCount count;
  const auto store = io::store_for(path, options.storage, options.stats);
  if (is_dataset_dir(path, *store)) {
    auto ds = Dataset::open(path, version, options);
    if (fragments) ds = ds->select_fragments(*fragments);
    count.rows = ds->num_rows();
    count.fragments = ds->fragments().size();
    count.version = ds->version();
    uint64_t physical = 0;
    for (const auto& f : ds->fragments()) physical += f.physical_rows;
    count.deleted_rows = physical - count.rows;
    return count;
  }
  count.rows = open_single_file(path, *store, options, version.has_value(), fragments.has_value())->num_rows();
  return count;
}

}  // namespace lance::dataset
