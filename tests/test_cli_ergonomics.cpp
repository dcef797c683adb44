// CLI ergonomics (#12): progress on a terminal, count/head/schema, -o on failure, -v,
// --version, colour policy, and "did you mean" for unknown columns everywhere.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <future>
#include <sstream>

#include "../app/malloc_tuning.h"
#include "../app/storage_config.h"
#include "cli_env.h"
#include "cli_runner.h"
#include "common/read_stats.h"
#include "dataset/row_count.h"
#include "fixtures.h"
#include "format/file_reader.h"
#include "missing_component.h"
#include "output/table_writer.h"
#include "structural/page_decoder.h"

using namespace lance::testing;
using nlohmann::json;

namespace {

const std::string kSample = "data/sample/products.lance";

std::string sample() { return source_path(kSample); }

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

/// A copy of products.lance whose page buffers (everything before the first column's
/// metadata) are overwritten with 0xFF: metadata intact, data garbage.
std::string corrupt_copy(const TempDir& dir) {
  const std::string path = dir.file("garbled.lance");
  std::string bytes = read_text(sample());
  auto file = lance::format::FileReader::open(sample());
  uint64_t data_end = file->footer().column_meta_start;
  for (const auto& g : file->global_buffers()) data_end = std::min(data_end, g.offset);
  for (uint64_t i = 0; i < data_end; ++i) bytes[i] = '\xff';
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

// ---------------------------------------------------------------- count

TEST_CASE("count: rows of a data file and of datasets (deletions subtracted)", "[cli][count]") {
  auto r = run_cli({"count", sample()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "2000\n");

  const json& index = lance::testing::dataset_index();
  for (const auto& ds : index["datasets"]) {
    const std::string dir = source_path("data/" + ds["dir"].get<std::string>());
    for (const auto& v : ds["versions"]) {
      INFO(dir << " version " << v["version"]);
      auto c = run_cli({"count", dir, "--version", std::to_string(v["version"].get<int>())});
      INFO(c.err);
      REQUIRE(c.exit_code == 0);
      CHECK(c.out == std::to_string(v["num_rows"].get<uint64_t>()) + "\n");
      if (v.value("latest", false)) CHECK(run_cli({"count", dir}).out == c.out);
    }
  }
  auto j = run_cli({"count", source_path("data/datasets/appends"), "--json"});
  REQUIRE(j.exit_code == 0);
  auto doc = json::parse(j.out);
  CHECK(doc["rows"] == 247);
  CHECK(doc["deleted_rows"].get<uint64_t>() > 0);

  CHECK(run_cli({"count", sample(), "--version", "1"}).exit_code == 2);
  CHECK(run_cli({"count", source_path("data/nope.lance")}).exit_code == 1);
}

TEST_CASE("count reads no data pages", "[cli][count]") {
  lance::read::ReaderOptions opts;
  opts.stats = std::make_shared<lance::ReadStats>();
  CHECK(lance::dataset::count_rows(sample(), std::nullopt, opts).rows == 2000);
  CHECK(lance::dataset::count_rows(source_path("data/datasets/appends"), std::nullopt, opts).rows == 247);
  CHECK(opts.stats->requests > 0);  // the counters are the ones the reads used
  CHECK(opts.stats->pages_touched == 0);
  CHECK(opts.stats->chunks_decoded == 0);

  // Garbage in every page: count still answers (it never looks at them), scan does not.
  TempDir dir("count");
  const std::string garbled = corrupt_copy(dir);
  auto c = run_cli({"count", garbled});
  INFO(c.err);
  CHECK(c.exit_code == 0);
  CHECK(c.out == "2000\n");
  auto s = run_cli({"scan", garbled, "-f", "csv"});
  CHECK(s.exit_code != 0);
}

// ---------------------------------------------------------------- -o FILE

TEST_CASE("output file: a run that fails while writing leaves no -o FILE behind", "[cli][output]") {
  TempDir dir("output");
  const std::string garbled = corrupt_copy(dir);
  const std::string out = dir.file("out.csv");
  for (const std::vector<std::string>& cmd :
       {std::vector<std::string>{"scan", garbled, "-f", "csv", "-o", out},
        std::vector<std::string>{"take", garbled, "--rows", "0-1999", "-f", "jsonl", "-o", out}}) {
    auto r = run_cli(cmd);
    INFO(cmd[0] << ": " << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.exit_code != 2);
    CHECK(dir.entries() == std::vector<std::string>{"garbled.lance"});  // no out.csv, no temporary file
  }
  // An existing file is left as it was.
  std::ofstream(out) << "before\n";
  CHECK(run_cli({"scan", garbled, "-f", "csv", "-o", out}).exit_code != 0);
  CHECK(read_text(out) == "before\n");
  CHECK(dir.entries() == std::vector<std::string>{"garbled.lance", "out.csv"});
  // And a good run replaces it.
  REQUIRE(run_cli({"scan", sample(), "-n", "3", "-f", "csv", "-o", out}).exit_code == 0);
  CHECK(read_text(out) == run_cli({"scan", sample(), "-n", "3", "-f", "csv"}).out);
}

TEST_CASE("output file: -o writes into devices, FIFOs and links instead of replacing them", "[cli][output]") {
  TempDir dir("output-kinds");
  const auto expected = run_cli({"scan", sample(), "-n", "3", "-f", "csv"}).out;
  REQUIRE(!expected.empty());

  // A symbolic link to a regular file stays a link; the file it names gets the output.
  const std::string target = dir.file("target.csv"), link = dir.file("link.csv");
  std::ofstream(target) << "before\n";
  ::chmod(target.c_str(), 0640);
  std::filesystem::create_symlink("target.csv", link);
  REQUIRE(run_cli({"scan", sample(), "-n", "3", "-f", "csv", "-o", link}).exit_code == 0);
  CHECK(std::filesystem::is_symlink(link));
  CHECK(read_text(target) == expected);
  // An existing file keeps its permission bits.
  struct stat st {};
  REQUIRE(::stat(target.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(dir.entries() == std::vector<std::string>{"link.csv", "target.csv"});

  // A device is written to, not replaced: /dev/null stays a character device.
  REQUIRE(run_cli({"scan", sample(), "-n", "3", "-f", "csv", "-o", "/dev/null"}).exit_code == 0);
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  // A full device is an I/O error (exit 1) naming the path.
  if (::access("/dev/full", W_OK) == 0) {
    auto full = run_cli({"scan", sample(), "-f", "csv", "-o", "/dev/full"});
    CHECK(full.exit_code == 1);
    CHECK(full.err.find("/dev/full") != std::string::npos);
    REQUIRE(::stat("/dev/full", &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
  }

  // A FIFO: the reader at its other end gets the output.
  const std::string fifo = dir.file("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto reader = std::async(std::launch::async, [&] { return read_text(fifo); });
  REQUIRE(run_cli({"scan", sample(), "-n", "3", "-f", "csv", "-o", fifo}).exit_code == 0);
  CHECK(reader.get() == expected);
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));

  // A directory is a usage error.
  CHECK(run_cli({"scan", sample(), "-n", "3", "-o", dir.path().string()}).exit_code == 2);
}

TEST_CASE("null text option: --null TEXT is encoded like a value: a separator or quote in it keeps the lines whole",
          "[cli][output]") {
  const std::string ds = source_path("data/datasets/evolution");
  auto csv = run_cli({"scan", ds, "-n", "3", "-c", "id,nul", "-f", "csv", "--null", ","});
  INFO(csv.err);
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out == "id,nul\n0,\",\"\n1,\",\"\n2,\",\"\n");
  auto quote = run_cli({"scan", ds, "-n", "1", "-c", "id,nul", "-f", "csv", "--null", "\""});
  CHECK(quote.out == "id,nul\n0,\"\"\"\"\n");
  auto tsv = run_cli({"scan", ds, "-n", "1", "-c", "id,nul", "-f", "tsv", "--null", "\t"});
  CHECK(tsv.out == "id\tnul\n0\t\\t\n");
  // The usual choices are written as given.
  CHECK(run_cli({"scan", ds, "-n", "1", "-c", "id,nul", "-f", "csv", "--null", "NULL"}).out == "id,nul\n0,NULL\n");
  CHECK(run_cli({"scan", ds, "-n", "1", "-c", "id,nul", "-f", "csv"}).out == "id,nul\n0,\n");
}

TEST_CASE("numeric options are decimal: leading zeros do not make octal, 0x is refused", "[cli]") {
  auto ten = run_cli({"scan", sample(), "-n", "010", "-c", "id", "-f", "csv", "--no-header"});
  CHECK(lines(ten.out).size() == 10);
  auto off = run_cli({"scan", sample(), "--offset", "010", "-n", "1", "-c", "id", "-f", "csv", "--no-header"});
  CHECK(off.out ==
        run_cli({"scan", sample(), "--offset", "10", "-n", "1", "-c", "id", "-f", "csv", "--no-header"}).out);
  CHECK(run_cli({"scan", sample(), "-n", "08", "-c", "id", "-f", "null"}).exit_code == 0);
  auto hex = run_cli({"scan", sample(), "-n", "0x10"});
  CHECK(hex.exit_code == 2);
  CHECK(hex.err.find("0x10") != std::string::npos);
  CHECK(run_cli({"scan", sample(), "--batch-size", "1e3"}).exit_code == 2);
}

TEST_CASE("columns option: -c takes one comma-separated list per flag: it never swallows the path", "[cli]") {
  const auto want = run_cli({"scan", sample(), "-n", "2", "-c", "id,name"}).out;
  REQUIRE(!want.empty());
  CHECK(run_cli({"scan", "-c", "id,name", sample(), "-n", "2"}).out == want);
  CHECK(run_cli({"scan", sample(), "-c", "id", "-c", "name", "-n", "2"}).out == want);
  auto extra = run_cli({"scan", sample(), "-c", "id", "name"});
  CHECK(extra.exit_code == 2);
  CHECK(extra.err.find("name") != std::string::npos);
  CHECK(run_cli({"take", "-c", "id", sample(), "--rows", "1"}).exit_code == 0);
  // A column named twice would repeat a JSON key.
  for (const char* cmd : {"scan", "head"}) {
    auto twice = run_cli({cmd, sample(), "-c", "id,name,id"});
    CHECK(twice.exit_code == 2);
    CHECK(twice.err.find("column 'id' is named twice") != std::string::npos);
  }
}

// ---------------------------------------------------------------- head

TEST_CASE("head: JSONL of the first 10 rows when piped - -n, -c, -f", "[cli][head]") {
  auto h = run_cli({"head", sample()});
  INFO(h.err);
  REQUIRE(h.exit_code == 0);
  CHECK(h.out == run_cli({"scan", sample(), "--limit", "10", "-f", "jsonl"}).out);

  auto csv = run_cli({"head", sample(), "-n", "3", "-c", "id,name", "-f", "csv"});
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out == run_cli({"scan", sample(), "-n", "3", "-c", "id,name", "-f", "csv"}).out);

  const std::string ds = source_path("data/datasets/appends");
  CHECK(run_cli({"head", ds, "-n", "5"}).out == run_cli({"scan", ds, "-n", "5"}).out);
  CHECK(run_cli({"head", ds, "-n", "5", "--version", "1"}).out ==
        run_cli({"scan", ds, "-n", "5", "--version", "1"}).out);
  CHECK(run_cli({"head", sample(), "-f", "xml"}).exit_code == 2);
}

TEST_CASE("head -f table: aligned columns cut to the terminal width", "[cli][head]") {
  ScopedEnv cols("COLUMNS", "60");
  auto t = run_cli({"head", sample(), "-n", "4", "-f", "table"});
  INFO(t.err);
  REQUIRE(t.exit_code == 0);
  std::istringstream in(t.out);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 6);                     // header, rule, 4 rows
  CHECK(lines[0].rfind("    id  name", 0) == 0);  // numbers (and their header) right-aligned
  CHECK(contains(lines[0], "name"));
  CHECK(contains(lines[1], "──"));
  for (const auto& line : lines) CHECK(lance::output::display_width(line) <= 60);
  CHECK(contains(t.out, "…"));      // something had to be cut to fit 60 columns
  CHECK(!contains(t.out, "\x1b"));  // no colour when not on a terminal
  // The first row's id is right-aligned under its header.
  const std::string first_id = json::parse(run_cli({"head", sample(), "-n", "1"}).out)["id"].dump();
  CHECK(contains(lines[2], first_id));

  auto wide = run_cli({"head", sample(), "-n", "1", "-c", "id,category", "-f", "table", "--color", "always"});
  CHECK(contains(wide.out, "\x1b[1m"));
}

TEST_CASE("table cells: control characters escaped, long values cut with an ellipsis", "[cli][head]") {
  CHECK(lance::output::table_cell("a\tb\nc", 20) == "a\\tb\\nc");
  CHECK(lance::output::table_cell("abcdefgh", 5) == "abcd…");
  CHECK(lance::output::table_cell("äöüßéèê", 4) == "äöü…");
  CHECK(lance::output::display_width("äöü…") == 4);
  CHECK(lance::output::table_cell("abc", 3) == "abc");
}

TEST_CASE("head on a terminal prints a table, with colour unless NO_COLOR", "[cli][head][pty]") {
  if (!have_script()) {
    LANCE_MISSING_COMPONENT("util-linux script is not installed");
  }
  auto r = run_in_pty("COLUMNS=80 NO_COLOR= LANCE_CLI head " + shell_quote(sample()) + " -n 2 -c id,name");
  INFO(r.tty);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.tty, "──"));
  CHECK(contains(r.tty, "\x1b[1m"));
  auto plain = run_in_pty("NO_COLOR=1 LANCE_CLI head " + shell_quote(sample()) + " -n 2 -c id,name");
  CHECK(contains(plain.tty, "──"));
  CHECK(!contains(plain.tty, "\x1b["));
}

// ---------------------------------------------------------------- schema

TEST_CASE("schema is inspect schema", "[cli][schema]") {
  for (const std::string& path : {sample(), source_path("data/datasets/evolution")}) {
    for (const std::vector<std::string>& extra : {std::vector<std::string>{}, std::vector<std::string>{"--json"}}) {
      std::vector<std::string> a{"schema", path}, b{"inspect", "schema", path};
      a.insert(a.end(), extra.begin(), extra.end());
      b.insert(b.end(), extra.begin(), extra.end());
      auto ra = run_cli(a);
      INFO(ra.err);
      REQUIRE(ra.exit_code == 0);
      CHECK(ra.out == run_cli(b).out);
    }
  }
  CHECK(run_cli({"schema", source_path("data/datasets/appends"), "--version", "1", "--json"}).out ==
        run_cli({"inspect", "schema", source_path("data/datasets/appends"), "--version", "1", "--json"}).out);
}

// ---------------------------------------------------------------- -v, --version, --color

TEST_CASE("verbose: -v and --verbose set the log level on stderr", "[cli][log]") {
  const std::string ds = source_path("data/datasets/appends");
  auto quiet = run_cli({"scan", ds, "-n", "1"});
  REQUIRE(quiet.exit_code == 0);
  CHECK(quiet.err.empty());
  auto debug = run_cli({"-vv", "scan", ds, "-n", "1"});
  REQUIRE(debug.exit_code == 0);
  CHECK(contains(debug.err, "debug: "));
  CHECK(debug.out == quiet.out);  // logs never go to stdout
  // After the command name too, and as --verbose.
  CHECK(contains(run_cli({"scan", ds, "-n", "1", "--verbose", "--verbose"}).err, "debug: "));
  CHECK(!contains(run_cli({"-v", "scan", ds, "-n", "1"}).err, "debug: "));
}

TEST_CASE("command word: global options and --color's value before the command find the command", "[cli]") {
  // Only the named command is built; the word after --color (or an empty --color=) is its value.
  const std::string s = sample();
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--color", "never", "count", s},
                                               {"--color=never", "-q", "count", s},
                                               {"-v", "--color", "auto", "count", s}}) {
    auto r = run_cli(args);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "2000\n");
  }
  // `--color= scan count`: "scan" is --color's (bad) value and count the command, as CLI11 reads it.
  auto bad = run_cli({"--color=", "scan", "count", s});
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, "--color: scan not in"));
  CHECK(contains(bad.err, "lance-cli count --help"));
  // An unknown command still lists every command.
  auto unknown = run_cli({"scna", s});
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.err,
                 "commands: scan, take, head, count, search, plan, schema, inspect, verify, completions, help"));
}

