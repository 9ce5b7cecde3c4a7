// `-f prometheus`: the writer's escaping and refusals, the strict parser's own
// strictness, and every command's real output read back by the strict parser
// (exposition_parser.hpp) and, when installed, by Prometheus' own `promtool check metrics`.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "checks/check_test_support.hpp"
#include "fleet/fleet_test_support.hpp"
#include "npu_doctor/probe.hpp"
#include "npu_doctor/version.hpp"
#include "prometheus/exposition_parser.hpp"
#include "checks/check_prometheus.hpp"
#include "diagnosis/diagnosis_prometheus.hpp"
#include "live/watch_prometheus.hpp"
#include "memory/mem_prometheus.hpp"
#include "render/prometheus/prometheus_writer.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::parse_exposition;
using testing::run_npu_doctor;

testing::Exposition parsed(const std::string& text) {
  std::string error;
  auto e = parse_exposition(text, error);
  EXPECT_TRUE(e.has_value()) << error << "\n" << text;
  return e.value_or(testing::Exposition{});
}

double value_of(const testing::Exposition& e, const std::string& family,
                const std::vector<std::pair<std::string, std::string>>& labels = {}) {
  const auto found = e.find(family, labels);
  EXPECT_EQ(found.size(), 1u) << family;
  return found.empty() ? std::nan("") : found.front().value;
}

double now() {
  using namespace std::chrono;
  return static_cast<double>(duration_cast<seconds>(system_clock::now().time_since_epoch()).count());
}

// Prometheus' own lint, when installed (scripts/install-deps.sh installs it).
void expect_promtool_accepts(const std::string& text) {
  const char* path = std::getenv("PATH");
  const auto promtool = find_on_path("promtool", path != nullptr ? path : "");
  if (!promtool) return;
  testing::TempDir d;
  const auto file = d.write("npu.prom", text);
  CommandOptions o;
  o.timeout = std::chrono::seconds(30);
  const auto r = run_command({"sh", "-c", "promtool check metrics < \"$0\"", file.string()}, o);
  EXPECT_TRUE(r.ok()) << "promtool check metrics: " << r.out << r.err << "\n" << text;
}

TEST(PrometheusWriter, EscapesLabelValuesAndHelpAndReadsBack) {
  std::ostringstream out;
  prometheus::Writer w(out);
  ASSERT_TRUE(w.family("npu_doctor_test", prometheus::MetricType::gauge, "Back\\slash and\nnewline"));
  const std::string nasty = "a\\b \"quoted\"\nnext line \xff end";
  ASSERT_TRUE(w.sample({{"path", nasty}}, 1));
  const auto e = parsed(out.str());
  EXPECT_EQ(e.families.at("npu_doctor_test").help, "Back\\slash and\nnewline");
  const auto s = e.find("npu_doctor_test");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].label("path"), "a\\b \"quoted\"\nnext line \xEF\xBF\xBD end");  // invalid byte -> U+FFFD
}

TEST(PrometheusWriter, RefusesDuplicatesAndBadNamesAndLeavesEmptyFamiliesOut) {
  std::ostringstream out;
  prometheus::Writer w(out);
  EXPECT_FALSE(w.family("9bad", prometheus::MetricType::gauge, "x"));
  EXPECT_FALSE(w.sample({}, 1)) << "no family open";
  EXPECT_TRUE(w.family("npu_doctor_empty", prometheus::MetricType::gauge, "never sampled"));
  EXPECT_TRUE(w.family("npu_doctor_a", prometheus::MetricType::gauge, "a"));
  EXPECT_TRUE(w.sample({{"k", "1"}}, 1));
  EXPECT_FALSE(w.sample({{"k", "1"}}, 2)) << "same series";
  EXPECT_FALSE(w.sample({{"__reserved", "1"}}, 2));
  EXPECT_FALSE(w.sample({{"k", "2"}, {"k", "3"}}, 2)) << "label twice";
  EXPECT_FALSE(w.family("npu_doctor_a", prometheus::MetricType::gauge, "again"));
  EXPECT_EQ(out.str(), "# HELP npu_doctor_a a\n# TYPE npu_doctor_a gauge\nnpu_doctor_a{k=\"1\"} 1\n");
}

