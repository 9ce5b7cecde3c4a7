// The real network code on loopback: several servers on different ports in one test,
// servers that stay silent or speak another protocol, a rate-limited server, relays and
// the all-pairs matrix. Nothing may hang: each case has a time bound.
#include <gtest/gtest.h>

#include <chrono>

#include "net/link_test.hpp"
#include "net/matrix.hpp"
#include "net/net_analysis.hpp"
#include "net/net_test_support.hpp"
#include "net/protocol.hpp"
#include "net/server.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::net {
namespace {

using namespace std::chrono_literals;
using npu_doctor::testing::builtin_kb;

std::unique_ptr<NetServer> serve(double max_rate = 0, bool relay = true) {
  ServerOptions o;
  o.bind = "127.0.0.1";
  o.port = 0;
  o.max_rate = max_rate;
  o.allow_relay = relay;
  o.name = "test-server";
  std::string error;
  auto s = NetServer::start(o, &error);
  EXPECT_TRUE(s) << error;
  return s;
}

Endpoint local(uint16_t port) { return {"127.0.0.1", port}; }

LinkTestOptions quick() {
  LinkTestOptions o;
  o.pings = 10;
  o.duration = 300ms;
  o.connect_timeout = 1000ms;
  o.answer_timeout = 1000ms;
  o.self_name = "tester";
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

TEST(NetLoopback, AHealthyLinkHasLatencyAndThroughputBothWays) {
  auto s = serve();
  ASSERT_TRUE(s);
  const auto r = test_link(local(s->port()), quick());
  EXPECT_EQ(r.status, LinkStatus::ok) << r.error;
  EXPECT_EQ(r.peer_name, "test-server");
  EXPECT_EQ(r.address, "127.0.0.1");
  EXPECT_GE(r.connect_ms, 0);
  ASSERT_TRUE(r.rtt);
  EXPECT_EQ(r.rtt->answered, 10u);
  EXPECT_GT(r.rtt->p50_ms, 0);
  EXPECT_LE(r.rtt->min_ms, r.rtt->p50_ms);
  EXPECT_LE(r.rtt->p50_ms, r.rtt->p99_ms);
  EXPECT_TRUE(r.send.measured) << r.send.error;
  EXPECT_TRUE(r.receive.measured) << r.receive.error;
  EXPECT_GT(r.send.bits_per_second, 100e6) << "loopback moves far more than 100 Mbit/s";
  EXPECT_GT(r.receive.bits_per_second, 100e6);
  EXPECT_GE(s->connections_served(), 2u);
}

TEST(NetLoopback, ARateLimitedServerIsMeasuredAtItsLimit) {
  auto s = serve(40e6 / 8);  // 40 Mbit/s
  ASSERT_TRUE(s);
  auto o = quick();
  o.duration = 600ms;
  const auto r = test_link(local(s->port()), o);
  ASSERT_EQ(r.status, LinkStatus::ok) << r.error;
  EXPECT_LT(r.send.bits_per_second, 60e6) << format_rate(r.send.bits_per_second);
  EXPECT_GT(r.send.bits_per_second, 10e6) << format_rate(r.send.bits_per_second);
  EXPECT_LT(r.receive.bits_per_second, 60e6) << format_rate(r.receive.bits_per_second);
}

TEST(NetLoopback, ASilentServerIsDetectedNotWaitedFor) {
  testing::SilentServer silent;
  const auto start = std::chrono::steady_clock::now();
  const auto r = test_link(local(silent.port()), quick());
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_EQ(r.status, LinkStatus::no_answer);
  EXPECT_NE(r.error.find("nothing answered within 1 s"), std::string::npos) << r.error;
}

TEST(NetLoopback, AForeignServerAndAClosedPort) {
  testing::ForeignServer foreign;
  const auto f = test_link(local(foreign.port()), quick());
  EXPECT_EQ(f.status, LinkStatus::not_npu_doctor) << f.error;
  // A port nothing listens on: bind one, close it, connect.
  uint16_t closed = 0;
  {
    std::string error;
    auto l = listen_on("127.0.0.1", 0, &error);
    ASSERT_TRUE(l);
    closed = l->port;
  }
  const auto c = test_link(local(closed), quick());
  EXPECT_EQ(c.status, LinkStatus::refused);
  EXPECT_EQ(c.error, "connection refused");
  const auto u = test_link({"no-such-host.invalid", 1}, quick());
  EXPECT_EQ(u.status, LinkStatus::unresolved) << u.error;
}

TEST(NetLoopback, AServerStopsWithOpenIdleConnections) {
  auto s = serve();
  ASSERT_TRUE(s);
  NetError err;
  auto c = connect_to(local(s->port()), after(1s), &err);
  ASSERT_TRUE(c);  // connected, greeting never sent: the server waits on it
  const auto start = std::chrono::steady_clock::now();
  s->stop();
  EXPECT_LT(seconds_since(start), 2.0);
}

TEST(NetLoopback, GarbageFromAClientDoesNotHurtTheServer) {
  auto s = serve();
  ASSERT_TRUE(s);
  NetError err;
  auto c = connect_to(local(s->port()), after(1s), &err);
  ASSERT_TRUE(c);
  const std::string junk = "GET / HTTP/1.0\r\n\r\n";
  ASSERT_TRUE(send_all(c->fd.get(), junk.data(), junk.size(), after(1s), &err));
  char b;
  EXPECT_FALSE(recv_exact(c->fd.get(), &b, 1, after(2s), &err)) << "the server closes it";
  EXPECT_EQ(test_link(local(s->port()), quick()).status, LinkStatus::ok) << "and still serves others";
}

TEST(NetLoopback, MistypedRequestFieldsDoNotHurtTheServer) {
  auto s = serve();
  ASSERT_TRUE(s);
  NetError err;
  auto c = connect_to(local(s->port()), after(1s), &err);
  ASSERT_TRUE(c);
  const int fd = c->fd.get();
  ASSERT_TRUE(send_frame(fd, FrameType::hello, R"({"protocol": 1})", after(1s), &err));
  auto hello = recv_frame(fd, after(2s), &err);
  ASSERT_TRUE(hello) << err.message;
  // Strings where numbers belong: defaults are used (port 1: refused), the server answers.
  const std::string relay = R"({"host": "127.0.0.1", "port": "x", "pings": "y", "ms": [], "connect_ms": {}})";
  ASSERT_TRUE(send_frame(fd, FrameType::relay, relay, after(1s), &err));
  auto result = recv_frame(fd, after(10s), &err);
  ASSERT_TRUE(result) << err.message;
  EXPECT_EQ(result->type, FrameType::result);
  EXPECT_NE(result->payload.find("\"refused\""), std::string::npos) << result->payload;
  ASSERT_TRUE(send_frame(fd, FrameType::relay, R"({"host": 5})", after(1s), &err));
  auto refused = recv_frame(fd, after(2s), &err);
  ASSERT_TRUE(refused) << err.message;
  EXPECT_EQ(refused->type, FrameType::error);
  EXPECT_EQ(test_link(local(s->port()), quick()).status, LinkStatus::ok) << "and still serves others";
}

TEST(NetLoopback, RelayMeasuresAnotherServersLink) {
  auto a = serve();
  auto b = serve();
  ASSERT_TRUE(a && b);
  const auto r = relay_test(local(a->port()), local(b->port()), quick());
  EXPECT_EQ(r.status, LinkStatus::ok) << r.error;
  EXPECT_EQ(r.from, local(a->port()).text());
  EXPECT_EQ(r.to, local(b->port()).text());
  EXPECT_TRUE(r.send.measured);
  auto no_relay = serve(0, false);
  const auto refused = relay_test(local(no_relay->port()), local(b->port()), quick());
  EXPECT_EQ(refused.status, LinkStatus::not_tested);
  EXPECT_NE(refused.error.find("--no-relay"), std::string::npos) << refused.error;
}

TEST(NetLoopback, MatrixOfFourServersPointsAtTheSlowOne) {
  std::vector<std::unique_ptr<NetServer>> servers;
  for (int i = 0; i < 4; ++i) servers.push_back(serve(i == 2 ? 30e6 / 8 : 0));
  std::vector<Endpoint> hosts;
  for (const auto& s : servers) hosts.push_back(local(s->port()));
  MatrixOptions mo;
  mo.link = quick();
  mo.link.duration = 500ms;
  const auto start = std::chrono::steady_clock::now();
  auto m = run_matrix(hosts, mo);
  EXPECT_LT(seconds_since(start), 30.0);
  ASSERT_EQ(m.pairs.size(), 6u);
  for (const auto& c : m.control) EXPECT_EQ(c.status, LinkStatus::ok) << c.error;
  for (const auto& p : m.pairs) EXPECT_EQ(p.status, LinkStatus::ok) << p.from << " -> " << p.to << ": " << p.error;
  const auto r = analyse_matrix(std::move(m), mo.link, {}, builtin_kb());
  EXPECT_EQ(r.bad_hosts, std::vector<std::string>{hosts[2].text()});
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].entry->id, "net.bad-host");
}

TEST(NetLoopback, MatrixWithADeadServer) {
  std::vector<std::unique_ptr<NetServer>> servers;
  for (int i = 0; i < 3; ++i) servers.push_back(serve());
  std::vector<Endpoint> hosts;
  for (const auto& s : servers) hosts.push_back(local(s->port()));
  servers[1]->stop();
  MatrixOptions mo;
  mo.link = quick();
  mo.link.duration = 200ms;
  const auto start = std::chrono::steady_clock::now();
  const auto r = analyse_matrix(run_matrix(hosts, mo), mo.link, {}, builtin_kb());
  EXPECT_LT(seconds_since(start), 20.0);
  EXPECT_EQ(r.control[1].status, LinkStatus::refused);
  EXPECT_EQ(r.bad_hosts, std::vector<std::string>{hosts[1].text()});
}

}  // namespace
}  // namespace npu_doctor::net
