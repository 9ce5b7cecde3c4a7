// Endpoints, host files, units, the pair schedule and round-trip statistics.
#include <gtest/gtest.h>

#include <set>

#include "net/endpoint.hpp"
#include "net/link_test.hpp"
#include "net/matrix.hpp"
#include "net/units.hpp"

namespace npu_doctor::net {
namespace {

TEST(NetParse, Endpoints) {
  auto e = parse_endpoint("node-1", 46300);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->host, "node-1");
  EXPECT_EQ(e->port, 46300);
  e = parse_endpoint("10.0.0.2:5000", 46300);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->port, 5000);
  EXPECT_EQ(e->text(), "10.0.0.2:5000");
  e = parse_endpoint("[fe80::1%eth0]:7", 46300);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->host, "fe80::1%eth0");
  EXPECT_EQ(e->text(), "[fe80::1%eth0]:7");
  EXPECT_EQ(parse_endpoint("::1", 9)->host, "::1");
  std::string error;
  for (const char* bad : {"", "host:", "host:0", "host:70000", "host:x", "[::1", "[::1]x", "bad host", "a/b"}) {
    EXPECT_FALSE(parse_endpoint(bad, 1, &error)) << bad;
  }
  EXPECT_NE(error.find("'a/b'"), std::string::npos) << error;
}

TEST(NetParse, HostFiles) {
  std::string error;
  auto h = parse_hostfile("# cluster\nnode-1 slots=8\n\n10.0.0.2:5000  # spare\n  [::1]:9\n", 46300, &error);
  ASSERT_TRUE(h) << error;
  ASSERT_EQ(h->size(), 3u);
  EXPECT_EQ((*h)[0].endpoint.text(), "node-1:46300");
  EXPECT_EQ((*h)[1].line, 4u);
  EXPECT_FALSE(parse_hostfile("a\nb:x\n", 1, &error));
  EXPECT_EQ(error.substr(0, 7), "line 2:");
  EXPECT_FALSE(parse_hostfile("a\nb\na\n", 1, &error));
  EXPECT_NE(error.find("already on line 1"), std::string::npos) << error;
  EXPECT_TRUE(parse_hostfile("", 1, &error)->empty());
}

TEST(NetParse, Units) {
  EXPECT_DOUBLE_EQ(*parse_rate_bps("100M"), 100e6);
  EXPECT_DOUBLE_EQ(*parse_rate_bps("9.5G"), 9.5e9);
  EXPECT_DOUBLE_EQ(*parse_rate_bps("800kbit/s"), 800e3);
  EXPECT_DOUBLE_EQ(*parse_rate_bps("1000"), 1000);
  for (const char* bad : {"", "fast", "10X", "-5M", "0"}) EXPECT_FALSE(parse_rate_bps(bad)) << bad;
  EXPECT_EQ(parse_duration("2s")->count(), 2000);
  EXPECT_EQ(parse_duration("500ms")->count(), 500);
  EXPECT_EQ(parse_duration("1.5")->count(), 1500);
  EXPECT_EQ(parse_duration("2m")->count(), 120000);
  EXPECT_EQ(parse_duration("1d")->count(), 86400000);
  for (const char* bad : {"", "soon", "5w", "1y", "-1s"}) EXPECT_FALSE(parse_duration(bad)) << bad;
}

TEST(NetParse, PairRoundsCoverEveryPairOnceWithDisjointRounds) {
  for (std::size_t n = 0; n <= 9; ++n) {
    std::set<std::pair<std::size_t, std::size_t>> seen;
    const auto rounds = pair_rounds(n);
    for (const auto& round : rounds) {
      std::set<std::size_t> busy;
      for (auto [a, b] : round) {
        EXPECT_LT(a, b);
        EXPECT_LT(b, n);
        EXPECT_TRUE(busy.insert(a).second && busy.insert(b).second) << "a host twice in one round, n=" << n;
        EXPECT_TRUE(seen.insert({a, b}).second);
      }
    }
    EXPECT_EQ(seen.size(), n * (n > 0 ? n - 1 : 0) / 2) << n;
    if (n >= 2) {
      EXPECT_EQ(rounds.size(), n % 2 == 0 ? n - 1 : n) << n;
    }
  }
}

TEST(NetParse, RttStatistics) {
  const auto s = rtt_stats({5, 1, 4, 2, 3, 100, 6, 7, 8, 9}, 12);
  EXPECT_EQ(s.sent, 12u);
  EXPECT_EQ(s.answered, 10u);
  EXPECT_DOUBLE_EQ(s.min_ms, 1);
  EXPECT_DOUBLE_EQ(s.p50_ms, 5);
  EXPECT_DOUBLE_EQ(s.p90_ms, 9);
  EXPECT_DOUBLE_EQ(s.p99_ms, 100);
  EXPECT_DOUBLE_EQ(s.max_ms, 100);
  EXPECT_DOUBLE_EQ(rtt_stats({}, 3).p50_ms, 0);
}

TEST(NetParse, LinkResultsSurviveJson) {
  LinkResult r;
  r.to = "a:1";
  r.status = LinkStatus::ok;
  r.connect_ms = 0.25;
  r.rtt = rtt_stats({1, 2, 3}, 3);
  r.send = {true, 1000, 0.5, 16000, ""};
  r.receive.error = "receive test: no data";
  const auto back = link_from_json(to_json(r));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->status, LinkStatus::ok);
  EXPECT_DOUBLE_EQ(back->rtt->p50_ms, 2);
  EXPECT_DOUBLE_EQ(back->send.bits_per_second, 16000);
  EXPECT_EQ(back->receive.error, "receive test: no data");
  EXPECT_FALSE(link_from_json(nlohmann::json::parse("{\"status\": \"weird\"}")));
  EXPECT_FALSE(link_from_json(nlohmann::json::parse("[]")));
}

TEST(NetParse, MistypedFieldsFromAPeerFallBackInsteadOfThrowing) {
  // nlohmann's value() throws on these; a relay's answer must never crash the tester.
  const auto j = nlohmann::json::parse(
      R"({"status": "ok", "connect_ms": "fast", "rtt": {"sent": -1, "answered": "9", "p50_ms": "2"},
          "send": {"measured": "yes", "bytes": 1.5, "seconds": "1"}, "receive": 7})");
  const auto r = link_from_json(j);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->connect_ms, -1);
  EXPECT_EQ(r->rtt->sent, 0u);
  EXPECT_EQ(r->rtt->answered, 0u);
  EXPECT_DOUBLE_EQ(r->rtt->p50_ms, 0);
  EXPECT_FALSE(r->send.measured);
  EXPECT_EQ(r->send.bytes, 0u);
  EXPECT_FALSE(r->receive.measured);
}

}  // namespace
}  // namespace npu_doctor::net
