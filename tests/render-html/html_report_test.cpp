// The incident report (--html, --attach) through the real binary on synthetic clusters
// (tests/cluster/gen_cluster.py), and its sections rendered from hand-made reports. The
// page is checked for well-formedness (support/html_check.hpp); the browser tests are in
// html_browser_test.py.
#include <gtest/gtest.h>

#include <regex>

#include <nlohmann/json.hpp>

#include "npu_doctor/probe.hpp"
#include "incident_page/html_attachment_loader.hpp"
#include "incident_page/html_report.hpp"
#include "support/html_check.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// OUTDIR/node-<k>/rank_<r>/... and the truth; an empty object without python3.
nlohmann::json generate(const testing::TempDir& dir, int ranks, const std::string& fault) {
  const char* path = std::getenv("PATH");
  if (!find_on_path("python3", path != nullptr ? path : "")) return nlohmann::json::object();
  CommandOptions o;
  o.timeout = std::chrono::seconds(120);
  const auto gen = run_command({"python3", NPU_DOCTOR_CLUSTER_GEN, dir.path().string(), "--ranks", std::to_string(ranks),
                                "--fault", fault, "--seed", "3", "--steps", "20"},
                               o);
  if (!gen.ok()) return nlohmann::json::object();
  return nlohmann::json::parse(testing::read_file(dir.path() / "truth.json"));
}

// The page without its scripts (the well-formedness check reads '<' in code as a tag).
std::string without_scripts(std::string page) {
  for (auto at = page.find("<script"); at != std::string::npos; at = page.find("<script", at)) {
    const auto end = page.find("</script>", at);
    page.erase(at, end == std::string::npos ? std::string::npos : end + 9 - at);
  }
  return page;
}

TEST(HtmlReport, DiagnoseWritesThePageBesidesTheJsonWithOneTimelineRowPerRank) {
  testing::TempDir dir;
  const auto truth = generate(dir, 16, "aicore");
  if (truth.empty()) GTEST_SKIP() << "python3 not found";
  const auto page = dir.path() / "report.html";
  const auto r = run_npu_doctor({"diagnose", (dir.path() / "node-0").string(), (dir.path() / "node-1").string(), "-f", "json",
                                 "--html", page.string()});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto report = nlohmann::json::parse(r.out);  // -f still goes to stdout
  const int culprit = truth["culprit"].get<int>();
  ASSERT_EQ(report["cluster"]["culprit"]["rank"], culprit);
  const std::string html = testing::read_file(page);
  EXPECT_EQ(testing::html_problem(html), "");
  EXPECT_EQ(html.find("<script"), std::string::npos) << "no script without a memory chart";
  // The verdict comes first, then the timeline.
  const auto verdict = html.find("id=\"verdict\"");
  const auto timeline = html.find("id=\"timeline\"");
  ASSERT_NE(verdict, std::string::npos);
  ASSERT_NE(timeline, std::string::npos);
  EXPECT_LT(verdict, timeline);
  EXPECT_NE(html.find(report["root_cause"]["rule"].get<std::string>()), std::string::npos);
  EXPECT_NE(html.find("data-rows=\"16\""), std::string::npos);
  EXPECT_EQ(count(html, "<div class=\"r"), 17u) << "16 ranks and the time axis";
  EXPECT_EQ(count(html, "class=\"r c\""), 1u);
  EXPECT_NE(html.find("<div class=\"r c\" data-rank=\"" + std::to_string(culprit) + "\">"), std::string::npos);
  // The culprit's decisive error is the one outlined mark; symptoms are grey marks.
  EXPECT_EQ(count(html, "<i class=\"m e x\""), 1u);
  EXPECT_GE(count(html, "<i class=\"m s\""), 15u) << "the other ranks' timeouts";
  EXPECT_EQ(count(html, "<details>"), count(html, "<summary class=\"role-")) << "other findings fold";
}

