// `hccl ranktable`: valid tables of each version, and every problem with file, line,
// column and JSON path.
#include <gtest/gtest.h>

#include "hccl/ranktable.hpp"
#include "hccl/hccl_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::hccl {
namespace {

using npu_doctor::testing::builtin_kb;
using npu_doctor::testing::read_file;

RankTableReport check_fixture(const std::string& name) {
  return check_rank_table(name, read_file(testing::fixture("ranktable/" + name)), builtin_kb());
}

std::string capture_of(const Evidence& e, const std::string& key) {
  for (const auto& [k, v] : e.captures) {
    if (k == key) return v;
  }
  return {};
}

const Finding* find(const RankTableReport& r, const std::string& id) {
  for (const auto& f : r.findings) {
    if (f.entry->id == id) return &f;
  }
  return nullptr;
}

std::string ids(const RankTableReport& r) {
  std::string s;
  for (const auto& f : r.findings) {
    for (const auto& e : f.evidence) s += f.entry->id + "@" + std::to_string(e.line) + ":" + capture_of(e, "json_path") + " " + capture_of(e, "detail") + "\n";
  }
  return s;
}

TEST(HcclRankTable, ValidTablesOfEachVersionAreClean) {
  for (const char* name : {"valid-v1.0.json", "valid-v1.2.json", "valid-v2.0.json"}) {
    const auto r = check_fixture(name);
    EXPECT_TRUE(r.parsed) << name;
    EXPECT_TRUE(r.findings.empty()) << name << "\n" << ids(r);
  }
  const auto v10 = check_fixture("valid-v1.0.json");
  EXPECT_EQ(v10.version, "1.0");
  EXPECT_EQ(v10.servers.size(), 2u);
  EXPECT_EQ(v10.ranks, 16u);
  EXPECT_EQ(v10.servers[1].devices[7].rank_id, "15");
  EXPECT_EQ(check_fixture("valid-v1.2.json").super_pods, 1u);
  EXPECT_EQ(check_fixture("valid-v2.0.json").ranks, 4u);
}

TEST(HcclRankTable, DuplicateRankSaysFileLineAndPath) {
  const auto r = check_fixture("duplicate-rank.json");
  const Finding* f = find(r, "hccl-config.ranktable-duplicate-rank");
  ASSERT_NE(f, nullptr) << ids(r);
  EXPECT_EQ(f->entry->category, Category::rank_config);
  const Evidence& e = f->first();
  EXPECT_EQ(e.path, "duplicate-rank.json");
  EXPECT_EQ(capture_of(e, "json_path"), "server_list[1].device[3].rank_id");
  EXPECT_EQ(e.line, 74u);
  EXPECT_EQ(capture_of(e, "column"), "32");
  EXPECT_NE(e.text.find("\"rank_id\": \"3\""), std::string::npos) << e.text;
  EXPECT_NE(capture_of(e, "detail").find("server_list[0].device[3].rank_id (line 28)"), std::string::npos)
      << capture_of(e, "detail");
  // Rank 11 is now missing.
  const Finding* gap = find(r, "hccl-config.ranktable-rank-gap");
  ASSERT_NE(gap, nullptr);
  EXPECT_EQ(capture_of(gap->first(), "missing"), "11");
}

TEST(HcclRankTable, SyntaxErrorHasLineAndColumn) {
  const auto r = check_fixture("syntax-error.json");
  EXPECT_FALSE(r.parsed);
  const Finding* f = find(r, "hccl-config.ranktable-not-json");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->first().line, 23u);
  EXPECT_EQ(capture_of(f->first(), "column"), "21");
  EXPECT_NE(capture_of(f->first(), "detail").find("syntax error"), std::string::npos) << capture_of(f->first(), "detail");
  EXPECT_EQ(capture_of(f->first(), "detail").find("json.exception"), std::string::npos) << "nlohmann's prefix is cut";
}

