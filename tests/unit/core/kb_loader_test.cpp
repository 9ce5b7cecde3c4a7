#include <gtest/gtest.h>

#include "npu_doctor/knowledge_base.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::kb_from_yaml;

const char* kGood = R"(schema: npu-doctor/kb/v1
family: t
defaults: {layer: runtime}
entries:
  - id: t.oom
    category: memory
    match: ['NPU out of memory']
    title: {en: Out of memory, zh: 内存不足}
    cause: {en: Too big., zh: 太大。}
    remedies: [{en: Smaller batch., zh: 减小 batch。}]
    samples: {match: ['RuntimeError: NPU out of memory.']}
)";

bool has_problem(const std::vector<KbProblem>& ps, const std::string& text, int line = -1) {
  for (const auto& p : ps) {
    if (p.message.find(text) != std::string::npos && (line < 0 || p.line == line)) return true;
  }
  return false;
}

TEST(KbLoader, LoadsAValidFile) {
  std::vector<KbProblem> problems;
  const auto kb = kb_from_yaml({kGood}, problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(kb.entries().size(), 1u);
  const Entry& e = kb.entries()[0];
  EXPECT_EQ(e.id, "t.oom");
  EXPECT_EQ(e.category, Category::memory);
  EXPECT_EQ(e.layer, "runtime");
  EXPECT_EQ(e.severity, Severity::error);
  EXPECT_EQ(e.role, Role::cause);
  EXPECT_EQ(e.title.get(Lang::zh), "内存不足");
  EXPECT_EQ(e.source.line, 5);
  EXPECT_TRUE(e.user_defined);
}

TEST(KbLoader, UnknownKeyIsAnErrorWithItsLine) {
  std::string bad = kGood;
  bad.replace(bad.find("    category: memory"), 20, "    categry: memory");
  std::vector<KbProblem> problems;
  const auto kb = kb_from_yaml({bad}, problems);
  EXPECT_TRUE(has_problem(problems, "unknown key 'categry'", 6));
  EXPECT_TRUE(kb.entries().empty());
}

TEST(KbLoader, UnknownCategoryIsRejected) {
  std::string bad = kGood;
  bad.replace(bad.find("category: memory"), 16, "category: oom");
  std::vector<KbProblem> problems;
  kb_from_yaml({bad}, problems);
  EXPECT_TRUE(has_problem(problems, "unknown category 'oom'", 6));
}

TEST(KbLoader, RegexThatDoesNotCompileIsRejected) {
  std::string bad = kGood;
  bad.replace(bad.find("'NPU out of memory'"), 19, "'NPU out (of memory'");
  std::vector<KbProblem> problems;
  const auto kb = kb_from_yaml({bad}, problems);
  EXPECT_TRUE(has_problem(problems, "regex does not compile"));
  EXPECT_TRUE(kb.entries().empty());
}

TEST(KbLoader, WrongSchemaRejectsTheFile) {
  std::string bad = kGood;
  bad.replace(0, 24, "schema: npu-doctor/kb/v9");
  std::vector<KbProblem> problems;
  const auto kb = kb_from_yaml({bad}, problems);
  EXPECT_TRUE(has_problem(problems, "schema must be 'npu-doctor/kb/v1'"));
  EXPECT_TRUE(kb.entries().empty());
}

TEST(KbLoader, BrokenYamlReportsTheLine) {
  std::vector<KbProblem> problems;
  kb_from_yaml({"schema: npu-doctor/kb/v1\nfamily: t\nentries:\n  - id: [unclosed\n"}, problems);
  ASSERT_FALSE(problems.empty());
  EXPECT_TRUE(has_problem(problems, "not valid YAML"));
  EXPECT_GT(problems[0].line, 0);
}

TEST(KbLoader, MissingChineseIsAnErrorForShippedFilesAndAWarningForUsers) {
  std::string no_zh = kGood;
  no_zh.replace(no_zh.find("{en: Out of memory, zh: 内存不足}"), std::string("{en: Out of memory, zh: 内存不足}").size(),
                "{en: Out of memory}");
  std::vector<KbProblem> shipped;
  parse_kb_file("x.yaml", no_zh, /*user_defined=*/false, shipped);
  ASSERT_EQ(shipped.size(), 1u);
  EXPECT_TRUE(shipped[0].is_error);
  std::vector<KbProblem> user;
  const auto kb = kb_from_yaml({no_zh}, user);
  ASSERT_EQ(user.size(), 1u);
  EXPECT_FALSE(user[0].is_error);
  EXPECT_EQ(kb.entries().size(), 1u);
}

TEST(KbLoader, PatternsNeedSamplesAndEntriesNeedRemedies) {
  std::string no_samples = kGood;
  no_samples.erase(no_samples.find("    samples:"));
  std::vector<KbProblem> problems;
  kb_from_yaml({no_samples}, problems);
  EXPECT_TRUE(has_problem(problems, "has match patterns but no samples.match"));

  std::string no_remedies = kGood;
  no_remedies.erase(no_remedies.find("    remedies:"), std::string("    remedies: [{en: Smaller batch., zh: 减小 batch。}]\n").size());
  problems.clear();
  kb_from_yaml({no_remedies}, problems);
  EXPECT_TRUE(has_problem(problems, "has no remedies"));
}

TEST(KbLoader, OneMeaningPerCodeAndExplainsMustExist) {
  const char* a = R"(schema: npu-doctor/kb/v1
family: a
defaults: {namespace: acl, layer: runtime, category: memory}
entries:
  - {id: a.1, code: "207001", title: {en: A, zh: 甲}, cause: {en: A, zh: 甲}, remedies: [{en: A, zh: 甲}]}
  - {id: a.2, code: "207001", title: {en: B, zh: 乙}, cause: {en: B, zh: 乙}, remedies: [{en: B, zh: 乙}], explains: [nope]}
)";
  std::vector<KbProblem> problems;
  kb_from_yaml({a}, problems);
  EXPECT_TRUE(has_problem(problems, "code 207001 (acl) is already defined by 'a.1'"));
  EXPECT_TRUE(has_problem(problems, "explains unknown entry id 'nope'"));
}

