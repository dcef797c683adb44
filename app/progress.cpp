#include "app/progress.h"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "app/terminal.h"

namespace lance::app {

namespace {

constexpr std::chrono::milliseconds kRedrawInterval{250};

std::chrono::milliseconds progress_delay() {
  if (const char* env = std::getenv("LANCE_CLI_PROGRESS_DELAY_MS")) {
    long long ms = 0;
    auto [p, ec] = std::from_chars(env, env + std::strlen(env), ms);
    if (ec == std::errc() && *p == '\0' && ms >= 0) return std::chrono::milliseconds(ms);
  }
  return std::chrono::milliseconds(1000);
}

/// 1234567 → "1,234,567".
std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string human_bytes(double b) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) b /= 1024, ++u;
  return u == 0 ? fmt::format("{:.0f} {}", b, units[u]) : fmt::format("{:.1f} {}", b, units[u]);
}

std::string human_rate(double per_second) {
  if (per_second >= 1e6) return fmt::format("{:.1f}M", per_second / 1e6);
  if (per_second >= 1e4) return fmt::format("{:.0f}k", per_second / 1e3);
  return fmt::format("{:.0f}", per_second);
}

std::string duration_text(double seconds) {
  const auto s = static_cast<uint64_t>(std::llround(seconds));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

bool progress_enabled(bool quiet, bool to_stdout) {
  return !quiet && is_terminal(STDERR_FILENO) && !(to_stdout && is_terminal(STDOUT_FILENO));
}

std::string progress_line(const std::string& label, uint64_t rows, uint64_t total, uint64_t bytes, double seconds,
                          size_t width) {
  std::string line = label + " " + grouped(rows);
  if (total > 0) line += " / " + grouped(total);
  line += " rows";
  if (total > 0) line += fmt::format(" {:3.0f}%", 100.0 * static_cast<double>(rows) / static_cast<double>(total));
  line += " · " + human_bytes(static_cast<double>(bytes));
  if (seconds > 0) line += " · " + human_rate(static_cast<double>(rows) / seconds) + " rows/s";
  if (total > 0 && rows > 0 && rows < total && seconds > 0)
    line += " · ETA " + duration_text(seconds * static_cast<double>(total - rows) / static_cast<double>(rows));
  if (width > 0) {
    // Never wrap (a wrapped line cannot be redrawn with \r): cut at width - 1 code points.
    size_t cols = 0, i = 0;
    for (; i < line.size(); ++i) {
      if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue;
      if (cols == width - 1) break;
      ++cols;
    }
    line.resize(i);
  }
  return line;
}

Progress::Progress(bool enabled, std::string label, uint64_t total_rows)
    : label_(std::move(label)), total_(total_rows), start_(std::chrono::steady_clock::now()), delay_(progress_delay()) {
  if (!enabled) {
    stop_ = true;
    return;
  }
  if (delay_.count() == 0) {
    std::lock_guard lock(mutex_);
    draw();
  }
  thread_ = std::thread([this] { run(); });
}

Progress::~Progress() { finish(); }

void Progress::finish() {
  {
    std::lock_guard lock(mutex_);
    if (stop_ && !thread_.joinable() && !drawn_) return;
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  if (drawn_) {
    static const char clear[] = "\r\x1b[K";
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, clear, sizeof clear - 1);
    drawn_ = false;
  }
}

void Progress::run() {
  std::unique_lock lock(mutex_);
  if (cv_.wait_for(lock, delay_, [this] { return stop_; })) return;
  while (true) {
    draw();
    if (cv_.wait_for(lock, kRedrawInterval, [this] { return stop_; })) return;
  }
}

void Progress::draw() {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string text =
      "\r" + progress_line(label_, rows_, total_, bytes_, seconds, terminal_width(STDERR_FILENO)) + "\x1b[K";
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, text.data(), text.size());
  drawn_ = true;
}

}  // namespace lance::app