TEST_CASE("version flag: names lance-cli's version and the Lance formats it reads", "[cli]") {
  auto r = run_cli({"--version"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("lance-cli ", 0) == 0);
  CHECK(std::isdigit(static_cast<unsigned char>(r.out[10])));
  CHECK(contains(r.out, "2.0, 2.1, 2.2, 2.3"));
}

TEST_CASE("colour policy: --color and NO_COLOR for inspect, head and errors", "[cli][color]") {
  const std::string s = sample();
  // Not a terminal: no colour unless asked.
  CHECK(!contains(run_cli({"inspect", "schema", s}).out, "\x1b["));
  CHECK(contains(run_cli({"inspect", "schema", s, "--color", "always"}).out, "\x1b[1m"));
  CHECK(contains(run_cli({"--color=always", "inspect", "meta", s}).out, "\x1b[1m"));
  {
    ScopedEnv no_color("NO_COLOR", "1");
    CHECK(!contains(run_cli({"inspect", "schema", s}).out, "\x1b["));
    CHECK(contains(run_cli({"inspect", "schema", s, "--color=always"}).out, "\x1b["));  // the flag wins
  }
  // The error prefix.
  auto plain = run_cli({"scan", source_path("data/nope.lance")});
  CHECK(plain.exit_code == 1);
  CHECK(plain.err.rfind("lance-cli: ", 0) == 0);
  auto red = run_cli({"scan", source_path("data/nope.lance"), "--color", "always"});
  CHECK(red.err.rfind("\x1b[1;31mlance-cli:\x1b[0m ", 0) == 0);
  CHECK(run_cli({"scan", s, "--color", "sometimes"}).exit_code == 2);

  if (!have_script()) return;
  auto tty = run_in_pty("NO_COLOR= LANCE_CLI inspect schema " + shell_quote(s));
  CHECK(contains(tty.tty, "\x1b[1m"));
  auto tty_never = run_in_pty("LANCE_CLI --color never inspect schema " + shell_quote(s));
  CHECK(!contains(tty_never.tty, "\x1b["));
  auto tty_no_color = run_in_pty("NO_COLOR=1 LANCE_CLI inspect schema " + shell_quote(s));
  CHECK(!contains(tty_no_color.tty, "\x1b["));
  auto err_tty = run_in_pty("NO_COLOR= LANCE_CLI scan /nonexistent.lance");
  CHECK(contains(err_tty.tty, "\x1b[1;31mlance-cli:"));
}

// ---------------------------------------------------------------- did you mean

TEST_CASE("unknown columns suggest the closest name in every command", "[cli][columns]") {
  const std::string ds = source_path("data/datasets/appends");
  const std::string s = sample();
  struct Case {
    std::vector<std::string> args;
    std::string hint;
  };
  const std::vector<Case> cases = {
      {{"scan", s, "-c", "id,nmae"}, "no column 'nmae'; did you mean 'name'?"},
      {{"take", s, "--rows", "1", "-c", "prcie"}, "no column 'prcie'; did you mean 'price'?"},
      {{"head", s, "-c", "categroy"}, "no column 'categroy'; did you mean 'category'?"},
      {{"scan", ds, "-c", "scroe"}, "no column 'scroe'; did you mean 'score'?"},
      {{"take", ds, "--rows", "0", "-c", "scroe"}, "no column 'scroe'; did you mean 'score'?"},
      {{"head", ds, "-c", "id,scroe"}, "no column 'scroe'; did you mean 'score'?"},
      {{"inspect", "pages", s, "-c", "pricee"}, "did you mean 'price'?"},
  };
  for (const auto& c : cases) {
    auto r = run_cli(c.args);
    INFO(c.args[0] << " " << c.args[1] << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, c.hint));
  }
  // Nothing close: the list of columns instead.
  auto far = run_cli({"scan", s, "-c", "zzzzzzzzzz"});
  CHECK(far.exit_code == 2);
  CHECK(contains(far.err, "columns are: id, name"));
}

