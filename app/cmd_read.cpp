// scan and take: rows out as CSV/TSV/JSON/JSONL.
#include <algorithm>
#include <charconv>
#include <fstream>
#include <memory>

#include "app/commands.h"
#include "format/file_reader.h"
#include "output/sink.h"
#include "output/writer.h"
#include "read/file_scanner.h"

namespace lance::app {

namespace {

struct OutputArgs {
  std::string format = "jsonl";
  std::string null_text;
  bool no_header = false;
  std::vector<std::string> columns;
  uint64_t batch_size = read::kDefaultBatchSize;
};

void add_output_options(CLI::App* cmd, OutputArgs& a) {
  cmd->add_option("-c,--columns", a.columns, "Columns to output, comma-separated (default: all)")->delimiter(',');
  cmd->add_option("-f,--format", a.format, "Output format: csv, tsv, json, jsonl")->capture_default_str();
  cmd->add_option("--null", a.null_text, "Text for null cells in csv/tsv (default: empty)");
  cmd->add_flag("--no-header", a.no_header, "Omit the csv/tsv header line");
  cmd->add_option("--batch-size", a.batch_size, "Rows per decoded batch")->capture_default_str()->check(CLI::Range(uint64_t{1}, uint64_t{1} << 24));
}

struct Output {
  OutputSink sink;
  std::unique_ptr<BatchWriter> writer;
  explicit Output(const OutputArgs& a) : sink(1) {
    TextOptions opts;
    opts.header = !a.no_header;
    opts.null_text = a.null_text;
    writer = make_text_writer(parse_output_format(a.format), sink, opts);
  }
};

/// Parses "0,17,100-199" (inclusive ranges) into row numbers in the given order.
std::vector<uint64_t> parse_rows(const std::string& text) {
  std::vector<uint64_t> rows;
  size_t pos = 0;
  auto num = [&](std::string_view s) {
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty())
      throw_usage("bad row number '{}' in --rows (expected e.g. 0,17,100-199)", s);
    return v;
  };
  while (pos <= text.size()) {
    size_t comma = text.find_first_of(",\n", pos);
    std::string_view item(text.data() + pos, (comma == std::string::npos ? text.size() : comma) - pos);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t' || item.front() == '\r')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t' || item.back() == '\r')) item.remove_suffix(1);
    if (!item.empty()) {
      size_t dash = item.find('-');
      if (dash == std::string_view::npos) {
        rows.push_back(num(item));
      } else {
        uint64_t a = num(item.substr(0, dash)), b = num(item.substr(dash + 1));
        if (b < a) throw_usage("bad row range '{}' in --rows (end before start)", item);
        if (b - a >= (uint64_t{1} << 32)) throw_usage("row range '{}' is too large", item);
        for (uint64_t r = a; r <= b; ++r) rows.push_back(r);
      }
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return rows;
}

}  // namespace

void register_scan(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand("scan", "Stream the rows of a Lance file");
  auto path = std::make_shared<std::string>();
  auto args = std::make_shared<OutputArgs>();
  auto limit = std::make_shared<int64_t>(-1);
  auto offset = std::make_shared<int64_t>(0);
  cmd->add_option("path", *path, "A .lance data file")->required();
  add_output_options(cmd, *args);
  cmd->add_option("-n,--limit", *limit, "At most this many rows (default: all)");
  cmd->add_option("--offset", *offset, "Skip this many rows first")->capture_default_str();
  cmd->footer("Examples:\n  lance-cli scan data/sample/products.lance -n 5 -f csv\n"
              "  lance-cli scan table.lance -c id,name --offset 100 -n 10 -f json");
  cmd->callback([&run, path, args, limit, offset] {
    run.command = [path, args, limit, offset] {
      if (*limit < -1) throw_usage("--limit must be ≥ 0 (got {})", *limit);
      if (*offset < 0) throw_usage("--offset must be ≥ 0 (got {})", *offset);
      auto file = format::FileReader::open(*path);
      read::FileRowReader reader(file, read::resolve_projection(file->schema(), args->columns));
      Output out(*args);
      out.writer->begin(reader.fields());
      const uint64_t n = reader.num_rows();
      const uint64_t begin = std::min<uint64_t>(static_cast<uint64_t>(*offset), n);
      const uint64_t end = *limit < 0 ? n : std::min<uint64_t>(n, begin + static_cast<uint64_t>(*limit));
      for (uint64_t row = begin; row < end; row += args->batch_size) {
        auto batch = reader.read_range(row, std::min(end, row + args->batch_size));
        out.writer->write(batch);
      }
      out.writer->finish();
      out.sink.flush();
    };
  });
}

