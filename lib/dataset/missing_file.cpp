#include "dataset/missing_file.h"

#include <filesystem>
#include <system_error>

namespace lance::dataset {

bool file_is_gone(const std::string& path, const io::ObjectStore& store) {
  if (store.remote()) {
    try {
      return !store.size_of(path);
    } catch (const Error&) {
      return false;  // cannot tell: keep the original error
    }
  }
  std::error_code ec;
  const auto st = std::filesystem::symlink_status(path, ec);
  return st.type() == std::filesystem::file_type::not_found;
}

Error missing_file_error(const std::string& path, uint64_t version, const char* what, std::optional<uint64_t> latest) {
  if (latest && *latest <= version)
    return Error(ErrorKind::io,
                 fmt::format("{}: {} of dataset version {}, the latest, is missing: the dataset is damaged (a file "
                             "removed by hand, or an incomplete copy?); `lance-cli verify` lists every missing file",
                             path, what, version));
  return Error(ErrorKind::io,
               fmt::format("{}: {} of dataset version {} is missing (removed by a cleanup of old versions while it "
                           "was read?); read a version that still exists (--version, or the latest)",
                           path, what, version));
}

std::optional<uint64_t> latest_version_now(const std::string& dataset_dir, const io::ObjectStore& store) {
  try {
    return find_manifest(dataset_dir, std::nullopt, store).version;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

Manifest read_version_manifest(const std::string& dir, const io::ObjectStore& store, std::optional<uint64_t> version,
                               ManifestLocation& where) {
  constexpr int kAttempts = 4;
  for (int attempt = 1;; ++attempt) {
    where = find_manifest(dir, version, store);
    try {
      return read_manifest(where.path, store);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::io || !file_is_gone(where.path, store)) throw;
      if (version)
        throw Error(ErrorKind::io, fmt::format("{}: the manifest of version {} was removed (by a cleanup of old "
                                               "versions?) while it was read; read a version that still exists "
                                               "(--version, or the latest)",
                                               where.path, *version));
      if (attempt == kAttempts) throw;
      // A newer version replaced the latest and a cleanup removed it: list again.
    }
  }
}

}  // namespace lance::dataset