// ---------------------------------------------------------------- progress

TEST_CASE("progress: never when stderr is not a terminal", "[cli][progress]") {
  ScopedEnv delay("LANCE_CLI_PROGRESS_DELAY_MS", "0");
  auto r = run_cli({"scan", sample(), "--batch-size", "100"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(!contains(r.out, "\r"));
}

TEST_CASE("progress: a line on a terminal's stderr, erased at the end - -q turns it off", "[cli][progress][pty]") {
  if (!have_script()) {
    LANCE_MISSING_COMPONENT("util-linux script is not installed");
  }
  TempDir dir("progress");
  const std::string out = dir.file("out.jsonl");
  const std::string s = shell_quote(sample());
  const std::string want = run_cli({"scan", sample(), "--batch-size", "100"}).out;

  // stdout redirected, stderr the terminal: the progress line appears there.
  auto r = run_in_pty("LANCE_CLI_PROGRESS_DELAY_MS=0 LANCE_CLI scan " + s + " --batch-size 100 > " + shell_quote(out));
  INFO(r.tty);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.tty, "\rscan "));
  CHECK(contains(r.tty, " / 2,000 rows"));
  CHECK(r.tty.size() >= 4);
  CHECK(r.tty.substr(r.tty.size() - 4) == "\r\x1b[K");  // erased at the end
  CHECK(read_text(out) == want);                        // never on stdout

  // -o FILE, take.
  auto t = run_in_pty("LANCE_CLI_PROGRESS_DELAY_MS=0 LANCE_CLI take " + s + " --rows 0-999 -o " + shell_quote(out));
  REQUIRE(t.exit_code == 0);
  CHECK(contains(t.tty, "\rtake "));
  CHECK(contains(t.tty, " / 1,000 rows"));

  // -q / --quiet (also before the command).
  for (const std::string& q : {"scan " + s + " -q", "--quiet scan " + s}) {
    auto quiet = run_in_pty("LANCE_CLI_PROGRESS_DELAY_MS=0 LANCE_CLI " + q + " > " + shell_quote(out));
    CHECK(quiet.exit_code == 0);
    CHECK(quiet.tty.empty());
  }
  // Rows going to the same terminal: no progress line mixed into them.
  auto same = run_in_pty("LANCE_CLI_PROGRESS_DELAY_MS=0 LANCE_CLI scan " + s + " -n 3");
  CHECK(!contains(same.tty, "rows"));
  // The default delay: a short scan finishes before any progress is shown.
  auto fast = run_in_pty("LANCE_CLI scan " + s + " -n 10 > " + shell_quote(out));
  CHECK(fast.exit_code == 0);
  CHECK(fast.tty.empty());
}

