#include "worker_threads.hpp"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace npu_doctor {

void run_on_threads(unsigned threads, const std::function<void()>& work) {
  std::mutex mu;
  std::exception_ptr first;
  auto guarded = [&] {
    try {
      work();
    } catch (...) {
      std::lock_guard lock(mu);
      if (!first) first = std::current_exception();
    }
  };
  std::vector<std::thread> started;
  for (unsigned t = 1; t < threads; ++t) started.emplace_back(guarded);
  guarded();
  for (auto& t : started) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace npu_doctor
