#pragma once
// Runs one function on several threads (the calling thread is one of them) and, once all
// have stopped, rethrows the first exception any of them threw: an exception escaping a
// std::thread would end the process (std::terminate) instead of reaching the command's
// error message and exit code.
#include <functional>

namespace npu_doctor {

void run_on_threads(unsigned threads, const std::function<void()>& work);

}  // namespace npu_doctor
