// verify: check that a dataset version (or one data file) is intact, reporting every problem.
#include <unistd.h>

#include <memory>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/global_options.h"
#include "app/progress.h"
#include "app/reader_options_env.h"
#include "app/stdin_input.h"
#include "app/storage_config.h"
#include "app/terminal.h"
#include "dataset/verify.h"
#include "inspect/render.h"
#include "inspect/text_table.h"
#include "output/sink.h"

namespace lance::app {

namespace {

const char* kind_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::io:
      return "missing_or_unreadable";
    case ErrorKind::corrupt:
      return "corrupt";
    case ErrorKind::unsupported:
      return "unsupported";
    default:
      return "other";
  }
}

std::string summary_counts(const dataset::VerifyReport& r) {
  return fmt::format("{} data file{}, {} deletion file{}, {} index file{}, {} pages, {} rows ({})", r.data_files,
                     r.data_files == 1 ? "" : "s", r.deletion_files, r.deletion_files == 1 ? "" : "s", r.index_files,
                     r.index_files == 1 ? "" : "s", r.pages, r.rows, inspect::format_bytes(r.bytes, false));
}

std::string problem_counts(const dataset::VerifyReport& r) {
  uint64_t corrupt = 0, io = 0, unsupported = 0;
  for (const auto& p : r.problems)
    (p.kind == ErrorKind::corrupt ? corrupt : p.kind == ErrorKind::unsupported ? unsupported : io)++;
  std::vector<std::string> parts;
  if (corrupt) parts.push_back(fmt::format("{} corrupt", corrupt));
  if (io) parts.push_back(fmt::format("{} missing or unreadable", io));
  if (unsupported) parts.push_back(fmt::format("{} unsupported", unsupported));
  return fmt::format("{} problem{} ({})", r.problems.size(), r.problems.size() == 1 ? "" : "s", fmt::join(parts, ", "));
}

std::string render_text(const dataset::VerifyReport& r) {
  const inspect::Style style(use_color(STDOUT_FILENO));
  std::string out = style.bold(r.path) + (r.is_dataset ? fmt::format(" · dataset version {}", r.version) : "") + "\n";
  for (const auto& p : r.problems) out += "  " + dataset::format_problem(p) + "\n";
  out += fmt::format(
      "{}: {}\n", r.problems.empty() ? "ok" : "FAILED",
      r.problems.empty() ? "checked " + summary_counts(r) : problem_counts(r) + "; checked " + summary_counts(r));
  return out;
}

inspect::Json to_json(const dataset::VerifyReport& r) {
  inspect::Json j;
  j["kind"] = r.is_dataset ? "dataset" : "file";
  j["path"] = r.path;
  j["version"] = r.is_dataset ? inspect::Json(r.version) : inspect::Json(nullptr);
  j["ok"] = r.problems.empty();
  j["exit_code"] = dataset::verify_exit_code(r);
  j["data_files"] = r.data_files;
  j["deletion_files"] = r.deletion_files;
  j["index_files"] = r.index_files;
  j["pages"] = r.pages;
  j["rows"] = r.rows;
  j["bytes"] = r.bytes;
  j["problems"] = inspect::Json::array();
  for (const auto& p : r.problems) {
    inspect::Json pj;
    pj["kind"] = kind_name(p.kind);
    pj["file"] = p.file;
    pj["column"] = p.column.empty() ? inspect::Json(nullptr) : inspect::Json(p.column);
    pj["column_index"] = p.column_index ? inspect::Json(*p.column_index) : inspect::Json(nullptr);
    pj["page"] = p.page ? inspect::Json(*p.page) : inspect::Json(nullptr);
    pj["rows"] = p.rows.empty() ? inspect::Json(nullptr) : inspect::Json(p.rows);
    pj["error"] = p.error;
    j["problems"].push_back(std::move(pj));
  }
  return j;
}

}  // namespace

void register_verify(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand(
      "verify",
      "Check that a dataset version (or a data file) is intact: files, sizes, every page, deletion and index files");
  auto path = std::make_shared<std::string>();
  auto version = std::make_shared<std::optional<uint64_t>>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("path", *path, "A Lance dataset directory or a .lance data file (local, s3:// or http(s)://)")
      ->transform(path_argument())
      ->required();
  add_storage_option(cmd);
  cmd->add_option("--version", *version, "Dataset version to check (default: the latest)")->transform(version_number());
  cmd->add_flag("--json", *json, "One JSON object: counts and every problem (kind, file, column, page, rows, error)");
  cmd->footer(
      "Examples:\n  lance-cli verify my_db/my_table.lance\n"
      "  lance-cli verify my_db/my_table.lance --version 3 --json | jq '.problems[]'\n\n"
      "Every problem is reported (one line each: file, column, page, error), then a summary.\n"
      "Exit codes: 0 intact, 4 anything corrupt, 1 files missing or unreadable (3: only unsupported\n"
      "encodings). Reads every file once; writes nothing.");
  cmd->callback([&run, path, version, json] {
    run.command = [path, version, json] {
      std::unique_ptr<Progress> progress;
      uint64_t reported = 0;
      dataset::VerifyOptions o;
      o.reader = reader_options();
      o.start = [&](uint64_t total) {
        progress = std::make_unique<Progress>(progress_enabled(quiet(), false), "verify", total);
      };
      o.progress = [&](uint64_t rows, uint64_t bytes) {
        if (progress) progress->add(rows - reported, bytes);
        reported = rows;
      };
      const dataset::VerifyReport report = dataset::verify_path(input_path(*path), *version, o);
      if (progress) progress->finish();
      output::OutputSink sink(1);
      if (*json)
        sink.write(to_json(report).dump(2, ' ', false, inspect::Json::error_handler_t::replace) + "\n");
      else
        sink.write(render_text(report));
      sink.flush();
      const int code = dataset::verify_exit_code(report);
      if (code != 0) {
        const ErrorKind kind = code == 4 ? ErrorKind::corrupt : code == 3 ? ErrorKind::unsupported : ErrorKind::io;
        throw Error(kind, fmt::format("verify {}: {}", *path, problem_counts(report)));
      }
    };
  });
}

}  // namespace lance::app
