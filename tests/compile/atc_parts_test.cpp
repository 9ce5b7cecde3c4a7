// The pieces of `atc`: the command line, operator layouts, check_result.json.
#include <gtest/gtest.h>

#include "compile/atc_command.hpp"
#include "compile/atc_operators.hpp"
#include "compile/atc_outputs.hpp"

namespace npu_doctor::atc_detail {
namespace {

TEST(AtcCommand, ParsesPromptQuotesAndBothOptionForms) {
  auto cmd = parse_atc_command(
      "[root@node ~]# /usr/local/Ascend/bin/atc --model=./m.onnx --framework 5 --input_shape=\"x:1,3,224,224;y:1\" "
      "--soc_version=Ascend310P3 --log=error");
  ASSERT_TRUE(cmd);
  EXPECT_EQ(cmd->program, "/usr/local/Ascend/bin/atc");
  ASSERT_NE(cmd->find("--framework"), nullptr);
  EXPECT_EQ(*cmd->find("--framework"), "5");
  EXPECT_EQ(*cmd->find("--input_shape"), "x:1,3,224,224;y:1");
  EXPECT_EQ(cmd->text.rfind("/usr/local/Ascend/bin/atc", 0), 0u);  // the prompt is not part of the command
}

TEST(AtcCommand, HelpOrProseIsNotAConversion) {
  EXPECT_FALSE(parse_atc_command("atc --help"));
  EXPECT_FALSE(parse_atc_command("the atc tool -- see the guide"));
  EXPECT_FALSE(parse_atc_command("ATC run failed, Please check the detail log, Try 'atc --help' for more information"));
}

TEST(AtcCommand, RewriteReplacesAppendsAndQuotes) {
  auto cmd = parse_atc_command("atc --model=m.onnx --mode=0 --framework=5");
  ASSERT_TRUE(cmd);
  EXPECT_EQ(format_atc_command(*cmd, {{"--mode", "3"}}), "atc --model=m.onnx --mode=3 --framework=5");
  EXPECT_EQ(format_atc_command(*cmd, {{"--input_shape", "a:1,3;b:2"}}, {"--mode"}),
            "atc --model=m.onnx --framework=5 --input_shape=\"a:1,3;b:2\"");
  EXPECT_EQ(shell_quote("a b$c"), "\"a b\\$c\"");
}

TEST(AtcOperators, OnnxOptypeSplitsIntoDomainOpsetType) {
  AtcOperator op;
  split_optype("ai.onnx::11::grid_sampler", op);
  EXPECT_EQ(op.domain, "ai.onnx");
  EXPECT_EQ(op.opset, "11");
  EXPECT_EQ(op.type, "grid_sampler");
  AtcOperator plain;
  split_optype("Conv2D", plain);
  EXPECT_EQ(plain.type, "Conv2D");
  EXPECT_TRUE(plain.opset.empty());
}

TEST(AtcOperators, CatalogueLayouts) {
  auto a = operator_from_text("E13010: No operator plugin is registered for Op: DeformConv_12, optype: DeformableConv2D.");
  EXPECT_EQ(a.name, "DeformConv_12");
  EXPECT_EQ(a.type, "DeformableConv2D");
  auto b = operator_from_text("EZ3003: No supported Ops kernel and engine are found for [NonZero_3], optype [NonZero].");
  EXPECT_EQ(b.name, "NonZero_3");
  EXPECT_EQ(b.type, "NonZero");
  auto c = operator_from_text("E40021: Failed to compile Op [Conv_1]. (oppath: [x.py failed], optype: [Conv2D])");
  EXPECT_EQ(c.name, "Conv_1");
  EXPECT_EQ(c.type, "Conv2D");
  auto d = operator_from_text("Call InferShapeAndType for node:Add_718(Add) failed");
  EXPECT_EQ(d.name, "Add_718");
  EXPECT_EQ(d.type, "Add");
  auto e = operator_from_text("Optype [ReduceAny] of Ops kernel [AIcoreEngine] is unsupported.");
  EXPECT_EQ(e.type, "ReduceAny");
  EXPECT_TRUE(operator_from_text("nothing to see").type.empty());
}

TEST(AtcOperators, SameNodeFromTwoMessagesIsOneOperator) {
  std::vector<AtcOperator> ops;
  AtcOperator named;
  named.name = "QuantBatchMatmulV3_5";
  add_operator(ops, named);
  AtcOperator typed;
  typed.name = "QuantBatchMatmulV3_5";
  typed.type = "QuantBatchMatmulV3";
  add_operator(ops, typed);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].type, "QuantBatchMatmulV3");
}

TEST(AtcOperators, FusionPassNames) {
  EXPECT_EQ(fusion_pass_from_text("Fusion pass ConvBatchnormFusionPass run failed, node: conv1"), "ConvBatchnormFusionPass");
  EXPECT_EQ(fusion_pass_from_text("[MatMulBiasAddFusionPass] fusion failed"), "MatMulBiasAddFusionPass");
  EXPECT_EQ(fusion_pass_from_text("fusion done"), "");
}

TEST(AtcCheckResult, FailedOperatorsWithCauses) {
  AtcCheckReport report;
  std::vector<AtcOperator> failed;
  std::string err;
  ASSERT_TRUE(parse_check_result(
      R"({"name":"m","result":"failed","total":2,"pass":1,"fail":1,"op":[{"name":"a","type":"Conv","result":"success","cause":[]},)"
      R"({"name":"g","type":"ai.onnx::16::GridSample","result":"failed","cause":[{"code":1,"message":"The type is not supported."}]}]})",
      "x/check_result.json", report, failed, err));
  EXPECT_EQ(report.fail, 1);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].type, "GridSample");
  EXPECT_EQ(failed[0].opset, "16");
  EXPECT_NE(failed[0].reason.find("not supported"), std::string::npos);
  EXPECT_FALSE(parse_check_result("{not json", "x", report, failed, err));
  EXPECT_FALSE(err.empty());
}

}  // namespace
}  // namespace npu_doctor::atc_detail
