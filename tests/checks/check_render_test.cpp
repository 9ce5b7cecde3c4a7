// The three renderings of a check report: the JSON contract (npu-doctor/check/v1), the
// text report (colour only when asked, English and Chinese) and Markdown.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "checks/check_test_support.hpp"
#include "checks/check_render.hpp"

namespace npu_doctor::checks {
namespace {

std::string render(void (*fn)(const CheckReport&, const RenderOptions&, std::ostream&), const CheckReport& r,
                   RenderOptions o = {}) {
  std::ostringstream out;
  fn(r, o, out);
  return out.str();
}

TEST(CheckRender, JsonFollowsTheContract) {
  const CheckReport r = testing::check_machine("driver-firmware-mismatch");
  const auto j = nlohmann::json::parse(render(render_check_json, r));
  EXPECT_EQ(j["schema"], "npu-doctor/check/v1");
  EXPECT_EQ(j["status"], "fail");
  EXPECT_EQ(j["root"], testing::machine_root("driver-firmware-mismatch"));
  ASSERT_EQ(j["steps"].size(), 4u);
  const auto& s = j["steps"][0];
  EXPECT_EQ(s["id"], "driver");
  EXPECT_EQ(s["title"], "Driver and firmware");
  EXPECT_EQ(s["status"], "fail");
  EXPECT_EQ(s["facts"]["driver_version"], "24.1.rc2");
  ASSERT_FALSE(s["evidence"].empty());
  EXPECT_EQ(s["evidence"][0]["source"], "file");
  EXPECT_EQ(s["evidence"][0]["path"], "/usr/local/Ascend/driver/version.info");
  EXPECT_EQ(s["evidence"][0]["line"], 1);
  const auto& f = s["findings"][0];
  EXPECT_EQ(f["rule"], "check.driver-firmware-mismatch");
  EXPECT_EQ(f["category"], "driver_firmware_env");
  EXPECT_EQ(f["severity"], "error");
  EXPECT_EQ(f["step"], "driver");
  EXPECT_EQ(f["evidence"][0]["captures"]["firmware"], "7.5.0.2.220");
  EXPECT_FALSE(f["remedies"].empty());
  // Top-level findings: every step's, flattened.
  ASSERT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["rule"], "check.driver-firmware-mismatch");
  EXPECT_EQ(j["summary"]["fail"], 1);
  EXPECT_EQ(j["summary"]["pass"], 3);
  EXPECT_EQ(j["summary"]["by_category"]["driver_firmware_env"], 1);
  EXPECT_EQ(j["options"]["timeout_ms"], 10000);
  EXPECT_TRUE(j["options"]["pid"].is_null());
}

TEST(CheckRender, EvidenceSourcesAreFilesCommandsAndVariables) {
  const CheckReport r = testing::check_machine("cann-env-not-set");
  const auto j = nlohmann::json::parse(render(render_check_json, r));
  const auto& cann = j["steps"][1];
  bool env = false, file = false;
  for (const auto& e : cann["evidence"]) {
    env = env || (e["source"] == "env" && e["path"] == "$ASCEND_OPP_PATH");
    file = file || e["source"] == "file";
  }
  EXPECT_TRUE(env);
  EXPECT_TRUE(file);
  bool command = false;
  for (const auto& e : j["steps"][0]["evidence"]) command = command || (e["source"] == "command" && e["path"] == "npu-smi info");
  EXPECT_TRUE(command);
}

TEST(CheckRender, TextShowsEachStepTheFixAndTheSummary) {
  const CheckReport r = testing::check_machine("cann-env-not-set");
  const std::string text = render(render_check_text, r);
  EXPECT_NE(text.find("[PASS] 1. Driver and firmware"), std::string::npos) << text;
  EXPECT_NE(text.find("[FAIL] 2. CANN and PyTorch"), std::string::npos);
  EXPECT_NE(text.find("The CANN environment is not set"), std::string::npos);
  EXPECT_NE(text.find("fix: source /usr/local/Ascend/ascend-toolkit/set_env.sh"), std::string::npos);
  EXPECT_NE(text.find("summary: 1 failed, 0 warnings, 3 passed, 0 skipped"), std::string::npos);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  RenderOptions colour;
  colour.color = true;
  EXPECT_NE(render(render_check_text, r, colour).find("\x1b[1;31m[FAIL]"), std::string::npos);
}

TEST(CheckRender, StepsKeepTheirNumberWhenOthersAreLeftOut) {
  CheckOptions o;
  o.steps = {StepId::devices, StepId::numa};
  const CheckReport r = testing::check_machine("healthy-910b", o);
  const std::string text = render(render_check_text, r);
  EXPECT_NE(text.find("[PASS] 3. Permissions and device visibility"), std::string::npos) << text;
  EXPECT_NE(text.find("[PASS] 4. NUMA placement"), std::string::npos) << text;
  const std::string md = render(render_check_markdown, r);
  EXPECT_NE(md.find("| 4 | NUMA placement (`numa`) | **PASS** | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("## 3. Permissions and device visibility: PASS"), std::string::npos) << md;
}

TEST(CheckRender, HealthyTextSaysEverythingPassed) {
  const std::string text = render(render_check_text, testing::check_machine("healthy-910b"));
  EXPECT_NE(text.find("[PASS] Every step passed."), std::string::npos) << text;
}

TEST(CheckRender, ChineseReport) {
  RenderOptions zh;
  zh.lang = Lang::zh;
  const CheckReport r = testing::check_machine("no-driver");
  const std::string text = render(render_check_text, r, zh);
  EXPECT_NE(text.find("驱动与固件"), std::string::npos) << text;
  EXPECT_NE(text.find("本机未找到昇腾驱动"), std::string::npos);
  const auto j = nlohmann::json::parse(render(render_check_json, r, zh));
  EXPECT_EQ(j["lang"], "zh");
  EXPECT_EQ(j["steps"][1]["title"], "CANN 与 PyTorch");
}

TEST(CheckRender, MarkdownHasTheStepTableAndFindings) {
  const std::string md = render(render_check_markdown, testing::check_machine("torch-npu-cann-mismatch"));
  EXPECT_NE(md.find("# npu-doctor check: FAIL"), std::string::npos) << md;
  EXPECT_NE(md.find("| 2 | CANN and PyTorch (`cann`) | **FAIL** | 1 |"), std::string::npos);
  EXPECT_NE(md.find("### error: torch_npu does not support the installed CANN version"), std::string::npos);
  EXPECT_NE(md.find("expected_cann=`7.0.0`"), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor::checks
