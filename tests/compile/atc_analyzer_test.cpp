// analyze_atc on console logs, plogs and ATC output directories in the real formats.
#include <gtest/gtest.h>

#include <algorithm>

#include "compile/atc.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

AtcReport run(std::vector<std::string> paths) {
  static std::vector<KbProblem> problems;
  static const Diagnoser diagnoser(testing::builtin_kb(), problems);
  AtcOptions o;
  o.paths = std::move(paths);
  return analyze_atc(o, testing::builtin_kb(), diagnoser);
}

std::string case_id(const AtcReport& r) { return r.findings.empty() ? "" : r.findings.front().entry->id; }

TEST(AtcAnalyzer, UnsupportedOnnxOperatorsWithOpsetAndPhase) {
  const auto r = run({testing::area_fixture("compile", "onnx_unsupported")});
  EXPECT_EQ(r.outcome, "failed");
  EXPECT_EQ(r.phase, AtcPhase::parse);
  ASSERT_TRUE(r.category);
  EXPECT_EQ(*r.category, Category::compile_op_unsupported);
  ASSERT_EQ(r.operators.size(), 3u);  // the E19010 line and the two TraceBack lines
  EXPECT_EQ(r.operators[0].type, "FindMax");
  EXPECT_EQ(r.operators[0].opset, "11");
  EXPECT_EQ(r.operators[0].domain, "ai.onnx");
  EXPECT_EQ(r.operators[0].name, "/down_blocks.1/attentions.0/tome1/FindMax");
  EXPECT_EQ(r.operators[2].type, "UnpadFlashAttentionMix");
  EXPECT_EQ(case_id(r), "atc.unsupported-operator");
  // The command spread over continuation lines is read, and the next step is the pre-check.
  ASSERT_TRUE(r.command);
  EXPECT_EQ(r.command->source.line, 1u);
  ASSERT_NE(r.command->find("--soc_version"), nullptr);
  EXPECT_EQ(*r.command->find("--soc_version"), "Ascend310P3");
  ASSERT_TRUE(r.rewritten_command);
  EXPECT_EQ(*r.rewritten_command,
            "atc --framework=5 --model=./unet_md.onnx --output=./unet --input_format=NCHW --log=error "
            "--soc_version=Ascend310P3 --mode=3");
}

TEST(AtcAnalyzer, OlderConsoleWording) {
  const auto r = run({testing::area_fixture("compile", "legacy_mode0.log")});
  EXPECT_EQ(r.outcome, "failed");
  ASSERT_EQ(r.operators.size(), 1u);
  EXPECT_EQ(r.operators[0].type, "grid_sampler");
  EXPECT_EQ(r.operators[0].name, "grid_sampler_3140");
  EXPECT_FALSE(r.rewritten_command);  // no command in this log: nothing to rewrite
}

TEST(AtcAnalyzer, ShapeInferenceFailureSuggestsDynamicBatch) {
  const auto r = run({testing::area_fixture("compile", "infershape.log")});
  EXPECT_EQ(r.phase, AtcPhase::infershape);
  ASSERT_TRUE(r.category);
  EXPECT_EQ(*r.category, Category::compile_shape);
  ASSERT_FALSE(r.operators.empty());
  EXPECT_EQ(r.operators[0].name, "Add_718");
  EXPECT_EQ(r.operators[0].type, "Add");
  EXPECT_EQ(case_id(r), "atc.shape-options");
  ASSERT_TRUE(r.rewritten_command);
  EXPECT_NE(r.rewritten_command->find("--input_shape=input:-1,3,608,608"), std::string::npos);
  EXPECT_NE(r.rewritten_command->find("--dynamic_batch_size=1,2,4,8"), std::string::npos);
}

TEST(AtcAnalyzer, InputShapeOptionErrorSuggestsDynamicImageSize) {
  const auto r = run({testing::area_fixture("compile", "options.log")});
  EXPECT_EQ(r.phase, AtcPhase::options);
  EXPECT_EQ(case_id(r), "atc.shape-options");
  ASSERT_TRUE(r.rewritten_command);
  EXPECT_NE(r.rewritten_command->find("--dynamic_image_size="), std::string::npos) << *r.rewritten_command;
}

