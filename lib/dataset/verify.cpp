#include "dataset/verify.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "common/cancel.h"
#include "dataset/deletion.h"
#include "dataset/indices.h"
#include "dataset/manifest.h"
#include "dataset/manifest_file.h"
#include "dataset/table_reader.h"
#include "format/file_reader.h"
#include "io/object_store.h"
#include "io/remote/stores.h"
#include "io/remote/uri.h"
#include "read/row_reader.h"

namespace lance::dataset {

namespace {

/// Part of a top-level field that can be read alone: the field itself, or (2.1+ files) a
/// field reached through structs, with the columns that store it.
struct Selection {
  read::ColumnSelection sel;
  std::vector<uint32_t> columns;
};

bool is_plain_struct(const format::LanceField& f) {
  return f.arrow && f.arrow->type && f.arrow->type->id == TypeId::struct_ && !f.is_packed_struct() && !f.is_blob() &&
         !f.children.empty();
}

std::vector<Selection> selections_of(const format::FileReader& file, size_t field) {
  const format::LanceField& top = file.schema().fields.at(field);
  const std::vector<uint32_t>& cols = file.field_columns().at(field);
  if (!file.version().is_structural()) return {Selection{{field, {}, top.name}, cols}};
  std::vector<Selection> out;
  size_t leaf = 0;
  std::vector<size_t> path;
  std::function<void(const format::LanceField&, const std::string&)> walk = [&](const format::LanceField& f,
                                                                                const std::string& name) {
    if (is_plain_struct(f)) {
      for (size_t i = 0; i < f.children.size(); ++i) {
        path.push_back(i);
        walk(f.children[i], name + "." + f.children[i].name);
        path.pop_back();
      }
      return;
    }
    std::vector<const format::LanceField*> leaves;
    format::structural_leaves(f, leaves);
    Selection s{{field, path, name}, {}};
    for (size_t k = 0; k < leaves.size() && leaf + k < cols.size(); ++k) s.columns.push_back(cols[leaf + k]);
    leaf += leaves.size();
    out.push_back(std::move(s));
  };
  walk(top, top.name);
  return out;
}

/// First row and row count of each page of `column`, in top-level rows (2.0 pages count
/// their column's own entries, which are rows for a field's first column).
std::vector<std::pair<uint64_t, uint64_t>> page_rows(const format::FileReader& file, uint32_t column) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  uint64_t at = 0;
  for (const auto& p : file.columns().at(column).pages) {
    const uint64_t first = file.version().is_structural() ? p.priority : at;
    out.emplace_back(first, p.num_rows);
    at += p.num_rows;
  }
  return out;
}

std::string rows_text(uint64_t begin, uint64_t end) {
  return end <= begin       ? "no rows"
         : end == begin + 1 ? fmt::format("row {}", begin)
                            : fmt::format("rows {}-{}", begin, end - 1);
}

/// Decodes and checks the pages of one open data file, collecting problems.
class FileChecker {
 public:
  FileChecker(std::shared_ptr<format::FileReader> file, std::string rel, VerifyReport& report, const VerifyOptions& o,
              std::function<void(uint64_t)> on_rows)
      : file_(std::move(file)), rel_(std::move(rel)), report_(report), options_(o), on_rows_(std::move(on_rows)) {}

  void run() {
    const auto& fields = file_->schema().fields;
    std::vector<size_t> fast_fields;  // fields read together, decoded on the pool
    for (size_t f = 0; f < fields.size() && f < file_->field_columns().size(); ++f) {
      try {
        read::FileRowReader probe(file_, std::vector<size_t>{f}, options_.reader);
        fast_fields.push_back(f);
      } catch (const Error& e) {
        const auto& cols = file_->field_columns()[f];
        add(e, fields[f].name, cols.size() == 1 ? std::optional<uint32_t>(cols[0]) : std::nullopt, std::nullopt, "");
      }
    }
    const uint64_t n = file_->num_rows();
    std::unique_ptr<read::FileRowReader> fast;
    if (!fast_fields.empty()) fast = std::make_unique<read::FileRowReader>(file_, fast_fields, options_.reader);
    const uint64_t step = std::max<uint64_t>(1, options_.batch_rows);
    for (uint64_t a = 0; a < n; a += step) {
      check_cancelled();
      const uint64_t b = std::min(n, a + step);
      if (fast) {
        try {
          fast->finish(fast->start({{a, b}}));
        } catch (const Error& chunk_error) {
          // Which fields fail here: each is then checked page by page over the whole file,
          // once, and leaves the fast path; the others go on together.
          std::vector<size_t> broken, still;
          for (size_t f : fast_fields) {
            bool ok = true;
            for (const Selection& s : selections_of(*file_, f)) ok = ok && !try_read(s, a, b);
            (ok ? still : broken).push_back(f);
          }
          if (broken.empty()) add(chunk_error, "", std::nullopt, std::nullopt, rows_text(a, b));
          for (size_t f : broken) check_field_pages(f);
          fast_fields = broken.empty() ? fast_fields : still;
          fast = fast_fields.empty() ? nullptr
                                     : std::make_unique<read::FileRowReader>(file_, fast_fields, options_.reader);
        }
      }
      on_rows_(b - a);
    }
  }