void register_take(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand("take", "Read chosen rows of a Lance file, in the order given");
  auto path = std::make_shared<std::string>();
  auto args = std::make_shared<OutputArgs>();
  auto rows_text = std::make_shared<std::string>();
  auto rows_file = std::make_shared<std::string>();
  cmd->add_option("path", *path, "A .lance data file")->required();
  auto* rows_opt = cmd->add_option("--rows", *rows_text, "Row numbers and inclusive ranges, e.g. 0,17,100-199");
  auto* file_opt = cmd->add_option("--rows-file", *rows_file, "File of row numbers (comma/newline separated), - for stdin");
  rows_opt->excludes(file_opt);
  add_output_options(cmd, *args);
  cmd->footer("Examples:\n  lance-cli take data/sample/products.lance --rows 0,17,100-105 -f csv\n"
              "  seq 0 10 990 | lance-cli take table.lance --rows-file - -c id");
  cmd->callback([&run, path, args, rows_text, rows_file, rows_opt, file_opt] {
    if (rows_opt->count() == 0 && file_opt->count() == 0) throw CLI::RequiredError("--rows or --rows-file");
    run.command = [path, args, rows_text, rows_file] {
      std::string text = *rows_text;
      if (!rows_file->empty()) {
        if (*rows_file == "-") {
          text.assign(std::istreambuf_iterator<char>(std::cin), {});
        } else {
          std::ifstream in(*rows_file);
          if (!in) throw_io("{}: cannot open rows file", *rows_file);
          text.assign(std::istreambuf_iterator<char>(in), {});
        }
      }
      std::vector<uint64_t> rows = parse_rows(text);
      auto file = format::FileReader::open(*path);
      read::FileRowReader reader(file, read::resolve_projection(file->schema(), args->columns));
      for (uint64_t r : rows)
        if (r >= reader.num_rows()) throw_usage("row {} is out of range: {} has {} rows", r, *path, reader.num_rows());
      Output out(*args);
      out.writer->begin(reader.fields());
      // Read each run of consecutive requested rows once, then emit in the asked order.
      for (size_t i = 0; i < rows.size(); i += args->batch_size) {
        std::vector<uint64_t> part(rows.begin() + i, rows.begin() + std::min(rows.size(), i + args->batch_size));
        std::vector<uint64_t> sorted = part;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        std::vector<std::pair<uint64_t, RecordBatch>> runs;  // first row, batch
        for (size_t k = 0; k < sorted.size();) {
          size_t j = k + 1;
          while (j < sorted.size() && sorted[j] == sorted[j - 1] + 1) ++j;
          runs.emplace_back(sorted[k], reader.read_range(sorted[k], sorted[j - 1] + 1));
          k = j;
        }
        RecordBatch batch;
        batch.fields = reader.fields();
        batch.num_rows = static_cast<int64_t>(part.size());
        for (size_t c = 0; c < reader.fields().size(); ++c) {
          std::vector<ArrayPtr> pieces;
          for (uint64_t r : part) {
            auto it = std::upper_bound(runs.begin(), runs.end(), r,
                                       [](uint64_t v, const auto& run) { return v < run.first; }) - 1;
            pieces.push_back(slice_array(it->second.columns[c], static_cast<int64_t>(r - it->first), 1));
          }
          batch.columns.push_back(concat_arrays(reader.fields()[c]->type, pieces));
        }
        out.writer->write(batch);
      }
      out.writer->finish();
      out.sink.flush();
    };
  });
}

}  // namespace lance::app
