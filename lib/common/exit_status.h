// The exit status of each error kind: the CLI's process exit code (README "Errors and exit
// codes") and the C API's return codes (lib/capi/lance_c.h) are the same numbers.
#pragma once

#include "common/error.h"

namespace lance {

/// 1 I/O, 2 usage, 3 unsupported, 4 corrupt file; a broken invariant of lance-cli itself
/// (internal) is 1.
constexpr int exit_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::io:
      return 1;
    case ErrorKind::usage:
      return 2;
    case ErrorKind::unsupported:
      return 3;
    case ErrorKind::corrupt:
      return 4;
    case ErrorKind::internal:
      return 1;
  }
  return 1;
}

}  // namespace lance
