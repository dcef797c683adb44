#include "app/input_size.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace lance::app {

namespace {

/// Bytes of the regular files directly in `dir`, counting stops at `limit`.
uint64_t files_bytes(const std::string& dir, uint64_t limit) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return 0;
  uint64_t total = 0;
  while (const dirent* e = ::readdir(d)) {
    struct stat st {};
    if (::stat((dir + "/" + e->d_name).c_str(), &st) == 0 && S_ISREG(st.st_mode))
      total += static_cast<uint64_t>(st.st_size);
    if (total >= limit) break;
  }
  ::closedir(d);
  return total;
}

}  // namespace

std::optional<uint64_t> local_input_bytes(const std::string& path, uint64_t limit) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return std::nullopt;
  if (S_ISREG(st.st_mode) && path.size() > 6 && path.compare(path.size() - 6, 6, ".lance") == 0)
    return static_cast<uint64_t>(st.st_size);
  if (S_ISDIR(st.st_mode) && ::access((path + "/_versions").c_str(), F_OK) == 0)
    return files_bytes(path + "/data", limit);
  return std::nullopt;
}

uint64_t default_scan_batch_rows(uint64_t input_bytes, uint64_t num_rows, uint64_t default_rows) {
  constexpr uint64_t kTargetBatchBytes = 4 * 1024 * 1024, kMaxRows = 65536;
  if (input_bytes < kLargeInputBytes || num_rows == 0 || default_rows == 0 || default_rows >= kMaxRows)
    return default_rows;
  const uint64_t bytes_per_row = std::max<uint64_t>(1, input_bytes / num_rows);
  const uint64_t rows = std::min(kMaxRows, kTargetBatchBytes / bytes_per_row);
  return std::max(default_rows, rows / default_rows * default_rows);
}

}  // namespace lance::app
