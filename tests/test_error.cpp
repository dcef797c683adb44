// The error model (common/error.h): kinds, the internal kind, lazily built context.
#include <catch2/catch.hpp>

#include "common/error.h"

using lance::Error;
using lance::ErrorKind;

TEST_CASE("error: a broken invariant is an internal error, not a corrupt file", "[error]") {
  try {
    lance::check_internal(false, "planner handed {} parts for {} ranges", 2, 3);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::internal);
    CHECK(std::string(e.what()) == "planner handed 2 parts for 3 ranges");
  }
  CHECK_NOTHROW(lance::check_internal(true, "never"));
  CHECK(std::string(lance::error_kind_name(ErrorKind::internal)) == "internal");
  CHECK(std::string(lance::error_kind_name(ErrorKind::corrupt)) == "corrupt");
}

TEST_CASE("error: context is built only when an error passes", "[error]") {
  int built = 0;
  auto label = [&] {
    ++built;
    return std::string("page 3");
  };
  CHECK(lance::with_context(label, [] { return 42; }) == 42);
  CHECK(built == 0);  // the happy path formats nothing
  try {
    lance::with_context("file.lance", [&] {
      return lance::with_context(label, []() -> int { lance::throw_corrupt("bad chunk {}", 7); });
    });
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(built == 1);
    CHECK(e.kind() == ErrorKind::corrupt);
    CHECK(std::string(e.what()) == "file.lance: page 3: bad chunk 7");
    CHECK(e.detail() == "bad chunk 7");
    CHECK(e.context() == "file.lance: page 3");
  }
  // An empty item adds nothing.
  try {
    lance::with_context("", [] { lance::throw_io("gone"); });
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "gone");
  }
}
