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
  lance::ReadStats st;
  for (int i = 0; i < 2; ++i) {
    { lance::StageTimer t(st.plan_ns, st.plan_wall); std::this_thread::sleep_for(10ms); }
    std::this_thread::sleep_for(30ms);
  }
  CHECK(st.plan_wall.wall_ns() >= 20'000'000u);
  CHECK(st.plan_wall.wall_ns() < 60'000'000u);
  CHECK(st.io_wait_wall.wall_ns() == 0);
}

TEST_CASE("stage timers nest: time counts to the innermost stage only", "[stats]") {
  // e.g. planning, around a small read run inline on the planning thread (io/scheduler.cpp).
  lance::ReadStats st;
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
  CHECK(io_ms >= 60);
  CHECK(plan_ms >= 40);
  CHECK(plan_ms < 60 + 40);  // the inner 60 ms are not planning
  CHECK(st.plan_wall.wall_ns() / 1e6 < 60 + 40);
  CHECK(st.io_wait_wall.wall_ns() / 1e6 >= 60);
}
