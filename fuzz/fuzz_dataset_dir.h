// A scratch dataset directory for the dataset-layer fuzz targets: `_versions/` holds the one
// manifest under test, while `data/`, `_deletions/`, `_transactions/` and `_indices/` link to
// every such file of the committed datasets (data/datasets, data/writers), so that a fuzzed
// manifest can name real data, deletion, transaction and index files. Made once per process
// (in /dev/shm when it exists), removed at exit.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "common/bytes.h"
#include "dataset/manifest.h"
#include "fuzz_input.h"

#ifndef LANCE_CLI_SOURCE_DIR
#error "fuzz targets are compiled with LANCE_CLI_SOURCE_DIR (CMakeLists.txt)"
#endif

namespace lance::fuzz {

class ScratchDataset {
 public:
  ScratchDataset() {
    namespace fs = std::filesystem;
    std::error_code ec;
    dir_ = make_scratch_dir("lance-fuzz-ds");
    for (const char* sub : {dataset::kVersionsDir, "data", "_deletions", "_transactions", "_indices"})
      fs::create_directories(dir_ / sub);
    const fs::path src = fs::path(LANCE_CLI_SOURCE_DIR) / "data";
    for (const char* pool : {"datasets", "writers"}) {
      for (auto it = fs::recursive_directory_iterator(src / pool, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec)) {
        const fs::path p = it->path();
        const std::string parent = p.parent_path().filename().string();
        const bool file = it->is_regular_file(ec);
        if (file && (parent == "data" || parent == "_deletions" || parent == "_transactions"))
          fs::create_symlink(p, dir_ / parent / p.filename(), ec);
        else if (!file && p.parent_path().filename() == "_indices")
          fs::create_directory_symlink(p, dir_ / "_indices" / p.filename(), ec);
      }
    }
  }
  ~ScratchDataset() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  const std::string dir() const { return dir_.string(); }

  /// Replaces the manifest in `_versions/` with `bytes`, named for `version`; its path.
  std::string put_manifest(uint64_t version, ByteView bytes) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!manifest_.empty()) fs::remove(manifest_, ec);
    manifest_ =
        (dir_ / dataset::kVersionsDir / dataset::manifest_file_name(version, dataset::ManifestNaming::v2)).string();
    std::ofstream(manifest_, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return manifest_;
  }

 private:
  std::filesystem::path dir_;
  std::string manifest_;
};

}  // namespace lance::fuzz
