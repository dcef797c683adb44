// Fuzz target: a whole manifest file (`_versions/*.manifest`: protobuf Manifest + 16-byte
// tail). It is parsed in memory (dataset::parse_manifest); when that succeeds it becomes the
// only version of a scratch dataset whose data/deletion/transaction/index pools are the
// committed datasets' files (fuzz_dataset_dir.h), and that dataset is opened, counted,
// scanned (first 1024 rows), taken from, and described as `inspect meta` and
// `inspect versions` do. Upstream: lance-format/lance protos/table.proto `Manifest`.
#include "dataset/dataset.h"
#include "dataset/indices.h"
#include "dataset/manifest.h"
#include "dataset/manifest_file.h"
#include "dataset/transaction.h"
#include "fuzz_dataset_dir.h"
#include "fuzz_input.h"
#include "inspect/dataset_meta.h"
#include "read/column_selection.h"

using namespace lance;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::ScratchDataset scratch;
  const ByteView bytes(data, size);
  uint64_t version = 0;
  fuzz::expect_error_or_success([&] { version = dataset::parse_manifest(bytes, "fuzz.manifest").version; });
  if (version == 0 && size > 0) {
    // Still feed the raw-protobuf readers (they run on manifests parse_manifest refuses).
    fuzz::expect_error_or_success([&] {
      const std::string path = scratch.put_manifest(1, bytes);
      const dataset::ManifestFile mf = dataset::read_manifest_file(path, lance::io::local_store());
      dataset::parse_indices(mf);
      dataset::read_transaction(scratch.dir(), mf, lance::io::local_store());
    });
    return 0;
  }
  const std::string path = scratch.put_manifest(version, bytes);
  fuzz::expect_error_or_success([&] {
    const dataset::ManifestFile mf = dataset::read_manifest_file(path, lance::io::local_store());
    fuzz::expect_error_or_success([&] { dataset::parse_indices(mf); });
    fuzz::expect_error_or_success([&] { dataset::read_transaction(scratch.dir(), mf, lance::io::local_store()); });
  });
  fuzz::expect_error_or_success([&] {
    read::ReaderOptions opts;
    opts.io.io_threads = 1;
    opts.decode_mode = read::DecodeMode::inline_run;
    auto ds = dataset::Dataset::open(scratch.dir(), std::nullopt, opts);
    fuzz::expect_error_or_success([&] {
      const inspect::DatasetMeta meta = inspect::inspect_dataset_meta(*ds);
      inspect::to_json(meta).dump();
      inspect::render_text(meta);
    });
    dataset::DatasetRowReader reader(ds, read::resolve_projection(ds->schema(), {}));
    const uint64_t n = std::min<uint64_t>(reader.num_rows(), 1024);
    if (n == 0) return;
    reader.scan(0, n, 256, [](RecordBatch) {});
    const std::vector<uint64_t> rows = {n - 1, 0, n / 2};
    reader.take(rows);
  });
  return 0;
}