// One wording for every code it reinterprets (kb-schema.md "Meaning from context"): a rule
// without `near` takes the meant entry's context_signal, wherever that entry is defined.
TEST(KbLoader, AContextRuleWithoutNearUsesTheMeantEntrysSignal) {
  const char* codes = R"(schema: npu-doctor/kb/v1
family: c
defaults: {namespace: acl, layer: operator, category: compile_shape}
entries:
  - {id: c.1, code: "561002", context: [{means: u.unsupported}], title: {en: A, zh: 甲}, cause: {en: A, zh: 甲}, remedies: [{en: A, zh: 甲}]}
  - {id: c.2, code: "161002", context: [{near: 'x\d', means: u.unsupported}], title: {en: B, zh: 乙}, cause: {en: B, zh: 乙}, remedies: [{en: B, zh: 乙}]}
)";
  const char* meaning = R"(schema: npu-doctor/kb/v1
family: u
defaults: {layer: operator, category: compile_op_unsupported, matches_logs: false}
entries:
  - {id: u.unsupported, context_signal: '(?i)only supports?', title: {en: C, zh: 丙}, cause: {en: C, zh: 丙}, remedies: [{en: C, zh: 丙}]}
)";
  std::vector<KbProblem> problems;
  const auto kb = kb_from_yaml({codes, meaning}, problems);
  for (const auto& p : problems) ADD_FAILURE() << p.file << ":" << p.line << " " << p.message;
  ASSERT_NE(kb.find_id("c.1"), nullptr);
  ASSERT_EQ(kb.find_id("c.1")->context.size(), 1u);
  EXPECT_EQ(kb.find_id("c.1")->context[0].near.regex, "(?i)only supports?");
  EXPECT_EQ(kb.find_id("c.2")->context[0].near.regex, "x\\d");  // its own near stays

  const char* no_signal = R"(schema: npu-doctor/kb/v1
family: c
defaults: {namespace: acl, layer: operator, category: compile_shape}
entries:
  - {id: c.1, code: "561002", context: [{means: c.2}], title: {en: A, zh: 甲}, cause: {en: A, zh: 甲}, remedies: [{en: A, zh: 甲}]}
  - {id: c.2, code: "161002", title: {en: B, zh: 乙}, cause: {en: B, zh: 乙}, remedies: [{en: B, zh: 乙}]}
)";
  problems.clear();
  kb_from_yaml({no_signal}, problems);
  EXPECT_TRUE(has_problem(problems, "context rule without near: 'c.2' has no context_signal"));
}

TEST(KbLoader, UserEntryOverridesTheBuiltInOne) {
  testing::TempDir dir;
  const auto file = dir.write("site.yaml", R"(schema: npu-doctor/kb/v1
family: site
entries:
  - id: seed.acl-error-memory
    namespace: acl
    range: [100000, 109999]
    category: memory
    layer: runtime
    title: {en: Site meaning, zh: 站点含义}
    cause: {en: Ours., zh: 我们的。}
    remedies: [{en: Call the on-call., zh: 联系值班。}]
)");
  std::vector<KbProblem> problems;
  KbLoadOptions opts;
  opts.user_paths = {dir.path().string()};
  const auto kb = load_knowledge_base(opts, problems);
  for (const auto& p : problems) ADD_FAILURE() << p.file << ":" << p.line << " " << p.message;
  const Entry* e = kb.find_id("seed.acl-error-memory");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->title.en, "Site meaning");
  EXPECT_TRUE(e->user_defined);
  EXPECT_EQ(kb.entries().size(), testing::builtin_kb().entries().size());
}

TEST(KbLoader, MissingUserPathIsReported) {
  std::vector<KbProblem> problems;
  KbLoadOptions opts;
  opts.embedded = false;
  opts.user_paths = {"/nonexistent/kb.yaml"};
  load_knowledge_base(opts, problems);
  EXPECT_TRUE(has_problem(problems, "cannot read knowledge-base file"));
}

}  // namespace
}  // namespace npu_doctor
