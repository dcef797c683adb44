#include "app/output_options.h"

#include <unistd.h>

#include <filesystem>

#include "io/remote/uri.h"

#include "app/commands.h"
#include "app/fragments_option.h"

namespace lance::app {

using output::OutputFormat;
using output::parse_output_format;

namespace {

/// The -o path, after refusing to print binary Arrow data on a terminal and to write over
/// the input (the file itself, or anything inside the dataset directory).
const std::string& checked_destination(const OutputArgs& a, const std::string& input) {
  const bool to_stdout = a.output.empty() || a.output == "-";
  if (parse_output_format(a.format) == OutputFormat::arrow && to_stdout && ::isatty(1))
    throw_usage("-f arrow writes binary data: redirect stdout or use -o FILE");
  if (!to_stdout && !input.empty() && input != "-" && !io::is_remote(input)) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path in = fs::weakly_canonical(input, ec);
    const fs::path out = fs::weakly_canonical(a.output, ec);
    if (!in.empty() && !out.empty()) {
      const auto rel = out.lexically_relative(in);
      if (out == in || (fs::is_directory(in, ec) && !rel.empty() && *rel.begin() != ".."))
        throw_usage("-o {}: that is {} being read; write the output elsewhere", a.output,
                    out == in ? "the input" : "inside the dataset");
    }
  }
  return a.output;
}

}  // namespace

Output::Output(const OutputArgs& a, const std::map<std::string, std::string>& schema_metadata, const std::string& input)
    : file(checked_destination(a, input)), sink(file.fd()) {
  output::TextOptions opts;
  opts.header = !a.no_header;
  opts.null_text = a.null_text;
  if (!file.is_stdout()) sink.set_name(a.output);
  writer = output::make_writer(parse_output_format(a.format), sink, opts, schema_metadata);
}

void Output::finish() {
  writer->finish();
  sink.flush();
  file.commit();
}

void add_output_options(CLI::App* cmd, OutputArgs& a) {
  cmd->add_option("-c,--columns", a.columns,
                  "Columns to output, comma-separated (default: all); s.a.b selects a field nested in structs")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("-f,--format", a.format,
                  "Output format: csv, tsv, json, jsonl, arrow (Arrow IPC stream), null (decode, write nothing)")
      ->check(CLI::IsMember(output::output_format_names()))
      ->capture_default_str();
  cmd->add_option("-o,--output", a.output, "Write to FILE (replaced only when the command succeeds) instead of stdout")
      ->type_name("FILE");
  cmd->add_option(
      "--null", a.null_text,
      "Text for null cells in csv/tsv (default: empty); a value that would read as TEXT is quoted (\"NULL\")");
  cmd->add_flag("--no-header", a.no_header, "Omit the csv/tsv header line");
  cmd->add_flag("--stats{text}", a.stats,
                "Print on stderr what was read (requests, I/O operations, bytes, pages, chunks, rows) and where "
                "the time went; --stats=json for one JSON line");
  a.batch_size_option =
      cmd->add_option(
             "--batch-size", a.batch_size,
             "Rows per output batch (an Arrow record batch); rows are read and decoded in units of at least "
             "8192 whatever this is (scans of local inputs over 32 MiB with small rows: up to 65536 unless given), "
             "fewer when a scan's rows are large (units of about 4 MiB of file bytes: see ENVIRONMENT)")
          ->capture_default_str()
          ->transform(decimal_number())
          ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 24));
}

std::unique_ptr<dataset::TableReader> open_table(const std::string& path, int64_t version,
                                                 const std::vector<std::string>& columns,
                                                 const std::optional<std::string>& fragments,
                                                 dataset::ReadAheadHint read_ahead) {
  dataset::TableOptions opts;
  opts.read_ahead = read_ahead;
  opts.columns = columns;
  opts.fragments = parse_fragments_option(fragments);
  opts.reader = reader_options();
  if (version >= 0) opts.version = static_cast<uint64_t>(version);
  return dataset::open_table(path, opts);
}

}  // namespace lance::app
