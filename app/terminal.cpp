#include "app/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdint>
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
    case ColorMode::always:
      return true;
    case ColorMode::never:
      return false;
    case ColorMode::automatic:
      break;
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

namespace {
/// Length of the well-formed UTF-8 sequence starting at text[i] (RFC 3629: no overlong forms,
/// no surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
size_t utf8_sequence_length(std::string_view text, size_t i, uint32_t& code_point) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  size_t n;
  uint32_t cp, min;
  if (lead >= 0xc2 && lead <= 0xdf)
    n = 2, cp = lead & 0x1f, min = 0x80;
  else if (lead >= 0xe0 && lead <= 0xef)
    n = 3, cp = lead & 0x0f, min = 0x800;
  else if (lead >= 0xf0 && lead <= 0xf4)
    n = 4, cp = lead & 0x07, min = 0x10000;
  else
    return 0;
  if (i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  code_point = cp;
  return n;
}
}  // namespace

std::string escape_controls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t n = c < 0x80 ? 0 : utf8_sequence_length(text, i, cp);
    if (n > 0 && cp >= 0xa0) {  // a printable character beyond ASCII: kept
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    // A C0/C1 control, DEL, or a byte that is not part of well-formed UTF-8: escaped byte by byte.
    const size_t escaped = std::max<size_t>(n, 1);
    for (size_t k = 0; k < escaped; ++k) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[i + k]));
    i += escaped;
  }
  return out;
}

}  // namespace lance::app
