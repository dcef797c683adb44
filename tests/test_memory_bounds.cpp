// Memory bounds of the real binary, run through `sh -c 'ulimit -v 1048576; exec lance-cli …'`
// (1 GiB of address space, threads, I/O buffers and all):
//  * every committed fixture (data/fixtures, every version of every dataset in data/datasets,
//    data/writers) scans completely;
//  * files that claim huge sizes stop with exit 4 (corrupt) and one error line before they
//    allocate: a page that claims 2^40 rows, a string of 2^40 bytes. They are built from real
//    fixtures (how: at each test below). Without the bound such a file could also fail later
//    with bad_alloc (exit 1); under it, only an early size check gives exit 4.
// Skipped under the sanitizer build (ASan reserves terabytes of shadow address space).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "cli_env.h"
#include "cli_runner.h"
#include "common/bytes.h"
#include "format/file_reader.h"

#include "encodings_v2_1.pb.h"
#include "file.pb.h"
#include "file2.pb.h"

using namespace lance::testing;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t k2e40 = uint64_t{1} << 40;

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct ShellResult {
  int exit_code = -1;  ///< 128 + signal when killed
  std::string err;
};

/// lance-cli ARGS under `ulimit -v 1048576` (KiB), stdout dropped, stderr kept, at most 60 s.
ShellResult run_bounded(const std::vector<std::string>& args) {
  char tmpl[] = "/tmp/lance-ulimit-err-XXXXXX";
  const int fd = mkstemp(tmpl);
  REQUIRE(fd >= 0);
  close(fd);
  std::string cmd = "timeout -k 5 60 sh -c 'ulimit -v 1048576; exec \"$0\" \"$@\"' " + shell_quote(cli_binary());
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " >/dev/null 2>" + shell_quote(tmpl);
  const int status = std::system(cmd.c_str());
  ShellResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = read_text(tmpl);
  fs::remove(tmpl);
  return r;
}

std::string bytes_text(const lance::Bytes& b) { return std::string(b.begin(), b.end()); }

/// A 2.x data file with its file descriptor (global buffer 0: schema and row count) and its
/// column metadata (pages: row counts, buffers, layouts) rewritten: the data pages and other
/// global buffers stay where they are, the new descriptor is appended after them, and the
/// column metadata, both offset tables and the footer are written anew (the layout of
/// Lance's rust/lance-file/src/writer.rs: data, global buffers, column metadata, column
/// metadata offsets, global buffer offsets, 40-byte footer).
lance::Bytes rewrite_file(const lance::Bytes& file,
                          const std::function<void(::lance::file::FileDescriptor&)>& descriptor,
                          const std::function<void(uint32_t, ::lance::file::v2::ColumnMetadata&)>& column) {
  lance::ByteView v(file);
  const uint64_t footer = file.size() - lance::format::kFooterSize;
  const uint64_t meta_start = v.read<uint64_t>(footer);
  const uint64_t cmo_start = v.read<uint64_t>(footer + 8);
  const uint64_t gbo_start = v.read<uint64_t>(footer + 16);
  const uint32_t num_global = v.read<uint32_t>(footer + 24);
  const uint32_t num_columns = v.read<uint32_t>(footer + 28);
  lance::Bytes out(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(meta_start));
  // Global buffer 0, changed, at the end of the data.
  const uint64_t gb0_pos = v.read<uint64_t>(gbo_start), gb0_len = v.read<uint64_t>(gbo_start + 8);
  ::lance::file::FileDescriptor fd;
  REQUIRE(fd.ParseFromArray(file.data() + gb0_pos, static_cast<int>(gb0_len)));
  descriptor(fd);
  const std::string fd_bytes = fd.SerializeAsString();
  const uint64_t new_gb0 = out.size();
  out.insert(out.end(), fd_bytes.begin(), fd_bytes.end());
  std::vector<std::pair<uint64_t, uint64_t>> entries;
  for (uint32_t c = 0; c < num_columns; ++c) {
    const uint64_t pos = v.read<uint64_t>(cmo_start + 16 * c), len = v.read<uint64_t>(cmo_start + 16 * c + 8);
    ::lance::file::v2::ColumnMetadata meta;
    REQUIRE(meta.ParseFromArray(file.data() + pos, static_cast<int>(len)));
    column(c, meta);
    const std::string bytes = meta.SerializeAsString();
    entries.emplace_back(out.size(), bytes.size());
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  const uint64_t new_meta_start = entries.empty() ? out.size() : entries.front().first;
  const uint64_t new_cmo = out.size();
  for (auto [pos, len] : entries) {
    lance::append_le<uint64_t>(out, pos);
    lance::append_le<uint64_t>(out, len);
  }
  const uint64_t new_gbo = out.size();
  lance::append_le<uint64_t>(out, new_gb0);
  lance::append_le<uint64_t>(out, fd_bytes.size());
  out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(gbo_start + 16),
             file.begin() + static_cast<std::ptrdiff_t>(gbo_start + 16 * num_global));
  lance::append_le<uint64_t>(out, new_meta_start);
  lance::append_le<uint64_t>(out, new_cmo);
  lance::append_le<uint64_t>(out, new_gbo);
  out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(footer + 24), file.end());  // counts, version, magic
  return out;
}

