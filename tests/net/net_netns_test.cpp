// `net test --matrix` across network namespaces joined by a bridge: real interfaces,
// one host's link limited with tc (a slow NIC), one route cut (a broken link). Skipped,
// with the reason, where the test may not create namespaces.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hccl/hccl_test_support.hpp"
#include "net/net_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::net {
namespace {

using npu_doctor::testing::run_npu_doctor;
using npu_doctor::testing::TempDir;
using json = nlohmann::json;

struct Cluster {
  explicit Cluster(int n) : net(n) {
    if (!net.ok()) return;
    for (int i = 0; i < n; ++i) {
      servers.push_back(std::make_unique<testing::ServeProcess>(
          std::vector<std::string>{"--bind", net.ip(i), "--port", "46300", "--exit-after", "120s"}, net.ns(i)));
    }
  }
  bool ready() const {
    for (const auto& s : servers) {
      if (!s->ready()) return false;
    }
    return !servers.empty();
  }
  std::string hostfile(const TempDir& dir) const {
    std::string text;
    for (std::size_t i = 0; i < servers.size(); ++i) text += net.ip(static_cast<int>(i)) + "\n";
    return dir.write("hosts.txt", text).string();
  }
  testing::NamespaceNet net;
  std::vector<std::unique_ptr<testing::ServeProcess>> servers;
};

TEST(NetNamespaces, ASlowHostAmongFour) {
  Cluster c(4);
  if (!c.net.ok()) GTEST_SKIP() << c.net.reason();
  ASSERT_TRUE(c.ready());
  if (!c.net.limit(3, "20mbit")) GTEST_SKIP() << "tc tbf is not available here";
  TempDir dir;
  const auto r = run_npu_doctor({"net", "test", "--matrix", c.hostfile(dir), "--duration", "800ms", "--pings", "5",
                                 "--sequential", "-f", "json"});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto j = json::parse(r.out);
  for (const auto& l : j["links"]) EXPECT_EQ(l["status"], "ok") << l.dump();
  EXPECT_EQ(j["bad_hosts"], json::array({c.net.ip(3) + ":46300"})) << r.out;
  EXPECT_EQ(hccl::testing::count_rule(j, "net.bad-host"), 1u);
  // Host 3's links are folded into the bad-host finding, not listed one by one.
  const std::string slow_ip = c.net.ip(3) + ":";
  for (const auto& f : j["findings"]) {
    if (f["rule"] == "net.bad-host") continue;
    for (const auto& e : f["evidence"]) EXPECT_EQ(e["path"].get<std::string>().find(slow_ip), std::string::npos) << e.dump();
  }
}

TEST(NetNamespaces, OneBrokenLinkIsNamed) {
  Cluster c(3);
  if (!c.net.ok()) GTEST_SKIP() << c.net.reason();
  ASSERT_TRUE(c.ready());
  ASSERT_TRUE(c.net.cut(0, 1));
  TempDir dir;
  const auto r = run_npu_doctor({"net", "test", "--matrix", c.hostfile(dir), "--no-throughput", "--pings", "5",
                                 "--connect-timeout", "1s", "-f", "json"});
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const auto j = json::parse(r.out);
  EXPECT_TRUE(j["bad_hosts"].empty()) << r.out;
  ASSERT_EQ(j["findings"].size(), 1u) << r.out;
  EXPECT_EQ(j["findings"][0]["rule"], "net.unreachable");
  EXPECT_EQ(j["findings"][0]["evidence"][0]["path"], c.net.ip(0) + ":46300 -> " + c.net.ip(1) + ":46300");
}

}  // namespace
}  // namespace npu_doctor::net
