// Fuzz target: a whole Lance data file. Footer, offset tables, file descriptor, schema and
// column metadata are parsed; then the first rows of every field are read (scan) and a
// few rows taken, through the same readers the CLI uses.
#include "format/file_reader.h"
#include "fuzz_input.h"
#include "io/file.h"
#include "read/row_reader.h"

using namespace lance;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expect_error_or_success([&] {
    auto mem = std::make_shared<io::MemoryFile>("fuzz.lance", Bytes(data, data + size));
    read::ReaderOptions opts;
    opts.io.io_threads = 1;
    opts.decode_mode = read::DecodeMode::inline_run;  // decode on this thread: simpler stacks
    auto file = format::FileReader::open(mem, opts.io);
    std::vector<size_t> fields;
    for (size_t i = 0; i < file->schema().fields.size(); ++i) fields.push_back(i);
    read::FileRowReader reader(file, fields, opts);
    const uint64_t n = std::min<uint64_t>(reader.num_rows(), 4096);
    if (n > 0) {
      reader.read_range(0, n);
      std::vector<uint64_t> rows = {n - 1, 0, n / 2};
      reader.take(rows);
    }
  });
  return 0;
}
