// OutputSink: buffering, a closed reader (EPIPE) and a full disk.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "common/error.h"
#include "test_output_util.h"

using namespace lance;
using namespace lance::output;
using namespace lance::test;

TEST_CASE("sink buffers small writes and passes large ones through", "[output][sink]") {
  std::FILE* file = std::tmpfile();
  const int fd = fileno(file);
  {
    OutputSink sink(fd, 8);
    sink.write("abc");
    CHECK(read_all(fd).empty());  // still buffered
    sink.write("defgh");          // fills the block exactly
    CHECK(read_all(fd).empty());
    sink.write("ij");  // spills the full block
    CHECK(read_all(fd) == "abcdefgh");
    sink.write(std::string(20, 'x'));  // larger than the block: flushed, then written directly
    CHECK(read_all(fd) == "abcdefghij" + std::string(20, 'x'));
    sink.write("end");
    sink.flush();
    CHECK(sink.bytes_written() == 33);
  }
  CHECK(read_all(fd) == "abcdefghij" + std::string(20, 'x') + "end");
  std::fclose(file);
}

TEST_CASE("sink flushes on destruction", "[output][sink]") {
  std::FILE* file = std::tmpfile();
  { OutputSink(fileno(file)).write("tail"); }
  CHECK(read_all(fileno(file)) == "tail");
  std::fclose(file);
}

TEST_CASE("a closed pipe throws OutputClosed", "[output][sink]") {
  // As in main: SIGPIPE ignored, so EPIPE arrives as an errno.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  REQUIRE(sigaction(SIGPIPE, &ignore, &previous) == 0);
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  ::close(fds[0]);
  {
    OutputSink sink(fds[1], 64);
    sink.write("some rows\n");
    CHECK_THROWS_AS(sink.flush(), OutputClosed);
    sink.write("more");  // after a failure: a no-op, and the destructor stays quiet
    CHECK_NOTHROW(sink.flush());
  }
  {
    OutputSink sink(fds[1], 4);
    CHECK_THROWS_AS(sink.write("larger than the block"), OutputClosed);
  }
  {
    OutputSink sink(fds[1]);
    auto writer = make_text_writer(OutputFormat::jsonl, sink, {});
    std::vector<FieldPtr> fields = {field("v", make_type(TypeId::int8))};
    writer->begin(fields);
    writer->write(batch_of(fields, {fixed<int8_t>(make_type(TypeId::int8), {1, 2})}));
    CHECK_THROWS_AS(writer->finish(), OutputClosed);
  }
  ::close(fds[1]);
  sigaction(SIGPIPE, &previous, nullptr);
}

TEST_CASE("a full device throws an io Error", "[output][sink]") {
  const int fd = ::open("/dev/full", O_WRONLY);
  if (fd < 0) return;  // not on this system
  OutputSink sink(fd, 16);
  sink.write("x");
  try {
    sink.flush();
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::io);
    CHECK(std::string(e.what()) == "cannot write output: No space left on device");
  }
  ::close(fd);
}

TEST_CASE("a non-blocking pipe that fills up is waited on", "[output][sink]") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  REQUIRE(fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK) == 0);
  const std::string payload(1 << 20, 'p');  // larger than a pipe's 64 KiB buffer
  size_t received = 0;
  std::thread reader([&] {
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) received += static_cast<size_t>(n);
  });
  {
    OutputSink sink(fds[1], 4096);
    sink.write(payload);
    sink.flush();
  }
  ::close(fds[1]);
  reader.join();
  ::close(fds[0]);
  CHECK(received == payload.size());
}