TEST(HtmlReport, ThousandsOfRanksBecomeOneRowPerNodeWithTheCulpritsNodeOpen) {
  testing::TempDir dir;
  const auto truth = generate(dir, 128, "killed");
  if (truth.empty()) GTEST_SKIP() << "python3 not found";
  const auto page = dir.path() / "report.html";
  const auto r = run_npu_doctor({"diagnose", dir.path().string(), "--html", page.string(), "-o", (dir.path() / "r.txt").string()});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const std::string html = testing::read_file(page);
  EXPECT_EQ(testing::html_problem(html), "");
  EXPECT_EQ(count(html, "<details class=\"g\""), 16u) << "128 ranks on 16 nodes of 8";
  EXPECT_EQ(count(html, "<details class=\"g\" open>"), 1u) << "only the culprit's node is open";
  EXPECT_EQ(count(html, "data-rank="), 128u) << "every rank is still there, folded";
  const std::string culprit = std::to_string(truth["culprit"].get<int>());
  const std::regex open_node(R"re(<details class="g" open><summary class="r c" data-node="([^"]+)")re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(html, m, open_node)) << html.substr(0, 3000);
  EXPECT_NE(html.find("<div class=\"r c\" data-rank=\"" + culprit + "\">"), std::string::npos);
  const auto rows = testing::read_file(page).size() / 128;
  EXPECT_LT(rows, 2048u) << "bytes per rank";
}

TEST(HtmlReport, NamesFromPathsAreEscapedInTheTimeline) {
  testing::TempDir dir;
  for (int rank = 0; rank < 2; ++rank) {
    dir.write("n<b>&'\"/rank_" + std::to_string(rank) + "/plog/plog-1_1.log",
              "[INFO] RUNTIME(1,python3):2025-03-02-10:00:00.000.000 [x.cc:1] start\n" +
                  std::string(rank == 0 ? "[ERROR] RUNTIME(1,python3):2025-03-02-10:00:05.000.000 [x.cc:2] "
                                          "rtStreamSynchronize failed, error code is 507014 <b>&\n"
                                        : "[INFO] RUNTIME(1,python3):2025-03-02-10:00:09.000.000 [x.cc:3] fine\n"));
  }
  const auto page = dir.path() / "p.html";
  const auto r = run_npu_doctor({"diagnose", dir.path().string(), "--rank-pattern", R"((?<host>n[^/]*)/rank_(?<rank>\d+))",
                                 "--html", page.string(), "-o", (dir.path() / "out.txt").string()});
  ASSERT_LE(r.exit_code, 1) << r.err;
  const std::string html = testing::read_file(page);
  EXPECT_EQ(testing::html_problem(html), "");
  EXPECT_NE(html.find("n&lt;b&gt;&amp;&#39;&quot;"), std::string::npos) << html.substr(0, 4000);
  EXPECT_EQ(html.find("<b>&"), std::string::npos);
}

TEST(HtmlReport, AttachWithoutAPageOrOfAnUnknownKindIsAUsageError) {
  testing::TempDir dir;
  const auto log = dir.write("a.log", "nothing here\n");
  auto r = run_npu_doctor({"diagnose", log.string(), "--attach", "mem=" + log.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--attach adds to the HTML report"), std::string::npos) << r.err;
  r = run_npu_doctor({"diagnose", log.string(), "-f", "html", "--attach", "gpu=" + log.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("expected KIND=PATH with KIND one of mem, profile, check"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing is written before the attachments are read";
  r = run_npu_doctor({"diagnose", log.string(), "--html", (dir.path() / "p.html").string(), "--attach", "check=" + log.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not JSON"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "p.html"));
  const auto other = dir.write("other.json", R"({"schema": "npu-doctor/mem/v1"})");
  r = run_npu_doctor({"merge", other.string(), "--html", (dir.path() / "p.html").string(), "--attach", "check=" + other.string()});
  EXPECT_EQ(r.exit_code, 2);
  r = run_npu_doctor({"diagnose", log.string(), "--html", (dir.path() / "p.html").string(), "--attach",
                      "check=" + (dir.path() / "missing.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
  // An unwritable page: exit 2 like an unwritable -o.
  r = run_npu_doctor({"diagnose", log.string(), "--html", (dir.path() / "no/such/dir/p.html").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST(HtmlReport, AttachedCheckMemoryAndProfileGetTheirSections) {
  testing::TempDir dir;
  const auto log = dir.write("plog.log",
                             "[ERROR] RUNTIME(1,python3):2025-03-02-10:00:05.000.000 [x.cc:2] rtStreamSynchronize failed, "
                             "error code is 507014\n");
  const auto check = dir.write("check.json", R"({"schema": "npu-doctor/check/v1", "status": "fail", "root": "/",
    "steps": [{"id": "driver", "title": "Driver and firmware", "status": "fail",
               "facts": {"driver_version": "24.1.rc2 <x>"},
               "findings": [{"rule": "check.driver-firmware-mismatch", "severity": "error",
                             "title": "Driver and firmware versions do not match", "remedies": ["upgrade & retry"],
                             "evidence": [{"path": "/usr/local/Ascend/driver/version.info", "text": "Version=24.1.rc2"}]}]},
              {"id": "numa", "title": "NUMA placement", "status": "pass", "facts": {}, "findings": []}]})");
  std::string samples;
  for (int step = 0; step < 200; ++step) {
    samples += R"({"step": )" + std::to_string(step) + R"(, "device": 0, "allocated": )" +
               std::to_string(1000000000LL + step * 50000000LL) + R"(, "reserved": )" +
               std::to_string(1200000000LL + step * 50000000LL) + R"(, "capacity": 65452113920})" + "\n";
  }
  const auto mem = dir.write("mem.jsonl", samples);
  const auto page = dir.path() / "p.html";
  const auto r = run_npu_doctor({"diagnose", log.string(), "--html", page.string(), "--attach", "check=" + check.string(),
                                 "--attach", "mem=" + mem.string(), "--attach",
                                 "profile=" + testing::fixtures_dir() + "/../profile/fixtures/msprof"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const std::string html = testing::read_file(page);
  EXPECT_EQ(testing::html_problem(without_scripts(html)), "");
  // Check steps with their facts and findings, escaped.
  EXPECT_NE(html.find("<tr data-step=\"driver\">"), std::string::npos);
  EXPECT_NE(html.find("<tr data-step=\"numa\">"), std::string::npos);
  EXPECT_NE(html.find("24.1.rc2 &lt;x&gt;"), std::string::npos);
  EXPECT_NE(html.find("upgrade &amp; retry"), std::string::npos);
  // The memory chart: its placeholder, data and script (drawn in the browser test).
  EXPECT_NE(html.find("id=\"chart-0\""), std::string::npos);
  EXPECT_NE(html.find("id=\"mem-data\""), std::string::npos);
  EXPECT_NE(html.find("<body data-rendered=\"no\">"), std::string::npos);
  // The profile's bar charts (inline SVG).
  EXPECT_NE(html.find("id=\"profile\""), std::string::npos);
  EXPECT_GE(count(html, "<svg xmlns=\"http://www.w3.org/2000/svg\""), 1u);
  // The sections in their order.
  EXPECT_LT(html.find("id=\"verdict\""), html.find("id=\"check\""));
  EXPECT_LT(html.find("id=\"check\""), html.find("id=\"memory\""));
  EXPECT_LT(html.find("id=\"memory\""), html.find("id=\"profile\""));
}

TEST(HtmlReport, NodeFactsShowWhichNodesDiffer) {
  HtmlAttachments a;
  a.node_facts = {{"node-0", {{"driver_version", "24.1.rc2"}, {"npu_count", "8"}}},
                  {"node-1", {{"driver_version", "24.1.rc1"}, {"npu_count", "8"}}},
                  {"n<2>", {{"driver_version", "24.1.rc2"}, {"npu_count", "8"}}}};
  std::ostringstream out;
  render_incident_html(DiagnosisReport{}, a, RenderOptions{}, out);
  const std::string html = out.str();
  EXPECT_EQ(testing::html_problem(html), "");
  EXPECT_EQ(count(html, "<tr class=\"differs\">"), 2u) << "two driver versions";
  EXPECT_NE(html.find("<td>24.1.rc2</td><td>2: node-0, n&lt;2&gt;</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>8</td><td>3: node-0, node-1, n&lt;2&gt;</td>"), std::string::npos);
}

TEST(HtmlReport, CheckReportsAreReadByTheirSchema) {
  CheckView v;
  std::string error;
  EXPECT_FALSE(parse_check_view("[1, 2]", v, error));
  EXPECT_FALSE(parse_check_view(R"({"schema": "npu-doctor/diagnosis/v1"})", v, error));
  EXPECT_NE(error.find("npu-doctor/diagnosis/v1"), std::string::npos);
  ASSERT_TRUE(parse_check_view(R"({"schema": "npu-doctor/check/v1", "status": "pass", "steps": [{"id": "cann", "facts": {"n": 3}}]})",
                               v, error))
      << error;
  ASSERT_EQ(v.steps.size(), 1u);
  EXPECT_EQ(v.steps[0].facts.at(0).second, "3");
}

}  // namespace
}  // namespace npu_doctor
