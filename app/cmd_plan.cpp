// plan: split a pinned dataset version into byte-balanced shards of fragments, for scans
// spread over processes or machines (lib/dataset/shard_plan.h).
#include <algorithm>
#include <array>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "app/commands.h"
#include "app/reader_options_env.h"
#include "app/storage_config.h"
#include "common/byte_size.h"
#include "dataset/dataset.h"
#include "dataset/fragment_select.h"
#include "dataset/shard_plan.h"
#include "inspect/render.h"
#include "io/object_store.h"
#include "io/remote/stores.h"
#include "io/remote/uri.h"
#include "output/sink.h"

namespace lance::app {

namespace {

/// `text` as one shell word: unchanged when it holds only safe characters, else in single quotes.
std::string shell_quoted(const std::string& text) {
  const bool safe = !text.empty() && text.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_-./:@%+=,") == std::string::npos;
  if (safe) return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

constexpr const char* kDefaultShardBytes = "128MiB";

struct PlanArgs {
  std::string path;
  std::optional<uint64_t> version;
  std::optional<uint64_t> shards;
  std::optional<std::string> shard_bytes;
  bool json = false;
};

std::string plan_json(uint64_t version, uint64_t rows, const std::vector<dataset::Shard>& shards) {
  std::string s = fmt::format("{{\"version\": {}, \"rows\": {}, \"shards\": [", version, rows);
  for (size_t k = 0; k < shards.size(); ++k) {
    s += k ? ", " : "";
    s += fmt::format("{{\"fragments\": [{}], \"rows\": {}, \"bytes\": {}}}", fmt::join(shards[k].fragments, ", "),
                     shards[k].rows, shards[k].bytes);
  }
  return s + "]}\n";
}

std::string plan_text(const dataset::Dataset& ds, const std::vector<dataset::Shard>& shards) {
  uint64_t bytes = 0;
  for (const auto& sh : shards) bytes += sh.bytes;
  std::string s = fmt::format("{} version {}: {} rows in {} fragments, {}; {} shards\n", ds.path(), ds.version(),
                              ds.num_rows(), ds.fragments().size(), inspect::format_bytes(bytes, false), shards.size());
  if (shards.empty()) return s;
  std::vector<std::array<std::string, 4>> table{{"shard", "fragments", "rows", "bytes"}};
  for (size_t k = 0; k < shards.size(); ++k)
    table.push_back({std::to_string(k), dataset::format_ids(shards[k].fragments), std::to_string(shards[k].rows),
                     inspect::format_bytes(shards[k].bytes, false)});
  std::array<size_t, 4> width{};
  for (const auto& row : table)
    for (size_t c = 0; c < 4; ++c) width[c] = std::max(width[c], row[c].size());
  for (const auto& row : table)
    s += fmt::format("{:>{}}  {:<{}}  {:>{}}  {:>{}}\n", row[0], width[0], row[1], width[1], row[2], width[2], row[3],
                     width[3]);
  s += fmt::format("Scan shard k: lance-cli scan {} --version {} --fragments <its fragments>\n",
                   shell_quoted(ds.path()), ds.version());
  return s;
}

}  // namespace

void register_plan(CLI::App& app, CommandRunner& run) {
  auto* cmd =
      app.add_subcommand("plan", "Split a dataset version into byte-balanced shards of fragments for parallel scans");
  auto a = std::make_shared<PlanArgs>();
  cmd->add_option("path", a->path, "A Lance dataset directory (local or s3://bucket/prefix)")
      ->transform(path_argument())
      ->required();
  add_storage_option(cmd);
  cmd->add_option("--version", a->version, "Dataset version to pin (default: the latest)")->transform(version_number());
  auto* count_opt = cmd->add_option("--shards", a->shards,
                                    "N shards of about equal bytes (fewer only when there are fewer fragments)")
                        ->type_name("N")
                        ->transform(decimal_number())
                        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 32).description(""));
  auto* bytes_opt =
      cmd->add_option(
             "--shard-bytes", a->shard_bytes,
             fmt::format("Shards of at most SIZE data bytes, e.g. 64MiB, 1G, 1.5GB (default: {})", kDefaultShardBytes))
          ->type_name("SIZE");
  count_opt->excludes(bytes_opt);
  cmd->add_flag("--json", a->json,
                "One JSON object: {\"version\": V, \"rows\": R, \"shards\": [{\"fragments\": [ids], \"rows\": r, "
                "\"bytes\": b}, ...]}");
  cmd->footer(
      "Shards are runs of consecutive fragments in manifest order, shard k before shard k+1. So scanning\n"
      "every shard with `lance-cli scan PATH --version V --fragments <its ids>` and concatenating the outputs\n"
      "in shard order gives exactly the rows of one full scan of version V. Bytes are the fragments' data\n"
      "file sizes (greedy fill; a fragment larger than the target is a shard of its own); rows are visible\n"
      "rows (deleted rows not counted).\n\n"
      "Examples:\n  lance-cli plan my_db/my_table.lance --shards 8\n"
      "  lance-cli plan my_db/my_table.lance --shard-bytes 256MiB --json | jq -c '.shards[].fragments'");
  cmd->callback([&run, a] {
    run.command = [a] {
      const auto& options = reader_options();
      const auto store = io::store_for(a->path, options.storage, options.stats);
      if (!dataset::is_dataset_dir(a->path, *store)) {
        if (store->is_directory(a->path))
          throw_usage("{} is a {} but not a Lance dataset (it has no {}/)", io::display_location(a->path),
                      store->remote() ? "prefix with objects" : "directory", dataset::kVersionsDir);
        if (!store->size_of(a->path)) throw_io("{}: no such file or directory", io::display_location(a->path));
        throw_usage("{} is a single data file; plan splits a dataset directory into shards of fragments",
                    io::display_location(a->path));
      }
      auto ds = dataset::Dataset::open(a->path, a->version, options);
      const auto extents = dataset::fragment_extents(*ds);
      const auto shards =
          a->shards ? dataset::plan_by_count(extents, *a->shards)
                    : dataset::plan_by_bytes(
                          extents, parse_byte_size(a->shard_bytes.value_or(kDefaultShardBytes), "--shard-bytes"));
      output::OutputSink sink(1);
      sink.write(a->json ? plan_json(ds->version(), ds->num_rows(), shards) : plan_text(*ds, shards));
      sink.flush();
    };
  });
}

}  // namespace lance::app
