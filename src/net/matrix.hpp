#pragma once
// `net test --matrix`: every pair of a host list, each host running `net serve`. The
// tester first checks its own connection to each host, then asks one end of each pair to
// test the other (relay). Pairs run in rounds where no host is in two pairs (the circle
// method), so tests never share a NIC and a round takes as long as one pair.
#include <cstddef>
#include <utility>
#include <vector>

#include "net/endpoint.hpp"
#include "net/link_test.hpp"

namespace npu_doctor::net {

struct MatrixOptions {
  LinkTestOptions link;
  bool parallel = true;  // run the pairs of a round at the same time
};

struct MatrixResult {
  std::vector<Endpoint> hosts;
  std::vector<LinkResult> control;  // this host -> each host (greeting and a few pings)
  std::vector<LinkResult> pairs;    // one per pair of hosts; from/to say which end measured
  std::vector<std::pair<std::size_t, std::size_t>> pair_hosts;  // host indexes of each pair
};

// Rounds of disjoint pairs covering every pair of n hosts once.
std::vector<std::vector<std::pair<std::size_t, std::size_t>>> pair_rounds(std::size_t n);

MatrixResult run_matrix(const std::vector<Endpoint>& hosts, const MatrixOptions& options);

}  // namespace npu_doctor::net
