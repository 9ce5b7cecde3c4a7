#pragma once
// The seed guide's single-card isolation, automated: run the user's command on one card
// at a time, then on growing sets of the cards that passed alone (and, when a set fails,
// on pairs with the card just added), and say which card, pair or set size fails.
// Pure planning over a Runner, so the decisions are tested without processes.
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor::isolate {

struct RunOutcome {
  bool started = true;     // false: the command could not be run at all (not found ...)
  bool passed = false;     // exit status 0 within the timeout
  bool timed_out = false;
  int exit_code = -1;
  int signal = 0;
  double seconds = 0;
  std::string describe;    // "exit status 1", "timed out after 300 s and was killed"
  std::string tail;        // the last lines of its output
  std::string log_path;    // where its whole output was saved, if anywhere
  const Entry* diagnosis = nullptr;  // the root cause `diagnose` finds in its output
  std::string diagnosis_code;
};

enum class Phase { single, grow, pair, all };
std::string_view to_string(Phase p);

struct IsolateRun {
  Phase phase = Phase::single;
  std::vector<int> devices;
  RunOutcome outcome;
};

// Runs the command on `devices` (ASCEND_RT_VISIBLE_DEVICES) and says how it went.
using Runner = std::function<RunOutcome(const std::vector<int>& devices, Phase phase)>;

enum class Strategy {
  grow,    // singles, then growing sets; pairs with the newcomer when a set fails (default)
  pairs,   // singles, every pair of the cards that passed, then all of them together
  single,  // one card at a time only
};
std::optional<Strategy> parse_strategy(std::string_view s);
std::string_view to_string(Strategy s);

struct IsolateOptions {
  Strategy strategy = Strategy::grow;
  std::size_t max_runs = 200;  // stop (and say so) after this many runs
};

struct IsolateResult {
  std::vector<int> devices;
  std::vector<IsolateRun> runs;
  std::vector<int> bad_cards;                   // fail alone
  std::vector<std::pair<int, int>> bad_pairs;   // fail together, pass alone
  std::vector<int> failing_set;                 // fails, while no pair of it failed
  bool all_fail = false;                        // every card fails alone: not a card problem
  bool not_started = false;                     // the command could not be run
  bool stopped_early = false;                   // max_runs reached
};

IsolateResult run_isolation(const std::vector<int>& devices, const IsolateOptions& options, const Runner& run);

// "0,1,3"
std::string device_list(const std::vector<int>& devices);

}  // namespace npu_doctor::isolate
