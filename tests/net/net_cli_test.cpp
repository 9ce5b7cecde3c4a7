// `npu-doctor net serve` and `net test` as separate processes on loopback: the listening
// line, SIGTERM, the JSON contract, the matrix from a host file, and usage errors.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "hccl/hccl_test_support.hpp"
#include "net/net_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::net {
namespace {

using npu_doctor::testing::run_npu_doctor;
using npu_doctor::testing::TempDir;
using json = nlohmann::json;

std::string at(const testing::ServeProcess& s) { return "127.0.0.1:" + std::to_string(s.port()); }

TEST(NetCli, ServeThenTestThenStop) {
  testing::ServeProcess server({"--port", "0", "--bind", "127.0.0.1", "--exit-after", "60s"});
  ASSERT_TRUE(server.ready()) << server.first_line();
  const auto r = run_npu_doctor({"net", "test", at(server), "--duration", "300ms", "--pings", "5", "-f", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["schema"], "npu-doctor/net-test/v1");
  EXPECT_EQ(j["mode"], "direct");
  EXPECT_EQ(j["options"]["pings"], 5);
  ASSERT_EQ(j["links"].size(), 1u);
  const auto& l = j["links"][0];
  EXPECT_EQ(l["status"], "ok");
  EXPECT_EQ(l["from"], nullptr);
  EXPECT_EQ(l["rtt"]["answered"], 5);
  EXPECT_GT(l["send"]["bits_per_second"].get<double>(), 0);
  EXPECT_GT(l["receive"]["bits_per_second"].get<double>(), 0);
  EXPECT_EQ(j["summary"]["findings"], 0);
  std::string rest;
  EXPECT_EQ(server.stop(&rest), 0) << "SIGTERM is a clean stop";
  EXPECT_NE(rest.find("stopped after"), std::string::npos) << rest;
}

TEST(NetCli, BrokenAndSilentTargetsExitOne) {
  testing::SilentServer silent;
  uint16_t closed = 0;
  {
    std::string error;
    auto l = listen_on("127.0.0.1", 0, &error);
    closed = l->port;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_npu_doctor({"net", "test", "127.0.0.1:" + std::to_string(silent.port()),
                                 "127.0.0.1:" + std::to_string(closed), "--answer-timeout", "500ms", "-f", "json"});
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  EXPECT_EQ(r.exit_code, 1);
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["links"][0]["status"], "no_answer");
  EXPECT_EQ(j["links"][1]["status"], "refused");
  EXPECT_EQ(hccl::testing::count_rule(j, "net.unreachable"), 1u);
  EXPECT_EQ(hccl::testing::count_rule(j, "net.no-answer"), 1u);
  const auto text = run_npu_doctor({"net", "test", "127.0.0.1:" + std::to_string(closed), "--lang", "zh"});
  EXPECT_NE(text.out.find("无法通过 TCP 连接到某个节点"), std::string::npos) << text.out;
}

TEST(NetCli, MatrixFromAHostFile) {
  testing::ServeProcess a({"--port", "0", "--bind", "127.0.0.1", "--exit-after", "60s"});
  testing::ServeProcess b({"--port", "0", "--bind", "127.0.0.1", "--exit-after", "60s"});
  testing::ServeProcess slow({"--port", "0", "--bind", "127.0.0.1", "--max-rate", "30M", "--exit-after", "60s"});
  ASSERT_TRUE(a.ready() && b.ready() && slow.ready());
  TempDir dir;
  const auto hosts = dir.write("hosts.txt", "# three servers\n" + at(a) + "\n" + at(b) + " slots=8\n" + at(slow) + "\n");
  const auto r = run_npu_doctor({"net", "test", "--matrix", hosts.string(), "--duration", "500ms", "--pings", "5",
                                 "-f", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["mode"], "matrix");
  EXPECT_EQ(j["control"].size(), 3u);
  EXPECT_EQ(j["links"].size(), 3u);
  EXPECT_EQ(j["bad_hosts"], json::array({at(slow)}));
  EXPECT_EQ(j["reference"]["source"], "upper quartile");
  EXPECT_EQ(hccl::testing::count_rule(j, "net.bad-host"), 1u);
}

TEST(NetCli, UsageErrors) {
  TempDir dir;
  EXPECT_EQ(run_npu_doctor({"net", "test"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"net", "test", "host:99999"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"net", "test", "--matrix", "/nonexistent/hosts"}).exit_code, 2);
  const auto one = dir.write("one.txt", "only-one-host\n");
  const auto r = run_npu_doctor({"net", "test", "--matrix", one.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("at least two hosts"), std::string::npos) << r.err;
  const auto bad = dir.write("bad.txt", "a\nb:port\n");
  const auto rb = run_npu_doctor({"net", "test", "--matrix", bad.string()});
  EXPECT_EQ(rb.exit_code, 2);
  EXPECT_NE(rb.err.find("bad.txt: line 2:"), std::string::npos) << rb.err;
  EXPECT_EQ(run_npu_doctor({"net", "test", "h", "--duration", "fast"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"net", "test", "h", "--expect-throughput", "lots"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"net", "serve", "--max-rate", "x"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"net", "serve", "--bind", "192.0.2.123", "--port", "0"}).exit_code, 2)
      << "an address this host does not have";
  for (const char* sub : {"serve", "test"}) EXPECT_EQ(run_npu_doctor({"net", sub, "--help"}).exit_code, 0);
}

TEST(NetCli, ServeExitsAfterItsTime) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_npu_doctor({"net", "serve", "--port", "0", "--bind", "127.0.0.1", "--exit-after", "300ms"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  EXPECT_NE(r.out.find("listening on 127.0.0.1 port "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace npu_doctor::net