TEST(HcclRankTable, ManyProblemsAtOnce) {
  const auto r = check_fixture("many-errors.json");
  EXPECT_NE(find(r, "hccl-config.ranktable-count-mismatch"), nullptr) << ids(r);
  const Finding* ip = find(r, "hccl-config.ranktable-bad-ip");
  ASSERT_NE(ip, nullptr);
  EXPECT_EQ(capture_of(ip->first(), "json_path"), "server_list[0].device[5].device_ip");
  EXPECT_EQ(capture_of(ip->first(), "value"), "192.168.1.xx");
  const Finding* dup_ip = find(r, "hccl-config.ranktable-duplicate-ip");
  ASSERT_NE(dup_ip, nullptr);
  EXPECT_EQ(capture_of(dup_ip->first(), "json_path"), "server_list[1].device[0].device_ip");
  const Finding* type = find(r, "hccl-config.ranktable-invalid");
  ASSERT_NE(type, nullptr);
  EXPECT_NE(capture_of(type->first(), "detail").find("every value is a string"), std::string::npos);
  EXPECT_NE(find(r, "hccl-config.ranktable-duplicate-device"), nullptr) << "device_id 1 twice on server 1";
  const Finding* gap = find(r, "hccl-config.ranktable-rank-gap");
  ASSERT_NE(gap, nullptr);
  bool out_of_range = false, missing = false;
  for (const auto& e : gap->evidence) {
    out_of_range = out_of_range || capture_of(e, "rank") == "16";
    missing = missing || capture_of(e, "missing") == "15";
  }
  EXPECT_TRUE(out_of_range && missing) << ids(r);
  // Findings are in file order.
  for (std::size_t i = 1; i < r.findings.size(); ++i) EXPECT_LE(r.findings[i - 1].first().line, r.findings[i].first().line);
}

TEST(HcclRankTable, StatusVersionDuplicateKeysSuperPods) {
  EXPECT_NE(find(check_fixture("initializing.json"), "hccl-config.ranktable-not-completed"), nullptr);
  EXPECT_NE(find(check_fixture("unknown-version.json"), "hccl-config.ranktable-version"), nullptr);
  const auto dk = check_fixture("duplicate-key.json");
  const Finding* k = find(dk, "hccl-config.ranktable-invalid");
  ASSERT_NE(k, nullptr) << ids(dk);
  EXPECT_EQ(k->first().line, 9u);
  EXPECT_EQ(capture_of(k->first(), "json_path"), "server_list[0].device[0].rank_id");
  const auto sp = check_fixture("bad-super-pod.json");
  const Finding* pod = find(sp, "hccl-config.ranktable-super-pod");
  ASSERT_NE(pod, nullptr) << ids(sp);
  EXPECT_EQ(pod->count, 2u) << "node-9 unknown, node-1 in no super pod\n" << ids(sp);
  EXPECT_NE(find(sp, "hccl-config.ranktable-duplicate-device"), nullptr) << "super_device_id 0 twice\n" << ids(sp);
}

TEST(HcclRankTable, BadInputNeverCrashes) {
  for (const std::string& text : {std::string(""), std::string("   \n"), std::string("[]"), std::string("\"x\""),
                                  std::string("{\"version\": 1.0}"), std::string("{\"server_list\": {}}"),
                                  std::string("{\"version\":\"1.0\",\"status\":\"completed\",\"server_count\":\"1\","
                                              "\"server_list\":[{\"device\":[null, 3, {\"rank_id\": \"-1\"}]}]}"),
                                  std::string("{\"version\":\"2.0\",\"status\":\"completed\",\"rank_count\":1,"
                                              "\"rank_list\":[{\"rank_id\":0,\"device_id\":0,\"level_list\":[{"
                                              "\"rank_addr_list\":[{\"addr_type\":4,\"addr\":7}]}]}], \"x\": 1, \"x\": 2}"),
                                  std::string("\xff\xfe{}"), std::string(200000, '{')}) {
    const auto r = check_rank_table("t.json", text, builtin_kb());
    EXPECT_FALSE(r.findings.empty()) << text.substr(0, 40);
  }
}

TEST(HcclRankTable, Uneven) {
  const std::string t = R"({"version":"1.0","status":"completed","server_count":"2","server_list":[
{"server_id":"a","device":[{"device_id":"0","device_ip":"10.0.0.1","rank_id":"0"},{"device_id":"1","device_ip":"10.0.0.2","rank_id":"1"}]},
{"server_id":"b","device":[{"device_id":"0","device_ip":"10.0.1.1","rank_id":"2"}]}]})";
  const auto r = check_rank_table("u.json", t, builtin_kb());
  const Finding* f = find(r, "hccl-config.ranktable-uneven-servers");
  ASSERT_NE(f, nullptr) << ids(r);
  EXPECT_EQ(effective_severity(*f), Severity::warning);
}

}  // namespace
}  // namespace npu_doctor::hccl
