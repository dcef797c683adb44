#include "dataset/dataset.h"

#include <algorithm>
#include <future>
#include <mutex>
#include <span>

#include <spdlog/spdlog.h>

#include "array/take.h"
#include "common/cancel.h"
#include "common/finally.h"
#include "dataset/missing_file.h"
#include "dataset/read_cost.h"
#include "dataset/schema_adapt.h"
#include "encoding/general.h"
#include "io/remote/stores.h"
#include "io/remote/uri.h"
#include "read/read_ahead.h"
#include "read/row_reader.h"
#include "read/scan_pipeline.h"
#include "structural/assemble.h"

namespace lance::dataset {

namespace {

/// Fragments whose readers stay open at once (each open data file holds an I/O pool).
constexpr size_t kOpenFragments = 2;

/// Of the page bytes of `file`'s `fields`, those of columns whose full-zip pages hold values
/// compressed one by one (General: zstd or lz4 per value, Lance's
/// FullZipLayout.value_compression) and come to enough bytes in a batch of `batch_rows` rows
/// to split: their decompression splits across the CPU pool by itself
/// (encoding::kFanOutMinBytes), whichever thread decodes the batch. Columns of a smaller share
/// (a wide table of many short zstd columns) decode on one thread each.
double per_value_compressed_bytes(const format::FileReader& file, const std::vector<size_t>& fields,
                                  uint64_t batch_rows) {
  if (file.num_rows() == 0) return 0;
  double bytes = 0;
  for (const format::ColumnInfo* col : file.columns_of(fields)) {
    double column = 0;
    for (const auto& page : col->pages) {
      const auto* values = page.full_zip_values();
      if (values && values->has_general()) column += static_cast<double>(page.bytes());
    }
    const double per_batch = column / static_cast<double>(file.num_rows()) * static_cast<double>(batch_rows);
    if (per_batch >= 2.0 * static_cast<double>(encoding::kFanOutMinBytes)) bytes += column;
  }
  return bytes;
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// Dataset

/// The data files a dataset keeps open, most recently opened last.
struct Dataset::OpenFiles {
  std::mutex mutex;
  std::vector<std::pair<std::string, std::shared_ptr<format::FileReader>>> recent;
};

std::shared_ptr<const Dataset> Dataset::open(const std::string& dir, std::optional<uint64_t> version,
                                             read::ReaderOptions options) {
  auto ds = std::shared_ptr<Dataset>(new Dataset());
  ds->dir_ = dir;
  ds->open_files_ = std::make_shared<OpenFiles>();
  if (!options.stats) options.stats = std::make_shared<ReadStats>();
  ds->store_ = io::store_for(dir, options.storage, options.stats);
  options.io = ds->store_->tune(options.io);
  // Behind a network, more batches in flight hide the round trips (memory stays bounded by
  // batches x batch size x columns).
  options.scan_batches_in_flight = read::batches_in_flight(ds->store_->network_model(), options.scan_batches_in_flight);
  ds->options_ = std::move(options);
  ManifestLocation where;
  ds->manifest_ = read_version_manifest(dir, *ds->store_, version, where);
  check_corrupt(ds->manifest_.version == where.version, "{}: manifest says version {} but its name says {}", where.path,
                ds->manifest_.version, where.version);
  ds->options_.stats->dataset_version = ds->manifest_.version;  // --stats reports the version read
  auto& frags = ds->manifest_.fragments;
  ds->live_rows_.reserve(frags.size());
  for (size_t i = 0; i < frags.size(); ++i) {
    Fragment& f = frags[i];
    if (f.physical_rows == 0 && !f.files.empty()) {
      // Old writers left the row count unset (0 = unknown): the data file knows it.
      f.physical_rows = ds->open_data_file(f.files[0])->num_rows();
    }
    check_corrupt(f.physical_rows <= kMaxFragmentRows, "{}: fragment {} claims {} rows (more than 2^32)", where.path,
                  f.id, f.physical_rows);
    uint64_t deleted = 0;
    if (f.deletion) {
      // 8.0 records the count; older writers may leave it 0 (unknown): then read the file.
      deleted = f.deletion->num_deleted_rows != 0 ? f.deletion->num_deleted_rows : ds->deletion_vector(i).num_deleted();
    }
    check_corrupt(deleted <= f.physical_rows, "{}: fragment {} has {} deleted rows but only {} rows", where.path, f.id,
                  deleted, f.physical_rows);
    ds->live_rows_.push_back(f.physical_rows - deleted);
    ds->num_rows_ += f.physical_rows - deleted;
  }
  spdlog::debug("{}: version {} ({} naming), {} fragments, {} rows", dir, ds->manifest_.version,
                where.naming == ManifestNaming::v2 ? "v2" : "v1", frags.size(), ds->num_rows_);
  return ds;
}

void open_data_files_ahead(const io::ObjectStore& store, const std::string& dir, const ReadAheadHint& hint) {
  const io::NetworkModel model = store.network_model();
  if (!model.remote) return;
  try {
    const std::string data_dir = io::join_path(dir, "data");
    const auto entries = store.list_if_at_most(data_dir, read::kSpeculativeOpens);
    if (!entries) return;
    const auto opens = read::data_files_to_open(model, data_dir, *entries, hint);
    if (!opens.empty()) store.prefetch(opens, {});
  } catch (const Error& e) {
    spdlog::debug("{}: data files not opened ahead: {}", dir, e.what());
  }
}

std::string Dataset::data_file_path(const DataFileRef& file) const {
  return io::join_path(io::join_path(dir_, "data"), file.path);
}

std::shared_ptr<format::FileReader> Dataset::open_data_file(const DataFileRef& file) const {
  const std::string path = data_file_path(file);
  {
    std::lock_guard lock(open_files_->mutex);
    for (const auto& [p, reader] : open_files_->recent)
      if (p == path) return reader;
  }
  auto reader = open_new_data_file(file, path);
  std::lock_guard lock(open_files_->mutex);
  auto& recent = open_files_->recent;
  if (recent.size() >= kOpenFilesKept) recent.erase(recent.begin());
  recent.emplace_back(path, reader);
  return reader;
}

std::shared_ptr<format::FileReader> Dataset::open_new_data_file(const DataFileRef& file,
                                                                const std::string& path) const {
  return with_missing_file_hint(dir_, path, *store_, version(), "data file", [&] {
    auto opened = store_->open(path);
    try {
      return format::FileReader::open(opened, options_.io, options_.stats);
    } catch (const Error& e) {
      // A file whose size differs from the manifest's record was cut short or overwritten:
      // say so, next to whatever its bytes made the reader stop at.
      if (e.kind() != ErrorKind::corrupt || file.size_bytes == 0 || opened->size() == file.size_bytes) throw;
      Error more(ErrorKind::corrupt,
                 fmt::format("{} (the file has {} bytes, the manifest records {}{})", e.detail(), opened->size(),
                             file.size_bytes, opened->size() < file.size_bytes ? ": truncated?" : ""));
      if (!e.context().empty()) more.with_context(e.context());
      throw more;
    }
  });
}

DeletionVector Dataset::deletion_vector(size_t index) const {
  const Fragment& f = manifest_.fragments.at(index);
  if (!f.deletion) return {};
  return with_missing_file_hint(dir_, io::join_path(dir_, f.deletion->relative_path(f.id)), *store_, version(),
                                "deletion file", [&] { return read_deletion_file(dir_, f, *store_); });
}

// ---------------------------------------------------------------------------------------------
// DatasetRowReader

/// The open data files of one fragment and where each projected column comes from.
struct DatasetRowReader::FragmentState {
  size_t index = 0;
  DeletionVector deletions;
  struct Source {
    const format::LanceField* stored = nullptr;  ///< the field as the data file stores it
    size_t reader = 0;                           ///< index into `readers`
    size_t column = 0;                           ///< column of that reader's batches
  };
  std::vector<std::optional<Source>> sources;              ///< per projected column; empty = all nulls
  std::vector<std::shared_ptr<format::FileReader>> files;  ///< per data file, open if needed
  std::vector<read::FileRowReader> readers;                ///< one per data file in use
  std::vector<std::vector<size_t>> file_fields;            ///< per data file: its schema's field indices read
  bool announced = false;                                  ///< a scan told the files what it will read
};

/// Reads submitted for one chunk of one fragment.
struct DatasetRowReader::PendingChunk {
  std::shared_ptr<FragmentState> state;  // keeps the readers alive while reads are in flight
  std::vector<std::unique_ptr<read::FileRowReader::PendingBatch>> parts;  // per reader
  uint64_t num_rows = 0;
};

DatasetRowReader::DatasetRowReader(std::shared_ptr<const Dataset> dataset, std::vector<size_t> fields,
                                   bool keep_dictionaries)
    : dataset_(std::move(dataset)), field_indices_(std::move(fields)), keep_dictionaries_(keep_dictionaries) {
  for (size_t fi : field_indices_) fields_.push_back(structural::output_field(dataset_->schema().fields.at(fi).arrow));
  starts_.reserve(dataset_->live_rows().size() + 1);
  uint64_t at = 0;
  for (uint64_t n : dataset_->live_rows()) {
    starts_.push_back(at);
    at += n;
  }
  starts_.push_back(at);
}

DatasetRowReader::~DatasetRowReader() = default;

void DatasetRowReader::prefetch_fragments(const std::vector<size_t>& frags,
                                          const std::function<uint64_t(size_t, uint64_t, uint64_t)>& needed) {
  const io::ObjectStore& store = dataset_->store();
  const io::NetworkModel model = store.network_model();
  if (!model.remote) return;
  prefetched_.resize(dataset_->fragments().size(), false);
  std::vector<int32_t> ids;
  for (size_t fi : field_indices_) collect_field_ids(dataset_->schema().fields.at(fi), ids);
  std::vector<io::ObjectStore::OpenAhead> opens;
  std::vector<std::string> reads;
  bool whole = false;
  for (size_t k = 0; k < frags.size(); ++k) {
    const size_t f = frags[k];
    if (f >= prefetched_.size() || prefetched_[f]) continue;
    prefetched_[f] = true;
    if (std::any_of(open_.begin(), open_.end(), [&](const auto& st) { return st->index == f; })) continue;
    const Fragment& frag = dataset_->fragments()[f];
    for (const auto& file : frag.files) {
      if (std::none_of(ids.begin(), ids.end(), [&](int32_t id) { return file.holds_field(id); })) continue;
      io::ObjectStore::OpenAhead open{dataset_->data_file_path(file), 0};
      // The manifest records the file's size (0: unknown). When the read needs (nearly) every
      // byte of it anyway, one GET of the whole file replaces tail + metadata + data rounds.
      const uint64_t size = file.size_bytes;
      const double share = projected_share(dataset_->schema(), field_indices_, file);
      const auto need = static_cast<uint64_t>(static_cast<double>(needed(k, size, model.coalesce_gap)) * share);
      open.tail_bytes = read::open_tail_bytes(model, size, need);
      whole = whole || open.tail_bytes != 0;
      opens.push_back(std::move(open));
    }
    if (frag.deletion) reads.push_back(io::join_path(dataset_->path(), frag.deletion->relative_path(frag.id)));
  }
  if (read::worth_prefetch(model, opens.size(), reads.size(), whole)) store.prefetch(opens, reads);
}

size_t DatasetRowReader::fragment_of(uint64_t row) const {
  // The last fragment starting at or before `row`: empty fragments share their start with
  // the next one, so this is the one that holds the row.
  auto it = std::upper_bound(starts_.begin(), starts_.end() - 1, row);
  return static_cast<size_t>(it - starts_.begin()) - 1;
}

std::unique_ptr<TableReader> DatasetRowReader::with_columns(const std::vector<std::string>& columns) const {
  return projected(columns, false);
}

std::unique_ptr<TableReader> DatasetRowReader::with_columns_keeping_dictionaries(
    const std::vector<std::string>& columns) const {
  return projected(columns, true);
}

std::unique_ptr<TableReader> DatasetRowReader::projected(const std::vector<std::string>& columns,
                                                         bool keep_dictionaries) const {
  auto fields = with_context([&] { return io::display_location(dataset_->path()); },
                             [&] { return read::resolve_projection(dataset_->schema(), columns); });
  return std::make_unique<DatasetRowReader>(dataset_, std::move(fields), keep_dictionaries);
}

std::shared_ptr<DatasetRowReader::FragmentState> DatasetRowReader::open_fragment(size_t index) {
  const Fragment& frag = dataset_->fragments().at(index);
  auto st = std::make_shared<FragmentState>();
  st->index = index;
  st->deletions = dataset_->deletion_vector(index);
  st->files.resize(frag.files.size());
  // Which data file holds each projected column: the one listing an id of its subtree
  // (2.1+ files list leaf ids only; 2.0 files list every id).
  std::vector<std::vector<size_t>> file_fields(frag.files.size());  // per data file: its schema's field indices
  std::vector<std::vector<size_t>> file_slots(frag.files.size());   // per data file: the projected columns
  std::vector<const format::LanceField*> stored(field_indices_.size(), nullptr);
  for (size_t k = 0; k < field_indices_.size(); ++k) {
    const format::LanceField& field = dataset_->schema().fields.at(field_indices_[k]);
    std::vector<int32_t> ids;
    collect_field_ids(field, ids);
    std::optional<size_t> holder;
    for (size_t d = 0; d < frag.files.size(); ++d) {
      if (std::none_of(ids.begin(), ids.end(), [&](int32_t id) { return frag.files[d].holds_field(id); })) continue;
      if (holder)
        throw_unsupported("column '{}' is split across data files '{}' and '{}'", field.name, frag.files[*holder].path,
                          frag.files[d].path);
      holder = d;
    }
    if (!holder) continue;  // the column was added after this fragment was written: nulls
    const size_t d = *holder;
    if (!st->files[d]) {
      auto file = dataset_->open_data_file(frag.files[d]);
      if (file->num_rows() != frag.physical_rows)
        throw Error(ErrorKind::corrupt, fmt::format("{}: data file has {} rows but the fragment has {}", file->path(),
                                                    file->num_rows(), frag.physical_rows));
      st->files[d] = std::move(file);
    }
    const auto& fields_in_file = st->files[d]->schema().fields;
    auto it = std::find_if(fields_in_file.begin(), fields_in_file.end(),
                           [&](const format::LanceField& f) { return f.id == field.id; });
    if (it == fields_in_file.end())
      throw Error(ErrorKind::corrupt,
                  fmt::format("{}: listed for column '{}' (field id {}), but its schema has no such field",
                              st->files[d]->path(), field.name, field.id));
    file_fields[d].push_back(static_cast<size_t>(it - fields_in_file.begin()));
    file_slots[d].push_back(k);
    stored[k] = &*it;
  }
  st->sources.resize(field_indices_.size());
  st->file_fields = file_fields;
  for (size_t d = 0; d < frag.files.size(); ++d) {
    if (file_fields[d].empty()) continue;
    const size_t r = st->readers.size();
    read::ReaderOptions options = dataset_->reader_options();
    options.keep_dictionaries = keep_dictionaries_;
    st->readers.emplace_back(st->files[d], file_fields[d], options);
    for (size_t c = 0; c < file_slots[d].size(); ++c)
      st->sources[file_slots[d][c]] = FragmentState::Source{stored[file_slots[d][c]], r, c};
  }
  return st;
}

std::shared_ptr<DatasetRowReader::FragmentState> DatasetRowReader::fragment_state(size_t index) {
  for (auto it = open_.begin(); it != open_.end(); ++it) {
    if ((*it)->index != index) continue;
    auto st = *it;
    open_.erase(it);
    open_.push_front(st);
    return st;
  }
  auto st =
      with_context([&] { return fmt::format("{}: fragment {}", dataset_->path(), dataset_->fragments().at(index).id); },
                   [&] { return open_fragment(index); });
  open_.push_front(st);
  while (open_.size() > kOpenFragments) open_.pop_back();
  return st;
}

RecordBatch DatasetRowReader::assemble(const FragmentState& st, std::vector<RecordBatch> parts,
                                       uint64_t num_rows) const {
  const auto& schema_fields = dataset_->schema().fields;
  RecordBatch out;
  out.fields = fields_;
  out.num_rows = static_cast<int64_t>(num_rows);
  for (size_t k = 0; k < field_indices_.size(); ++k) {
    if (!st.sources[k]) {
      out.columns.push_back(make_null_array(fields_[k]->type, static_cast<int64_t>(num_rows)));
      continue;
    }
    const auto& src = *st.sources[k];
    out.columns.push_back(adapt_to_table_field(parts.at(src.reader).columns.at(src.column), *src.stored,
                                               schema_fields[field_indices_[k]], fields_[k]));
  }
  return out;
}

std::unique_ptr<DatasetRowReader::PendingChunk> DatasetRowReader::start_chunk(std::shared_ptr<FragmentState> state,
                                                                              uint64_t begin, uint64_t end,
                                                                              read::DecodeMode mode) {
  auto pending = std::make_unique<PendingChunk>();
  pending->state = std::move(state);
  pending->num_rows = end - begin;
  const FragmentState& st = *pending->state;
  if (st.readers.empty()) return pending;
  // Physical rows to read: the surviving runs (deleted rows are never decoded).
  std::vector<structural::RowRange> ranges;
  if (st.deletions.empty()) {
    ranges.push_back({begin, end});
  } else {
    const uint64_t first = st.deletions.physical_row(begin);
    const uint64_t last = st.deletions.physical_row(end - 1) + 1;
    for (const auto& [a, b] : st.deletions.live_runs(first, last)) ranges.push_back({a, b});
  }
  for (auto& r : pending->state->readers) pending->parts.push_back(r.start(ranges, mode));
  return pending;
}

RecordBatch DatasetRowReader::finish_chunk(std::unique_ptr<PendingChunk> pending) {
  FragmentState& st = *pending->state;
  std::vector<RecordBatch> parts;
  parts.reserve(st.readers.size());
  for (size_t r = 0; r < st.readers.size(); ++r) parts.push_back(st.readers[r].finish(std::move(pending->parts[r])));
  return assemble(st, std::move(parts), pending->num_rows);
}

void DatasetRowReader::scan_batches(uint64_t begin, uint64_t end, uint64_t batch_size,
                                    const std::function<void(RecordBatch)>& sink) {
  // Chunks: at most batch_size visible rows, never crossing a fragment. Fragments before
  // `begin` are skipped by their row counts alone: none of their files is opened.
  size_t frag = fragment_of(begin);
  uint64_t row = begin;
  // Chunks are planned, read and decoded on the CPU pool, several at once (chunks of
  // different fragments side by side), while `sink` handles the oldest one here.
  const auto& opts = dataset_->reader_options();
  const io::NetworkModel model = dataset_->store().network_model();
  size_t depth = opts.scan_batches_in_flight;
  if (depth == 0 && frag < dataset_->fragments().size()) {
    // Batches cut short by the byte budget (large rows): as many times more of them in flight,
    // so that as many rows are, and batches of the next fragment (another chain, run side by
    // side) start while this one's run one after another.
    const uint64_t whole = std::min(batch_size, starts_[frag + 1] - starts_[frag]);
    const uint64_t cut = scan_batch_rows(batch_size, bytes_per_row(frag), opts.scan_batch_bytes);
    depth = read::default_scan_depth() * static_cast<size_t>(std::clamp<uint64_t>((whole + cut - 1) / cut, 1, 8));
  }
  // A small local scan (its projected bytes known and few) decodes here, inline. The bytes:
  // the first fragment's projected page buffers (its files opened here, as the scan's first
  // batch would), per visible row, times the scan's rows.
  const bool local = !read::overlap_fragments(model);
  double scan_bytes = 0;
  bool mostly_per_value = false;  // most of the first fragment's bytes: per-value compressed pages
  if (local && !opts.decode_mode && frag < dataset_->fragments().size() && starts_[frag] < end) {
    const auto first = fragment_state(frag);
    const uint64_t batch_rows = scan_batch_rows(batch_size, bytes_per_row(frag), opts.scan_batch_bytes);
    double bytes = 0, per_value = 0;
    for (size_t d = 0; d < first->files.size(); ++d) {
      if (!first->files[d]) continue;
      const format::FileReader& fr = *first->files[d];
      for (const auto& r : read::scan_page_buffers(fr, first->file_fields[d], 0, fr.num_rows()))
        bytes += static_cast<double>(r.length);
      per_value += per_value_compressed_bytes(fr, first->file_fields[d], batch_rows);
    }
    const uint64_t visible = starts_[frag + 1] - starts_[frag];
    if (visible > 0 && bytes > 0) scan_bytes = bytes / static_cast<double>(visible) * static_cast<double>(end - begin);
    mostly_per_value = bytes > 0 && 2 * per_value >= bytes;
  }
  // Batches run one after another, on this thread, when they form one chain (one fragment), or
  // when most of their work is per-value decompression, which splits across the pool anyway:
  // the 1.1 M long texts in 6 fragments scan in 4.7 s so, 5.5-6.0 s with fragments side by side
  // on the pool (docs/performance.md, growth).
  const bool in_order = (begin < end && fragment_of(begin) == fragment_of(end - 1)) || mostly_per_value;
  const read::DecodeMode mode = read::scan_decode_mode(opts.decode_mode, local, scan_bytes, in_order);
  read::ScanPipeline pipe(mode, depth, read::chain_threads(model));
  auto add_chunk = [&]() -> bool {
    while (row < end && row >= starts_[frag + 1]) ++frag;  // skips empty fragments
    if (row >= end) return false;
    {
      std::vector<size_t> ahead;  // this fragment and the next few that hold rows of the scan
      std::vector<double> share;  // of each, the share of its rows the scan reads
      for (size_t f = frag;
           f < dataset_->fragments().size() && starts_[f] < end && ahead.size() < read::kPrefetchFragments; ++f) {
        if (starts_[f + 1] <= starts_[f]) continue;
        ahead.push_back(f);
        const uint64_t lo = std::max(begin, starts_[f]), hi = std::min(end, starts_[f + 1]);
        share.push_back(lo == starts_[f] && hi == starts_[f + 1]
                            ? 1.0
                            : static_cast<double>(hi - lo) / static_cast<double>(starts_[f + 1] - starts_[f]));
      }
      prefetch_fragments(ahead, [&](size_t k, uint64_t size, uint64_t) {
        return share[k] >= 1.0 ? size : static_cast<uint64_t>(static_cast<double>(size) * share[k]);
      });
    }
    const uint64_t lo = row - starts_[frag];
    const uint64_t hi = std::min(end, starts_[frag + 1]) - starts_[frag];
    const uint64_t rows = scan_batch_rows(batch_size, bytes_per_row(frag), opts.scan_batch_bytes);
    const uint64_t chunk_end = std::min(hi, lo + rows);
    row = starts_[frag] + chunk_end;
    auto state = fragment_state(frag);  // here: opens the fragment's files when new
    if (!state->announced && read::announce_page_buffers(model)) {
      // Remote files fetch the page buffers the scan reads whole, ahead of the reads
      // (io::RandomAccessFile::will_read; which ones: read::scan_page_buffers).
      state->announced = true;
      const uint64_t lo_live = std::max(begin, starts_[frag]) - starts_[frag];
      const uint64_t hi_live = std::min(end, starts_[frag + 1]) - starts_[frag];
      const uint64_t first_row = state->deletions.empty() ? lo_live : state->deletions.physical_row(lo_live);
      const uint64_t last_row = state->deletions.empty() ? hi_live : state->deletions.physical_row(hi_live - 1) + 1;
      for (size_t d = 0; d < state->files.size(); ++d) {
        if (!state->files[d]) continue;
        const format::FileReader& fr = *state->files[d];
        fr.io().file().will_read(read::scan_page_buffers(fr, state->file_fields[d], first_row, last_row));
      }
    }
    pipe.add(frag, [this, state = std::move(state), lo, chunk_end, mode]() -> read::ScanPipeline::Finish {
      auto pending = std::make_shared<std::unique_ptr<PendingChunk>>(start_chunk(state, lo, chunk_end, mode));
      return [this, pending] { return finish_chunk(std::move(*pending)); };
    });
    return true;
  };
  bool more = true;
  for (;;) {
    while (more && !pipe.full()) more = add_chunk();
    if (pipe.empty()) break;
    sink(pipe.next());
  }
}

RecordBatch DatasetRowReader::take_from_fragment(size_t index, const std::vector<uint64_t>& rows) {
  return take_from_state(fragment_state(index), rows);
}

RecordBatch DatasetRowReader::take_from_state(const std::shared_ptr<FragmentState>& st,
                                              const std::vector<uint64_t>& rows) const {
  std::vector<uint64_t> physical;
  physical.reserve(rows.size());
  for (uint64_t r : rows) physical.push_back(st->deletions.empty() ? r : st->deletions.physical_row(r));
  std::vector<RecordBatch> parts;
  parts.reserve(st->readers.size());
  for (auto& r : st->readers) parts.push_back(r.take(physical));
  return assemble(*st, std::move(parts), rows.size());
}

double DatasetRowReader::bytes_per_row(size_t index) const {
  const Fragment& frag = dataset_->fragments()[index];
  double bytes = 0;
  for (const auto& file : frag.files) {
    if (file.size_bytes == 0) return 0;  // an older manifest: sizes unknown
    bytes += static_cast<double>(file.size_bytes) * projected_share(dataset_->schema(), field_indices_, file);
  }
  const uint64_t physical = frag.physical_rows ? frag.physical_rows : starts_[index + 1] - starts_[index];
  return physical ? bytes / static_cast<double>(physical) : 0;
}

void DatasetRowReader::take_units(std::span<const uint64_t> rows, uint64_t batch_size,
                                  const std::function<void(RecordBatch)>& sink) {
  const bool local = !read::overlap_fragments(dataset_->store().network_model());
  take_in_groups(
      rows, batch_size, dataset_->reader_options().take_group_bytes, sink,
      [&](uint64_t row) {
        if (!local) return TakeRun{};  // over a network a take's fragments overlap their round trips instead
        const size_t f = fragment_of(row);
        return TakeRun{starts_[f + 1], bytes_per_row(f)};
      },
      [&](std::span<const uint64_t> run, const std::vector<size_t>& groups) {
        const size_t f = fragment_of(run[0]);
        const auto st = fragment_state(f);
        if (!std::all_of(st->readers.begin(), st->readers.end(), [](const auto& r) { return r.prefetches(); }))
          return false;  // 2.0 and v1 files plan no reads ahead
        std::vector<uint64_t> local_rows, physical;
        for (uint64_t r : run) {
          local_rows.push_back(r - starts_[f]);
          physical.push_back(st->deletions.empty() ? local_rows.back() : st->deletions.physical_row(local_rows.back()));
        }
        for (auto& r : st->readers) r.prefetch(physical);
        Finally drop([&] {
          for (auto& r : st->readers) r.drop_prefetched();
        });
        for (size_t at = 0; size_t g : groups) {
          sink(take_from_state(st, std::vector<uint64_t>(local_rows.begin() + at, local_rows.begin() + at + g)));
          at += g;
        }
        return true;
      });
}

RecordBatch DatasetRowReader::take(std::span<const uint64_t> rows) {
  const uint64_t n = num_rows();
  for (uint64_t r : rows)
    if (r >= n) throw_usage("row {} is out of range: {} has {} rows", r, io::display_location(path()), n);
  std::vector<uint64_t> sorted(rows.begin(), rows.end());
  read::order_take_rows(sorted);
  // Every needed row once (or as often as it is asked for, in order), fragment by fragment.
  std::vector<std::pair<size_t, std::vector<uint64_t>>> groups;  // per fragment touched: its rows
  for (size_t i = 0; i < sorted.size();) {
    const size_t f = fragment_of(sorted[i]);
    std::vector<uint64_t> local;
    for (; i < sorted.size() && sorted[i] < starts_[f + 1]; ++i) local.push_back(sorted[i] - starts_[f]);
    groups.emplace_back(f, std::move(local));
  }
  {
    std::vector<size_t> touched;
    for (const auto& g : groups) touched.push_back(g.first);
    prefetch_fragments(touched, [&](size_t k, uint64_t size, uint64_t gap) {
      const size_t f = groups[k].first;
      return take_bytes(groups[k].second, starts_[f + 1] - starts_[f], size, gap);
    });
  }
  std::vector<RecordBatch> parts;
  if (read::overlap_fragments(dataset_->store().network_model()) && groups.size() > 1) {
    // Over a network the fragments' round trips overlap: their takes run concurrently, in
    // waves (each fragment has its own readers; only opening them touches shared state).
    for (size_t w = 0; w < groups.size(); w += read::kPrefetchFragments) {
      const size_t n = std::min(read::kPrefetchFragments, groups.size() - w);
      std::vector<std::shared_ptr<FragmentState>> states;
      for (size_t k = 0; k < n; ++k) states.push_back(fragment_state(groups[w + k].first));
      std::vector<std::future<RecordBatch>> running;
      {
        StopSignalsBlocked blocked;  // the workers never take SIGINT/SIGTERM
        for (size_t k = 0; k < n; ++k)
          running.push_back(std::async(std::launch::async, [this, &states, &groups, w, k] {
            return take_from_state(states[k], groups[w + k].second);
          }));
      }
      for (auto& r : running) parts.push_back(r.get());
    }
  } else {
    for (const auto& [f, local] : groups) parts.push_back(take_from_fragment(f, local));
  }
  RecordBatch read;
  read.fields = fields_;
  read.num_rows = static_cast<int64_t>(sorted.size());
  for (size_t k = 0; k < fields_.size(); ++k) {
    if (parts.size() == 1) {
      read.columns.push_back(parts[0].columns[k]);
      continue;
    }
    std::vector<ArrayPtr> cols;
    for (const auto& p : parts) cols.push_back(p.columns[k]);
    read.columns.push_back(cols.empty() ? make_null_array(fields_[k]->type, 0) : concat_arrays(fields_[k]->type, cols));
    for (auto& p : parts) p.columns[k].reset();  // joined: the pieces' memory serves what follows
  }
  parts.clear();
  if (sorted.size() == rows.size() && std::equal(sorted.begin(), sorted.end(), rows.begin())) return read;
  // Back to the asked order, repeats included.
  std::vector<int64_t> index(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    index[i] = std::lower_bound(sorted.begin(), sorted.end(), rows[i]) - sorted.begin();
  RecordBatch out;
  out.fields = fields_;
  out.num_rows = static_cast<int64_t>(rows.size());
  for (auto& c : read.columns) {
    out.columns.push_back(take_array(c, index));
    c.reset();
  }
  return out;
}

}  // namespace lance::dataset
