// hccn_tool output as collected (with and without command lines, link_stat prefixes) and
// what `hccl hccn` concludes from it.
#include <gtest/gtest.h>

#include "hccl/hccn_check.hpp"
#include "hccl/hccn_output.hpp"
#include "hccl/hccl_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::hccl {
namespace {

using npu_doctor::testing::builtin_kb;
using npu_doctor::testing::read_file;
using testing::capture;
using testing::find;

HccnCapture parse_fixture(const std::string& name) {
  return parse_hccn_output(name, read_file(testing::fixture("hccn/" + name)));
}

const HccnDevice* dev(const std::vector<HccnDevice>& ds, int id) {
  for (const auto& d : ds) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

TEST(HcclHccnOutput, CommandLinesNameTheDevice) {
  const auto c = parse_fixture("node-a.txt");
  ASSERT_EQ(c.devices.size(), 8u);
  const HccnDevice* d3 = dev(c.devices, 3);
  ASSERT_NE(d3, nullptr);
  EXPECT_EQ(d3->link, "DOWN");
  EXPECT_EQ(d3->link_at.line, 8u);
  EXPECT_EQ(d3->link_at.source, "node-a.txt");
  EXPECT_EQ(d3->link_up_count, 3);
  ASSERT_EQ(d3->link_events.size(), 3u);
  EXPECT_FALSE(d3->link_events[0].up);
  EXPECT_EQ(d3->link_events[0].time, "Tue Jun  6 16:32:10 2023");
  EXPECT_EQ(dev(c.devices, 5)->health, "Fault");
  EXPECT_TRUE(dev(c.devices, 6)->ip_not_set);
  EXPECT_EQ(dev(c.devices, 0)->ip, "192.168.100.11");
  EXPECT_EQ(dev(c.devices, 0)->netmask, "255.255.255.0");
  EXPECT_EQ(dev(c.devices, 7)->tls_switch, 1);
  EXPECT_EQ(dev(c.devices, 0)->tls_switch, 0);
  EXPECT_FALSE(d3->id_from_order);
}

TEST(HcclHccnOutput, WithoutCommandLinesTheOrderNumbersDevices) {
  const auto c = parse_fixture("loop-no-commands.txt");
  ASSERT_EQ(c.devices.size(), 4u);
  EXPECT_EQ(dev(c.devices, 2)->link, "DOWN");
  EXPECT_EQ(dev(c.devices, 1)->health, "Init");
  EXPECT_TRUE(dev(c.devices, 2)->id_from_order);
  const auto s = parse_fixture("devid-link-stat.txt");
  ASSERT_EQ(s.devices.size(), 1u);
  EXPECT_EQ(s.devices[0].id, 2) << "[devid 2] prefix";
  EXPECT_EQ(s.devices[0].link_events.size(), 2u);
}

TEST(HcclHccnOutput, ALiveQueryKnowsItsDevice) {
  const auto c = parse_hccn_output("hccn_tool -i 4 -link -g", "link status: UP\n", 4);
  ASSERT_EQ(c.devices.size(), 1u);
  EXPECT_EQ(c.devices[0].id, 4);
  EXPECT_EQ(c.devices[0].link_at.source, "hccn_tool -i 4 -link -g");
  EXPECT_EQ(parse_hccn_output("x", "random text\n").recognised_lines, 0u);
}

TEST(HcclHccnOutput, HealthStatuses) {
  EXPECT_EQ(classify_health("Success"), "ok");
  EXPECT_EQ(classify_health("0"), "ok");
  EXPECT_EQ(classify_health("Init"), "init");
  EXPECT_EQ(classify_health("Receive timeout"), "fault");
  EXPECT_EQ(classify_health("Detect ip set"), "fault");
  EXPECT_EQ(classify_health("Something new"), "unknown");
}

TEST(HcclHccnCheck, EveryNicProblemIsFound) {
  const auto a = parse_fixture("node-a.txt");
  const auto b = parse_fixture("node-b.txt");
  const auto r = check_hccn({{"node-a.txt", a.devices}, {"node-b.txt", b.devices}}, builtin_kb());
  const Finding* down = find(r, "net.roce-link-down");
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(capture(down->first(), "device"), "3");
  EXPECT_EQ(down->first().path, "node-a.txt");
  EXPECT_EQ(down->first().line, 8u);
  EXPECT_EQ(capture(find(r, "net.roce-net-unhealthy")->first(), "health"), "Fault");
  EXPECT_EQ(capture(find(r, "net.roce-ip-missing")->first(), "device"), "6");
  const Finding* tls = find(r, "net.roce-tls-inconsistent");
  ASSERT_NE(tls, nullptr);
  EXPECT_EQ(capture(tls->evidence.back(), "device"), "7") << "the odd one out is shown";
  const Finding* flap = find(r, "net.roce-link-flapped");
  ASSERT_NE(flap, nullptr);
  EXPECT_EQ(capture(flap->first(), "link_down_events"), "2");
  EXPECT_EQ(capture(flap->first(), "last_down"), "Wed Jun  7 09:58:01 2023");
  const Finding* dup = find(r, "net.roce-ip-duplicate");
  ASSERT_NE(dup, nullptr) << "node-b device 0 has node-a device 0's address";
  EXPECT_EQ(dup->count, 2u);
  EXPECT_EQ(effective_severity(r.findings.back()), Severity::warning) << "errors first";
}

TEST(HcclHccnCheck, HealthyNicsAreClean) {
  const auto c = parse_fixture("healthy.txt");
  const auto r = check_hccn({{"healthy.txt", c.devices}}, builtin_kb());
  EXPECT_TRUE(r.findings.empty());
  // Init (no health detection configured) is not a fault.
  const auto l = parse_fixture("loop-no-commands.txt");
  const auto r2 = check_hccn({{"loop", l.devices}}, builtin_kb());
  EXPECT_EQ(find(r2, "net.roce-net-unhealthy"), nullptr);
  EXPECT_NE(find(r2, "net.roce-link-down"), nullptr);
}

}  // namespace
}  // namespace npu_doctor::hccl
