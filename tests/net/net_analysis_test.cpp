// What `net test` concludes from measurements (synthetic links, no network).
#include <gtest/gtest.h>

#include "net/net_analysis.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::net {
namespace {

using npu_doctor::testing::builtin_kb;

LinkResult link(std::string from, std::string to, double gbps, double rtt_ms = 0.1) {
  LinkResult l;
  l.from = std::move(from);
  l.to = std::move(to);
  l.status = LinkStatus::ok;
  l.connect_ms = 0.2;
  l.rtt = rtt_stats(std::vector<double>(20, rtt_ms), 20);
  l.send = {true, 1, 1, gbps * 1e9, ""};
  l.receive = {true, 1, 1, gbps * 1e9, ""};
  return l;
}

LinkResult broken(std::string from, std::string to, LinkStatus s, std::string error) {
  LinkResult l;
  l.from = std::move(from);
  l.to = std::move(to);
  l.status = s;
  l.error = std::move(error);
  return l;
}

std::vector<std::string> rules(const NetReport& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings) out.push_back(f.entry->id);
  return out;
}

std::vector<Endpoint> hosts(int n) {
  std::vector<Endpoint> out;
  for (int i = 0; i < n; ++i) out.push_back({"h" + std::to_string(i), 1});
  return out;
}

TEST(NetAnalysis, DirectModeFlagsBrokenSlowAndLaggyLinks) {
  std::vector<LinkResult> links = {link("", "h0:1", 9.4), link("", "h1:1", 9.3), link("", "h2:1", 0.9),
                                   link("", "h3:1", 9.2, 12.0), broken("", "h4:1", LinkStatus::refused, "connection refused"),
                                   broken("", "h5:1", LinkStatus::no_answer, "accepted, silent")};
  const auto r = analyse_direct(hosts(6), links, {}, {}, builtin_kb());
  ASSERT_TRUE(r.reference_bps);
  EXPECT_NEAR(*r.reference_bps, 9.3e9, 1e6) << "the upper quartile";
  const auto ids = rules(r);
  EXPECT_EQ(ids, (std::vector<std::string>{"net.unreachable", "net.no-answer", "net.slow-link", "net.high-latency"}));
  EXPECT_EQ(r.findings[2].first().path, "this host -> h2:1");
  EXPECT_EQ(r.findings[2].count, 1u);
}

TEST(NetAnalysis, OneLinkNeedsAGivenFigure) {
  const auto alone = analyse_direct(hosts(1), {link("", "h0:1", 0.1)}, {}, {}, builtin_kb());
  EXPECT_TRUE(alone.findings.empty()) << "nothing to compare with";
  NetAnalysisOptions o;
  o.expect_bps = 10e9;
  o.max_rtt_ms = 0.05;
  const auto given = analyse_direct(hosts(1), {link("", "h0:1", 0.1)}, {}, o, builtin_kb());
  EXPECT_EQ(rules(given), (std::vector<std::string>{"net.slow-link", "net.high-latency"}));
}

TEST(NetAnalysis, UnansweredPingsAreLatencyProblems) {
  LinkResult l = link("", "h0:1", 9);
  l.rtt = rtt_stats({0.1, 0.1}, 20);
  const auto r = analyse_direct(hosts(1), {l}, {}, {}, builtin_kb());
  ASSERT_EQ(rules(r), std::vector<std::string>{"net.high-latency"});
  EXPECT_NE(r.findings[0].first().text.find("18 of 20 pings unanswered"), std::string::npos);
}

MatrixResult matrix(int n, const std::function<LinkResult(int, int)>& pair) {
  MatrixResult m;
  m.hosts = hosts(n);
  for (int i = 0; i < n; ++i) m.control.push_back(link("", m.hosts[static_cast<std::size_t>(i)].text(), 9));
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      m.pairs.push_back(pair(a, b));
      m.pair_hosts.emplace_back(a, b);
    }
  }
  return m;
}

TEST(NetAnalysis, MatrixNamesTheHostWhoseEveryLinkIsBad) {
  const auto m = matrix(4, [](int a, int b) {
    const std::string from = "h" + std::to_string(a) + ":1", to = "h" + std::to_string(b) + ":1";
    return (a == 2 || b == 2) ? link(from, to, 0.8) : link(from, to, 9.4);
  });
  const auto r = analyse_matrix(m, {}, {}, builtin_kb());
  EXPECT_EQ(r.bad_hosts, std::vector<std::string>{"h2:1"});
  ASSERT_EQ(rules(r), std::vector<std::string>{"net.bad-host"});
  EXPECT_EQ(r.findings[0].count, 3u) << "its three links";
}

TEST(NetAnalysis, MatrixNamesOneBrokenLink) {
  const auto m = matrix(4, [](int a, int b) {
    const std::string from = "h" + std::to_string(a) + ":1", to = "h" + std::to_string(b) + ":1";
    return (a == 0 && b == 3) ? broken(from, to, LinkStatus::timeout, "no answer to the connection request")
                              : link(from, to, 9.4);
  });
  const auto r = analyse_matrix(m, {}, {}, builtin_kb());
  EXPECT_TRUE(r.bad_hosts.empty());
  ASSERT_EQ(rules(r), std::vector<std::string>{"net.unreachable"});
  EXPECT_EQ(r.findings[0].first().path, "h0:1 -> h3:1");
}

TEST(NetAnalysis, OneSlowHostOfThreeStillStandsOut) {
  const auto m = matrix(3, [](int a, int b) {
    const std::string from = "h" + std::to_string(a) + ":1", to = "h" + std::to_string(b) + ":1";
    return (a == 1 || b == 1) ? link(from, to, 0.5) : link(from, to, 9.4);
  });
  const auto r = analyse_matrix(m, {}, {}, builtin_kb());
  EXPECT_EQ(r.bad_hosts, std::vector<std::string>{"h1:1"}) << "two of three links are slow: the median would hide it";
}

TEST(NetAnalysis, ThisHostsOwnPathIsReportedSeparately) {
  auto m = matrix(3, [](int a, int b) { return link("h" + std::to_string(a) + ":1", "h" + std::to_string(b) + ":1", 9); });
  m.control[1] = broken("", "h1:1", LinkStatus::refused, "connection refused");
  const auto r = analyse_matrix(m, {}, {}, builtin_kb());
  ASSERT_EQ(rules(r), std::vector<std::string>{"net.unreachable"});
  EXPECT_EQ(r.findings[0].first().path, "this host -> h1:1");
}

TEST(NetAnalysis, Rates) {
  EXPECT_EQ(format_rate(9.41e9), "9.41 Gbit/s");
  EXPECT_EQ(format_rate(812e6), "812.0 Mbit/s");
  EXPECT_EQ(format_rate(500), "0.5 kbit/s");
}

}  // namespace
}  // namespace npu_doctor::net
