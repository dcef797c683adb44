// Faults around the reader: signals stop a command (exit 128 + signal, no partial -o file),
// I/O errors exit 1 naming the path, a full disk on -o exits 1 and leaves nothing behind,
// bad arguments exit 2 with a one-line hint.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "cli_env.h"
#include "cli_runner.h"
#include "common/error.h"
#include "io/file.h"

using namespace lance::testing;
namespace fs = std::filesystem;

extern char** environ;

namespace {

/// Starts lance-cli with stdout into a pipe nobody reads (so a large scan blocks in
/// write), sends `sig` after `delay_ms`, and returns the wait status (-1: still running
/// 5 s after the signal; the process is then killed).
int status_after_signal(const std::vector<std::string>& args, int sig, int delay_ms, bool fill_stdout = true) {
  int out[2];
  if (pipe(out)) throw std::runtime_error("pipe");
  std::vector<std::string> argv_s = {cli_binary()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, 0);
    dup2(fill_stdout ? out[1] : devnull, 1);
    dup2(devnull, 2);
    close(out[0]);
    close(out[1]);
    execve(argv[0], argv.data(), environ);
    _exit(127);
  }
  close(out[1]);
  if (fill_stdout) {  // wait for the first output: main() is running and its handlers are set
    char c;
    if (read(out[0], &c, 1) != 1) throw std::runtime_error("no output");
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
  kill(pid, sig);
  int status = 0;
  for (int i = 0; i < 5000; ++i) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      close(out[0]);
      return status;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  close(out[0]);
  return -1;
}

}  // namespace

TEST_CASE("SIGTERM and SIGINT stop a scan blocked on its output: exit 143 / 130", "[faults][signals]") {
  // Far more output than a pipe holds: the scan blocks in write until the signal.
  const std::string file = source_path("data/fixtures/strings-v2.3.lance");
  int st = status_after_signal({"scan", file, "-f", "json"}, SIGTERM, 100);
  REQUIRE(st != -1);
  CHECK(WIFEXITED(st));
  CHECK(WEXITSTATUS(st) == 143);
  st = status_after_signal({"scan", file, "-f", "csv"}, SIGINT, 100);
  REQUIRE(st != -1);
  CHECK(WIFEXITED(st));
  CHECK(WEXITSTATUS(st) == 130);
}

TEST_CASE("A signal during a scan to -o FILE leaves no partial file", "[faults][signals]") {
  TempDir dir("faults");
  const std::string file = source_path("data/fixtures/strings-v2.3.lance");
  for (int delay : {10, 30, 60, 120}) {
    const fs::path outp = dir.path() / "out.json";
    int st = status_after_signal({"scan", file, "-f", "json", "-o", outp.string()}, SIGTERM, delay, false);
    REQUIRE(st != -1);
    INFO("delay " << delay << " ms, status " << st);
    if (WIFSIGNALED(st)) {  // killed before main() installed its handlers: nothing written yet
      CHECK(WTERMSIG(st) == SIGTERM);
    } else if (WEXITSTATUS(st) == 0) {  // finished before the signal: the whole output is there
      CHECK(fs::exists(outp));
      fs::remove(outp);
    } else {
      CHECK(WEXITSTATUS(st) == 143);
    }
    CHECK(fs::is_empty(dir.path()));  // no temporary file left behind
  }
}

