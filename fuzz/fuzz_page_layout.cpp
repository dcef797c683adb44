// Fuzz target: one 2.1+ page — its PageLayout protobuf and page buffers — decoded by the
// page decoders (mini-block, full-zip, constant, dictionary, blob, all-null…).
//
// Input: [u16 layout length][PageLayout bytes][u8 leaf type][u8 version minor 1..3]
//        [u32 page rows][u8 buffer count][u32 buffer sizes…][buffer bytes…]
// (fuzz/extract_seeds writes real pages in this form.)
#include "format/file_reader.h"
#include "fuzz_input.h"
#include "io/file.h"
#include "read/page_batch_planner.h"
#include "structural/page_decoder.h"

using namespace lance;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::FuzzInput in(data, size);
  const uint16_t layout_len = in.take<uint16_t>();
  ByteView layout_bytes = in.bytes(layout_len);
  const uint8_t type_sel = in.take<uint8_t>();
  const uint8_t minor = in.take<uint8_t>();
  const uint32_t num_rows = in.take<uint32_t>() % (1u << 20);
  const uint8_t nbuf = in.take<uint8_t>() % 16;
  std::vector<uint32_t> sizes;
  for (uint8_t i = 0; i < nbuf; ++i) sizes.push_back(in.take<uint32_t>());
  ByteView rest = in.rest();

  auto layout = std::make_shared<encodings21::PageLayout>();
  if (!layout->ParseFromArray(layout_bytes.data(), static_cast<int>(layout_bytes.size()))) return 0;

  format::PageInfo page;
  page.num_rows = num_rows;
  page.layout = layout;
  uint64_t pos = 0;
  for (uint32_t s : sizes) {
    uint64_t len = std::min<uint64_t>(s, rest.size() - pos);
    page.buffers.push_back({pos, len});
    pos += len;
  }
  auto mem = std::make_shared<io::MemoryFile>("fuzz.lance", Bytes(rest.data(), rest.data() + rest.size()));
  io::IoOptions opts;
  opts.io_threads = 1;
  io::IoScheduler io(mem, opts);

  structural::PageContext ctx;
  ctx.page = &page;
  ctx.version = {2, static_cast<uint16_t>(1 + minor % 3)};
  ctx.leaf_type = fuzz::pick_type(type_sel);
  ctx.file_size = mem->size();
  fuzz::expect_error_or_success([&] {
    auto dec = structural::make_page_decoder(ctx);
    if (num_rows == 0) return;
    read::read_page_rows(*dec, io, 0, num_rows);
  });
  fuzz::expect_error_or_success([&] {
    auto dec = structural::make_page_decoder(ctx);
    if (num_rows < 3) return;
    read::read_page_rows(*dec, io, num_rows / 3, num_rows / 3 + 1);  // a take-style read from the middle
  });
  return 0;
}
