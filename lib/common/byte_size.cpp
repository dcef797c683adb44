#include "common/byte_size.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <utility>

#include "common/error.h"

namespace lance {

uint64_t parse_byte_size(std::string_view text, std::string_view option) {
  std::string_view s = text;
  auto bad = [&]() -> uint64_t {
    throw_usage("bad size '{}' for {} (expected e.g. 4096, 64MiB, 1G, 1.5GB)", text, option);
  };
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  size_t digits = 0;
  while (digits < s.size() && (std::isdigit(static_cast<unsigned char>(s[digits])) || s[digits] == '.')) ++digits;
  if (digits == 0) return bad();
  double value = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + digits, value, std::chars_format::fixed);
  if (ec != std::errc() || p != s.data() + digits) return bad();
  std::string_view rest = s.substr(digits);
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
  std::string unit;
  for (char c : rest) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::array<std::pair<const char*, double>, 14> kUnits{{
      {"", 1.0},
      {"b", 1.0},
      {"k", 0x1p10},
      {"kib", 0x1p10},
      {"m", 0x1p20},
      {"mib", 0x1p20},
      {"g", 0x1p30},
      {"gib", 0x1p30},
      {"t", 0x1p40},
      {"tib", 0x1p40},
      {"kb", 1e3},
      {"mb", 1e6},
      {"gb", 1e9},
      {"tb", 1e12},
  }};
  for (const auto& [name, scale] : kUnits) {
    if (unit != name) continue;
    const double bytes = std::floor(value * scale);
    if (!(bytes < 0x1p64)) throw_usage("size '{}' for {} is too large", text, option);
    return static_cast<uint64_t>(bytes);
  }
  return bad();
}

}  // namespace lance
