// Fuzz target: each compressive decoder kernel fed a raw buffer. The first byte picks the
// decoder, the next bytes its parameters; the rest is the buffer (copied to its own heap
// block so that AddressSanitizer sees any read past its end).
#include "encoding/bitpacking.h"
#include "encoding/byte_stream_split.h"
#include "encoding/fsst.h"
#include "encoding/general.h"
#include "encoding/rle.h"
#include "encoding/variable.h"
#include "fuzz_input.h"

using namespace lance;
using namespace lance::encoding;

namespace {
const unsigned kWordBits[] = {8, 16, 32, 64};
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::FuzzInput in(data, size);
  const uint8_t which = in.take<uint8_t>();
  const uint8_t p1 = in.take<uint8_t>();
  const uint8_t p2 = in.take<uint8_t>();
  const uint64_t num_values = in.take<uint32_t>() % (1u << 18);
  const uint16_t split = in.take<uint16_t>();
  ByteView rv = in.rest();
  Bytes buf(rv.data(), rv.data() + rv.size());
  ByteView b(buf);
  const size_t cut = std::min<size_t>(split, buf.size());
  Bytes first(buf.begin(), buf.begin() + cut), second(buf.begin() + cut, buf.end());

  fuzz::expect_error_or_success([&] {
    switch (which % 10) {
      case 0:  // InlineBitpacking chunks
        unpack_inline_bitpacking(b, kWordBits[p1 % 4], num_values, p2 & 1);
        break;
      case 1: {  // OutOfLineBitpacking
        unsigned word = kWordBits[p1 % 4];
        unpack_out_of_line_bitpacking(b, word, p2 % (word + 1), num_values);
        break;
      }
      case 2:  // RLE runs: values | lengths
        rle_expand(first, second, kWordBits[p1 % 4], kWordBits[p2 % 3], num_values, (p2 >> 4) & 1);
        break;
      case 3: {  // block-form RLE
        auto parts = split_rle_block(b);
        uint64_t total = rle_total_length(parts.run_lengths, kWordBits[p2 % 3]);
        if (total <= (1u << 20))
          rle_expand(parts.values, parts.run_lengths, kWordBits[p1 % 4], kWordBits[p2 % 3], total, false);
        break;
      }
      case 4: {  // FSST: symbol table | code stream
        auto table = parse_fsst_symbol_table(first);
        Bytes out;
        fsst_decode_append(table, second, out);
        break;
      }
      case 5:  // Variable, mini-block chunk form
        decode_variable_chunk(b, (p1 & 1) ? 64 : 32, num_values);
        break;
      case 6:  // Variable, block form
        decode_variable_block(b, num_values);
        break;
      case 7:
        zstd_decompress(b);
        break;
      case 8:
        lz4_decompress(b);
        break;
      case 9:  // ByteStreamSplit
        byte_stream_unsplit(b, 1 + p1 % 16, num_values);
        break;
    }
  });
  return 0;
}
