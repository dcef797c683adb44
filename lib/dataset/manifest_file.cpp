#include "dataset/manifest_file.h"

#include "io/object_store.h"
#include "io/remote/uri.h"

namespace lance::dataset {

namespace {
constexpr uint64_t kTailSize = 16;  // i64 position, u16 major, u16 minor, "LANC"
}

ManifestFile read_manifest_file(const std::string& path, const io::ObjectStore& store) {
  return manifest_file_from_bytes(path, store.read_all(path));
}

ManifestFile manifest_file_of(const Manifest& m, const io::ObjectStore& store) {
  if (m.file_bytes) return manifest_file_from_bytes(m.path, *m.file_bytes);
  return read_manifest_file(m.path, store);
}

ManifestFile manifest_file_from_bytes(std::string path, Bytes bytes) {
  ManifestFile mf;
  mf.path = std::move(path);
  mf.bytes = std::move(bytes);
  with_context(io::display_location(mf.path), [&] {
    const ByteView all(mf.bytes);
    check_corrupt(all.size() >= kTailSize + 4 && std::memcmp(all.data() + all.size() - 4, "LANC", 4) == 0,
                  "not a Lance manifest (no \"LANC\" magic at the end)");
    const int64_t pos = all.read<int64_t>(all.size() - kTailSize);
    check_corrupt(pos >= 0 && static_cast<uint64_t>(pos) + 4 <= all.size() - kTailSize,
                  "manifest position {} is outside the file ({} bytes)", pos, all.size());
    const uint32_t len = all.read<uint32_t>(static_cast<uint64_t>(pos));
    const uint64_t start = static_cast<uint64_t>(pos) + 4;
    check_corrupt(start + len == all.size() - kTailSize, "manifest length prefix says {} bytes, the file holds {}", len,
                  all.size() - kTailSize - start);
    check_corrupt(mf.proto.ParseFromArray(all.data() + start, static_cast<int>(len)),
                  "cannot decode the manifest ({} bytes of protobuf)", len);
  });
  return mf;
}

ByteView manifest_section(const ManifestFile& file, uint64_t position, const char* what) {
  return with_context(file.path, [&] {
    const ByteView all(file.bytes);
    check_corrupt(position <= all.size() && all.size() - position >= 4, "{} position {} is outside the file ({} bytes)",
                  what, position, all.size());
    const uint32_t len = all.read<uint32_t>(position);
    check_corrupt(len <= all.size() - position - 4, "{} at {} claims {} bytes, past the end of the file", what,
                  position, len);
    return all.slice(position + 4, len);
  });
}

}  // namespace lance::dataset
