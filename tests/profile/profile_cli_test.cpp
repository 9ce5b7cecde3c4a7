// `npu-doctor profile` end to end: formats, exit codes, the HTML page, stdin.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

#include "support/html_check.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

using testing::html_problem;

TEST(ProfileCli, JsonContract) {
  const auto r = run_npu_doctor({"profile", "--format", "json", testing::area_fixture("profile", "msprof")});
  ASSERT_EQ(r.exit_code, 1) << r.err;  // AI CPU fallback and compile time cross their thresholds
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "npu-doctor/profile/v1");
  ASSERT_TRUE(j["top_ops"].is_array());
  ASSERT_FALSE(j["top_ops"].empty());
  const auto& top = j["top_ops"][0];
  for (const char* key : {"type", "task_type", "count", "total_us", "avg_us", "share"}) EXPECT_TRUE(top.contains(key)) << key;
  EXPECT_EQ(top["type"], "MatMulV3");
  double last = 1e300;
  for (const auto& o : j["top_ops"]) {
    EXPECT_LE(o["total_us"].get<double>(), last);
    last = o["total_us"].get<double>();
  }
  EXPECT_EQ(j["ops_source"], "op_summary");
  EXPECT_EQ(j["time_split"]["source"], "tasks");
  bool aicpu = false;
  for (const auto& f : j["findings"]) aicpu |= f["rule"] == "profile.aicpu-fallback";
  EXPECT_TRUE(aicpu);
}

TEST(ProfileCli, JsonNamesTheSlowRank) {
  const auto r = run_npu_doctor({"profile", "-f", "json", testing::area_fixture("profile", "cluster/slow_rank")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["communication"]["slow_rank"], "2");
  EXPECT_EQ(j["ranks"].size(), 4u);
  EXPECT_TRUE(j["top_ops"].empty());
}

TEST(ProfileCli, TextShowsTablesAndFlags) {
  // Cast (AI CPU) is fourth of five operators by total and by average time.
  const auto r = run_npu_doctor({"profile", "--top", "4", testing::area_fixture("profile", "msprof")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out.find("  Add "), std::string::npos) << r.out;  // fifth: cut by --top
  EXPECT_NE(r.out.find("OPERATOR HOT SPOTS"), std::string::npos);
  EXPECT_NE(r.out.find("<- AI CPU"), std::string::npos);
  EXPECT_NE(r.out.find("TIME SPLIT"), std::string::npos);
  EXPECT_EQ(r.out.find("\x1b["), std::string::npos);  // no colour into a pipe
}

TEST(ProfileCli, ChineseReport) {
  const auto r = run_npu_doctor({"profile", "--lang", "zh", testing::area_fixture("profile", "cluster/slow_rank")});
  EXPECT_NE(r.out.find("其他 rank 在等待 rank 2"), std::string::npos) << r.out;
}

TEST(ProfileCli, CleanProfileExitsZero) {
  testing::TempDir dir;
  dir.write("op_summary_1.csv",
            "Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us)\n"
            "a,MatMul,AI_CORE,0,100\nb,Add,AI_VECTOR_CORE,101,10\n");
  const auto r = run_npu_doctor({"profile", dir.path().string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(ProfileCli, NothingReadableIsAUsageError) {
  const auto missing = run_npu_doctor({"profile", testing::area_fixture("profile", "no/such/dir")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no/such/dir"), std::string::npos);
  const auto empty = run_npu_doctor({"profile", testing::area_fixture("profile", "bad/op_summary_empty.csv")});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("no profiling table could be read"), std::string::npos);
  const auto no_col = run_npu_doctor({"profile", testing::area_fixture("profile", "bad/op_summary_no_duration.csv")});
  EXPECT_EQ(no_col.exit_code, 2);
  EXPECT_NE(no_col.err.find("op_summary_no_duration.csv: column 'Task Duration(us)' not found"), std::string::npos)
      << no_col.err;
}

TEST(ProfileCli, HtmlReportIsSelfContainedAndWellFormed) {
  testing::TempDir dir;
  const auto html = (dir.path() / "report.html").string();
  const auto r = run_npu_doctor({"profile", "--html", html, testing::area_fixture("profile", "msprof"), testing::area_fixture("profile", "cluster/slow_rank")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const std::string page = testing::read_file(html);
  EXPECT_EQ(html_problem(page), "");
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_NE(page.find("<rect"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_EQ(page.find(" href="), std::string::npos);
  EXPECT_NE(page.find("MatMulV3"), std::string::npos);
}

TEST(ProfileCli, HtmlCheckerCatchesBrokenMarkup) {
  EXPECT_NE(html_problem("<html><body><p>x</body></html>"), "");
  EXPECT_NE(html_problem("<p>a & b</p>"), "");
  EXPECT_EQ(html_problem("<!DOCTYPE html>\n<html><meta charset=\"utf-8\"><p>a &amp; b</p></html>"), "");
}

TEST(ProfileCli, ReadsStdin) {
  const std::string csv = "Op Name,OP Type,Task Type,Task Duration(us)\nx,Gather,AI_CPU,30\ny,MatMul,AI_CORE,70\n";
  const auto r = run_npu_doctor({"profile", "-f", "json", "-"}, csv);
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["top_ops"][0]["type"], "MatMul");
  EXPECT_EQ(j["top_ops"][1]["ai_cpu"], true);
}

TEST(ProfileCli, OutputFileIsWritten) {
  testing::TempDir dir;
  const auto out = (dir.path() / "p.json").string();
  const auto r = run_npu_doctor({"profile", "-f", "json", "-o", out, testing::area_fixture("profile", "old_cann")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(nlohmann::json::parse(testing::read_file(out))["schema"], "npu-doctor/profile/v1");
}

}  // namespace
}  // namespace npu_doctor
