// count: the row count of a file or dataset from metadata alone.
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "app/commands.h"
#include "app/filtered_read.h"
#include "app/fragments_option.h"
#include "app/reader_options_env.h"
#include "app/stats.h"
#include "app/stdin_input.h"
#include "app/storage_config.h"
#include "dataset/row_count.h"
#include "dataset/table_reader.h"
#include "output/sink.h"

namespace lance::app {

using output::OutputSink;

void register_count(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand("count", "Print the number of rows, from metadata alone (no data pages are read)");
  auto path = std::make_shared<std::string>();
  auto version = std::make_shared<std::optional<uint64_t>>();
  auto json = std::make_shared<bool>(false);
  auto fragments = std::make_shared<std::optional<std::string>>();
  cmd->add_option("path", *path,
                  "A .lance data file (- reads one from standard input) or a Lance dataset directory (deleted rows are "
                  "not counted)")
      ->transform(path_argument())
      ->required();
  cmd->add_option("--version", *version, "Dataset version to count (default: the latest)")->transform(version_number());
  cmd->add_flag("--json", *json, "One JSON object: rows, deleted_rows, fragments, version (null for a data file)");
  add_fragments_option(cmd, *fragments, "counts their visible rows only");
  auto filter = std::make_shared<std::optional<std::string>>();
  cmd->add_option("--filter,--where", *filter,
                  "Count only the rows matching this Lance filter (reads the filter's columns; countRows(EXPR))");
  auto no_index = std::make_shared<bool>(false);
  cmd->add_flag("--no-index", *no_index,
                "Scan every fragment for --filter, without the dataset's scalar indices (the same count)");
  auto stats = std::make_shared<std::string>();
  cmd->add_flag("--stats{text}", *stats,
                "Print what was read on stderr, and for --filter which index answered which predicate; "
                "--stats=json for one JSON line");
  add_storage_option(cmd);
  cmd->footer(
      "Examples:\n  lance-cli count data/sample/products.lance\n"
      "  lance-cli count data/sample/products.lance --filter \"category = 'toys' AND price < 20\"\n"
      "  lance-cli count my_db/my_table.lance --version 3 --json");
  cmd->callback([&run, path, version, json, fragments, filter, no_index, stats] {
    run.command = [path, version, json, fragments, filter, no_index, stats] {
      StatsReport report(*stats);
      dataset::RowCount c =
          dataset::count_rows(input_path(*path), *version, reader_options(), parse_fragments_option(*fragments));
      if (*filter) {
        dataset::TableOptions opts;
        opts.fragments = parse_fragments_option(*fragments);
        opts.reader = reader_options();
        opts.version = *version;
        // Opened once: every read of the filter's columns shares its manifest and files.
        const auto table = dataset::open_table(input_path(*path), opts);
        const ReopenTable reopen = [&](const std::vector<std::string>& cols) { return table->with_columns(cols); };
        FilteredRead fr;
        fr.expression = **filter;
        fr.use_indices = !*no_index;
        fr.estimate_savings = report.enabled();
        const FilterReport filtered = count_filtered(reopen, fr);
        c.rows = filtered.rows;
        report.set_filter(render_filter_stats(filtered, true), render_filter_stats(filtered, false));
      }
      OutputSink sink(1);
      if (*json)
        sink.write(fmt::format("{{\"rows\":{},\"deleted_rows\":{},\"fragments\":{},\"version\":{}}}\n", c.rows,
                               c.deleted_rows, c.fragments, c.version ? std::to_string(*c.version) : "null"));
      else
        sink.write(fmt::format("{}\n", c.rows));
      sink.flush();
      report.report(c.rows);
    };
  });
}

}  // namespace lance::app
