// `npu-doctor atc` end to end: text, JSON, exit codes, stdin.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

TEST(AtcCli, JsonContract) {
  const auto r = run_npu_doctor({"atc", "--format", "json", testing::area_fixture("compile", "onnx_unsupported")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "npu-doctor/atc/v1");
  EXPECT_EQ(j["outcome"], "failed");
  EXPECT_EQ(j["phase"], "parse");
  EXPECT_EQ(j["case"], "compile_op_unsupported");
  ASSERT_EQ(j["operators"].size(), 3u);
  EXPECT_EQ(j["operators"][0]["type"], "FindMax");
  EXPECT_EQ(j["operators"][0]["opset"], "11");
  EXPECT_EQ(j["next_steps"][0]["rule"], "atc.unsupported-operator");
  EXPECT_FALSE(j["next_steps"][0]["remedies"].empty());
  EXPECT_EQ(j["root_cause"], "atc.no-parser-registered");
  EXPECT_TRUE(j["rewritten_command"].get<std::string>().ends_with("--mode=3"));
  // The same finding model as diagnose.
  const auto& f = j["findings"][0];
  for (const char* key : {"rule", "key", "category", "severity", "role", "title", "cause", "remedies", "evidence"}) {
    EXPECT_TRUE(f.contains(key)) << key;
  }
}

TEST(AtcCli, TextShowsTheSwitchFileAndCommand) {
  const auto r = run_npu_doctor({"atc", testing::area_fixture("compile", "fusion")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("ConvBatchnormFusionPass:off"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--fusion_switch_file=fusion_switch.cfg"), std::string::npos);
}

TEST(AtcCli, SuccessExitsZero) {
  const auto r = run_npu_doctor({"atc", testing::area_fixture("compile", "success.log")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("succeeded"), std::string::npos);
}

TEST(AtcCli, ReadsStdinForBothPasses) {
  const std::string log = testing::read_file(testing::area_fixture("compile", "infershape.log"));
  const auto r = run_npu_doctor({"atc", "-f", "json", "-"}, log);
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"]["source"]["path"], "<stdin>");
  EXPECT_EQ(j["operators"][0]["source"]["path"], "<stdin>");
  EXPECT_NE(j["rewritten_command"].get<std::string>().find("--dynamic_batch_size"), std::string::npos);
}

TEST(AtcCli, MissingInputIsAUsageError) {
  const auto r = run_npu_doctor({"atc", testing::area_fixture("compile", "nope.log")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nope.log"), std::string::npos);
}

TEST(AtcCli, BinaryInputIsSkippedWithAMessage) {
  testing::TempDir dir;
  std::string bin;
  for (int i = 0; i < 4096; ++i) bin.push_back(static_cast<char>(i % 5));
  const auto p = dir.write("model.om", bin);
  const auto r = run_npu_doctor({"atc", p.string()});
  EXPECT_EQ(r.exit_code, 2) << r.out;
}

TEST(AtcCli, ChineseText) {
  const auto r = run_npu_doctor({"atc", "--lang", "zh", testing::area_fixture("compile", "legacy_mode0.log")});
  EXPECT_NE(r.out.find("ATC 模型转换"), std::string::npos);
  EXPECT_NE(r.out.find("失败"), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor
