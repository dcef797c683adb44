// Fuzz target: the index metadata that `inspect meta` reads. Input: an IndexSection protobuf
// (one IndexMetadata per index: name, uuid, fields, fragment bitmap, details Any, files).
// It is placed, as Lance writes it, in a copy of the manifest of data/datasets/know/indexed
// (`[u32 length][IndexSection]` before the manifest, Manifest.index_section pointing at it),
// which becomes the only version of a scratch dataset holding that table's data and index
// files; then dataset::parse_indices, inspect::describe_indices and the JSON and text
// renderings of `inspect meta` run on it.
// Upstream: lance-format/lance protos/table.proto `IndexSection`, `IndexMetadata`.
#include <cstring>

#include "dataset/dataset.h"
#include "dataset/indices.h"
#include "dataset/manifest_file.h"
#include "fuzz_dataset_dir.h"
#include "fuzz_input.h"
#include "inspect/dataset_meta.h"

using namespace lance;

namespace {

struct Base {
  ::lance::table::Manifest proto;
  Base() {
    const std::string dir = std::string(LANCE_CLI_SOURCE_DIR) + "/data/datasets/know/indexed";
    proto = dataset::read_manifest_file(dataset::find_manifest(dir, std::nullopt, lance::io::local_store()).path,
                                        lance::io::local_store())
                .proto;
    proto.clear_index_section();
    proto.clear_transaction_section();
  }
};

template <typename T>
void put(Bytes& b, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  b.insert(b.end(), p, p + sizeof(T));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Base base;
  static fuzz::ScratchDataset scratch;
  // [u32 len][IndexSection][u32 len][Manifest][i64 manifest position][u16 0][u16 2]["LANC"]
  ::lance::table::Manifest m = base.proto;
  m.set_index_section(0);
  const std::string body = m.SerializeAsString();
  Bytes file;
  put<uint32_t>(file, static_cast<uint32_t>(size));
  file.insert(file.end(), data, data + size);
  const int64_t pos = static_cast<int64_t>(file.size());
  put<uint32_t>(file, static_cast<uint32_t>(body.size()));
  file.insert(file.end(), body.begin(), body.end());
  put<int64_t>(file, pos);
  put<uint16_t>(file, 0);
  put<uint16_t>(file, 2);
  file.insert(file.end(), {'L', 'A', 'N', 'C'});
  const std::string path = scratch.put_manifest(m.version(), ByteView(file));
  fuzz::expect_error_or_success([&] {
    const dataset::ManifestFile mf = dataset::read_manifest_file(path, lance::io::local_store());
    const auto indices = dataset::parse_indices(mf);
    read::ReaderOptions opts;
    opts.io.io_threads = 1;
    auto ds = dataset::Dataset::open(scratch.dir(), std::nullopt, opts);
    const auto described = inspect::describe_indices(*ds, indices);
    inspect::indices_json(described).dump();
    inspect::render_indices_text(described, {});
    const inspect::DatasetMeta meta = inspect::inspect_dataset_meta(*ds);
    inspect::to_json(meta).dump();
    inspect::render_text(meta);
  });
  return 0;
}