TEST_CASE("progress: redrawn while a long scan runs", "[cli][progress][pty]") {
  if (!have_script()) {
    LANCE_MISSING_COMPONENT("util-linux script is not installed");
  }
  // A take held for over a second, however fast the machine: its rows (several MiB of CSV) go
  // to a pipe whose reader sleeps 1.2 s first, so the writer blocks once the pipe and the
  // output block are full. With a 100 ms delay and a redraw every 250 ms, the line must be
  // drawn more than once, each time with \r.
  TempDir dir("progress-long");
  const std::string rows_file = dir.file("rows.txt");
  {
    std::ofstream f(rows_file);
    for (int rep = 0; rep < 40; ++rep) f << "0-1999\n";
  }
  auto r = run_in_pty("LANCE_CLI_PROGRESS_DELAY_MS=100 LANCE_CLI take " + shell_quote(sample()) + " --rows-file " +
                      shell_quote(rows_file) + " --batch-size 50 -f csv | { sleep 1.2; cat > /dev/null; }");
  INFO(r.tty.size());
  REQUIRE(r.exit_code == 0);
  size_t draws = 0;
  for (size_t p = r.tty.find("\rtake "); p != std::string::npos; p = r.tty.find("\rtake ", p + 1)) ++draws;
  CHECK(draws >= 2);
  CHECK(contains(r.tty, "rows/s"));
  CHECK(r.tty.substr(r.tty.size() - 4) == "\r\x1b[K");
}

