// The test binaries' Catch2 session, defined in tests/catch_impl.cpp (the only file that
// compiles Catch2's implementation).
#pragma once

/// Runs the tests selected by the command line (Catch2's arguments); the exit status.
int run_catch_session(int argc, char* argv[]);
