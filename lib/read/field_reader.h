// One top-level field of one data file, read by row range. The file's version picks the
// implementation: structural (2.1+: leaf columns + rep/def assembly), 2.0 (a column per
// schema node) or v1.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "array/array.h"
#include "format/file_reader.h"
#include "read/page_batch_planner.h"
#include "read/reader_options.h"
#include "structural/page_decoder.h"

namespace lance::read {

using structural::RowRange;

class FieldReader {
 public:
  virtual ~FieldReader() = default;
  /// The Arrow field produced (dictionary types already decoded to their value type).
  virtual const FieldPtr& output_field() const = 0;
  /// Rows [begin, end) of the file as one array of end - begin values (begin < end).
  virtual ArrayPtr read(uint64_t begin, uint64_t end) = 0;

  /// Reads submitted but not yet decoded (see start/finish).
  struct Pending {
    virtual ~Pending() = default;
    std::vector<RowRange> ranges;
  };
  /// Reading `ranges` (sorted, non-empty; repeats as FileRowReader::row_ranges makes them) is
  /// planned, then submitted, so that I/O may run while the caller does other work and the
  /// metadata of every field of a file goes out in one request (read/page_batch_planner.h):
  ///   auto p = reader.plan(ranges, rounds);   // no I/O; metadata needs added to `rounds`
  ///   rounds.run(file.io(), priority);        // (once, for all fields)
  ///   reader.submit(*p);                      // data requests in flight
  ///   ArrayPtr a = reader.finish(std::move(p));
  /// The defaults plan nothing and read each range in `finish`.
  virtual std::unique_ptr<Pending> plan(std::span<const RowRange> ranges, MetadataRounds& rounds);
  virtual void submit(Pending& pending) {}
  /// The rows of all ranges, in order, as one array.
  virtual ArrayPtr finish(std::unique_ptr<Pending> pending);
};

/// Rows [begin, end) of `reader` read through plan, the metadata rounds on `io` (the
/// field's file), submit and finish: `read` of the readers that plan.
ArrayPtr read_planned(FieldReader& reader, io::IoScheduler& io, uint64_t begin, uint64_t end);

/// 2.1+ files.
std::unique_ptr<FieldReader> make_structural_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                                          const ReaderOptions& options = {});
/// 2.1+: `field` (e.g. a copy of a top-level field pruned to some sub-fields) read from
/// `columns`, the file columns of its structural leaves in order.
std::unique_ptr<FieldReader> make_structural_field_reader(std::shared_ptr<format::FileReader> file,
                                                          std::shared_ptr<const format::LanceField> field,
                                                          const std::vector<uint32_t>& columns,
                                                          const ReaderOptions& options = {});
/// 2.0 files (footer 0.3 / 2.0). Defined in v2_0_field_reader.cpp.
std::unique_ptr<FieldReader> make_v2_0_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                                    const ReaderOptions& options = {});

/// Legacy v1 files (footer 0.1 / 0.2). Defined in v1_field_reader.cpp.
std::unique_ptr<FieldReader> make_v1_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                                  const ReaderOptions& options = {});

/// Chooses by the file's version.
std::unique_ptr<FieldReader> make_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                               const ReaderOptions& options = {});

/// The sub-field of top-level field `field_index` reached through struct children `path`
/// (child indices, non-empty), output as a column named `name`. A value is null where the
/// sub-field or any struct above it is null. 2.1+ files read only the leaf columns under
/// the sub-field. Defined in sub_field_reader.cpp.
std::unique_ptr<FieldReader> make_sub_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                                   const std::vector<size_t>& path, const std::string& name,
                                                   const ReaderOptions& options = {});

}  // namespace lance::read