// ---------------------------------------------------------------- malloc tuning

TEST_CASE("scan and head give the same output with and without the malloc tuning", "[cli][malloc]") {
  const std::string s = sample();
  const auto tuned = run_cli({"scan", s, "-f", "csv"});
  REQUIRE(tuned.exit_code == 0);
  ScopedEnv off("LANCE_CLI_MALLOC_TUNING", "0");
  const auto plain = run_cli({"scan", s, "-f", "csv"});
  INFO(plain.err);
  REQUIRE(plain.exit_code == 0);
  CHECK(tuned.out == plain.out);
  CHECK(run_cli({"head", s, "-n", "3"}).out == run_cli({"scan", s, "-n", "3"}).out);
}

TEST_CASE("decoding on the pool's threads, each with its own heap, gives the untuned output", "[cli][malloc]") {
  // Several fragments decoded on the CPU pool with three heaps allowed: its threads allocate
  // from heaps of their own, advised for huge pages by the thread-start hook
  // (app/malloc_tuning.h).
  const std::string dir = lance::testing::source_path("data/datasets/appends");
  ScopedEnv pool("LANCE_CLI_DECODE_TASKS", "pool");
  ScopedEnv heaps("LANCE_CLI_MALLOC_HEAPS", "3");
  const auto tuned = run_cli({"scan", dir, "-f", "jsonl"});
  INFO(tuned.err);
  REQUIRE(tuned.exit_code == 0);
  REQUIRE(!tuned.out.empty());
  ScopedEnv off("LANCE_CLI_MALLOC_TUNING", "0");
  const auto plain = run_cli({"scan", dir, "-f", "jsonl"});
  REQUIRE(plain.exit_code == 0);
  CHECK(tuned.out == plain.out);
}

