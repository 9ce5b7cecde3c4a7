#include "isolate/isolation.hpp"

#include <algorithm>

namespace npu_doctor::isolate {
namespace {

class Planner {
 public:
  Planner(const IsolateOptions& o, const Runner& run, IsolateResult& r) : o_(o), run_(run), r_(r) {}

  // Runs once; nullopt when the run budget is spent or the command cannot start.
  std::optional<bool> attempt(std::vector<int> devices, Phase phase) {
    if (r_.not_started) return std::nullopt;
    if (r_.runs.size() >= o_.max_runs) {
      r_.stopped_early = true;
      return std::nullopt;
    }
    IsolateRun run{phase, devices, run_(devices, phase)};
    const bool passed = run.outcome.passed;
    if (!run.outcome.started) r_.not_started = true;
    r_.runs.push_back(std::move(run));
    if (r_.not_started) return std::nullopt;
    return passed;
  }

  std::vector<int> singles() {
    std::vector<int> good;
    for (int d : r_.devices) {
      const auto ok = attempt({d}, Phase::single);
      if (!ok) return {};
      if (*ok) good.push_back(d);
      else r_.bad_cards.push_back(d);
    }
    if (!r_.devices.empty() && r_.bad_cards.size() == r_.devices.size()) r_.all_fail = true;
    return good;
  }

  void grow(const std::vector<int>& good) {
    std::vector<int> set = {good.front()};
    for (std::size_t k = 1; k < good.size(); ++k) {
      const int newcomer = good[k];
      set.push_back(newcomer);
      const auto ok = attempt(set, Phase::grow);
      if (!ok) return;
      if (*ok) continue;
      // Which earlier card does the newcomer fail with?
      bool pair_found = false;
      for (std::size_t i = 0; i + 1 < set.size(); ++i) {
        const auto pair_ok = attempt({set[i], newcomer}, Phase::pair);
        if (!pair_ok) return;
        if (!*pair_ok) {
          r_.bad_pairs.emplace_back(set[i], newcomer);
          pair_found = true;
        }
      }
      if (!pair_found) {
        // No pair explains it: the set as a whole fails (a size or resource limit).
        r_.failing_set = set;
        return;
      }
      set.pop_back();  // go on without the card that fails with others
    }
  }

  void pairs(const std::vector<int>& good) {
    for (std::size_t i = 0; i < good.size(); ++i) {
      for (std::size_t j = i + 1; j < good.size(); ++j) {
        const auto ok = attempt({good[i], good[j]}, Phase::pair);
        if (!ok) return;
        if (!*ok) r_.bad_pairs.emplace_back(good[i], good[j]);
      }
    }
    if (good.size() < 3) return;
    const auto ok = attempt(good, Phase::all);
    if (ok && !*ok && r_.bad_pairs.empty()) r_.failing_set = good;
  }

 private:
  const IsolateOptions& o_;
  const Runner& run_;
  IsolateResult& r_;
};

}  // namespace

std::string_view to_string(Phase p) {
  switch (p) {
    case Phase::single: return "single";
    case Phase::grow: return "grow";
    case Phase::pair: return "pair";
    case Phase::all: return "all";
  }
  return "single";
}

std::optional<Strategy> parse_strategy(std::string_view s) {
  if (s == "grow") return Strategy::grow;
  if (s == "pairs") return Strategy::pairs;
  if (s == "single") return Strategy::single;
  return std::nullopt;
}

std::string_view to_string(Strategy s) {
  switch (s) {
    case Strategy::grow: return "grow";
    case Strategy::pairs: return "pairs";
    case Strategy::single: return "single";
  }
  return "grow";
}

std::string device_list(const std::vector<int>& devices) {
  std::string out;
  for (int d : devices) out += (out.empty() ? "" : ",") + std::to_string(d);
  return out;
}

IsolateResult run_isolation(const std::vector<int>& devices, const IsolateOptions& options, const Runner& run) {
  IsolateResult r;
  r.devices = devices;
  Planner p(options, run, r);
  const std::vector<int> good = p.singles();
  if (r.not_started || r.all_fail || options.strategy == Strategy::single || good.size() < 2) return r;
  if (options.strategy == Strategy::pairs) p.pairs(good);
  else p.grow(good);
  return r;
}

}  // namespace npu_doctor::isolate
