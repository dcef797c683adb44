#include "dataset/manifest.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "common/bytes.h"
#include "io/object_store.h"
#include "io/remote/uri.h"

namespace lance::dataset {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kManifestSuffix = ".manifest";
/// A V2 name is exactly 20 digits + ".manifest".
constexpr size_t kV2NameLength = 20 + kManifestSuffix.size();
/// Manifest tail: i64 position of the length prefix, u16 major, u16 minor, "LANC".
constexpr uint64_t kManifestTailSize = 16;

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<uint64_t> parse_u64(std::string_view s) {
  if (!all_digits(s) || s.size() > 20) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

/// "1-5, 7, 9-10": the listed versions, compactly, for error messages.
std::string describe_versions(const std::vector<ManifestLocation>& all) {
  std::string out;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j + 1 < all.size() && all[j + 1].version == all[j].version + 1) ++j;
    if (!out.empty()) out += ", ";
    out += j == i ? std::to_string(all[i].version) : fmt::format("{}-{}", all[i].version, all[j].version);
    i = j + 1;
  }
  return out;
}

/// A path stored in a manifest must stay inside the dataset directory.
void check_relative_path(const std::string& p, const char* what) {
  check_corrupt(!p.empty(), "{} has an empty path", what);
  const fs::path path(p);
  check_corrupt(!path.is_absolute(), "{} path '{}' is absolute", what, p);
  for (const auto& part : path) check_corrupt(part != "..", "{} path '{}' leaves the dataset directory", what, p);
}

}  // namespace

std::optional<ManifestLocation> parse_manifest_name(const std::string& filename) {
  std::string_view name(filename);
  if (name.size() <= kManifestSuffix.size() || name.substr(name.size() - kManifestSuffix.size()) != kManifestSuffix)
    return std::nullopt;  // temporary files (`.tmp_…`, `….manifest-<uuid>`), the hint file
  const std::string_view stem = name.substr(0, name.size() - kManifestSuffix.size());
  auto number = parse_u64(stem);  // detached versions (`d…`) fail here, as in Lance
  if (!number) return std::nullopt;
  ManifestLocation loc;
  if (name.size() == kV2NameLength) {
    loc.naming = ManifestNaming::v2;
    loc.version = std::numeric_limits<uint64_t>::max() - *number;
  } else {
    loc.naming = ManifestNaming::v1;
    loc.version = *number;
  }
  return loc;
}

std::string manifest_file_name(uint64_t version, ManifestNaming naming) {
  if (naming == ManifestNaming::v1) return fmt::format("{}.manifest", version);
  return fmt::format("{:020}.manifest", std::numeric_limits<uint64_t>::max() - version);
}

std::vector<ManifestLocation> list_manifests(const std::string& dataset_dir, const io::ObjectStore& store) {
  const std::string dir = io::join_path(dataset_dir, std::string(kVersionsDir));
  const std::vector<io::ListEntry> entries = store.list(dir);
  std::vector<ManifestLocation> out;
  for (const auto& e : entries) {
    if (e.is_dir) continue;
    auto loc = parse_manifest_name(e.name);
    if (!loc) continue;
    loc->path = io::join_path(dir, e.name);
    out.push_back(std::move(*loc));
  }
  // By version; when both namings hold the same version (a half-done migration), prefer V2.
  std::sort(out.begin(), out.end(), [](const ManifestLocation& a, const ManifestLocation& b) {
    return a.version != b.version ? a.version < b.version
                                  : a.naming == ManifestNaming::v2 && b.naming != ManifestNaming::v2;
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const ManifestLocation& a, const ManifestLocation& b) { return a.version == b.version; }),
            out.end());
  return out;
}

namespace {

/// The version named by `_versions/latest_version_hint.json`, if the file exists and parses.
std::optional<uint64_t> read_version_hint(const std::string& dataset_dir, const io::ObjectStore& store) {
  const std::string hint =
      io::join_path(io::join_path(dataset_dir, std::string(kVersionsDir)), std::string(kLatestVersionHint));
  try {
    // The listing of _versions/ (made already, and kept by object stores) tells whether it
    // exists: no request of its own for a missing hint.
    const auto entries = store.list(io::join_path(dataset_dir, std::string(kVersionsDir)));
    if (std::none_of(entries.begin(), entries.end(),
                     [](const io::ListEntry& e) { return e.name == kLatestVersionHint; }))
      return std::nullopt;
    const Bytes data = store.read_all(hint);
    auto j = nlohmann::json::parse(data.begin(), data.end());
    if (j.is_object() && j.contains("version") && j["version"].is_number_unsigned())
      return j["version"].get<uint64_t>();
  } catch (const nlohmann::json::exception&) {
  } catch (const Error&) {
  }
  spdlog::debug("{}: ignoring unreadable {}", dataset_dir, kLatestVersionHint);
  return std::nullopt;
}

}  // namespace

ManifestLocation find_manifest(const std::string& dataset_dir, std::optional<uint64_t> version,
                               const io::ObjectStore& store) {
  const auto all = list_manifests(dataset_dir, store);
  if (all.empty()) throw_corrupt("{}: no manifest in {}/ (not a committed Lance dataset?)", dataset_dir, kVersionsDir);
  if (version) {
    for (const auto& loc : all)
      if (loc.version == *version) return loc;
    throw_usage("version {} does not exist in dataset {} (it has version{} {})", *version, dataset_dir,
                all.size() == 1 ? "" : "s", describe_versions(all));
  }
  const ManifestLocation& latest = all.back();
  // The hint only feeds a debug message: not worth a request otherwise.
  if (!spdlog::should_log(spdlog::level::debug)) return latest;
  if (auto hint = read_version_hint(dataset_dir, store); hint && *hint != latest.version)
    spdlog::debug("{}: {} says version {}, the newest manifest is version {}", dataset_dir, kLatestVersionHint, *hint,
                  latest.version);
  return latest;
}

