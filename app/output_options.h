// The output options scan, take, head and search share (-c, -f, -o, --null, --no-header,
// --stats, --batch-size), the writer they set up, and opening PATH for a read.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/reader_options_env.h"
#include "dataset/table_reader.h"
#include "output/output_file.h"
#include "output/sink.h"
#include "output/writer.h"
#include "read/row_reader.h"

namespace lance::app {

struct OutputArgs {
  std::string format = "jsonl";
  std::string null_text;
  bool no_header = false;
  std::vector<std::string> columns;
  uint64_t batch_size = read::kDefaultBatchSize;
  const CLI::Option* batch_size_option = nullptr;  ///< to tell a given --batch-size from the default
  std::string output;                              ///< -o FILE; empty = stdout
  std::string stats;                               ///< --stats[=text|json]; empty = off
};

/// Adds -c, -f, -o, --null, --no-header, --stats and --batch-size to `cmd`, into `a`.
void add_output_options(CLI::App* cmd, OutputArgs& a);

/// The writer of a command's rows: -o FILE (replaced only on success) or stdout, in -f's format.
struct Output {
  output::OutputFile file;
  output::OutputSink sink;
  std::unique_ptr<output::BatchWriter> writer;
  /// Throws Error(usage) for -f arrow on a terminal, and when -o names `input` (the file or
  /// dataset directory being read) or a file inside it: no command overwrites its input.
  Output(const OutputArgs& a, const std::map<std::string, std::string>& schema_metadata, const std::string& input);
  /// Completes the output: end of the format, flush, and with -o the rename into place.
  void finish();
};

/// Runs `write` (the writer's part of a batch) and adds its time to the output stage of
/// `--stats`.
template <typename F>
void timed_output(F&& write) {
  const auto t0 = std::chrono::steady_clock::now();
  write();
  reader_options().stats->output_ns += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
}

/// Opens PATH — a .lance data file or a dataset directory — for reading `columns`;
/// `version` < 0 means the latest.
std::unique_ptr<dataset::TableReader> open_table(const std::string& path, int64_t version,
                                                 const std::vector<std::string>& columns,
                                                 const std::optional<std::string>& fragments,
                                                 dataset::ReadAheadHint read_ahead = {});

}  // namespace lance::app