TEST_CASE("huge pages: LANCE_CLI_HUGE_PAGES decides, else not on a VM reporting free pages with cheap page faults",
          "[cli][malloc]") {
  using lance::app::huge_pages_wanted;
  using lance::app::reports_free_pages;
  const std::string reporting = "0110010100000000000000000000000010000000";  // bit 5 set
  const std::string no_reporting = "0110000100000000000000000000000010000000";
  CHECK_FALSE(reports_free_pages({}));  // bare metal, or no balloon device
  CHECK_FALSE(reports_free_pages({no_reporting}));
  CHECK(reports_free_pages({reporting}));
  CHECK(reports_free_pages({no_reporting, reporting}));
  CHECK(reports_free_pages({"000001"}));
  CHECK_FALSE(reports_free_pages({"00000"}));  // too short to hold bit 5
  constexpr double cheap = 1.4, costly = 9.0;  // a KVM VM's page fault, a PVM one's (microseconds)
  CHECK(huge_pages_wanted(nullptr, false, 0));
  CHECK_FALSE(huge_pages_wanted(nullptr, true, cheap));
  CHECK_FALSE(huge_pages_wanted(nullptr, true, 0));  // not measured: as if cheap
  CHECK(huge_pages_wanted(nullptr, true, costly));
  CHECK(huge_pages_wanted(nullptr, true, lance::app::kCostlyPageFaultMicros));
  CHECK(huge_pages_wanted("1", true, cheap));
  CHECK_FALSE(huge_pages_wanted("0", false, 0));
  CHECK_FALSE(huge_pages_wanted("0", true, costly));
  CHECK(lance::app::huge_pages_forced("0"));
  CHECK(lance::app::huge_pages_forced("1"));
  CHECK_FALSE(lance::app::huge_pages_forced(nullptr));
  CHECK_FALSE(lance::app::huge_pages_forced(""));
  CHECK_FALSE(lance::app::huge_pages_forced("yes"));
  CHECK_FALSE(lance::app::huge_pages_forced("10"));
  CHECK(huge_pages_wanted("yes", false, 0));  // anything else: decided by the machine
  CHECK_FALSE(huge_pages_wanted("", true, cheap));
}

