// The command line forgives (issue 18, parts 4 and 5): explain reads what is pasted,
// mistyped commands get suggestions, text fits the terminal, nothing read says only that.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "render/text_layout.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

std::string example() { return testing::fixtures_dir() + "/../../examples/train-aicore-then-hccl-timeout.log"; }

nlohmann::json explain_json(const std::string& query) {
  const auto r = run_npu_doctor({"explain", "-f", "json", query});
  return nlohmann::json::parse(r.out);
}

TEST(ExplainForgives, ACodeWithItsPunctuationIsTheExactCode) {
  for (const auto& [query, id] : std::vector<std::pair<std::string, std::string>>{
           {"EI0002:", "ecode.EI0002"}, {"ERR00100:", "pta.ERR00100"}, {"(507035)", "acl.507035"}}) {
    const auto r = run_npu_doctor({"explain", query});
    EXPECT_EQ(r.exit_code, 0) << query << r.err;
    const auto j = explain_json(query);
    ASSERT_FALSE(j["entries"].empty()) << query;
    EXPECT_EQ(j["entries"][0]["id"], id) << query;
    EXPECT_EQ(j["entries"][0]["match"], "exact") << query;
  }
}

TEST(ExplainForgives, AWholeLogLineIsReadTheWayTheScannerReadsIt) {
  const std::string line =
      "[ERROR] RUNTIME(31207,python):2025-03-02-10:55:12.313.240 [davinci_kernel_task.cc:1417]31207 "
      "PreCheckTaskErr:Kernel task happen error, retCode=0x31, [vector core exception].";
  const auto j = explain_json(line);
  std::vector<std::string> ids;
  for (const auto& e : j["entries"]) ids.push_back(e["id"]);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "ts.0x31"), ids.end()) << j.dump(1);
  EXPECT_NE(std::find(j["read_as"].begin(), j["read_as"].end(), "0x31"), j["read_as"].end()) << j["read_as"];
  const auto r = run_npu_doctor({"explain", line});
  EXPECT_NE(r.out.find("reads as 0x31"), std::string::npos) << r.out;
}

