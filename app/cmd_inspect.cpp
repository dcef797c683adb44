// inspect meta|schema|pages|columns|versions: what a Lance data file contains, as text or JSON.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>

#include "app/commands.h"
#include "app/reader_options_env.h"
#include "app/stdin_input.h"
#include "app/storage_config.h"
#include "app/terminal.h"
#include "dataset/dataset.h"
#include "dataset/table_reader.h"
#include "format/file_reader.h"
#include "inspect/columns_report.h"
#include "inspect/dataset_meta.h"
#include "inspect/inspect.h"
#include "inspect/render.h"
#include "inspect/v1_report.h"
#include "inspect/versions.h"
#include "io/object_store.h"
#include "io/remote/stores.h"
#include "output/sink.h"

namespace lance::app {

using output::OutputSink;

namespace {

struct InspectArgs {
  std::string path;
  bool json = false;
  bool exact_bytes = false;
  std::optional<uint64_t> version;  ///< datasets: the version to read (latest when unset)
};

void add_common(CLI::App* cmd, InspectArgs& a, const char* path_help) {
  cmd->add_option("path", a.path, path_help)->transform(path_argument())->required();
  cmd->add_flag("--json", a.json, "One JSON document instead of text (fields: docs/inspect.md)");
  cmd->add_flag("-b,--bytes", a.exact_bytes, "Exact byte counts instead of KiB/MiB");
  add_storage_option(cmd);
}

void add_version(CLI::App* cmd, InspectArgs& a) {
  cmd->add_option("--version", a.version, "Dataset directories: read this version (default: the latest)")
      ->transform(version_number());
}

bool is_dataset(const std::string& path) {
  const auto store = io::store_for(path, reader_options().storage, reader_options().stats);
  return dataset::is_dataset_dir(path, *store);
}

inspect::TextOptions text_options(const InspectArgs& a) {
  inspect::TextOptions o;
  o.exact_bytes = a.exact_bytes;
  o.color = use_color(STDOUT_FILENO);
  return o;
}

/// Opens PATH as a data file; `what` names the command for the error on a directory.
std::shared_ptr<format::FileReader> open_file(const InspectArgs& a, const char* what) {
  if (is_dataset(a.path))
    throw_usage("{}: is a dataset directory; {} reads one of its data files ({}/data/*.lance)", a.path, what, a.path);
  if (a.version) throw_usage("--version applies to dataset directories, not to the data file {}", a.path);
  const auto& options = reader_options();
  const auto store = io::store_for(a.path, options.storage, options.stats);
  return dataset::open_single_file(a.path, *store, options, false);
}

void emit(const std::string& text) {
  OutputSink sink(1);
  sink.write(text);
  sink.flush();
}

template <typename Info>
void print(const Info& info, const InspectArgs& a) {
  if (a.json)
    // names and metadata come from the file: invalid UTF-8 becomes U+FFFD instead of an error
    emit(inspect::to_json(info).dump(2, ' ', false, inspect::Json::error_handler_t::replace) + "\n");
  else
    emit(inspect::render_text(info, text_options(a)));
}

/// The options and action of `inspect schema` (and of its shorthand `schema`) on `cmd`;
/// `name` is how the examples call it.
void setup_schema(CLI::App* schema, CommandRunner& run, const std::string& name) {
  auto args = std::make_shared<InspectArgs>();
  add_common(schema, *args, "A .lance data file (- reads one from standard input) or a dataset directory");
  add_version(schema, *args);
  schema->footer("Examples:\n  " + name + " data/sample/products.lance\n  " + name +
                 " table.lance --json | jq '.fields[].name'");
  schema->callback([&run, args] {
    run.command = [args] {
      args->path = input_path(args->path);
      if (is_dataset(args->path)) {
        auto ds = dataset::Dataset::open(args->path, args->version, reader_options());
        inspect::SchemaInfo info = inspect::inspect_schema(ds->schema());
        info.kind = "dataset";
        info.path = ds->path();
        info.format_version = ds->manifest().data_storage_version;
        print(info, *args);
      } else {
        print(inspect::inspect_schema(*open_file(*args, "inspect schema")), *args);
      }
    };
  });
}

/// `inspect columns`: the per-column report of a file or dataset, limited to `columns`
/// (top-level names or paths: a column is kept when its path is one of them or lies below
/// one), with the decoded values' stats when `decode`.
void run_columns(const InspectArgs& a, const std::vector<std::string>& columns, bool decode) {
  inspect::ColumnsReport report;
  const bool dataset = is_dataset(a.path);
  if (dataset) {
    report = inspect::inspect_columns(*dataset::Dataset::open(a.path, a.version, reader_options()));
  } else {
    report = inspect::inspect_columns(*open_file(a, "inspect columns"));
  }
  if (!columns.empty()) {
    std::vector<inspect::ColumnUsage> kept;
    for (const auto& name : columns) {
      const size_t before = kept.size();
      for (const auto& c : report.columns)
        if (c.path == name || c.path.rfind(name + ".", 0) == 0) kept.push_back(c);
      if (kept.size() == before) throw_usage("inspect columns: no column {} in {}", name, a.path);
    }
    report.columns = std::move(kept);
  }
  if (decode) {
    dataset::TableOptions opts;
    opts.reader = reader_options();
    if (a.version) opts.version = *a.version;
    for (const auto& name : columns) {
      const std::string top = name.substr(0, name.find('.'));
      if (std::find(opts.columns.begin(), opts.columns.end(), top) == opts.columns.end()) opts.columns.push_back(top);
    }
    auto table = dataset::open_table(a.path, opts);
    inspect::add_value_stats(report, *table);
  }
  print(report, a);
}

void register_columns(CLI::App* cmd, CommandRunner& run) {
  auto* columns = cmd->add_subcommand(
      "columns", "Per column: bytes on disk, pages, layouts, encodings; --decode adds decoded bytes, nulls, min, max");
  auto args = std::make_shared<InspectArgs>();
  auto names = std::make_shared<std::vector<std::string>>();
  auto decode = std::make_shared<bool>(false);
  add_common(columns, *args, "A .lance data file (- reads one from standard input) or a dataset directory");
  add_version(columns, *args);
  columns->add_option("-c,--columns", *names, "Top-level fields or field paths (e.g. s or s.a), comma-separated")
      ->delimiter(',')
      ->allow_extra_args(false);
  columns->add_flag("--decode", *decode,
                    "Also decode every row: decoded bytes, compression ratio, null count, min and max");
  columns->footer(
      "Examples:\n  lance-cli inspect columns data/sample/products.lance\n"
      "  lance-cli inspect columns data/datasets/appends --decode\n"
      "  lance-cli inspect columns table.lance --json | jq '.columns | sort_by(-.bytes) | .[0]'");
  columns->callback([&run, args, names, decode] {
    run.command = [args, names, decode] {
      args->path = input_path(args->path);
      run_columns(*args, *names, *decode);
    };
  });
}

}  // namespace

void register_schema(CLI::App& app, CommandRunner& run) {
  setup_schema(app.add_subcommand("schema", "The field tree of a file or dataset (shorthand for inspect schema)"), run,
               "lance-cli schema");
}

void register_inspect(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand(
      "inspect", "Show what is inside a Lance file or dataset: meta, schema, pages, columns or versions");
  cmd->require_subcommand(1);
  cmd->footer(
      "Examples:\n  lance-cli inspect meta data/sample/products.lance\n"
      "  lance-cli inspect schema data/sample/products.lance --json\n"
      "  lance-cli inspect pages data/sample/products.lance -c name --page 0\n"
      "  lance-cli inspect columns data/sample/products.lance --decode\n"
      "  lance-cli inspect versions data/datasets/know/history");

  {
    auto* meta =
        cmd->add_subcommand("meta", "Format version, rows, columns, pages, where the bytes go, global buffers");
    auto args = std::make_shared<InspectArgs>();
    add_common(meta, *args, "A .lance data file (- reads one from standard input) or a dataset directory");
    add_version(meta, *args);
    meta->footer(
        "Examples:\n  lance-cli inspect meta data/sample/products.lance\n"
        "  lance-cli inspect meta data/sample/products.lance --json | jq .bytes\n"
        "  lance-cli inspect meta data/datasets/appends --version 3");
    meta->callback([&run, args] {
      run.command = [args] {
        args->path = input_path(args->path);
        if (is_dataset(args->path))
          print(inspect::inspect_dataset_meta(*dataset::Dataset::open(args->path, args->version, reader_options())),
                *args);
        else if (auto file = open_file(*args, "inspect meta"); file->v1())
          print(inspect::inspect_v1_meta(*file), *args);  // legacy v1: its own description
        else
          print(inspect::inspect_file_meta(*file), *args);
      };
    });
  }
  {
    auto* versions = cmd->add_subcommand(
        "versions", "Dataset history: each version's time, operation (from its transaction), rows, fragments, tags");
    auto args = std::make_shared<InspectArgs>();
    add_common(versions, *args, "A dataset directory");
    add_version(versions, *args);  // only to say it does not apply (rather than reach the global --version)
    versions->footer(
        "Examples:\n  lance-cli inspect versions data/datasets/know/history\n"
        "  lance-cli inspect versions my_table.lance --json | jq '.versions[] | {version, operation}'");
    versions->callback([&run, args] {
      run.command = [args] {
        if (!is_dataset(args->path))
          throw_usage("{}: inspect versions reads a dataset directory (a data file has no versions)", args->path);
        if (args->version) throw_usage("inspect versions lists every version; --version does not apply");
        print(inspect::inspect_versions(args->path, reader_options()), *args);
      };
    });
  }
  register_columns(cmd, run);
  setup_schema(cmd->add_subcommand("schema", "The field tree: names, ids, parents, Lance and Arrow types, metadata"),
               run, "lance-cli inspect schema");
  {
    auto* pages = cmd->add_subcommand("pages", "Every page of every column: layout, encodings, chunks, buffers, sizes");
    auto args = std::make_shared<InspectArgs>();
    auto columns = std::make_shared<std::vector<std::string>>();
    auto page = std::make_shared<int64_t>(0);
    add_common(pages, *args, "A .lance data file (- reads one from standard input)");
    add_version(pages, *args);  // only to say it does not apply (rather than reach the global --version)
    pages->add_option("-c,--columns", *columns, "Top-level fields or field paths (e.g. s or s.a), comma-separated")
        ->delimiter(',')
        ->allow_extra_args(false);
    auto* page_opt =
        pages->add_option("--page", *page, "Only page N of each selected column")->transform(decimal_number());
    pages->footer(
        "Examples:\n  lance-cli inspect pages data/sample/products.lance\n"
        "  lance-cli inspect pages data/sample/products.lance -c name,price --page 0\n"
        "  lance-cli inspect pages table.lance --json | jq '.columns[].pages[].layout'");
    pages->callback([&run, args, columns, page, page_opt] {
      const bool has_page = page_opt->count() > 0;
      run.command = [args, columns, page, has_page] {
        args->path = input_path(args->path);
        inspect::PageFilter filter;
        filter.columns = *columns;
        if (has_page && *page < 0) throw_usage("--page must be ≥ 0 (got {})", *page);
        if (has_page) filter.page = static_cast<uint64_t>(*page);
        auto file = open_file(*args, "inspect pages");
        if (file->v1())
          print(inspect::inspect_v1_pages(*file, filter), *args);  // legacy v1: the page table
        else
          print(inspect::inspect_pages(*file, filter), *args);
      };
    });
  }
}

}  // namespace lance::app