TEST(PrometheusWriter, FormatsValues) {
  EXPECT_EQ(prometheus::format_value(0), "0");
  EXPECT_EQ(prometheus::format_value(65452113920.0), "65452113920");
  EXPECT_EQ(prometheus::format_value(-3), "-3");
  EXPECT_EQ(prometheus::format_value(0.5), "0.5");
  EXPECT_EQ(prometheus::format_value(std::nan("")), "NaN");
  EXPECT_EQ(prometheus::format_value(HUGE_VAL), "+Inf");
  EXPECT_EQ(prometheus::format_value(-HUGE_VAL), "-Inf");
}

// The parser the other tests rely on must itself refuse what the format forbids.
TEST(PrometheusParser, RejectsWhatTheFormatForbids) {
  const std::string ok = "# HELP a_b x\n# TYPE a_b gauge\na_b{l=\"v\"} 1\n";
  std::string error;
  EXPECT_TRUE(parse_exposition(ok, error)) << error;
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"# HELP a_b x\n# TYPE a_b gauge\na_b 1", "no final newline"},
      {"a_b 1\n# HELP a_b x\n# TYPE a_b gauge\n", "sample before TYPE"},
      {"# HELP a_b x\n# TYPE a_b gauge\n# TYPE a_b gauge\na_b 1\n", "two TYPEs"},
      {"# HELP a_b x\n# HELP a_b y\n# TYPE a_b gauge\na_b 1\n", "two HELPs"},
      {"# TYPE a_b gauge\na_b 1\n", "no HELP"},
      {"# HELP a_b x\n# TYPE a_b gauge\na_b{l=\"v\"} 1\na_b{l=\"v\"} 2\n", "duplicate series"},
      {"# HELP a_b x\n# TYPE a_b gauge\na_b{l=\"v\\t\"} 1\n", "unknown escape"},
      {"# HELP a_b x\n# TYPE a_b gauge\na_b{l=\"v} 1\n", "unterminated value"},
      {"# HELP a_b x\n# TYPE a_b gauge\na_b{l=\"v\",l=\"w\"} 1\n", "label twice"},
      {"# HELP a_b x\n# TYPE a_b gauge\na_b{1l=\"v\"} 1\n", "bad label name"},
      {"# HELP a_b x\n# TYPE a_b gauge\na_b one\n", "bad value"},
      {"# HELP a_b x\n# TYPE a_b gauge\na_b 1\n# HELP c_d x\n# TYPE c_d gauge\nc_d 1\na_b{x=\"1\"} 1\n", "split family"},
      {"# HELP aB x\n# TYPE aB gauge\naB 1\n", "not snake_case"},
      {"# HELP a_b x\n# TYPE a_b counter\na_b 1\n", "counter without _total"},
      {"# HELP a_total x\n# TYPE a_total gauge\na_total 1\n", "_total on a gauge"},
      {"# HELP a_b x\n# TYPE a_b gauge\na_b{l=\"\xff\"} 1\n", "invalid UTF-8"},
      {"# HELP a_b x\n# TYPE a_b gauge\n\na_b 1\n", "empty line"},
      {"# HELP a_b x\n# TYPE a_b gauge\n", "family without samples"},
  };
  for (const auto& [text, why] : bad) EXPECT_FALSE(parse_exposition(text, error)) << why;
}

