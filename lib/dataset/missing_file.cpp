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

Error missing_file_error(const std::string& path, uint64_t version, const char* what) {
  return Error(ErrorKind::io,
               fmt::format("{}: {} of dataset version {} is missing (removed by a cleanup of old versions while it "
                           "was read?); read a version that still exists (--version, or the latest)",
                           path, what, version));
}

Manifest read_version_manifest(const std::string& dir, const io::ObjectStore& store, std::optional<uint64_t> version,
                               ManifestLocation& where) {
  constexpr int kAttempts = 4;
  for (int attempt = 1;; ++attempt) {
    where = find_manifest(dir, version, &store);
    try {
      return read_manifest(where.path, &store);
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