TEST_CASE("A full disk on -o FILE exits 1 naming the file and removes the partial output", "[faults][io]") {
  TempDir dir("faults");
  const fs::path outp = dir.path() / "out.csv";
  // RLIMIT_FSIZE makes writes past 4 KiB fail (EFBIG), like ENOSPC on a full disk.
  int err_pipe[2];
  REQUIRE(pipe(err_pipe) == 0);
  std::vector<std::string> argv_s = {
      cli_binary(), "scan", source_path("data/fixtures/strings-v2.3.lance"), "-f", "csv", "-o", outp.string()};
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    // SIGXFSZ keeps its default action (ending the process): lance-cli ignores it itself, so
    // the write fails with EFBIG and the partial output is removed.
    rlimit rl{4096, 4096};
    setrlimit(RLIMIT_FSIZE, &rl);
    dup2(err_pipe[1], 2);
    close(err_pipe[0]);
    execve(argv[0], argv.data(), environ);
    _exit(127);
  }
  close(err_pipe[1]);
  std::string err;
  char buf[4096];
  for (ssize_t n; (n = read(err_pipe[0], buf, sizeof buf)) > 0;) err.append(buf, static_cast<size_t>(n));
  close(err_pipe[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  REQUIRE(WIFEXITED(st));
  CHECK(WEXITSTATUS(st) == 1);
  CHECK(err.find(outp.string()) != std::string::npos);
  CHECK(std::count(err.begin(), err.end(), '\n') == 1);
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("A signal while -o waits for a FIFO's reader stops with 128 + signal", "[faults][signals]") {
  TempDir dir("fifo-wait");
  const std::string fifo = dir.file("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const int st =
      status_after_signal({"scan", source_path("data/sample/products.lance"), "-o", fifo}, SIGTERM, 300, false);
  REQUIRE(WIFEXITED(st));
  CHECK(WEXITSTATUS(st) == 143);
}

TEST_CASE("I/O errors exit 1 naming the path", "[faults][io]") {
  TempDir dir("faults");
  SECTION("a file that does not exist") {
    const std::string p = (dir.path() / "nope.lance").string();
    auto r = run_cli({"scan", p});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find(p) != std::string::npos);
  }
  SECTION("a file that cannot be read") {
    if (geteuid() == 0) {
      WARN("running as root: permissions do not apply, not tested");
      return;
    }
    const fs::path p = dir.path() / "secret.lance";
    fs::copy_file(source_path("data/fixtures/ints-v2.2.lance"), p);
    fs::permissions(p, fs::perms::none);
    auto r = run_cli({"scan", p.string()});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find(p.string()) != std::string::npos);
  }
  SECTION("a directory where a file is expected") {
    auto r = run_cli({"inspect", "pages", dir.path().string()});
    CHECK(r.exit_code != 0);
    CHECK(r.exit_code != 4);
    CHECK(r.err.find(dir.path().string()) != std::string::npos);
  }
  SECTION("a data file of a dataset that vanished") {
    const fs::path ds = dir.path() / "appends";
    fs::copy(source_path("data/datasets/appends"), ds, fs::copy_options::recursive);
    fs::path victim;
    for (const auto& e : fs::directory_iterator(ds / "data")) victim = e.path();
    fs::remove(victim);
    auto r = run_cli({"scan", ds.string()});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find(victim.filename().string()) != std::string::npos);
  }
}

TEST_CASE("Bad arguments exit 2 with a one-line hint", "[faults][usage]") {
  const std::string file = source_path("data/fixtures/ints-v2.2.lance");
  auto one_line_usage = [](const CliResult& r) {
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(!r.err.empty());
    CHECK(r.out.empty());
  };
  SECTION("unknown column") {
    auto r = run_cli({"scan", file, "-c", "no_such_column"});
    one_line_usage(r);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(file + ": no column 'no_such_column'") != std::string::npos);
    const std::string ds = source_path("data/datasets/evolution");
    auto d = run_cli({"take", ds, "--rows", "0", "-c", "no_such_column"});
    one_line_usage(d);
    CHECK(d.err.find(ds + ": no column 'no_such_column'") != std::string::npos);
  }
  SECTION("unknown command") {
    auto r = run_cli({"bogus", file});
    one_line_usage(r);
    CHECK(r.err.find("unknown command 'bogus' (commands: scan, take") != std::string::npos);
  }
  SECTION("a directory that is not a dataset, for every command") {
    TempDir dir("not-a-dataset");
    for (const std::vector<std::string>& cmd :
         {std::vector<std::string>{"scan"}, {"verify"}, {"count"}, {"inspect", "meta"}}) {
      std::vector<std::string> args = cmd;
      args.push_back(dir.path().string());
      auto r = run_cli(args);
      INFO(cmd[0]);
      one_line_usage(r);
    }
    // A dataset where inspect pages wants a data file: a usage error too.
    one_line_usage(run_cli({"inspect", "pages", source_path("data/datasets/evolution")}));
  }
  SECTION("control characters in a name are escaped: the error stays one line") {
    auto r = run_cli({"take", file, "--rows-file", "-"}, "1\n\x1b[2Jx\n");
    one_line_usage(r);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find("'\\x1b[2Jx'") != std::string::npos);
    CHECK(r.err.find('\x1b') == std::string::npos);
  }
  SECTION("bad row list") {
    for (const char* rows : {"1,x", "5-2", "-3", "1,,2-", "99999999999999999999"}) {
      auto r = run_cli({"take", file, "--rows", rows});
      INFO(rows);
      one_line_usage(r);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
  }
  SECTION("row out of range") {
    auto r = run_cli({"take", file, "--rows", "0,1000000"});
    one_line_usage(r);
    CHECK(r.err.find("1000000") != std::string::npos);
  }
  SECTION("negative limit and offset") {
    one_line_usage(run_cli({"scan", file, "-n", "-5"}));
    one_line_usage(run_cli({"scan", file, "--offset", "-1"}));
    // -1 once meant "no limit" inside the parser; it is a negative limit like any other.
    for (const std::vector<std::string>& args : {std::vector<std::string>{"scan", file, "-n", "-1"},
                                                 {"scan", file, "--limit=-1"},
                                                 {"head", file, "-n", "-1"},
                                                 {"head", file, "--limit=-1"}}) {
      auto r = run_cli(args);
      INFO(args[0] << " " << args[2] << (args.size() > 3 ? " " + args[3] : ""));
      one_line_usage(r);
      CHECK(r.err.find("--limit must be") != std::string::npos);
    }
  }
  SECTION("unknown format and option") {
    one_line_usage(run_cli({"scan", file, "-f", "xml"}));
    one_line_usage(run_cli({"scan", file, "--bogus"}));
  }
  SECTION("missing arguments") {
    one_line_usage(run_cli({"scan"}));
    one_line_usage(run_cli({"take", file}));
  }
}

