// A LanceDB database root (a directory of NAME.lance tables) given as PATH: a usage error
// that names the tables inside and how to read one.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_env.h"
#include "cli_runner.h"

using lance::testing::run_cli;
using lance::testing::source_path;
using lance::testing::TempDir;

TEST_CASE("a LanceDB database root as PATH names its tables", "[cli][paths]") {
  TempDir db("dbroot");
  for (std::string t : {"events", "appends"})
    std::filesystem::copy(source_path("data/datasets/appends"), db.path() / (t + ".lance"),
                          std::filesystem::copy_options::recursive);
  std::filesystem::create_directory(db.path() / "notes");  // not a table: not named
  for (std::string cmd : {"scan", "count"}) {
    DYNAMIC_SECTION(cmd) {
      auto r = run_cli({cmd, db.path().string()});
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.err, Catch::Contains("is a directory but not a Lance dataset") &&
                            Catch::Contains("LanceDB database holding the tables appends, events") &&
                            Catch::Contains("read one as " + (db.path() / "appends.lance").string()) &&
                            !Catch::Contains("notes"));
    }
  }
  SECTION("a directory without tables keeps the plain message") {
    TempDir empty("not-a-db");
    auto r = run_cli({"scan", empty.path().string()});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("not a Lance dataset") && !Catch::Contains("LanceDB database"));
  }
}
