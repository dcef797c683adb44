// lance::Recycled (lib/common/recycled.h): per-thread reuse of decoding's per-chunk vectors.
#include <catch2/catch.hpp>

#include <cstdint>
#include <thread>
#include <vector>

#include "common/recycled.h"
#include "encoding/decompress.h"

namespace {

// A type of the tests' own, so the lists the decoders use stay out of the counts.
struct Item {
  uint64_t a = 0, b = 0;
};
using R = lance::Recycled<Item>;

void drain() {
  while (R::kept_bytes() > 0) (void)R::take(SIZE_MAX);
}

}  // namespace

TEST_CASE("recycled vectors: a vector given back is handed out again, empty, with its storage",
          "[encoding][recycled]") {
  drain();
  std::vector<Item> v(100);
  const Item* storage = v.data();
  R::give(std::move(v));
  CHECK(R::kept_bytes() == 100 * sizeof(Item));
  std::vector<Item> w = R::take(100);
  CHECK(w.empty());
  CHECK(w.capacity() == 100);
  CHECK(w.data() == storage);
  CHECK(R::kept_bytes() == 0);
  CHECK(R::take(100).capacity() == 0);  // nothing kept: a new, empty vector
}

TEST_CASE("recycled vectors: a small request does not get a much larger vector", "[encoding][recycled]") {
  drain();
  const size_t big = R::kMaxBytes / sizeof(Item);
  R::give(std::vector<Item>(big));
  CHECK(R::take(10).capacity() == 0);         // kept for a request of its size
  CHECK(R::take(big / 4).capacity() == big);  // a quarter of it is enough
  R::give(std::vector<Item>(8));              // small vectors go to anyone
  CHECK(R::take(1).capacity() == 8);
}

TEST_CASE("recycled vectors: bounded per vector and per thread, a list for each thread", "[encoding][recycled]") {
  drain();
  R::give(std::vector<Item>(R::kMaxBytes / sizeof(Item) + 1));  // over a vector's bound: freed
  R::give(std::vector<Item>());                                 // no storage: nothing to keep
  CHECK(R::kept_bytes() == 0);
  const size_t each = R::kMaxBytes / sizeof(Item);
  for (size_t i = 0; i < R::kMaxKeptBytes / R::kMaxBytes + 3; ++i) R::give(std::vector<Item>(each));
  CHECK(R::kept_bytes() == R::kMaxKeptBytes);  // the thread's bound: the last ones were freed
  size_t other = 1;
  std::thread([&] { other = R::kept_bytes(); }).join();
  CHECK(other == 0);
  drain();
}

TEST_CASE("recycled vectors: levels decoded into recycled storage hold only their own values", "[encoding][recycled]") {
  // Levels of a Flat 16-bit encoding decoded after a longer vector of other levels went back:
  // the result has exactly the new count and values.
  lance::encodings21::CompressiveEncoding flat;
  flat.mutable_flat()->set_bits_per_value(16);
  lance::Recycled<uint16_t>::give(std::vector<uint16_t>(5000, 7));
  const std::vector<uint8_t> bytes = {1, 0, 2, 0, 3, 0};
  const auto levels = lance::encoding::decode_levels(flat, lance::ByteView(bytes), 3);
  CHECK(levels == std::vector<uint16_t>{1, 2, 3});
}