TEST(PrometheusCli, DiagnoseNamesTheRootCause) {
  const auto r = run_npu_doctor({"diagnose", std::string(NPU_DOCTOR_EXAMPLES_DIR) + "/train-aicore-then-hccl-timeout.log",
                                 "-f", "prometheus"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto e = parsed(r.out);
  const auto info = e.find("npu_doctor_info", {{"command", "diagnose"}});
  ASSERT_EQ(info.size(), 1u);
  EXPECT_EQ(info[0].label("version"), std::string(kVersion));
  EXPECT_FALSE(info[0].label("kb_version").value_or("").empty());
  EXPECT_NEAR(value_of(e, "npu_doctor_last_run_timestamp_seconds", {{"command", "diagnose"}}), now(), 120);
  EXPECT_EQ(value_of(e, "npu_doctor_root_cause_found"), 1);
  const auto root = e.find("npu_doctor_root_cause_info");
  ASSERT_EQ(root.size(), 1u);
  EXPECT_EQ(root[0].label("category"), "aicore_exception");
  EXPECT_GE(value_of(e, "npu_doctor_findings", {{"category", "aicore_exception"}, {"severity", "error"}}), 1);
  EXPECT_GE(value_of(e, "npu_doctor_findings", {{"category", "communication"}, {"severity", "error"}}), 1);
  EXPECT_EQ(e.find("npu_doctor_findings").size(), 12u * 4u) << "every category and severity, zeros included";
  EXPECT_EQ(value_of(e, "npu_doctor_inputs", {{"status", "ok"}}), 1);
  EXPECT_TRUE(e.find("npu_doctor_cluster_culprit_rank").empty()) << "one rank: no cluster analysis";
  expect_promtool_accepts(r.out);
}

TEST(PrometheusCli, HealthyLogHasNoRootCauseAndWritesTheTextfileAtomically) {
  testing::TempDir d;
  const auto out = (d.path() / "npu.prom").string();
  const auto r = run_npu_doctor({"diagnose", testing::fixtures_dir() + "/logs/healthy_training.log", "--format",
                                 "prometheus", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto e = parsed(testing::read_file(out));
  EXPECT_EQ(value_of(e, "npu_doctor_root_cause_found"), 0);
  EXPECT_TRUE(e.find("npu_doctor_root_cause_info").empty());
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(d.path())) ++files;
  EXPECT_EQ(files, 1u) << "no temporary file left next to it";
}

TEST(PrometheusCli, ManyRanksNameTheCulprit) {
  testing::TempDir d;
  const auto truth = testing::generate_cluster(d, 8, 4, "aicore", 3);
  if (truth.empty()) GTEST_SKIP() << "python3 not found";
  const auto r = run_npu_doctor({"diagnose", d.path().string(), "-f", "prometheus"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto e = parsed(r.out);
  EXPECT_EQ(value_of(e, "npu_doctor_cluster_culprit_rank"), truth["culprit"].get<int>());
  EXPECT_EQ(value_of(e, "npu_doctor_cluster_ranks"), 8);
  const auto culprit = e.find("npu_doctor_cluster_culprit_rank");
  ASSERT_EQ(culprit.size(), 1u);
  EXPECT_FALSE(culprit[0].label("confidence").value_or("").empty());
  EXPECT_EQ(e.find("npu_doctor_cluster_flagged_ranks").size(), 3u);
  expect_promtool_accepts(r.out);
}

TEST(PrometheusCli, MergeLabelsItsCommand) {
  testing::TempDir d;
  if (testing::generate_cluster(d, 4, 2, "oom", 4).empty()) GTEST_SKIP() << "python3 not found";
  std::vector<std::string> merge = {"merge", "-f", "prometheus"};
  for (int node = 0; node < 2; ++node) {
    const auto summary = (d.path() / ("node-" + std::to_string(node) + ".json")).string();
    const auto c = run_npu_doctor({"cluster", "--logs", (d.path() / ("node-" + std::to_string(node))).string(),
                                   "--hostname", "node-" + std::to_string(node), "--summary-out", summary, "-f", "json"});
    ASSERT_LE(c.exit_code, 1) << c.err;
    merge.push_back(summary);
  }
  const auto r = run_npu_doctor(merge);
  ASSERT_LE(r.exit_code, 1) << r.err;
  const auto e = parsed(r.out);
  EXPECT_EQ(e.find("npu_doctor_info", {{"command", "merge"}}).size(), 1u);
  EXPECT_EQ(e.find("npu_doctor_findings", {{"command", "merge"}}).size(), 48u);
  expect_promtool_accepts(r.out);
}

TEST(PrometheusCheck, StepStatesAndVersions) {
  const checks::CheckReport report = checks::testing::check_machine("driver-firmware-mismatch");
  std::ostringstream out;
  prometheus::render_check(report, {"check", 1700000000.5}, out);
  const auto e = parsed(out.str());
  EXPECT_EQ(value_of(e, "npu_doctor_last_run_timestamp_seconds"), 1700000000.5);
  for (const auto& step : report.steps) {
    const std::string id(checks::to_string(step.id));
    EXPECT_EQ(e.find("npu_doctor_check_step_status", {{"step", id}}).size(), 4u) << id;
    EXPECT_EQ(value_of(e, "npu_doctor_check_step_status", {{"step", id}, {"status", std::string(to_string(step.status()))}}), 1)
        << id;
  }
  EXPECT_EQ(value_of(e, "npu_doctor_check_status", {{"status", "fail"}}), 1);
  EXPECT_EQ(value_of(e, "npu_doctor_check_status", {{"status", "pass"}}), 0);
  const auto driver = e.find("npu_doctor_check_version_info", {{"component", "driver"}});
  ASSERT_EQ(driver.size(), 1u);
  EXPECT_EQ(driver[0].label("version"), report.steps.front().fact_value("driver_version"));
  EXPECT_EQ(e.find("npu_doctor_check_version_info", {{"component", "firmware"}}).size(), 1u);
  EXPECT_GE(value_of(e, "npu_doctor_findings", {{"command", "check"}, {"category", "driver_firmware_env"}, {"severity", "error"}}),
            1);
  expect_promtool_accepts(out.str());
}

TEST(PrometheusCheck, CommandLine) {
  const auto m = checks::testing::machine_root("healthy-910b");
  const auto r = run_npu_doctor({"check", "--root", m, "--only", "numa", "-f", "prometheus"});
  ASSERT_LE(r.exit_code, 1) << r.err;
  const auto e = parsed(r.out);
  EXPECT_EQ(e.find("npu_doctor_check_step_status").size(), 4u) << "only the step that ran";
  EXPECT_EQ(e.find("npu_doctor_info", {{"command", "check"}}).size(), 1u);
}

TEST(PrometheusMem, PeaksCapacityAndLeak) {
  testing::TempDir d;
  std::string samples;
  const uint64_t gib = uint64_t{1} << 30;
  const uint64_t mib8 = uint64_t{8} << 20;
  for (int step = 0; step < 400; ++step) {
    const uint64_t allocated = 20 * gib + static_cast<uint64_t>(step) * mib8;  // 8 MiB more every step
    samples += "{\"step\": " + std::to_string(step) + ", \"device\": 3, \"allocated\": " + std::to_string(allocated) +
               ", \"reserved\": " + std::to_string(allocated + gib) + ", \"capacity\": " + std::to_string(64 * gib) +
               "}\n";
  }
  const auto p = d.write("mem.jsonl", samples);
  const auto r = run_npu_doctor({"mem", "analyze", p.string(), "-f", "prometheus"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto e = parsed(r.out);
  const std::vector<std::pair<std::string, std::string>> dev = {{"device", "3"}};
  EXPECT_EQ(value_of(e, "npu_doctor_mem_peak_bytes", dev), static_cast<double>(20 * gib + 399 * mib8));
  EXPECT_EQ(value_of(e, "npu_doctor_mem_peak_reserved_bytes", dev), static_cast<double>(21 * gib + 399 * mib8));
  EXPECT_EQ(value_of(e, "npu_doctor_mem_capacity_bytes", dev), static_cast<double>(64 * gib));
  EXPECT_EQ(value_of(e, "npu_doctor_mem_samples", dev), 400);
  EXPECT_EQ(value_of(e, "npu_doctor_mem_leak_detected", dev), 1);
  EXPECT_NEAR(value_of(e, "npu_doctor_mem_leak_growth_bytes_per_step", dev), 8 << 20, 1 << 20);
  EXPECT_EQ(e.find("npu_doctor_info", {{"command", "mem"}}).size(), 1u);
  expect_promtool_accepts(r.out);
}

TEST(PrometheusMem, OutOfMemoryLogsByClassification) {
  const auto r = run_npu_doctor({"mem", "analyze", std::string(NPU_DOCTOR_MEM_FIXTURES) + "/train_oom.log", "-f", "prometheus"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto e = parsed(r.out);
  EXPECT_FALSE(e.find("npu_doctor_mem_oom_events").empty()) << r.out;
  EXPECT_GE(value_of(e, "npu_doctor_findings", {{"category", "memory"}, {"severity", "error"}}), 1);
  expect_promtool_accepts(r.out);
}

TEST(PrometheusCli, FormatIsListedInHelp) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"diagnose", "--help"}, {"cluster", "--help"}, {"merge", "--help"}, {"check", "--help"}, {"mem", "analyze", "--help"}}) {
    const auto r = run_npu_doctor(args);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("prometheus"), std::string::npos) << args[0];
  }
}

}  // namespace
}  // namespace npu_doctor