lance::Bytes read_bytes(const std::string& path) {
  const std::string t = read_text(path);
  return lance::Bytes(t.begin(), t.end());
}

/// Sets the mini-block layout of a page (2.1+) to claim `items` values.
void set_miniblock_items(::lance::file::v2::ColumnMetadata::Page& page, uint64_t items) {
  auto* enc = page.mutable_encoding()->mutable_direct();
  ::lance::wire::AnyMessage any;
  REQUIRE(any.ParseFromString(enc->encoding()));
  ::lance::encodings21::PageLayout layout;
  REQUIRE(layout.ParseFromString(any.value()));
  REQUIRE(layout.has_mini_block_layout());
  layout.mutable_mini_block_layout()->set_num_items(items);
  any.set_value(layout.SerializeAsString());
  enc->set_encoding(any.SerializeAsString());
}

/// The run must stop with exit 4 and one error line that names the file.
void require_corrupt(const std::vector<std::string>& args, const std::string& file_name, const std::string& label) {
  const ShellResult r = run_bounded(args);
  INFO(label << ": lance-cli " << fmt::format("{}", fmt::join(args, " ")) << "\n  exit " << r.exit_code
             << "\n  stderr: " << r.err);
  CHECK(r.exit_code == 4);
  CHECK(r.err.rfind("lance-cli: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find(file_name) != std::string::npos);
}

}  // namespace

TEST_CASE("every fixture scans under ulimit -v 1 GiB", "[memory][ulimit]") {
  if (sanitizer_build()) return;  // ASan's shadow memory needs terabytes of address space
  size_t runs = 0;
  for (const auto& e : fs::directory_iterator(source_path("data/fixtures"))) {
    if (e.path().extension() != ".lance") continue;
    const ShellResult r = run_bounded({"scan", e.path().string(), "-f", "null"});
    INFO(e.path().filename().string() << ": exit " << r.exit_code << ": " << r.err);
    CHECK(r.exit_code == 0);
    ++runs;
  }
  // Every version of every dataset (the directories holding a _versions/).
  for (const char* root : {"data/datasets", "data/writers"}) {
    for (auto it = fs::recursive_directory_iterator(source_path(root)); it != fs::recursive_directory_iterator();
         ++it) {
      if (!it->is_directory() || !fs::is_directory(it->path() / "_versions")) continue;
      it.disable_recursion_pending();
      const std::string ds = it->path().string();
      std::vector<uint64_t> versions;
      for (const auto& m : fs::directory_iterator(it->path() / "_versions")) {
        const std::string n = m.path().filename().string();
        if (m.path().extension() != ".manifest") continue;
        const uint64_t num = std::stoull(n.substr(0, n.size() - 9));
        versions.push_back(n.size() == 29 ? UINT64_MAX - num : num);
      }
      for (uint64_t v : versions) {
        const ShellResult r = run_bounded({"scan", ds, "--version", std::to_string(v), "-f", "null"});
        INFO(ds << " version " << v << ": exit " << r.exit_code << ": " << r.err);
        CHECK(r.exit_code == 0);
        ++runs;
      }
    }
  }
  INFO("runs: " << runs);
  CHECK(runs > 150);
}

TEST_CASE("a page that claims 2^40 rows is corrupt before anything is allocated", "[memory][ulimit]") {
  if (sanitizer_build()) return;
  // data/fixtures/ints-v2.1.lance: 1000 rows, every column one mini-block page. The file's
  // protobufs are rewritten (rewrite_file): descriptor length and page lengths, each in the
  // variants below, to 2^40 — a claim no 41 KiB file can back.
  const lance::Bytes original = read_bytes(source_path("data/fixtures/ints-v2.1.lance"));
  TempDir dir("membound");
  struct Variant {
    const char* name;
    bool descriptor;  ///< the file descriptor claims 2^40 rows too (pages and file agree)
    bool items;       ///< the mini-block layout claims 2^40 values too
  };
  for (const Variant& v : {Variant{"page-only", false, false}, Variant{"page-and-file", true, false},
                           Variant{"page-file-and-layout", true, true}}) {
    const lance::Bytes bytes = rewrite_file(
        original,
        [&](::lance::file::FileDescriptor& fd) {
          if (v.descriptor) fd.set_length(k2e40);
        },
        [&](uint32_t, ::lance::file::v2::ColumnMetadata& meta) {
          REQUIRE(meta.pages_size() == 1);
          meta.mutable_pages(0)->set_length(k2e40);
          if (v.items) set_miniblock_items(*meta.mutable_pages(0), k2e40);
        });
    const std::string name = fmt::format("rows-2e40-{}.lance", v.name);
    const fs::path p = dir.path() / name;
    write_file(p, bytes_text(bytes));
    require_corrupt({"scan", p.string(), "-f", "null"}, name, v.name);
    require_corrupt({"scan", p.string(), "-f", "jsonl", "-n", "5"}, name, v.name);
    require_corrupt({"take", p.string(), "--rows", fmt::format("0,{}", v.descriptor ? k2e40 - 1 : 999)}, name, v.name);
  }
  // Control: the same rewrite with the true row count reads.
  const lance::Bytes same = rewrite_file(
      original, [](auto&) {}, [](uint32_t, auto&) {});
  write_file(dir.path() / "same.lance", bytes_text(same));
  CHECK(run_bounded({"scan", (dir.path() / "same.lance").string(), "-f", "null"}).exit_code == 0);
}

TEST_CASE("a string that claims 2^40 bytes is corrupt before anything is allocated", "[memory][ulimit]") {
  if (sanitizer_build()) return;
  TempDir dir("membound");
  SECTION("2.0 Binary: an end offset of 2^40") {
    // data/fixtures/v20_strings-v2.0.lance column 0 (s_unique), page 0: Binary(indices:
    // Nullable(no_nulls) › Flat(64), bytes). Buffer 0 holds the u64 end offset of each string;
    // the first is set to 2^40 in place (same file size, same metadata).
    const std::string src = source_path("data/fixtures/v20_strings-v2.0.lance");
    auto file = lance::format::FileReader::open(src);
    lance::Bytes bytes = read_bytes(src);
    const uint64_t at = file->columns().at(0).pages.at(0).buffers.at(0).offset;
    std::memcpy(bytes.data() + at, &k2e40, 8);
    const fs::path p = dir.path() / "string-2e40-v2.0.lance";
    write_file(p, bytes_text(bytes));
    require_corrupt({"scan", p.string(), "-c", "s_unique", "-f", "null"}, p.filename().string(), "2.0 offset");
    require_corrupt({"take", p.string(), "-c", "s_unique", "--rows", "0"}, p.filename().string(), "2.0 offset");
  }
  SECTION("2.1 blob: a descriptor of 2^40 bytes") {
    // data/fixtures/enc_blob-v2.1.lance column 0: blob layout whose inner page is one
    // uncompressed mini-block chunk (4-byte header padded to 8, then 16-byte
    // {u64 position, u64 size} descriptors). Row 0's size is set to 2^40 in place.
    const std::string src = source_path("data/fixtures/enc_blob-v2.1.lance");
    auto file = lance::format::FileReader::open(src);
    const auto& page = file->columns().at(0).pages.at(0);
    REQUIRE(page.layout->has_blob_layout());
    lance::Bytes bytes = read_bytes(src);
    const uint64_t row0 = page.buffers.at(1).offset + 8;
    REQUIRE(lance::ByteView(bytes).read<uint64_t>(row0 + 8) > 0);
    std::memcpy(bytes.data() + row0 + 8, &k2e40, 8);
    const fs::path p = dir.path() / "blob-2e40-v2.1.lance";
    write_file(p, bytes_text(bytes));
    require_corrupt({"scan", p.string(), "-f", "null"}, p.filename().string(), "blob size");
    require_corrupt({"take", p.string(), "--rows", "0"}, p.filename().string(), "blob size");
  }
}
