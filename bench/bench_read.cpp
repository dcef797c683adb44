// Library-level benchmark of scans and takes, with no process start: opens a table through
// dataset::open_table (as the CLI does), then scans or takes in a loop and prints the time
// of each iteration. Decoded batches are dropped (like `-f null`).
//
//   cmake --build build --target bench_read
//   build/bench_read PATH scan [-c COL,COL] [-n ITERS] [--batch-size N]
//   build/bench_read PATH take --rows-file FILE [-c COL,COL] [-n ITERS]
//
// Two series per run:
//   cold metadata: every iteration opens the table again (manifest, data-file footers and
//                  column metadata read and parsed again; the OS page cache stays warm);
//   warm metadata: one open table, read again and again (what an embedding process that
//                  keeps the table open pays per query; compare with Lance's warm figures).
// Prints, per series, min / median / max milliseconds per iteration. Not part of the tests.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "dataset/table_reader.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Args {
  std::string path, mode;
  std::vector<std::string> columns;
  std::vector<uint64_t> rows;
  int iters = 20;
  uint64_t batch_size = 8192;
};

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: bench_read PATH scan|take [--rows-file FILE] [-c COL,COL] [-n ITERS] [--batch-size N]\n");
  std::exit(2);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

Args parse(int argc, char** argv) {
  if (argc < 3) usage();
  Args a;
  a.path = argv[1];
  a.mode = argv[2];
  if (a.mode != "scan" && a.mode != "take") usage();
  for (int i = 3; i < argc; ++i) {
    std::string k = argv[i];
    if (i + 1 >= argc) usage();
    std::string v = argv[++i];
    if (k == "-c")
      a.columns = split(v, ',');
    else if (k == "-n")
      a.iters = std::max(1, std::atoi(v.c_str()));
    else if (k == "--batch-size")
      a.batch_size = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--rows-file") {
      std::ifstream f(v);
      std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      for (char& c : text)
        if (c == '\n') c = ',';
      for (const auto& r : split(text, ',')) a.rows.push_back(std::strtoull(r.c_str(), nullptr, 10));
    } else
      usage();
  }
  if (a.mode == "take" && a.rows.empty()) usage();
  return a;
}

/// One read through `table`; returns the rows decoded.
uint64_t run_once(lance::dataset::TableReader& table, const Args& a) {
  if (a.mode == "take") return table.take(a.rows).num_rows;
  uint64_t rows = 0;
  table.scan(0, table.num_rows(), a.batch_size, [&](lance::RecordBatch b) { rows += b.num_rows; });
  return rows;
}

std::unique_ptr<lance::dataset::TableReader> open(const Args& a) {
  lance::dataset::TableOptions opts;
  opts.columns = a.columns;
  return lance::dataset::open_table(a.path, opts);
}

void report(const char* what, std::vector<double> ms, uint64_t rows) {
  std::sort(ms.begin(), ms.end());
  std::printf("%-14s %6zu iterations  min %8.3f ms  median %8.3f ms  max %8.3f ms  (%llu rows)\n", what, ms.size(),
              ms.front(), ms[ms.size() / 2], ms.back(), static_cast<unsigned long long>(rows));
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  try {
    uint64_t rows = 0;
    std::vector<double> cold, warm;
    for (int i = 0; i < a.iters; ++i) {
      auto t0 = Clock::now();
      auto table = open(a);
      rows = run_once(*table, a);
      cold.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    auto table = open(a);
    run_once(*table, a);  // the first read loads the column metadata
    for (int i = 0; i < a.iters; ++i) {
      auto t0 = Clock::now();
      rows = run_once(*table, a);
      warm.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::string cols;
    for (const auto& c : a.columns) cols += (cols.empty() ? " -c " : ",") + c;
    std::printf("%s %s%s\n", a.mode.c_str(), a.path.c_str(), cols.c_str());
    report("cold metadata", cold, rows);
    report("warm metadata", warm, rows);
  } catch (const lance::Error& e) {
    std::fprintf(stderr, "bench_read: %s\n", e.what());
    return 1;
  }
  return 0;
}
