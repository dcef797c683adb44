// Hostile variants of real Lance files for the corrupt-file suite (test_corrupt_files.cpp):
// truncations and holes at every structural boundary, 0x00/0xFF fills, and seeded byte
// flips in metadata and in page data. Boundaries come from the library's own FileReader
// on the intact file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lance::testing {

/// A seed from a name that is the same with every compiler and standard library (64-bit
/// FNV-1a; std::hash is not specified), so a failing variant can be reproduced anywhere.
constexpr uint64_t stable_seed(std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

/// One region of a Lance file, e.g. "column 3 metadata" or "column 0 page 1 buffer 0".
struct FileRegion {
  std::string what;
  uint64_t offset = 0;
  uint64_t length = 0;
  bool metadata = false;  ///< footer, offset tables, column metadata, global buffers
};

/// The structural regions of `path` (an intact Lance 2.x file).
std::vector<FileRegion> file_regions(const std::string& path);

/// A mutated copy of a file.
struct Variant {
  std::string name;  ///< what was done, for failure messages
  std::string bytes;
};

/// Variants of `original` (the bytes of a file whose regions are `regions`): for each
/// region a truncation at its start and middle, a hole (region removed) and a fill with
/// 0xFF; then `meta_flips` variants with bytes flipped in metadata regions and
/// `data_flips` with bytes flipped in page buffers. Deterministic for a given `seed`.
std::vector<Variant> make_variants(const std::string& original, const std::vector<FileRegion>& regions, uint64_t seed,
                                   int meta_flips, int data_flips);

/// Variants of a file without known structure (manifests, deletion files): truncations
/// and random byte flips.
std::vector<Variant> make_blind_variants(const std::string& original, uint64_t seed, int count);

}  // namespace lance::testing
