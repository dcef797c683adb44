#include "app/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"

namespace lance::app {

namespace {

std::atomic<ColorMode> g_color_mode{ColorMode::automatic};

}  // namespace

ColorMode parse_color_mode(std::string_view name) {
  if (name == "auto") return ColorMode::automatic;
  if (name == "always") return ColorMode::always;
  if (name == "never") return ColorMode::never;
  throw_usage("--color must be auto, always or never (got '{}')", name);
}

void set_color_mode(ColorMode mode) { g_color_mode = mode; }
ColorMode color_mode() { return g_color_mode; }

bool is_terminal(int fd) { return ::isatty(fd) == 1; }

bool use_color(int fd) {
  switch (color_mode()) {
    case ColorMode::always: return true;
    case ColorMode::never: return false;
    case ColorMode::automatic: break;
  }
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return is_terminal(fd);
}

size_t terminal_width(int fd) {
  winsize ws{};
  if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* cols = std::getenv("COLUMNS")) {
    size_t n = 0;
    auto [p, ec] = std::from_chars(cols, cols + std::strlen(cols), n);
    if (ec == std::errc() && *p == '\0' && n > 0) return n;
  }
  return 0;
}

std::string paint(std::string_view text, std::string_view sgr, bool color) {
  if (!color) return std::string(text);
  std::string out = "\x1b[";
  out += sgr;
  out += 'm';
  out += text;
  out += "\x1b[0m";
  return out;
}

std::string error_prefix() { return paint("lance-cli:", "1;31", use_color(STDERR_FILENO)); }

std::string escape_controls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += static_cast<char>(c);
  }
  return out;
}

}  // namespace lance::app