TEST(ExplainForgives, AnExactEntryIsNotFollowedByFamilyRemediesThatContradictIt) {
  const auto r = run_npu_doctor({"explain", "100000"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("acl.100000"), std::string::npos);
  EXPECT_EQ(r.out.find("reduce batch size"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("enable ZeRO-3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("code family"), std::string::npos) << "the family is still named";
  const auto j = explain_json("100000");
  for (const auto& e : j["entries"]) EXPECT_EQ(e["match"], "exact") << e["id"];
  EXPECT_FALSE(j["families"].empty());
  const auto v = run_npu_doctor({"explain", "507035"});
  EXPECT_EQ(v.out.find("2. "), v.out.rfind("2. ")) << "one entry's remedies only:\n" << v.out;
}

TEST(ExplainForgives, MistypedAndUnknownCodesGetSuggestions) {
  const auto typo = run_npu_doctor({"explain", "50735"});
  EXPECT_NE((typo.out + typo.err).find("Did you mean: 507035"), std::string::npos) << typo.out << typo.err;
  const auto unknown = run_npu_doctor({"explain", "999999"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("Did you mean: "), std::string::npos) << unknown.err;
  EXPECT_FALSE(explain_json("999999")["suggestions"].empty());
}

TEST(ExplainForgives, AnEmptyQueryIsAUsageError) {
  for (const char* q : {"", "   "}) {
    const auto r = run_npu_doctor({"explain", q});
    EXPECT_EQ(r.exit_code, 2) << "'" << q << "'";
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("give a code"), std::string::npos) << r.err;
  }
}

TEST(CommandLine, AMistypedCommandGetsTheNearestOnes) {
  const auto r = run_npu_doctor({"diagnos", example()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("Did you mean 'diagnose'?"), std::string::npos) << r.err;
  const auto sub = run_npu_doctor({"mem", "analyse", "x.jsonl"});
  EXPECT_EQ(sub.exit_code, 2);
  EXPECT_NE(sub.err.find("not a command of npu-doctor mem. Did you mean 'analyze'?"), std::string::npos) << sub.err;
  const auto global = run_npu_doctor({"--lang", "zh", "expalin", "507035"});
  // (and the message is in the language --lang asks for: docs/ui-words.md)
  EXPECT_NE(global.err.find("你是不是想输入 'explain'？"), std::string::npos) << "a global option's value is skipped";
  EXPECT_EQ(run_npu_doctor({"--lang", "zh", "explain", "507035"}).exit_code, 0);
}

TEST(CommandLine, AFileWithoutACommandSaysDiagnoseIsTheCommand) {
  const auto r = run_npu_doctor({example()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("npu-doctor diagnose " + example()), std::string::npos) << r.err;
}

TEST(CommandLine, TextFitsEightyColumnsWhenNotATerminal) {
  const auto r = run_npu_doctor({"diagnose", example()});
  std::size_t widest = 0;
  for (const auto& line : testing::lines_of(r.out)) widest = std::max(widest, render_detail::display_width(line));
  EXPECT_LE(widest, 80u) << r.out;
  EXPECT_GE(widest, 70u) << "the width is used";
  const auto wide = run_npu_doctor({"diagnose", example()}, "", {"COLUMNS=120"});
  std::size_t widest_wide = 0;
  for (const auto& line : testing::lines_of(wide.out)) widest_wide = std::max(widest_wide, render_detail::display_width(line));
  EXPECT_GT(widest_wide, 80u);
  EXPECT_LE(widest_wide, 120u);
  const auto zh = run_npu_doctor({"--lang", "zh", "diagnose", example()});
  for (const auto& line : testing::lines_of(zh.out)) EXPECT_LE(render_detail::display_width(line), 80u) << line;
}

TEST(CommandLine, PathsAreShownByWhatDistinguishesThem) {
  const auto r = run_npu_doctor({"diagnose", testing::area_fixture("incidents", "plog")});
  EXPECT_NE(r.out.find(" under"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  evidence  plog-41877_20250514102200123.log:"), std::string::npos) << r.out;
  const auto one = run_npu_doctor({"diagnose", example()});
  EXPECT_NE(one.out.find("\n  evidence  train-aicore-then-hccl-timeout.log:8"), std::string::npos) << one.out;
}

TEST(CommandLine, NoInputScannedSaysOnlyThat) {
  const auto r = run_npu_doctor({"diagnose", "/nonexistent/train.log"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(testing::lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("no input could be scanned; /nonexistent/train.log: no such file or directory"), std::string::npos);
}

TEST(CommandLine, AnEmptyFileIsReportedAsEmpty) {
  testing::TempDir d;
  const auto empty = d.write("empty.log", "");
  const auto r = run_npu_doctor({"diagnose", empty.string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("empty.log is empty: nothing to diagnose."), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("No known error signatures"), std::string::npos);
  const auto mixed = run_npu_doctor({"diagnose", empty.string(), example()});
  EXPECT_NE(mixed.out.find("empty.log: the file is empty"), std::string::npos) << mixed.out;
}

TEST(CommandLine, MemAnalyzeOfAFileWithoutAValidSampleIsAnError) {
  testing::TempDir d;
  const auto junk = d.write("mem.jsonl", "{\"step\": \"x\"}\nhello\n");
  const auto r = run_npu_doctor({"mem", "analyze", junk.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("no valid memory sample and no out-of-memory message"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"step\" is not an integer"), std::string::npos) << r.err;
  const auto ok = d.write("ok.jsonl", "{\"step\": 1, \"allocated\": 1000}\n{\"step\": 2, \"allocated\": 1000}\n");
  EXPECT_EQ(run_npu_doctor({"mem", "analyze", ok.string()}).exit_code, 0);
}

}  // namespace
}  // namespace npu_doctor