TEST(AtcAnalyzer, FusionFailureWritesASwitchFile) {
  const auto r = run({testing::area_fixture("compile", "fusion")});
  EXPECT_EQ(r.phase, AtcPhase::fusion);
  ASSERT_EQ(r.fusion_passes.size(), 1u);
  EXPECT_EQ(r.fusion_passes[0], "ConvBatchnormFusionPass");
  EXPECT_EQ(case_id(r), "atc.fusion-pass-failed");
  ASSERT_TRUE(r.fusion_switch_file);
  EXPECT_EQ(r.fusion_switch_file->first, "fusion_switch.cfg");
  EXPECT_EQ(r.fusion_switch_file->second, "ConvBatchnormFusionPass:off\n");
  ASSERT_TRUE(r.rewritten_command);
  EXPECT_NE(r.rewritten_command->find("--fusion_switch_file=fusion_switch.cfg"), std::string::npos);
  EXPECT_NE(r.rewritten_command->find("--weight=resnet50.caffemodel"), std::string::npos);
}

TEST(AtcAnalyzer, PrecheckReportListsFailedOperators) {
  const auto r = run({testing::area_fixture("compile", "precheck")});
  EXPECT_EQ(r.outcome, "failed");
  ASSERT_TRUE(r.check_report);
  EXPECT_EQ(r.check_report->fail, 2);
  ASSERT_EQ(r.operators.size(), 2u);
  EXPECT_EQ(r.operators[0].type, "GridSample");
  EXPECT_EQ(r.operators[0].opset, "16");
  EXPECT_EQ(r.operators[1].type, "MyPlugin");
  EXPECT_EQ(case_id(r), "atc.unsupported-operator");
  EXPECT_FALSE(r.rewritten_command);  // the pre-check already ran
}

TEST(AtcAnalyzer, OperatorCompileFailure) {
  const auto r = run({testing::area_fixture("compile", "op_compile.log")});
  EXPECT_EQ(r.phase, AtcPhase::op_compile);
  ASSERT_EQ(r.operators.size(), 1u);
  EXPECT_EQ(r.operators[0].name, "QuantBatchMatmulV3_5");
  EXPECT_EQ(r.operators[0].type, "QuantBatchMatmulV3");
  EXPECT_EQ(case_id(r), "atc.op-compile-failed");
}

TEST(AtcAnalyzer, OpNotSupportLogIsRead) {
  const auto r = run({testing::area_fixture("compile", "output_dir")});
  ASSERT_EQ(r.operators.size(), 2u);
  EXPECT_EQ(r.operators[0].type, "Einsum");
  EXPECT_EQ(r.operators[0].rule, "op_not_support.log");
  EXPECT_EQ(r.operators[1].name, "NonZero_40");
}

TEST(AtcAnalyzer, SuccessfulConversion) {
  const auto r = run({testing::area_fixture("compile", "success.log")});
  EXPECT_EQ(r.outcome, "succeeded");
  EXPECT_TRUE(r.findings.empty());
  EXPECT_FALSE(r.rewritten_command);
}

TEST(AtcAnalyzer, OnlyTheWrapperLineGivesNoCase) {
  testing::TempDir dir;
  const auto p = dir.write("c.log", "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n");
  const auto r = run({p.string()});
  EXPECT_EQ(r.outcome, "failed");
  EXPECT_FALSE(r.category);
  EXPECT_TRUE(r.findings.empty());
}

TEST(AtcAnalyzer, BrokenCheckResultIsAProblemNotACrash) {
  testing::TempDir dir;
  dir.write("out/check_result.json", "{\"name\": \"m\", \"op\": [");
  const auto r = run({dir.path().string()});
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].find("check_result.json"), std::string::npos);
  EXPECT_FALSE(r.check_report);
}

}  // namespace
}  // namespace npu_doctor
