#include "net/matrix.hpp"

#include <thread>

namespace npu_doctor::net {

std::vector<std::vector<std::pair<std::size_t, std::size_t>>> pair_rounds(std::size_t n) {
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> rounds;
  if (n < 2) return rounds;
  // Circle method: fix slot 0, rotate the others; an odd count gets a "bye" slot.
  const std::size_t m = n % 2 == 0 ? n : n + 1;
  std::vector<std::size_t> slots(m);
  for (std::size_t i = 0; i < m; ++i) slots[i] = i;
  for (std::size_t r = 0; r + 1 < m; ++r) {
    std::vector<std::pair<std::size_t, std::size_t>> round;
    for (std::size_t i = 0; i < m / 2; ++i) {
      std::size_t a = slots[i], b = slots[m - 1 - i];
      if (a >= n || b >= n) continue;  // the bye
      if (a > b) std::swap(a, b);
      round.emplace_back(a, b);
    }
    rounds.push_back(std::move(round));
    // Rotate every slot but the first one step.
    const std::size_t last = slots[m - 1];
    for (std::size_t i = m - 1; i > 1; --i) slots[i] = slots[i - 1];
    slots[1] = last;
  }
  return rounds;
}

MatrixResult run_matrix(const std::vector<Endpoint>& hosts, const MatrixOptions& options) {
  MatrixResult m;
  m.hosts = hosts;
  // This host's own reach to each server: the greeting and a few pings, no streams.
  LinkTestOptions control = options.link;
  control.pings = std::min(control.pings, 5);
  control.duration = std::chrono::milliseconds(0);
  m.control.resize(hosts.size());
  {
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      threads.emplace_back([&, i] { m.control[i] = test_link(hosts[i], control); });
    }
    for (auto& t : threads) t.join();
  }
  for (const auto& round : pair_rounds(hosts.size())) {
    std::vector<LinkResult> results(round.size());
    auto run_pair = [&](std::size_t k) {
      const auto [a, b] = round[k];
      // Ask an end this host can reach; if it cannot reach either, the pair is not tested.
      if (m.control[a].status == LinkStatus::ok) {
        results[k] = relay_test(hosts[a], hosts[b], options.link);
      } else if (m.control[b].status == LinkStatus::ok) {
        results[k] = relay_test(hosts[b], hosts[a], options.link);
      } else {
        results[k].from = hosts[a].text();
        results[k].to = hosts[b].text();
        results[k].status = LinkStatus::not_tested;
        results[k].error = "neither end can be reached from this host";
      }
    };
    if (options.parallel) {
      std::vector<std::thread> threads;
      for (std::size_t k = 0; k < round.size(); ++k) threads.emplace_back(run_pair, k);
      for (auto& t : threads) t.join();
    } else {
      for (std::size_t k = 0; k < round.size(); ++k) run_pair(k);
    }
    for (std::size_t k = 0; k < round.size(); ++k) {
      m.pairs.push_back(std::move(results[k]));
      m.pair_hosts.push_back(round[k]);
    }
  }
  return m;
}

}  // namespace npu_doctor::net
