// scan and take: rows out as CSV/TSV/JSON/JSONL or an Arrow IPC stream.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <random>
#include <span>

#include <spdlog/spdlog.h>

#include "app/commands.h"
#include "app/filtered_read.h"
#include "app/fragments_option.h"
#include "app/global_options.h"
#include "app/input_size.h"
#include "app/output_options.h"
#include "app/progress.h"
#include "app/reader_options_env.h"
#include "app/row_list.h"
#include "app/stats.h"
#include "app/stdin_input.h"
#include "app/storage_config.h"
#include "common/cancel.h"
#include "common/row_sample.h"
#include "dataset/table_reader.h"
#include "io/remote/uri.h"
#include "output/output_file.h"
#include "output/sink.h"
#include "output/writer.h"
#include "read/row_reader.h"

namespace lance::app {

using output::BatchWriter;
using output::make_writer;
using output::OutputFile;
using output::OutputFormat;
using output::OutputSink;
using output::parse_output_format;
using output::TextOptions;

namespace {

/// `scan --sample K`: K rows of `reader` drawn uniformly at random (common/row_sample.h), in
/// scan order, read through take in windows of kTakeWindowRows. Returns the rows written.
uint64_t scan_sample(dataset::TableReader& reader, Output& out, const OutputArgs& args, uint64_t k,
                     std::optional<uint64_t> seed) {
  if (!seed) {
    std::random_device device;
    seed = (uint64_t{device()} << 32) ^ device();
  }
  spdlog::info("scan --sample {}: seed {} (--seed {} draws the same rows)", k, *seed, *seed);
  const std::vector<uint64_t> rows = sample_rows(reader.num_rows(), k, *seed);
  Progress progress(progress_enabled(quiet(), out.file.is_stdout()), "scan", rows.size());
  for (size_t at = 0; at < rows.size(); at += kTakeWindowRows) {
    check_cancelled();
    const std::span<const uint64_t> window(rows.data() + at, std::min<size_t>(kTakeWindowRows, rows.size() - at));
    reader.take_batches(window, args.batch_size, [&](RecordBatch batch) {
      timed_output([&] { out.writer->write(batch); });
      progress.add(static_cast<uint64_t>(batch.num_rows), out.sink.bytes_written());
      check_cancelled();
    });
  }
  timed_output([&] { out.finish(); });
  progress.finish();
  return rows.size();
}

void add_version_option(CLI::App* cmd, int64_t& version) {
  cmd->add_option("--version", version, "Dataset version to read (time travel; default: the latest)")
      ->transform(version_number());
}

}  // namespace

void register_scan(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand("scan", "Stream the rows of a Lance file or dataset");
  auto path = std::make_shared<std::string>();
  auto args = std::make_shared<OutputArgs>();
  auto limit = std::make_shared<std::optional<int64_t>>();
  auto offset = std::make_shared<int64_t>(0);
  auto version = std::make_shared<int64_t>(-1);
  auto fragments = std::make_shared<std::optional<std::string>>();
  cmd->add_option("path", *path, "A .lance data file (- reads one from standard input) or a Lance dataset directory")
      ->transform(path_argument())
      ->required();
  add_output_options(cmd, *args);
  add_version_option(cmd, *version);
  add_fragments_option(cmd, *fragments, "--offset and --limit count their visible rows");
  add_storage_option(cmd);
  auto sample = std::make_shared<std::optional<int64_t>>();
  auto seed = std::make_shared<std::optional<uint64_t>>();
  auto* limit_opt =
      cmd->add_option("-n,--limit", *limit, "At most this many rows (default: all)")->transform(decimal_number());
  auto* offset_opt = cmd->add_option("--offset", *offset, "Skip this many rows first")
                         ->capture_default_str()
                         ->transform(decimal_number());
  auto* sample_opt = cmd->add_option("--sample", *sample,
                                     "N rows drawn uniformly at random (every N-subset equally likely), in scan order")
                         ->transform(decimal_number());
  cmd->add_option("--seed", *seed, "Seed of --sample: the same seed draws the same rows (default: random; -v shows it)")
      ->transform(decimal_number())
      ->needs(sample_opt);
  sample_opt->excludes(limit_opt)->excludes(offset_opt);
  auto filter = std::make_shared<std::optional<std::string>>();
  cmd->add_option("--filter,--where", *filter,
                  "Only the rows matching this Lance filter (SQL, e.g. \"cat = 'red' AND price > 10\"); --offset and "
                  "--limit count matching rows")
      ->excludes(sample_opt);
  auto no_index = std::make_shared<bool>(false);
  cmd->add_flag("--no-index", *no_index,
                "Scan every fragment for --filter, without the dataset's scalar indices (the same rows)");
  cmd->footer(
      "Examples:\n  lance-cli scan data/sample/products.lance -n 5 -f csv\n"
      "  lance-cli scan data/sample/products.lance --sample 10 --seed 7 -c id,name\n"
      "  lance-cli scan table.lance -c id,name --offset 100 -n 10 -f json\n"
      "  lance-cli scan my_db/my_table.lance --version 3\n"
      "  lance-cli scan my_db/my_table.lance --version 3 --fragments 2,5-7 -o part-1.jsonl");
  cmd->callback([&run, path, args, limit, offset, version, fragments, sample, seed, filter, no_index] {
    check_distinct_columns(args->columns);
    run.command = [path, args, limit, offset, version, fragments, sample, seed, filter, no_index] {
      if (*limit && **limit < 0) throw_usage("--limit must be ≥ 0 (got {})", **limit);
      if (*offset < 0) throw_usage("--offset must be ≥ 0 (got {})", *offset);
      if (*sample && **sample < 0) throw_usage("--sample must be ≥ 0 (got {})", **sample);
      StatsReport stats(args->stats);
      dataset::ReadAheadHint read_ahead;
      read_ahead.whole_files = *offset == 0 && !*limit && !*sample && !*filter;  // every row (of the projected columns)
      auto reader = open_table(input_path(*path), *version, args->columns, *fragments, read_ahead);
      Output out(*args, reader->schema().metadata, input_path(*path));
      out.writer->begin(reader->fields());
      if (*sample) {
        stats.report(scan_sample(*reader, out, *args, static_cast<uint64_t>(**sample), *seed));
        return;
      }
      if (*filter) {
        FilteredRead fr{**filter, static_cast<uint64_t>(*offset), std::nullopt, args->batch_size, !*no_index};
        if (*limit) fr.limit = static_cast<uint64_t>(**limit);
        fr.estimate_savings = stats.enabled();
        const ReopenTable reopen = [&](const std::vector<std::string>& cols) { return reader->with_columns(cols); };
        const FilterReport report = read_filtered(*reader, reopen, fr, [&](RecordBatch batch) {
          check_cancelled();
          timed_output([&] { out.writer->write(batch); });
        });
        timed_output([&] { out.finish(); });
        stats.set_filter(render_filter_stats(report, true), render_filter_stats(report, false));
        stats.report(report.rows);
        return;
      }
      const uint64_t n = reader->num_rows();
      const uint64_t begin = std::min<uint64_t>(static_cast<uint64_t>(*offset), n);
      const uint64_t end = !*limit ? n : begin + std::min<uint64_t>(n - begin, static_cast<uint64_t>(**limit));
      // The reader keeps the reads of the next batch in flight while this one is written.
      Progress progress(progress_enabled(quiet(), out.file.is_stdout()), "scan", end - begin);
      uint64_t rows_out = 0;
      const uint64_t batch_rows = args->batch_size_option->count()
                                      ? args->batch_size
                                      : default_scan_batch_rows(local_input_bytes(input_path(*path)).value_or(0),
                                                                reader->num_rows(), args->batch_size);
      reader->scan(begin, end, batch_rows, [&](RecordBatch batch) {
        check_cancelled();  // SIGINT/SIGTERM: stop between batches
        timed_output([&] { out.writer->write(batch); });
        rows_out += batch.num_rows;
        progress.add(static_cast<uint64_t>(batch.num_rows), out.sink.bytes_written());
      });
      timed_output([&] { out.finish(); });
      progress.finish();
      stats.report(rows_out);
    };
  });
}

void register_take(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand("take", "Read chosen rows of a Lance file or dataset, in the order given");
  auto path = std::make_shared<std::string>();
  auto args = std::make_shared<OutputArgs>();
  auto rows_text = std::make_shared<std::string>();
  auto rows_file = std::make_shared<std::string>();
  auto version = std::make_shared<int64_t>(-1);
  auto fragments = std::make_shared<std::optional<std::string>>();
  cmd->add_option("path", *path,
                  "A .lance data file (- reads one from standard input) or a Lance dataset directory (rows count "
                  "visible rows in scan order)")
      ->transform(path_argument())
      ->required();
  auto* rows_opt = cmd->add_option("--rows", *rows_text, "Row numbers and inclusive ranges, e.g. 0,17,100-199");
  auto* file_opt =
      cmd->add_option("--rows-file", *rows_file, "File of row numbers (comma/newline separated), - for stdin")
          ->type_name("FILE");
  rows_opt->excludes(file_opt);
  add_output_options(cmd, *args);
  add_version_option(cmd, *version);
  add_fragments_option(cmd, *fragments, "row numbers then count their visible rows only");
  add_storage_option(cmd);
  cmd->footer(
      "Examples:\n  lance-cli take data/sample/products.lance --rows 0,17,100-105 -f csv\n"
      "  seq 0 10 990 | lance-cli take table.lance --rows-file - -c id");
  cmd->callback([&run, path, args, rows_text, rows_file, rows_opt, file_opt, version, fragments] {
    check_distinct_columns(args->columns);
    if (rows_opt->count() == 0 && file_opt->count() == 0) throw CLI::RequiredError("--rows or --rows-file");
    run.command = [path, args, rows_text, rows_file, version, fragments] {
      if (*path == "-" && *rows_file == "-")
        throw_usage("standard input cannot be both the file (-) and the rows file (--rows-file -)");
      // Rows come in windows of at most kTakeWindowRows: a long range or an endless rows
      // stream never holds all its row numbers at once.
      RowList list = rows_file->empty() ? RowList::from_text(*rows_text) : RowList::from_file(*rows_file);
      std::vector<uint64_t> rows;
      list.next(rows, kTakeWindowRows);
      const bool one_window = list.done();
      StatsReport stats(args->stats);
      // Only object stores use the hint; it sorts a copy of the rows.
      const std::string in = input_path(*path);
      auto reader = open_table(in, *version, args->columns, *fragments,
                               io::is_remote(in) ? dataset::read_ahead_hint_for_take(rows) : dataset::ReadAheadHint{});
      const uint64_t num_rows = reader->num_rows();
      auto check_rows = [&](std::span<const uint64_t> window) {
        for (uint64_t r : window)
          if (r >= num_rows)
            throw_usage("row {} is out of range: {} has {} rows", r, io::display_location(*path), num_rows);
      };
      check_rows(rows);
      // A list read to its end (always --rows) is checked whole before any output.
      if (const auto last = list.max_row(); list.fully_read() && last) check_rows(std::span(&*last, 1));
      Output out(*args, reader->schema().metadata, input_path(*path));
      out.writer->begin(reader->fields());
      Progress progress(progress_enabled(quiet(), out.file.is_stdout()), "take", one_window ? rows.size() : 0);
      uint64_t rows_out = 0;
      auto take_window = [&] {
        check_cancelled();
        reader->take_batches(rows, args->batch_size, [&](RecordBatch batch) {
          const auto n = static_cast<uint64_t>(batch.num_rows);
          timed_output([&] { out.writer->write(batch); });
          progress.add(n, out.sink.bytes_written());
          check_cancelled();
        });
        rows_out += rows.size();
      };
      take_window();  // the first window was checked above
      while (list.next(rows, kTakeWindowRows)) {
        check_rows(rows);
        take_window();
      }
      timed_output([&] { out.finish(); });
      progress.finish();
      stats.report(rows_out);
    };
  });
}

}  // namespace lance::app
