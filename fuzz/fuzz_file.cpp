// Fuzz target: a whole Lance data file. Footer, offset tables, file descriptor, schema and
// column metadata are parsed; then the first rows of every field are read (scan) and a
// few rows taken, through the same readers the CLI uses.
#include <cstdlib>

#include "format/file_reader.h"
#include "fuzz_input.h"
#include "io/file.h"
#include "read/file_scanner.h"

using namespace lance;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("LANCE_CLI_DECODE_TASKS", "inline", 1);  // decode on this thread: simpler stacks
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expect_error_or_success([&] {
    auto mem = std::make_shared<io::MemoryFile>("fuzz.lance", Bytes(data, data + size));
    io::IoOptions opts;
    opts.io_threads = 1;
    auto file = format::FileReader::open(mem, opts);
    std::vector<size_t> fields;
    for (size_t i = 0; i < file->schema().fields.size(); ++i) fields.push_back(i);
    read::FileRowReader reader(file, fields);
    const uint64_t n = std::min<uint64_t>(reader.num_rows(), 4096);
    if (n > 0) {
      reader.read_range(0, n);
      std::vector<uint64_t> rows = {n - 1, 0, n / 2};
      reader.take(rows);
    }
  });
  return 0;
}
