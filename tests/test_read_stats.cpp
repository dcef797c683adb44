// ReadStats' stage clocks (common/read_stats.h): the wall-clock time of a stage is the union
// of the intervals its threads spent in it, the `*_ns` counters their sum.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "common/read_stats.h"

using namespace std::chrono_literals;

TEST_CASE("stage clock: overlapping threads count once in wall time, twice in the sum", "[stats]") {
  lance::ReadStats st;
  auto busy = [&] {
    lance::StageTimer t(st.decode_ns, st.decode_wall);
    std::this_thread::sleep_for(50ms);
  };
  const auto t0 = std::chrono::steady_clock::now();
  std::thread a(busy), b(busy);
  a.join();
  b.join();
  const auto elapsed = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
  CHECK(st.decode_wall.wall_ns() <= elapsed);
  CHECK(st.decode_wall.wall_ns() >= 50'000'000u);
  CHECK(st.decode_ns.load() >= 100'000'000u);
}

TEST_CASE("stage clock: separate intervals add up, nothing counted outside them", "[stats]") {
  // Relations, not milliseconds: a loaded machine oversleeps, so the bounds are what was
  // measured around the timed intervals, not what was asked for.
  lance::ReadStats st;
  uint64_t inside = 0;
  for (int i = 0; i < 2; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    {
      lance::StageTimer t(st.plan_ns, st.plan_wall);
      std::this_thread::sleep_for(10ms);
    }
    inside += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    std::this_thread::sleep_for(30ms);
  }
  CHECK(st.plan_wall.wall_ns() >= 20'000'000u);
  CHECK(st.plan_wall.wall_ns() <= inside);  // the 30 ms gaps are not counted
  CHECK(st.io_wait_wall.wall_ns() == 0);
}

TEST_CASE("stage timers nest: time counts to the innermost stage only", "[stats]") {
  // e.g. planning, around a small read run inline on the planning thread (io/scheduler.cpp).
  lance::ReadStats st;
  const auto t0 = std::chrono::steady_clock::now();
  {
    lance::StageTimer plan(st.plan_ns, st.plan_wall);
    std::this_thread::sleep_for(20ms);
    {
      lance::StageTimer io(st.io_wait_ns, st.io_wait_wall);
      std::this_thread::sleep_for(60ms);
    }
    std::this_thread::sleep_for(20ms);
  }
  const double plan_ms = st.plan_ns / 1e6, io_ms = st.io_wait_ns / 1e6;
  const double outer_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CHECK(io_ms >= 60);
  CHECK(plan_ms >= 40);
  CHECK(plan_ms + io_ms <= outer_ms);  // the inner interval counts to io only, not to planning too
  CHECK(st.plan_wall.wall_ns() / 1e6 + st.io_wait_wall.wall_ns() / 1e6 <= outer_ms);
  CHECK(st.io_wait_wall.wall_ns() / 1e6 >= 60);
}
