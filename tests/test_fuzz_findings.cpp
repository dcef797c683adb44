// Findings of the fuzz targets (fuzz/) and of the corrupt-file suite, as unit tests that
// check the typed error (the raw inputs are also replayed from data/fuzz-regressions/).
#include <catch2/catch.hpp>

#include "common/error.h"
#include "encoding/general.h"

using lance::Bytes;
using lance::ErrorKind;

namespace {

template <typename Fn>
ErrorKind error_kind(Fn&& fn) {
  try {
    fn();
  } catch (const lance::Error& e) {
    return e.kind();
  }
  FAIL("no error thrown");
  return ErrorKind::io;
}

}  // namespace

TEST_CASE("fuzz: a bare zstd frame declaring 3.7 GB from 8 bytes is corrupt, not allocated", "[fuzz-findings]") {
  // fuzz_compressive oom-e2c447ee: frame header content size 0xdcdc275d..., 15 bytes of input.
  const Bytes frame = {0x28, 0xb5, 0x2f, 0xfd, 0x80, 0x00, 0x5d, 0xdc, 0xdc, 0xdc, 0x27, 0xdc, 0xdc, 0x1e};
  CHECK(error_kind([&] { lance::encoding::zstd_decompress(frame); }) == ErrorKind::corrupt);
}
