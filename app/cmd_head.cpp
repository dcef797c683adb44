// head: the first rows, as an aligned table on a terminal and JSONL when piped.
#include <unistd.h>

#include <memory>
#include <optional>

#include "app/commands.h"
#include "app/filtered_read.h"
#include "app/reader_options_env.h"
#include "app/stdin_input.h"
#include "app/storage_config.h"
#include "app/terminal.h"
#include "dataset/table_reader.h"
#include "output/sink.h"
#include "output/table_writer.h"
#include "output/writer.h"
#include "read/row_reader.h"

namespace lance::app {

using output::BatchWriter;
using output::make_table_writer;
using output::make_writer;
using output::OutputFormat;
using output::OutputSink;
using output::parse_output_format;
using output::TableStyle;
using output::TextOptions;

namespace {

struct HeadArgs {
  std::string path;
  int64_t limit = 10;
  std::vector<std::string> columns;
  std::string format = "auto";
  std::optional<std::string> filter;  ///< --filter EXPR
  bool no_index = false;              ///< --no-index
  std::optional<uint64_t> version;
};

std::unique_ptr<BatchWriter> head_writer(const std::string& format, OutputSink& sink,
                                         const std::map<std::string, std::string>& metadata) {
  const bool tty = is_terminal(STDOUT_FILENO);
  if (format == "table" || (format == "auto" && tty)) {
    TableStyle style;
    style.max_width = terminal_width(STDOUT_FILENO);
    style.color = use_color(STDOUT_FILENO);
    return make_table_writer(sink, style);
  }
  const OutputFormat f = parse_output_format(format == "auto" ? "jsonl" : format);
  if (f == OutputFormat::arrow && tty) throw_usage("-f arrow writes binary data: redirect stdout");
  return make_writer(f, sink, TextOptions{}, metadata);
}

}  // namespace

void register_head(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand("head", "Show the first rows: a table on a terminal, JSONL when piped");
  auto a = std::make_shared<HeadArgs>();
  cmd->add_option("path", a->path, "A .lance data file (- reads one from standard input) or a Lance dataset directory")
      ->transform(path_argument())
      ->required();
  cmd->add_option("-n,--limit", a->limit, "Number of rows")->capture_default_str()->transform(decimal_number());
  cmd->add_option("-c,--columns", a->columns, "Columns to show, comma-separated (default: all)")
      ->delimiter(',')
      ->allow_extra_args(false);
  std::vector<std::string> formats = {"auto", "table"};
  for (const std::string& f : output::output_format_names()) formats.push_back(f);
  cmd->add_option("-f,--format", a->format,
                  "table, csv, tsv, json, jsonl or arrow (default: auto, a table on a terminal, else jsonl)")
      ->check(CLI::IsMember(formats));
  cmd->add_option("--version", a->version, "Dataset version to read (default: the latest)")
      ->transform(version_number());
  cmd->add_option("--filter,--where", a->filter, "Only the rows matching this Lance filter (SQL)");
  cmd->add_flag("--no-index", a->no_index, "Scan every fragment for --filter, without the dataset's scalar indices");
  add_storage_option(cmd);
  cmd->footer(
      "Examples:\n  lance-cli head data/sample/products.lance\n"
      "  lance-cli head data/sample/products.lance --filter \"price > 400\"\n"
      "  lance-cli head data/sample/products.lance -n 3 -c id,name -f csv");
  cmd->callback([&run, a] {
    check_distinct_columns(a->columns);
    run.command = [a] {
      if (a->limit < 0) throw_usage("--limit must be ≥ 0 (got {})", a->limit);
      dataset::TableOptions opts;
      opts.columns = a->columns;
      opts.version = a->version;
      opts.reader = reader_options();
      auto reader = dataset::open_table(input_path(a->path), opts);
      OutputSink sink(STDOUT_FILENO);
      auto writer = head_writer(a->format, sink, reader->schema().metadata);
      writer->begin(reader->fields());
      const uint64_t end = std::min(reader->num_rows(), static_cast<uint64_t>(a->limit));
      const auto write = [&](RecordBatch batch) { writer->write(batch); };
      if (a->filter) {
        const ReopenTable reopen = [&](const std::vector<std::string>& cols) { return reader->with_columns(cols); };
        read_filtered(*reader, reopen,
                      {*a->filter, 0, static_cast<uint64_t>(a->limit), read::kDefaultBatchSize, !a->no_index}, write);
      } else {
        reader->scan(0, end, read::kDefaultBatchSize, write);
      }
      writer->finish();
      sink.flush();
    };
  });
}

}  // namespace lance::app
