// Byte sizes as users type them ("64MiB", "1G", "1.5GB", "4096"); printing is inspect::format_bytes.
#pragma once

#include <cstdint>
#include <string_view>

namespace lance {

/// Parses a size in bytes: a number (decimals allowed) and an optional unit, case-insensitive,
/// blanks between allowed: B; K, KiB = 2^10; M, MiB = 2^20; G, GiB = 2^30; T, TiB = 2^40 (binary,
/// as GNU tools read K/M/G); KB = 10^3, MB = 10^6, GB = 10^9, TB = 10^12. The result is rounded
/// down to whole bytes. Throws Error(usage) naming `option` for anything else, or a size of
/// 2^64 bytes or more.
uint64_t parse_byte_size(std::string_view text, std::string_view option);

}  // namespace lance
