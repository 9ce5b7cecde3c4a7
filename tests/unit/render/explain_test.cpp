#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "diagnosis/render.hpp"
#include "explain/explain.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

TEST(Explain, ById) {
  const auto r = explain_query(testing::builtin_kb(), "seed.hccl-error-timeout");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches[0].entry->id, "seed.hccl-error-timeout");
}

TEST(Explain, ExactCodesComeBeforeFamilies) {
  const auto r = explain_query(testing::builtin_kb(), "87");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches[0].entry->id, "drv.87");
  EXPECT_EQ(r.matches[0].specificity, Specificity::exact_code);
}

TEST(Explain, UnknownCodeSuggestsNearMatches) {
  const auto r = explain_query(testing::builtin_kb(), "seed.acl-error-memroy");
  EXPECT_TRUE(r.matches.empty());
  ASSERT_FALSE(r.suggestions.empty());
  EXPECT_EQ(r.suggestions[0], "seed.acl-error-memory");
}

TEST(Explain, TextPrintsTheWholeEntry) {
  std::ostringstream out;
  render_explain_text(explain_query(testing::builtin_kb(), "300001"), RenderOptions{}, out);
  const std::string s = out.str();
  EXPECT_NE(s.find("seed.atc-error-op-not-support"), std::string::npos);
  EXPECT_NE(s.find("seed table  ATC_ERROR_OP_NOT_SUPPORT | 300000-309999 | 300001"), std::string::npos);
  EXPECT_NE(s.find("1. read op_not_support.log"), std::string::npos);
  EXPECT_NE(s.find("defined in  kb/seed.yaml:"), std::string::npos);
}

TEST(Explain, Json) {
  std::ostringstream out;
  render_explain_json(explain_query(testing::builtin_kb(), "600001"), RenderOptions{Lang::zh, false}, out);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["schema"], "npu-doctor/explain/v1");
  ASSERT_FALSE(j["entries"].empty());
  EXPECT_EQ(j["entries"][0]["id"], "seed.env-error-driver");
  EXPECT_EQ(j["entries"][0]["match"], "code_family");
  EXPECT_EQ(j["entries"][0]["seed"]["name"], "ENV_ERROR_DRIVER");
  EXPECT_EQ(j["entries"][0]["title"], "驱动 / 固件版本不匹配（种子表 ENV_ERROR_DRIVER 范围）");
}

}  // namespace
}  // namespace npu_doctor