TEST_CASE("page_fault_micros times a real page fault", "[cli][malloc]") {
  const double us = lance::app::page_fault_micros();
  CHECK(us >= 0);  // 0 on a clock too coarse to see one
  CHECK(us < 10000);
}

TEST_CASE("lance-cli runs with transparent huge pages when the kernel offers them", "[cli][malloc]") {
  std::ifstream mode_file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(mode_file, mode);
#if defined(__SANITIZE_ADDRESS__)
  const bool offered = false;  // AddressSanitizer's allocator: the heap is not glibc's
#else
  const bool offered = !mode.empty() && mode.find("[never]") == std::string::npos;
#endif
  // Unless the VM reports free pages to its hypervisor and page faults are cheap
  // (app/malloc_tuning.h): a timing, so there either answer passes if the log gives the reason.
  const char* setting = std::getenv("LANCE_CLI_HUGE_PAGES");
  const bool reporting = lance::app::reports_free_pages(lance::app::balloon_features());
  const std::string s = sample();
  const auto tuned = run_cli({"-vv", "count", s});
  REQUIRE(tuned.exit_code == 0);
  const std::string heaps_on = "transparent huge pages for the main heap's first 256 MiB and each thread's heap on";
  const std::string heaps_off = "transparent huge pages for the main heap's first 256 MiB and each thread's heap off";
  if (!offered) {
    CHECK(contains(tuned.err, heaps_off));
  } else if (!lance::app::huge_pages_forced(setting) && reporting) {
    // The choice follows the fault time the log gives.
    const std::string took = "a 4 KiB page fault took ";
    const size_t at = tuned.err.find(took);
    REQUIRE(at != std::string::npos);
    const double us = std::strtod(tuned.err.c_str() + at + took.size(), nullptr);
    CHECK(contains(tuned.err, us >= lance::app::kCostlyPageFaultMicros ? heaps_on : heaps_off));
  } else {
    CHECK(contains(tuned.err, lance::app::huge_pages_wanted(setting, reporting, 0) ? heaps_on : heaps_off));
  }
  {
    ScopedEnv on("LANCE_CLI_HUGE_PAGES", "1");
    CHECK(contains(run_cli({"-vv", "count", s}).err, offered ? "each thread's heap on" : "each thread's heap off"));
  }
  {
    ScopedEnv no("LANCE_CLI_HUGE_PAGES", "0");
    const auto r = run_cli({"-vv", "count", s});
    CHECK(contains(r.err, "each thread's heap off"));
    CHECK(r.out == tuned.out);
  }
  CHECK(contains(tuned.err, "at most 1 heaps"));
  {
    ScopedEnv heaps("LANCE_CLI_MALLOC_HEAPS", "3");
    CHECK(contains(run_cli({"-vv", "count", s}).err, "at most 3 heaps"));
  }
  {
    ScopedEnv heaps("LANCE_CLI_MALLOC_HEAPS", "lots");
    CHECK(contains(run_cli({"-vv", "count", s}).err, "at most 1 heaps"));
  }
  ScopedEnv off("LANCE_CLI_MALLOC_TUNING", "0");
  const auto plain = run_cli({"-vv", "count", s});
  CHECK(contains(plain.err, "glibc defaults"));
  CHECK(plain.out == tuned.out);
}

TEST_CASE("usage errors from the option parser are one lance-cli line naming the command's help", "[cli]") {
  auto missing = run_cli({"scan"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err == "lance-cli: path is required (see lance-cli scan --help)\n");
  auto version = run_cli({"count", lance::testing::source_path("data/datasets/appends"), "--version", "-1"});
  CHECK(version.exit_code == 2);
  CHECK_THAT(version.err,
             Catch::StartsWith("lance-cli: --version: takes a dataset version number") && Catch::Contains("got '-1'"));
  auto huge =
      run_cli({"scan", lance::testing::source_path("data/datasets/appends"), "--version", "99999999999999999999"});
  CHECK(huge.exit_code == 2);
  CHECK_THAT(huge.err, Catch::Contains("got '99999999999999999999'"));
}

TEST_CASE("too many I/O threads is a usage error, not a hang", "[cli][options]") {
  auto r = run_cli({"count", lance::testing::source_path("data/sample/products.lance"), "--storage-option",
                    "io_parallelism=100000"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("io_parallelism") && Catch::Contains("out of range"));
}

TEST_CASE("a negative row or fragment id is named in the message", "[cli]") {
  const std::string ds = lance::testing::source_path("data/datasets/appends");
  auto rows = run_cli({"take", ds, "--rows", "-1"});
  CHECK(rows.exit_code == 2);
  CHECK_THAT(rows.err, Catch::Contains("'-1'"));
  auto frags = run_cli({"scan", ds, "--fragments", "-1"});
  CHECK(frags.exit_code == 2);
  CHECK_THAT(frags.err, Catch::Contains("'-1'"));
}

TEST_CASE("a storage option before the command: its secret never shows, the message says where it goes",
          "[cli][secrets]") {
  const std::string secret = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--storage-option", "aws_secret_access_key=" + secret, "scan", kSample},
        std::vector<std::string>{"--storage-option=aws_session_token=" + secret, "head", kSample}}) {
    auto r = run_cli(args);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(secret) == std::string::npos);
    CHECK(r.err.find("after the command") != std::string::npos);
  }
}

TEST_CASE("redact_storage_option_secrets: secret values become ***, other values stay", "[cli][secrets][unit]") {
  const char* argv[] = {"lance-cli", "--storage-option", "aws_secret_access_key=abc123",
                        "--storage-option=aws_region=eu-west-1", "--storage-option=azure_storage_sas_token=sv=2&sig=x"};
  CHECK(lance::app::redact_storage_option_secrets(
            "unexpected: aws_secret_access_key=abc123 aws_region=eu-west-1 t=sv=2&sig=x abc123", 5, argv) ==
        "unexpected: aws_secret_access_key=*** aws_region=eu-west-1 t=*** ***");
}

TEST_CASE("PATH as a file:// URI reads the local file or dataset", "[cli][paths]") {
  const std::string abs = std::filesystem::absolute(kSample).string();
  auto plain = run_cli({"scan", kSample, "-n", "3", "-f", "csv"});
  auto uri = run_cli({"scan", "file://" + abs, "-n", "3", "-f", "csv"});
  REQUIRE(plain.exit_code == 0);
  CHECK(uri.exit_code == 0);
  CHECK(uri.out == plain.out);
  CHECK(run_cli({"count", "file://localhost" + abs}).out == run_cli({"count", kSample}).out);
  auto other_host = run_cli({"count", "file://server" + abs});
  CHECK(other_host.exit_code == 2);
  CHECK(other_host.err.find("file:///ABSOLUTE/PATH") != std::string::npos);
}

TEST_CASE("a path with bytes that are not UTF-8 or are C1 controls is escaped in the error", "[cli][paths]") {
  const std::string path = "/nonexistent/caf\xc3\xa9-\xff\xfe-\xc2\x85-\xe2\x82.lance";
  auto r = run_cli({"scan", path});
  INFO(r.err);
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("caf\xc3\xa9-\\xff\\xfe-\\xc2\\x85-\\xe2\\x82.lance") != std::string::npos);
  for (unsigned char c : r.err) CHECK((c != 0xff && c != 0xfe && c != 0x85));
}

namespace {
/// A TCP port on 127.0.0.1 that accepts connections (the kernel's backlog) and never answers.
struct SilentServer {
  int fd = -1;
  int port = 0;
  SilentServer() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(::listen(fd, 64) == 0);
    socklen_t len = sizeof a;
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
    port = ntohs(a.sin_port);
  }
  ~SilentServer() { ::close(fd); }
};
}  // namespace

TEST_CASE("a server that never answers: each retry is logged at -v, a long retry at the default level",
          "[cli][retries]") {
  SilentServer server;
  const std::string url = "http://127.0.0.1:" + std::to_string(server.port) + "/t.lance";
  auto q = run_cli({"count", url, "--storage-option", "timeout=1s", "--storage-option", "client_retry_timeout=7s"});
  INFO(q.err);
  CHECK(q.exit_code == 1);
  CHECK(q.err.find("still retrying after") != std::string::npos);
  CHECK(q.err.find("retry 1 in") == std::string::npos);
  auto v =
      run_cli({"-v", "count", url, "--storage-option", "timeout=1s", "--storage-option", "client_retry_timeout=7s"});
  INFO(v.err);
  CHECK(v.exit_code == 1);
  CHECK(v.err.find("retry 1 in") != std::string::npos);
}

TEST_CASE("head -f table on a narrow terminal shortens text columns but never numbers", "[cli][head]") {
  ScopedEnv columns("COLUMNS", std::string("40"));
  auto r = run_cli({"head", kSample, "-f", "table", "-n", "3", "-c", "id,name,price,category"});
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  auto full = run_cli({"scan", kSample, "-n", "3", "-c", "id,price", "-f", "csv", "--no-header"});
  std::istringstream rows(full.out);
  for (std::string line; std::getline(rows, line);) {
    const auto comma = line.find(',');
    CHECK(r.out.find(line.substr(0, comma)) != std::string::npos);   // each id whole
    CHECK(r.out.find(line.substr(comma + 1)) != std::string::npos);  // each price whole
  }
  CHECK(r.out.find("…") != std::string::npos);  // the text columns gave up the room
}