 private:
  /// Reads rows [a, b) of one selection alone; the error, if any.
  std::optional<Error> try_read(const Selection& s, uint64_t a, uint64_t b) {
    try {
      read::FileRowReader rd(file_, std::vector<read::ColumnSelection>{s.sel}, options_.reader);
      rd.finish(rd.start({{a, b}}));
      return std::nullopt;
    } catch (const Error& e) {
      return e;
    }
  }

  /// Every page of field `f`, one at a time: a problem for each that does not decode.
  /// With several columns (structs reached through lists; 2.0 lists) the page boundaries of
  /// all of them cut the rows further (2.1+), and a problem names the first column's page.
  void check_field_pages(size_t f) {
    const uint64_t n = file_->num_rows();
    const bool structural = file_->version().is_structural();
    for (const Selection& s : selections_of(*file_, f)) {
      if (s.columns.empty()) {
        if (auto e = try_read(s, 0, n)) add(*e, s.sel.name, std::nullopt, std::nullopt, rows_text(0, n));
        continue;
      }
      const auto pages = page_rows(*file_, s.columns[0]);
      std::set<uint64_t> cuts{0, n};
      for (size_t k = 0; k < s.columns.size() && (k == 0 || structural); ++k)
        for (const auto& [first, count] : page_rows(*file_, s.columns[k])) {
          if (first < n) cuts.insert(first);
          if (first + count < n) cuts.insert(first + count);
        }
      bool found = false;
      for (auto it = cuts.begin(); std::next(it) != cuts.end(); ++it) {
        check_cancelled();
        const uint64_t lo = *it, hi = *std::next(it);
        auto e = try_read(s, lo, hi);
        if (!e) continue;
        found = true;
        std::optional<uint64_t> page;
        uint64_t pb = lo, pe = hi;
        for (size_t p = 0; p < pages.size(); ++p)
          if (pages[p].first <= lo && lo < pages[p].first + pages[p].second) {
            page = p;
            pb = pages[p].first;
            pe = pages[p].first + pages[p].second;
            break;
          }
        add(*e, s.sel.name, s.columns[0], page, rows_text(pb, pe));
      }
      // Failed over a range but no page alone: report the field as a whole.
      if (!found)
        if (auto e = try_read(s, 0, n)) add(*e, s.sel.name, s.columns[0], std::nullopt, rows_text(0, n));
    }
  }

  void add(const Error& e, const std::string& column, std::optional<uint32_t> column_index,
           std::optional<uint64_t> page, const std::string& rows) {
    const std::string key = fmt::format("{}|{}|{}", column, page ? std::to_string(*page) : "-", page ? "" : rows);
    if (!seen_.insert(key).second) return;
    // The problem names the file, column and page: drop them from the error's context.
    std::string msg = e.what();
    auto drop = [&](const std::string& prefix) {
      if (msg.compare(0, prefix.size(), prefix) == 0) msg = msg.substr(prefix.size());
    };
    drop(file_->path() + ": ");
    if (column_index && msg.rfind(fmt::format("column {} (", *column_index), 0) == 0 &&
        msg.find("): ") != std::string::npos)
      msg = msg.substr(msg.find("): ") + 3);
    if (page) drop(fmt::format("page {}: ", *page));
    report_.problems.push_back({e.kind(), rel_, column, column_index, page, rows, msg});
  }

