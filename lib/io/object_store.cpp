#include "io/object_store.h"

#include <filesystem>
#include <system_error>

#include "common/error.h"

namespace lance::io {

namespace fs = std::filesystem;

std::vector<ListEntry> LocalStore::list(const std::string& dir) const {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw_io("{}: cannot list: {}", dir, ec.message());
  std::vector<ListEntry> out;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    ListEntry e;
    e.name = it->path().filename().string();
    std::error_code ec2;
    e.is_dir = it->is_directory(ec2);
    if (!e.is_dir) {
      auto s = it->file_size(ec2);
      e.size = ec2 ? 0 : s;
    }
    out.push_back(std::move(e));
  }
  if (ec) throw_io("{}: cannot list: {}", dir, ec.message());
  return out;
}

bool LocalStore::is_directory(const std::string& path) const {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

std::optional<uint64_t> LocalStore::size_of(const std::string& path) const {
  std::error_code ec;
  auto st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return std::nullopt;
  auto s = fs::file_size(path, ec);
  if (ec) throw_io("{}: {}", path, ec.message());
  return s;
}

std::shared_ptr<RandomAccessFile> LocalStore::open(const std::string& path) const { return LocalFile::open(path); }

Bytes LocalStore::read_all(const std::string& path) const {
  auto file = LocalFile::open(path);
  Bytes data(file->size());
  if (!data.empty()) file->read_at(0, data.size(), data.data());
  return data;
}

const LocalStore& local_store() {
  static const LocalStore store;
  return store;
}

}  // namespace lance::io
