// A worker that throws on one thread: the caller gets the exception after every thread
// stopped, instead of the process ending in std::terminate.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "core/worker_threads.hpp"

namespace npu_doctor {
namespace {

TEST(WorkerThreads, EveryThreadRunsAndTheFirstExceptionReachesTheCaller) {
  std::atomic<int> ran{0};
  std::atomic<int> next{0};
  try {
    run_on_threads(3, [&] {
      const int me = next.fetch_add(1);
      ++ran;
      if (me == 1) throw std::runtime_error("the spool's temporary file cannot be read back");
    });
    FAIL() << "the exception was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "the spool's temporary file cannot be read back");
  }
  EXPECT_EQ(ran.load(), 3) << "the other threads were not cut short";
}

TEST(WorkerThreads, OneThreadIsTheCallersOwn) {
  int ran = 0;  // no atomics needed: one thread, the caller's
  run_on_threads(1, [&] { ++ran; });
  EXPECT_EQ(ran, 1);
  run_on_threads(0, [&] { ++ran; });
  EXPECT_EQ(ran, 2);
}

}  // namespace
}  // namespace npu_doctor
