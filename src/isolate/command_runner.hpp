#pragma once
// The real Runner of `npu-doctor isolate`: the user's command with
// ASCEND_RT_VISIBLE_DEVICES set to the cards of the run ({devices}, {n} and {first} in its
// arguments replaced), a hard timeout (run_command), its output kept (the last lines, the
// whole of it in --log-dir) and, for a failed run, diagnosed with the knowledge base.
#include <chrono>
#include <string>
#include <vector>

#include "isolate/isolation.hpp"
#include "diagnosis/diagnosis.hpp"

namespace npu_doctor::isolate {

struct CommandRunnerOptions {
  std::vector<std::string> command;
  std::chrono::milliseconds timeout{300000};
  std::string log_dir;                   // "" = do not keep whole outputs
  const Diagnoser* diagnoser = nullptr;  // diagnose failed runs' output when set
  std::size_t tail_lines = 12;
};

// "{devices}" -> "0,1", "{n}" -> "2", "{first}" -> "0" in every argument.
std::vector<std::string> expand_placeholders(const std::vector<std::string>& argv, const std::vector<int>& devices);

Runner make_command_runner(CommandRunnerOptions options);

// The last `n` non-empty lines of `text`.
std::string last_lines(const std::string& text, std::size_t n);

}  // namespace npu_doctor::isolate
