#include "dataset/row_count.h"

#include <filesystem>
#include <system_error>

#include "dataset/dataset.h"
#include "dataset/table_reader.h"
#include "format/file_reader.h"

namespace lance::dataset {

RowCount count_rows(const std::string& path, std::optional<uint64_t> version, const read::ReaderOptions& options,
                    const std::optional<std::vector<IdRange>>& fragments) {
  RowCount count;
  if (is_dataset_dir(path)) {
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
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw_usage("{} is a directory but not a Lance dataset (it has no {}/)", path, kVersionsDir);
  if (version) throw_usage("{} is a single data file; a version can only be chosen for a dataset directory", path);
  if (fragments) throw_usage("{} is a single data file; --fragments can only be chosen for a dataset directory", path);
  count.rows = format::FileReader::open(path, options.io, options.stats)->num_rows();
  return count;
}

}  // namespace lance::dataset
