#include "app/stats.h"

#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/reader_options_env.h"
#include "common/error.h"

namespace lance::app {

namespace {

double ms(uint64_t ns) { return static_cast<double>(ns) / 1e6; }

std::string human_bytes(uint64_t n) {
  if (n < 1024) return fmt::format("{} B", n);
  if (n < 1024 * 1024) return fmt::format("{:.1f} KiB", n / 1024.0);
  if (n < uint64_t{1} << 30) return fmt::format("{:.1f} MiB", n / (1024.0 * 1024.0));
  return fmt::format("{:.2f} GiB", n / (1024.0 * 1024.0 * 1024.0));
}

}  // namespace

StatsReport::StatsReport(std::string mode) : mode_(std::move(mode)), start_(std::chrono::steady_clock::now()) {
  if (!mode_.empty() && mode_ != "text" && mode_ != "json")
    throw_usage("--stats takes 'text' or 'json' (got '{}')", mode_);
}

std::string StatsReport::render(uint64_t rows_out) const {
  const ReadStats& st = *reader_options().stats;
  const uint64_t total_ns = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count());
  if (mode_ == "json") {
    nlohmann::ordered_json j;
    j["requests"] = st.requests.load();
    j["iops"] = st.iops.load();
    j["bytes_read"] = st.bytes_read.load();
    j["pages"] = st.pages_touched.load();
    j["chunks"] = st.chunks_decoded.load();
    j["rows_out"] = rows_out;
    j["total_ms"] = ms(total_ns);
    j["plan_ms"] = ms(st.plan_ns.load());
    j["io_wait_ms"] = ms(st.io_wait_ns.load());
    j["decode_ms"] = ms(st.decode_ns.load());
    j["plan_wall_ms"] = ms(st.plan_wall.wall_ns());
    j["io_wait_wall_ms"] = ms(st.io_wait_wall.wall_ns());
    j["decode_wall_ms"] = ms(st.decode_wall.wall_ns());
    j["output_ms"] = ms(st.output_ns.load());
    j["http_requests"] = st.http_requests.load();
    j["http_bytes"] = st.http_bytes.load();
    j["http_retries"] = st.http_retries.load();
    j["network_wait_ms"] = ms(st.network_wait_ns.load());
    if (const uint64_t v = st.dataset_version.load())
      j["version"] = v;
    else
      j["version"] = nullptr;
    for (const auto& section : sections_)
      if (!section.json.empty()) j[section.name] = nlohmann::json::parse(section.json);
    return j.dump() + "\n";
  }
  std::string network;
  if (st.http_requests.load() > 0)
    network = fmt::format("network: {} HTTP requests, {} received, {} retries, {:.3f} ms waiting on the network\n",
                          st.http_requests.load(), human_bytes(st.http_bytes.load()), st.http_retries.load(),
                          ms(st.network_wait_ns.load()));
  const uint64_t version = st.dataset_version.load();
  return (version ? fmt::format("read:  dataset version {}\n", version) : std::string()) +
         fmt::format(
             "stats: {} requests, {} I/O operations, {} read ({} bytes), {} pages, {} chunks, {} rows out\n"
             "time:  {:.3f} ms total; wall clock per stage: {:.3f} ms planning, {:.3f} ms waiting for I/O, "
             "{:.3f} ms decoding, {:.3f} ms output\n"
             "       summed over threads: {:.3f} ms planning, {:.3f} ms waiting for I/O, {:.3f} ms decoding\n",
             st.requests.load(), st.iops.load(), human_bytes(st.bytes_read.load()), st.bytes_read.load(),
             st.pages_touched.load(), st.chunks_decoded.load(), rows_out, ms(total_ns), ms(st.plan_wall.wall_ns()),
             ms(st.io_wait_wall.wall_ns()), ms(st.decode_wall.wall_ns()), ms(st.output_ns.load()),
             ms(st.plan_ns.load()), ms(st.io_wait_ns.load()), ms(st.decode_ns.load())) +
         network + section_text();
}

std::string StatsReport::section_text() const {
  std::string out;
  for (const auto& section : sections_) out += section.text;
  return out;
}

void StatsReport::report(uint64_t rows_out) const {
  if (!enabled()) return;
  std::string s = render(rows_out);
  std::fwrite(s.data(), 1, s.size(), stderr);
  std::fflush(stderr);
}

}  // namespace lance::app