std::string DeletionFileRef::relative_path(uint64_t fragment_id) const {
  return fmt::format("_deletions/{}-{}-{}.{}", fragment_id, read_version, id, kind == Kind::bitmap ? "bin" : "arrow");
}

bool DataFileRef::holds_field(int32_t id) const {
  return std::find(field_ids.begin(), field_ids.end(), id) != field_ids.end();
}

Manifest parse_manifest(ByteView bytes, const std::string& name) {
  return with_context(name, [&] {
    const uint64_t size = bytes.size();
    check_corrupt(size >= kManifestTailSize + 4, "manifest of {} bytes is too small", size);
    check_corrupt(std::memcmp(bytes.data() + size - 4, "LANC", 4) == 0,
                  "not a Lance manifest (no \"LANC\" magic at the end)");
    const int64_t pos = bytes.read<int64_t>(size - kManifestTailSize);
    check_corrupt(pos >= 0 && static_cast<uint64_t>(pos) + 4 <= size - kManifestTailSize,
                  "manifest position {} is outside the file ({} bytes)", pos, size);
    const uint64_t start = static_cast<uint64_t>(pos) + 4;
    const uint32_t recorded = bytes.read<uint32_t>(static_cast<uint64_t>(pos));
    const uint64_t actual = size - kManifestTailSize - start;
    check_corrupt(recorded == actual, "manifest length prefix says {} bytes, the file holds {}", recorded, actual);
    ByteView body = bytes.slice(start, actual);

    ::lance::table::Manifest proto;
    check_corrupt(proto.ParseFromArray(body.data(), static_cast<int>(body.size())),
                  "cannot decode the manifest ({} bytes of protobuf)", body.size());

    Manifest m;
    m.path = name;
    m.version = proto.version();
    m.reader_feature_flags = proto.reader_feature_flags();
    if (uint64_t unknown = m.reader_feature_flags & ~feature::kUnderstood)
      throw_unsupported(
          "the dataset needs reader features this reader does not know (reader_feature_flags {}, "
          "unknown bits {:#x}); it was written by {} {}",
          m.reader_feature_flags, unknown, proto.writer_version().library(), proto.writer_version().version());
    m.data_storage_version = proto.data_format().version();
    m.writer = proto.writer_version().library().empty()
                   ? std::string()
                   : proto.writer_version().library() + " " + proto.writer_version().version();
    m.schema = format::schema_from_fields(proto.fields(), &proto.schema_metadata());

    m.fragments.reserve(static_cast<size_t>(proto.fragments_size()));
    for (const auto& pf : proto.fragments()) {
      Fragment f;
      f.id = pf.id();
      f.physical_rows = pf.physical_rows();
      with_context(
          [&] { return fmt::format("fragment {}", f.id); },
          [&] {
            for (const auto& pd : pf.files()) {
              DataFileRef d;
              d.path = pd.path();
              check_relative_path(d.path, "data file");
              if (pd.has_base_id())
                throw_unsupported(
                    "data file '{}' lives under another base path (id {}); multi-base datasets are not supported",
                    d.path, pd.base_id());
              d.field_ids.assign(pd.fields().begin(), pd.fields().end());
              d.column_indices.assign(pd.column_indices().begin(), pd.column_indices().end());
              d.major = pd.file_major_version();
              d.minor = pd.file_minor_version();
              d.size_bytes = pd.file_size_bytes();
              // Legacy v1 data files (recorded as 0.0 by Lance <= 0.10, 0.1/0.2 later) list field
              // ids only: their pages are found by field id in the file's own page table.
              const bool v1 = d.major == 0 && d.minor <= 2;
              check_corrupt((v1 && d.column_indices.empty()) || d.column_indices.size() == d.field_ids.size(),
                            "data file '{}' lists {} field ids but {} column indices", d.path, d.field_ids.size(),
                            d.column_indices.size());
              f.files.push_back(std::move(d));
            }
            if (pf.has_deletion_file()) {
              const auto& pd = pf.deletion_file();
              if (pd.has_base_id())
                throw_unsupported(
                    "the deletion file lives under another base path (id {}); multi-base datasets are not supported",
                    pd.base_id());
              DeletionFileRef del;
              switch (pd.file_type()) {
                case ::lance::table::DeletionFile::ARROW_ARRAY:
                  del.kind = DeletionFileRef::Kind::arrow_array;
                  break;
                case ::lance::table::DeletionFile::BITMAP:
                  del.kind = DeletionFileRef::Kind::bitmap;
                  break;
                default:
                  throw_unsupported("unknown deletion file type {}", static_cast<int>(pd.file_type()));
              }
              del.read_version = pd.read_version();
              del.id = pd.id();
              del.num_deleted_rows = pd.num_deleted_rows();
              check_corrupt(f.physical_rows == 0 || del.num_deleted_rows <= f.physical_rows,
                            "{} deleted rows but only {} rows", del.num_deleted_rows, f.physical_rows);
              f.deletion = del;
            }
          });
      m.fragments.push_back(std::move(f));
    }
    return m;
  });
}

Manifest read_manifest(const std::string& path, const io::ObjectStore& store) {
  auto data = std::make_shared<Bytes>(store.read_all(path));
  Manifest m = parse_manifest(ByteView(*data), path);
  m.file_bytes = std::move(data);
  return m;
}

}  // namespace lance::dataset