  std::shared_ptr<format::FileReader> file_;
  std::string rel_;
  VerifyReport& report_;
  const VerifyOptions& options_;
  std::function<void(uint64_t)> on_rows_;
  std::set<std::string> seen_;
};

void add_problem(VerifyReport& r, ErrorKind kind, std::string file, std::string error) {
  r.problems.push_back({kind, std::move(file), "", std::nullopt, std::nullopt, "", std::move(error)});
}

/// An Error's message without a leading "<path>: " (the problem names the file already).
std::string strip_path(const Error& e, const std::string& path) {
  std::string msg = e.what();
  const std::string prefix = path + ": ";
  return msg.compare(0, prefix.size(), prefix) == 0 ? msg.substr(prefix.size()) : msg;
}

uint64_t count_pages(const format::FileReader& f) {
  uint64_t n = 0;
  for (const auto& c : f.columns()) n += c.pages.size();
  return n;
}

struct ToScan {
  std::shared_ptr<format::FileReader> file;
  std::string rel;
};

/// Scans every file of `files`, with progress.
void scan_all(const std::vector<ToScan>& files, VerifyReport& r, const VerifyOptions& o) {
  uint64_t total = 0;
  for (const auto& f : files) total += f.file->num_rows();
  if (o.start) o.start(total);
  uint64_t rows = 0, bytes_done = 0;
  for (const auto& f : files) {
    const uint64_t file_rows = f.file->num_rows(), size = f.file->file_size();
    uint64_t in_file = 0;
    FileChecker checker(f.file, f.rel, r, o, [&](uint64_t n) {
      rows += n;
      in_file += n;
      r.rows += n;
      if (o.progress)
        o.progress(
            rows,
            bytes_done + (file_rows ? static_cast<uint64_t>(static_cast<long double>(size) * in_file / file_rows) : 0));
    });
    checker.run();
    bytes_done += size;
  }
}

VerifyReport verify_file(const std::string& path, const io::ObjectStore& store, const VerifyOptions& o) {
  VerifyReport r;
  const std::string shown = io::display_location(path);  // a presigned URL's signature stays out
  r.path = shown;
  r.data_files = 1;
  std::shared_ptr<format::FileReader> file;
  try {
    file = format::FileReader::open(store.open(path), store.tune(o.reader.io), o.reader.stats);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::io) {
      bool gone = false;
      try {
        gone = !store.size_of(path);
      } catch (const Error&) {  // e.g. a presigned GET URL refuses HEAD: keep the first error
        throw e;
      }
      if (gone) throw;  // nothing to verify
    }
    add_problem(r, e.kind(), shown, strip_path(e, shown));
    return r;
  }
  r.pages = count_pages(*file);
  r.bytes = file->file_size();
  scan_all({{file, shown}}, r, o);
  return r;
}

