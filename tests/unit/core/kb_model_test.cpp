#include <gtest/gtest.h>

#include "npu_doctor/knowledge_base.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

const char* kCodes = R"(schema: npu-doctor/kb/v1
family: c
defaults: {namespace: acl, layer: runtime, category: other}
entries:
  - {id: c.exact, code: "207001", category: memory, title: {en: E, zh: E}, cause: {en: E, zh: E}, remedies: [{en: E, zh: E}]}
  - {id: c.wide, range: [200000, 299999], title: {en: W, zh: W}, cause: {en: W, zh: W}, remedies: [{en: W, zh: W}]}
  - {id: c.narrow, range: [207000, 207999], title: {en: N, zh: N}, cause: {en: N, zh: N}, remedies: [{en: N, zh: N}]}
  - {id: c.hccl, range: [200000, 209999], components: [HCCL], category: communication, title: {en: H, zh: H}, cause: {en: H, zh: H}, remedies: [{en: H, zh: H}]}
  - {id: c.ei, namespace: ecode, prefixes: [EI], title: {en: I, zh: I}, cause: {en: I, zh: I}, remedies: [{en: I, zh: I}]}
  - {id: c.e, namespace: ecode, prefixes: [E], title: {en: X, zh: X}, cause: {en: X, zh: X}, remedies: [{en: X, zh: X}]}
)";

class KbModel : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<KbProblem> problems;
    kb_ = testing::kb_from_yaml({kCodes}, problems);
    ASSERT_TRUE(problems.empty());
  }
  std::string resolve(std::string_view ns, std::string_view code, std::string_view comp = "") {
    auto r = kb_.resolve_code(ns, code, comp);
    return r ? r->entry->id : "none";
  }
  KnowledgeBase kb_;
};

TEST_F(KbModel, ExactCodeWinsOverEveryRange) {
  EXPECT_EQ(resolve("acl", "207001"), "c.exact");
  EXPECT_EQ(resolve("acl", "207001", "HCCL"), "c.exact");
  EXPECT_EQ(kb_.resolve_code("acl", "207001", "")->specificity, Specificity::exact_code);
}

TEST_F(KbModel, NarrowestRangeWinsWithoutComponent) {
  EXPECT_EQ(resolve("acl", "207555"), "c.narrow");
  EXPECT_EQ(resolve("acl", "201000"), "c.hccl");  // 200000-209999 is narrower than 200000-299999
  EXPECT_EQ(resolve("acl", "250000"), "c.wide");
  EXPECT_EQ(kb_.resolve_code("acl", "250000", "")->specificity, Specificity::code_family);
}

TEST_F(KbModel, TheLinesComponentSettlesAmbiguousRanges) {
  EXPECT_EQ(resolve("acl", "207555", "HCCL"), "c.hccl");
  EXPECT_EQ(resolve("acl", "207555", "RUNTIME"), "c.narrow");
}

TEST_F(KbModel, LongestPrefixWinsAndNamespacesAreSeparate) {
  EXPECT_EQ(resolve("ecode", "EI0099"), "c.ei");
  EXPECT_EQ(resolve("ecode", "EK0001"), "c.e");
  EXPECT_EQ(resolve("acl", "EI0099"), "none");
  EXPECT_EQ(resolve("acl", "999999"), "none");
}

TEST_F(KbModel, LookupCodeListsExactFirstThenFamiliesNarrowestFirst) {
  const auto r = kb_.lookup_code("207001");
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].entry->id, "c.exact");
  EXPECT_EQ(r[1].entry->id, "c.narrow");
  EXPECT_EQ(r[2].entry->id, "c.hccl");
  EXPECT_EQ(r[3].entry->id, "c.wide");
}

TEST(NormalizeCode, CanonicalForms) {
  EXPECT_EQ(normalize_code("0x07020010"), "0x7020010");
  EXPECT_EQ(normalize_code("0X2A"), "0x2a");
  EXPECT_EQ(normalize_code("0x0"), "0x0");
  EXPECT_EQ(normalize_code("007"), "7");
  EXPECT_EQ(normalize_code("ei0002"), "EI0002");
  EXPECT_EQ(normalize_code(" ERR00100 "), "ERR00100");
}

}  // namespace
}  // namespace npu_doctor
