#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "diagnosis/diagnosis.hpp"
#include "diagnosis/render.hpp"
#include "support/html_check.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

DiagnosisReport diagnose(const std::string& fixture) {
  std::vector<KbProblem> problems;
  static Diagnoser d(testing::builtin_kb(), problems);
  DiagnoseOptions o;
  o.paths = {testing::fixtures_dir() + "/logs/" + fixture};
  return d.run(o);
}

TEST(RenderJson, FollowsTheV1Contract) {
  const auto r = diagnose("device_oom_plog.log");
  std::ostringstream out;
  render_diagnosis_json(r, RenderOptions{}, out);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["schema"], "npu-doctor/diagnosis/v1");
  ASSERT_EQ(j["inputs"].size(), 1u);
  EXPECT_EQ(j["inputs"][0]["status"], "ok");
  EXPECT_EQ(j["inputs"][0]["lines"], 10);
  ASSERT_TRUE(j["root_cause"].is_object());
  EXPECT_EQ(j["root_cause"]["category"], "memory");
  EXPECT_FALSE(j["root_cause"]["reason"].get<std::string>().empty());
  EXPECT_FALSE(j["root_cause"]["rule"].get<std::string>().empty());
  ASSERT_GE(j["findings"].size(), 3u);
  // The root cause is listed first.
  EXPECT_EQ(j["findings"][0]["rule"], j["root_cause"]["rule"]);
  for (const auto& f : j["findings"]) {
    for (const char* key : {"rule", "category", "code", "severity", "title", "cause", "remedies", "evidence", "context"}) {
      EXPECT_TRUE(f.contains(key)) << key;
    }
    EXPECT_TRUE(parse_category(f["category"].get<std::string>())) << f["category"];
    ASSERT_FALSE(f["evidence"].empty());
    EXPECT_TRUE(f["evidence"][0]["path"].get<std::string>().ends_with("device_oom_plog.log"));
    EXPECT_GT(f["evidence"][0]["line"].get<int>(), 0);
  }
  // The benign allocator retry is an info-level hint, not an error.
  bool saw_benign = false;
  for (const auto& f : j["findings"]) {
    if (f["rule"] == "torch-npu.pool-block-retry") {
      saw_benign = true;
      EXPECT_EQ(f["severity"], "info");
      EXPECT_FALSE(f.contains("symptom_of"));
    }
  }
  EXPECT_TRUE(saw_benign);
}

TEST(RenderJson, HealthyLogHasNoRootCauseButKeepsWarnings) {
  const auto r = diagnose("healthy_training.log");
  std::ostringstream out;
  render_diagnosis_json(r, RenderOptions{}, out);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_TRUE(j["root_cause"].is_null());
  bool fallback = false;
  for (const auto& f : j["findings"]) fallback |= f["rule"] == "torch-npu.cpu-fallback";
  EXPECT_TRUE(fallback);
}

TEST(RenderJson, WarningsOfAHealthyVllmLogNameNoRootCause) {
  // vLLM-Ascend logs optional-import failures and missing CUDA libraries as WARNINGs.
  const auto r = diagnose("healthy_vllm_ascend.log");
  std::ostringstream out;
  render_diagnosis_json(r, RenderOptions{}, out);
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_TRUE(j["root_cause"].is_null()) << j["root_cause"].dump();
  bool module_missing = false;
  for (const auto& f : j["findings"]) {
    EXPECT_NE(f["severity"], "error") << f["rule"];
    module_missing |= f["rule"] == "install.python-module-missing";
  }
  EXPECT_TRUE(module_missing) << "still reported, as a warning";
}

TEST(RenderJson, SymptomsPointAtTheRootCause) {
  const auto r = diagnose("notify_timeout_after_aicore.log");
  std::ostringstream out;
  render_diagnosis_json(r, RenderOptions{}, out);
  const auto j = nlohmann::json::parse(out.str());
  ASSERT_TRUE(j["root_cause"].is_object());
  EXPECT_EQ(j["root_cause"]["category"], "aicore_exception");
  const std::string key = j["root_cause"]["key"];
  int symptoms = 0;
  for (const auto& f : j["findings"]) {
    if (f.contains("symptom_of")) {
      EXPECT_EQ(f["symptom_of"], key);
      ++symptoms;
    }
  }
  EXPECT_GE(symptoms, 2);
}