VerifyReport verify_dataset(const std::string& dir, const io::ObjectStore& store, std::optional<uint64_t> version,
                            const VerifyOptions& o) {
  VerifyReport r;
  r.path = dir;
  r.is_dataset = true;
  const ManifestLocation loc = find_manifest(dir, version, store);
  const Manifest m = read_manifest(loc.path, store);
  r.version = m.version;
  std::vector<ToScan> scan;
  for (const Fragment& frag : m.fragments) {
    uint64_t file_rows = frag.physical_rows;
    for (const DataFileRef& df : frag.files) {
      ++r.data_files;
      const std::string rel = io::join_path("data", df.path);
      const std::string full = io::join_path(dir, rel);
      const std::optional<uint64_t> found = store.size_of(full);
      if (!found) {
        add_problem(r, ErrorKind::io, rel, fmt::format("missing (a data file of fragment {})", frag.id));
        continue;
      }
      const uint64_t size = *found;
      if (df.size_bytes != 0 && size != df.size_bytes)
        add_problem(r, ErrorKind::corrupt, rel,
                    fmt::format("file has {} bytes, the manifest records {}{}", size, df.size_bytes,
                                size < df.size_bytes ? " (truncated?)" : ""));
      try {
        auto file = format::FileReader::open(store.open(full), store.tune(o.reader.io), o.reader.stats);
        if (frag.physical_rows != 0 && file->num_rows() != frag.physical_rows)
          add_problem(
              r, ErrorKind::corrupt, rel,
              fmt::format("file has {} rows, fragment {} has {}", file->num_rows(), frag.id, frag.physical_rows));
        if (file_rows == 0) file_rows = file->num_rows();
        r.pages += count_pages(*file);
        r.bytes += file->file_size();
        scan.push_back({file, rel});
      } catch (const Error& e) {
        add_problem(r, e.kind(), rel, strip_path(e, full));
      }
    }
    if (frag.deletion) {
      ++r.deletion_files;
      const std::string rel = frag.deletion->relative_path(frag.id);
      const std::string full = io::join_path(dir, rel);
      if (!store.size_of(full)) {
        add_problem(r, ErrorKind::io, rel, fmt::format("missing (the deletion file of fragment {})", frag.id));
      } else {
        try {
          Fragment f = frag;
          f.physical_rows = file_rows;
          if (file_rows == 0) throw_corrupt("fragment {} has a deletion file but no known row count", frag.id);
          read_deletion_file(dir, f, store);
        } catch (const Error& e) {
          add_problem(r, e.kind(), rel, strip_path(e, full));
        }
      }
    }
  }
  // Index files: as listed by the manifest (older writers list none: the folder must exist).
  const std::string manifest_rel = io::join_path(std::string(kVersionsDir), loc.path.substr(loc.path.rfind('/') + 1));
  try {
    for (const IndexInfo& ix : parse_indices(read_manifest_file(loc.path, store))) {
      const std::string rel_dir = io::join_path(std::string(kIndicesDir), ix.uuid);
      if (ix.has_base_id) continue;  // files under another base path
      if (ix.files.empty()) {
        ++r.index_files;
        bool any = false;
        try {
          const auto entries = store.list(io::join_path(dir, rel_dir));
          any = std::any_of(entries.begin(), entries.end(), [](const io::ListEntry& e) { return !e.is_dir; });
        } catch (const Error&) {  // no such directory
        }
        if (!any) add_problem(r, ErrorKind::io, rel_dir, fmt::format("missing (the files of index '{}')", ix.name));
        continue;
      }
      for (const IndexFileInfo& f : ix.files) {
        ++r.index_files;
        const std::string rel = io::join_path(rel_dir, f.path);
        const std::optional<uint64_t> found = store.size_of(io::join_path(dir, rel));
        if (!found) {
          add_problem(r, ErrorKind::io, rel, fmt::format("missing (a file of index '{}')", ix.name));
          continue;
        }
        const uint64_t size = *found;
        if (size != f.size_bytes)
          add_problem(
              r, ErrorKind::corrupt, rel,
              fmt::format("file has {} bytes, the manifest records {} (index '{}')", size, f.size_bytes, ix.name));
      }
    }
  } catch (const Error& e) {
    add_problem(r, e.kind(), manifest_rel, std::string("index section: ") + strip_path(e, loc.path));
  }
  scan_all(scan, r, o);
  return r;
}

}  // namespace

VerifyReport verify_path(const std::string& path, std::optional<uint64_t> version, const VerifyOptions& options) {
  const auto store = io::store_for(path, options.reader.storage, options.reader.stats);
  if (is_dataset_dir(path, *store)) return verify_dataset(path, *store, version, options);
  check_data_file_path(path, *store);
  if (version) throw_usage("--version applies to dataset directories, not to the data file {}", path);
  return verify_file(path, *store, options);
}

int verify_exit_code(const VerifyReport& r) {
  bool io = false, unsupported = false;
  for (const auto& p : r.problems) {
    if (p.kind == ErrorKind::corrupt) return 4;
    if (p.kind == ErrorKind::unsupported)
      unsupported = true;
    else
      io = true;
  }
  return io ? 1 : unsupported ? 3 : 0;
}

std::string format_problem(const VerifyProblem& p) {
  std::string s = p.file;
  if (!p.column.empty()) {
    s += fmt::format(": column '{}'", p.column);
    if (p.column_index) s += fmt::format(" (column {})", *p.column_index);
  }
  if (p.page) s += fmt::format(", page {}", *p.page);
  if (!p.rows.empty()) s += (p.page ? ", " : p.column.empty() ? ": " : ", ") + p.rows;
  return s + ": " + p.error;
}

}  // namespace lance::dataset
