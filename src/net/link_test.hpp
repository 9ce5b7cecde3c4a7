#pragma once
// One link measured from this host to an `npu-doctor net serve`: can it connect, does the
// server answer, round-trip latency (pings), and throughput each way. Every step has a
// deadline; a server that accepts and then stays silent is a result ("no_answer"), not a
// hang. relay_test asks one server to measure its link to another (the all-pairs matrix).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "net/endpoint.hpp"

namespace npu_doctor::net {

struct LinkTestOptions {
  std::chrono::milliseconds connect_timeout{3000};
  std::chrono::milliseconds answer_timeout{3000};  // for the greeting and each ping
  int pings = 20;
  std::chrono::milliseconds duration{2000};        // per direction; 0 = no throughput test
  std::string self_name;                           // sent in the greeting
  double max_rate = 0;                             // bytes per second this end may use; 0 = unlimited
};

enum class LinkStatus {
  ok,
  refused,         // nothing listens (or a firewall rejects)
  timeout,         // the connection request got no answer
  unreachable,     // no route, network down
  unresolved,      // the name does not resolve
  no_answer,       // connected, but no greeting came back in time
  not_npu_doctor,  // something answered, not with this protocol
  failed,          // broke during the test (reset, a later connection refused)
  not_tested,      // e.g. neither end of a pair reachable from the tester
};
std::string_view to_string(LinkStatus s);
std::optional<LinkStatus> parse_link_status(std::string_view s);

struct RttStats {
  std::size_t sent = 0;
  std::size_t answered = 0;  // the rest got no answer within answer_timeout (the test stops at the first)
  double min_ms = 0, p50_ms = 0, p90_ms = 0, p99_ms = 0, max_ms = 0, mean_ms = 0;
};

struct Throughput {
  bool measured = false;
  uint64_t bytes = 0;
  double seconds = 0;
  double bits_per_second = 0;
  std::string error;  // why it was not measured
};

struct LinkResult {
  std::string from;        // who measured: "" = this host, else the relaying server's endpoint
  std::string to;          // endpoint text
  std::string address;     // numeric address connected to
  std::string peer_name;   // the server's host name from its greeting
  LinkStatus status = LinkStatus::not_tested;
  std::string error;       // plain words when status != ok
  double connect_ms = -1;
  std::optional<RttStats> rtt;
  Throughput send;         // from `from` to `to`
  Throughput receive;      // from `to` back to `from`
};

LinkResult test_link(const Endpoint& to, const LinkTestOptions& options);

// Asks the server at `via` to test its link to `target`; the result's `from` is via's text.
LinkResult relay_test(const Endpoint& via, const Endpoint& target, const LinkTestOptions& options);

// The longest a full test_link may take with these options (deadline of a relay).
std::chrono::milliseconds worst_case(const LinkTestOptions& options);

// Percentiles of round-trip samples (nearest rank).
RttStats rtt_stats(std::vector<double> samples_ms, std::size_t sent);

nlohmann::json to_json(const LinkResult& r);
std::optional<LinkResult> link_from_json(const nlohmann::json& j);

}  // namespace npu_doctor::net