TEST(RenderText, RootCauseFirstWithEvidenceAndNumberedRemedies) {
  const auto r = diagnose("device_oom_plog.log");
  std::ostringstream out;
  render_diagnosis_text(r, RenderOptions{}, out);
  const std::string s = out.str();
  const auto root = s.find("ROOT CAUSE:");
  ASSERT_NE(root, std::string::npos);
  EXPECT_LT(root, s.find("OTHER FINDINGS"));
  EXPECT_NE(s.find("    1. "), std::string::npos);
  EXPECT_NE(s.find("device_oom_plog.log:"), std::string::npos);
  EXPECT_EQ(s.find('\x1b'), std::string::npos) << "no colour unless asked";
  std::ostringstream coloured;
  render_diagnosis_text(r, RenderOptions{Lang::en, true}, coloured);
  EXPECT_NE(coloured.str().find("\x1b["), std::string::npos);
}

// An entry's texts name what its pattern captured ("`{variable}` is not set" says which
// variable), in every format; a name the line did not capture stays as written.
TEST(RenderAll, EntryTextsNameWhatTheLineCaptured) {
  testing::TempDir dir;
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  DiagnoseOptions o;
  o.paths = {dir.write("env.log", "RuntimeError: ASCEND_TOOLKIT_HOME is not set\n").string()};
  const auto r = d.run(o);
  ASSERT_NE(r.root_finding(), nullptr);
  EXPECT_EQ(r.root_finding()->entry->id, "install.cann-environment-not-sourced");
  std::ostringstream text, json_out, md, html;
  render_diagnosis_text(r, RenderOptions{}, text);
  render_diagnosis_json(r, RenderOptions{}, json_out);
  render_diagnosis_markdown(r, RenderOptions{}, md);
  render_diagnosis_html(r, RenderOptions{}, html);
  for (const std::string& s : {text.str(), json_out.str(), md.str(), html.str()}) {
    EXPECT_NE(s.find("The tool needs `ASCEND_TOOLKIT_HOME`"), std::string::npos) << s.substr(0, 400);
    EXPECT_EQ(s.find("{variable}"), std::string::npos);
  }
  Finding f = *r.root_finding();
  EXPECT_EQ(with_captures("{variable} and {unknown}", f), "ASCEND_TOOLKIT_HOME and {unknown}");
  f.evidence.front().captures.clear();
  EXPECT_EQ(with_captures("{variable}", f), "{variable}");
}

TEST(RenderText, Chinese) {
  const auto r = diagnose("device_oom_plog.log");
  std::ostringstream out;
  render_diagnosis_text(r, RenderOptions{Lang::zh, false}, out);
  EXPECT_NE(out.str().find("根因"), std::string::npos);
  EXPECT_NE(out.str().find("解决办法"), std::string::npos);
}

TEST(RenderMarkdown, HasTheRootCauseAndACodeBlock) {
  const auto r = diagnose("device_oom_plog.log");
  std::ostringstream out;
  render_diagnosis_markdown(r, RenderOptions{}, out);
  const std::string s = out.str();
  EXPECT_NE(s.find("### ROOT CAUSE"), std::string::npos);
  EXPECT_NE(s.find("```\n"), std::string::npos);
  EXPECT_NE(s.find("| category | relation | role | finding | where | count |"), std::string::npos);
}

TEST(RenderHtml, IsOneWellFormedPageWithEverythingEscaped) {
  auto r = diagnose("device_oom_plog.log");
  ASSERT_TRUE(r.root_finding());
  // Log text is data, never markup.
  r.findings[r.root->finding].evidence.front().text = "<script>alert('x')</script> & more";
  std::ostringstream out;
  render_diagnosis_html(r, RenderOptions{}, out);
  const std::string s = out.str();
  EXPECT_EQ(testing::html_problem(s), "");
  EXPECT_TRUE(s.starts_with("<!DOCTYPE html>"));
  EXPECT_EQ(s.find("<script"), std::string::npos);
  EXPECT_NE(s.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"), std::string::npos);
  EXPECT_NE(s.find(r.root_finding()->entry->title.get(Lang::en)), std::string::npos);
  EXPECT_NE(s.find("<details>"), std::string::npos);  // the other findings
}

}  // namespace
}  // namespace npu_doctor