TEST_CASE("A file that shrinks while open gives an I/O error naming it", "[faults][io]") {
  TempDir dir("faults");
  const fs::path p = dir.path() / "shrinks.lance";
  fs::copy_file(source_path("data/fixtures/ints-v2.2.lance"), p);
  auto file = lance::io::LocalFile::open(p.string());
  const uint64_t size = file->size();
  fs::resize_file(p, size / 2);  // another process truncates it: a short read
  std::vector<uint8_t> buf(size);
  try {
    file->read_at(0, size, buf.data());
    FAIL("no error");
  } catch (const lance::Error& e) {
    CHECK(e.kind() == lance::ErrorKind::io);
    CHECK(std::string(e.what()).find(p.string()) != std::string::npos);
  }
}

TEST_CASE("SIGTERM and SIGHUP stop a take reading an endless rows stream", "[faults][signals]") {
  const std::string file = source_path("data/sample/products.lance");
  TempDir dir("faults-rows");
  const std::string out = dir.file("out.csv");
  for (int sig : {SIGTERM, SIGHUP}) {
    INFO("signal " << sig);
    int in[2];
    REQUIRE(pipe(in) == 0);
    std::vector<std::string> argv_s = {cli_binary(), "take", file,  "--rows-file", "-", "-c",
                                       "id",         "-f",   "csv", "-o",          out};
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      dup2(in[0], 0);
      close(in[0]);
      close(in[1]);
      int devnull = open("/dev/null", O_RDWR);
      dup2(devnull, 2);
      execve(argv[0], argv.data(), environ);
      _exit(127);
    }
    close(in[0]);
    // Feed rows for a while (a write that would block means the reader stalled: fine too).
    fcntl(in[1], F_SETFL, O_NONBLOCK);
    std::string chunk;
    for (int i = 0; i < 4096; ++i) chunk += "0\n";
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    while (std::chrono::steady_clock::now() < until) {
      if (write(in[1], chunk.data(), chunk.size()) < 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    kill(pid, sig);
    int st = 0;
    for (int i = 0; i < 500 && waitpid(pid, &st, WNOHANG) == 0; ++i) {
      (void)!write(in[1], chunk.data(), chunk.size());
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    close(in[1]);
    if (waitpid(pid, &st, WNOHANG) == 0) {  // still running after 5 s: the signal was lost
      kill(pid, SIGKILL);
      waitpid(pid, &st, 0);
      FAIL("lance-cli ignored the signal");
    }
    REQUIRE(WIFEXITED(st));
    CHECK(WEXITSTATUS(st) == 128 + sig);
    CHECK(dir.entries().empty());  // no output file, no temporary file
  }
}

TEST_CASE("A file shorter than a footer is corrupt (4), whatever version its last bytes spell", "[faults][corrupt]") {
  TempDir dir("tiny");
  for (const std::string& bytes :
       {std::string("garbageLANC"), std::string("\x02\x00\x09\x00LANC", 8), std::string(35, 'x') + "LANC"}) {
    const std::string p = dir.file("tiny.lance");
    write_file(p, bytes);
    auto r = run_cli({"scan", p});
    INFO(r.err);
    CHECK(r.exit_code == 4);
    CHECK(r.err.find(p + ": ") != std::string::npos);
  }
}

TEST_CASE("A dataset's data file cut short says what the manifest records - a manifest given as PATH is a usage error",
          "[faults][dataset]") {
  TempDir dir("cut");
  const fs::path ds = dir.path() / "evolution";
  fs::copy(source_path("data/datasets/evolution"), ds, fs::copy_options::recursive);
  fs::path data;
  for (const auto& e : fs::directory_iterator(ds / "data")) data = e.path();
  REQUIRE(!data.empty());
  const auto size = fs::file_size(data);
  fs::resize_file(data, size - 1);
  auto r = run_cli({"scan", ds.string(), "-f", "null"});
  INFO(r.err);
  CHECK(r.exit_code == 4);
  CHECK(r.err.find(fmt::format("the file has {} bytes, the manifest records {}: truncated?", size - 1, size)) !=
        std::string::npos);

  fs::path manifest;
  for (const auto& e : fs::directory_iterator(ds / "_versions")) manifest = e.path();
  CHECK(run_cli({"verify", manifest.string()}).exit_code == 2);
  auto m = run_cli({"scan", manifest.string()});
  CHECK(m.exit_code == 2);
  CHECK(m.err.find("is a dataset manifest, not a data file: give the dataset directory (" + ds.string() + ")") !=
        std::string::npos);
}
