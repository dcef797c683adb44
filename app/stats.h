// `--stats`: what a scan or take read and where its time went, printed on stderr.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace lance::app {

/// Measures from construction; `report` prints the counters of every read of the process
/// (the ReadStats of app::reader_options(), which all commands pass down) as of the call.
class StatsReport {
 public:
  /// `mode` is "" (off), "text" or "json"; anything else is Error(usage).
  explicit StatsReport(std::string mode);

  bool enabled() const { return !mode_.empty(); }

  /// Text: three aligned lines (after a "read:  dataset version N" line for a dataset);
  /// json: one object on one line. Fields (json names): requests, iops, bytes_read, pages,
  /// chunks, rows_out, and times in milliseconds: total_ms (wall); per stage the wall-clock
  /// time during which some thread was in it (plan_wall_ms, io_wait_wall_ms,
  /// decode_wall_ms; each <= total_ms, stages running on different threads overlap) and
  /// the time summed over threads (plan_ms, io_wait_ms, decode_ms: with parallel decode
  /// these may add up to more than total_ms); output_ms (the writer, on the main thread);
  /// network I/O (ReadStats, counted by io::HttpClient): http_requests (retries
  /// included), http_bytes, http_retries and network_wait_ms (summed over threads), text
  /// adding a "network:" line when HTTP was used; version: the dataset version read (null
  /// for a file).
  std::string render(uint64_t rows_out) const;

  /// Writes `render(rows_out)` to stderr when enabled.
  void report(uint64_t rows_out) const;

  /// What a filtered read adds: `json`, a JSON value (the "filter" member of the json form),
  /// and `text`, lines appended to the text form.
  void set_filter(std::string json, std::string text) { add_section("filter", std::move(json), std::move(text)); }

  /// A command's own part: `json` (a JSON value) becomes member `name` of the json form,
  /// `text` (whole lines) is appended to the text form. Sections keep the order they came in.
  void add_section(std::string name, std::string json, std::string text) {
    sections_.push_back({std::move(name), std::move(json), std::move(text)});
  }

 private:
  std::string section_text() const;
  std::string mode_;
  struct Section {
    std::string name, json, text;
  };
  std::vector<Section> sections_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace lance::app
