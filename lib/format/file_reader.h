// The Lance 2.x data file container: footer, offset tables, schema and column metadata
// (docs/format.md §2). Opening a file reads its tail once (a second read only when the
// metadata is larger than the first guess) and validates every offset against the file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "encodings_v2_0.pb.h"
#include "encodings_v2_1.pb.h"
#include "format/schema.h"
#include "format/v1_file.h"
#include "io/scheduler.h"

namespace lance::format {

/// Size of the fixed footer at the end of every 2.x file.
inline constexpr uint64_t kFooterSize = 40;
/// Bytes of each column-metadata / global-buffer offset table entry ({u64 position, u64 size}).
inline constexpr uint64_t kOffsetEntrySize = 16;
/// First guess for the tail read: the I/O block size (io::IoOptions::block_size) within
/// [kMinTailReadSize, kTailReadSize]; usually covers schema and all column metadata, else
/// one more read fetches the rest.
inline constexpr uint64_t kTailReadSize = 64 * 1024;
inline constexpr uint64_t kMinTailReadSize = 4 * 1024;

struct FileVersion {
  uint16_t major = 0;
  uint16_t minor = 0;
  bool is_legacy_v2_0() const { return (major == 0 && minor == 3) || (major == 2 && minor == 0); }
  bool is_structural() const { return major == 2 && minor >= 1; }
  /// The legacy v1 format (footer 0.1 / 0.2): see format/v1_file.h.
  bool is_v1() const { return major == 0 && (minor == 1 || minor == 2); }
  /// "2.0", "2.1", ...
  std::string to_string() const;
};

/// The 40-byte footer.
struct Footer {
  uint64_t column_meta_start = 0;
  uint64_t column_meta_offsets_start = 0;
  uint64_t global_buff_offsets_start = 0;
  uint32_t num_global_buffers = 0;
  uint32_t num_columns = 0;
  FileVersion version;
};

/// One page of one column.
struct PageInfo {
  uint64_t num_rows = 0;  ///< 2.1+: top-level rows; 2.0: entries of this column
  uint64_t priority = 0;  ///< 2.1+: first top-level row of the page
  std::vector<io::ByteRange> buffers;
  std::string encoding_type_url;
  /// 2.1+ pages: the layout. 2.0 pages: `array_encoding`.
  std::shared_ptr<const ::lance::encodings21::PageLayout> layout;
  std::shared_ptr<const ::lance::encodings::ArrayEncoding> array_encoding;

  /// The bytes of its buffers.
  uint64_t bytes() const;
  /// A full-zip page's value encoding (FullZipLayout.value_compression); null for any other page.
  const ::lance::encodings21::CompressiveEncoding* full_zip_values() const;
};

/// One column: its pages in row order and column-level buffers.
struct ColumnInfo {
  uint32_t index = 0;
  std::vector<PageInfo> pages;
  std::vector<io::ByteRange> buffers;
  ::lance::encodings::ColumnEncoding encoding;
  io::ByteRange metadata_range;  ///< where the ColumnMetadata message lies
  uint64_t num_rows() const;
};

/// An open Lance data file. Thread-safe after `open`.
class FileReader {
 public:
  /// Opens and validates the local file `path` (a file in an object store: open it through its
  /// store, io/remote/stores.h, and pass the io::RandomAccessFile). Throws Error: io (cannot open/read), corrupt (not a
  /// Lance file, truncated, offsets out of range), unsupported (versions this build does not read, named in the
  /// message). Legacy v1 files (0.1/0.2) open too: they have no `columns()`; their page table and batches are in
  /// `v1()`. `stats` receives the counters of every read of this file (null: the file keeps its own).
  static std::shared_ptr<FileReader> open(const std::string& path, io::IoOptions options = {},
                                          std::shared_ptr<ReadStats> stats = nullptr);
  /// Same, on an already opened file (e.g. an io::MemoryFile in tests).
  static std::shared_ptr<FileReader> open(std::shared_ptr<io::RandomAccessFile> file, io::IoOptions options = {},
                                          std::shared_ptr<ReadStats> stats = nullptr);

  const std::string& path() const { return io_->file().path(); }
  uint64_t file_size() const { return io_->file().size(); }
  const Footer& footer() const { return footer_; }
  FileVersion version() const { return footer_.version; }
  uint64_t num_rows() const { return num_rows_; }
  /// The file's bytes per row (file size / rows, at least one row): what planning assumes a
  /// row of any projection costs before the pages are known.
  double bytes_per_row() const {
    return static_cast<double>(file_size()) / static_cast<double>(num_rows_ > 0 ? num_rows_ : 1);
  }
  const Schema& schema() const { return schema_; }
  const std::vector<ColumnInfo>& columns() const { return columns_; }
  const std::vector<io::ByteRange>& global_buffers() const { return global_buffers_; }
  io::IoScheduler& io() const { return *io_; }
  /// The counters of reads of this file (never null; shared with other files when `open`
  /// was given a stats object).
  ReadStats& stats() const { return *io_->read_stats(); }

  /// The columns of each top-level field, in schema order (docs/format.md §3.4).
  const std::vector<std::vector<uint32_t>>& field_columns() const { return field_columns_; }
  /// The columns of the top-level fields `fields`, field by field (indices out of range
  /// skipped).
  std::vector<const ColumnInfo*> columns_of(const std::vector<size_t>& fields) const;

  /// The v1 metadata (batches, page table, dictionaries) of a legacy v1 file, else null.
  const v1::FileMeta* v1() const { return v1_.get(); }

 private:
  void load();
  void load_v1();
  void map_fields_to_columns();

  std::unique_ptr<io::IoScheduler> io_;
  Footer footer_;
  uint64_t num_rows_ = 0;
  Schema schema_;
  std::vector<ColumnInfo> columns_;
  std::vector<io::ByteRange> global_buffers_;
  std::vector<std::vector<uint32_t>> field_columns_;
  std::shared_ptr<const v1::FileMeta> v1_;
};

}  // namespace lance::format
