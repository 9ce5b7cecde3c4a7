// `npu-doctor mem analyze` as users run it: formats, exit codes, stdin, bad inputs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "memory/synthetic_series.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::mem {
namespace {

using synth::kMiB;
using testing::run_npu_doctor;


std::string leaking_jsonl() {
  synth::SeriesSpec s;
  s.leak_per_step = 5 * kMiB;
  s.noise = 80 * kMiB;
  return synth::to_jsonl(synth::make_series(s));
}

std::string healthy_jsonl() {
  synth::SeriesSpec s;
  s.noise = 200 * kMiB;
  s.saw_period = 25;
  s.saw_amplitude = 3 * synth::kGiB;
  return synth::to_jsonl(synth::make_series(s));
}

TEST(MemCli, LeakIsFoundAndExitsOne) {
  testing::TempDir d;
  const auto p = d.write("mem.jsonl", leaking_jsonl());
  const auto r = run_npu_doctor({"mem", "analyze", p.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("Device memory leak"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "no colour when piped";
}

TEST(MemCli, HealthySamplesExitZero) {
  testing::TempDir d;
  const auto p = d.write("mem.jsonl", healthy_jsonl());
  const auto r = run_npu_doctor({"mem", "analyze", p.string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("No memory problem found."), std::string::npos) << r.out;
}

TEST(MemCli, JsonWithLogAndCapacityOption) {
  testing::TempDir d;
  const auto p = d.write("mem.jsonl", leaking_jsonl());
  const auto r = run_npu_doctor({"mem", "analyze", "--format", "json", "--capacity", "64GiB", p.string(),
                                 testing::area_fixture("memory", "train_oom.log")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "npu-doctor/mem/v1");
  EXPECT_EQ(j["devices"][0]["capacity"], 64ull << 30);
  EXPECT_EQ(j["devices"][0]["capacity_source"], "option");
  EXPECT_TRUE(j["devices"][0]["leak"]["detected"]);
  EXPECT_EQ(j["oom"][0]["classification"], "mem.leak");
  EXPECT_EQ(j["settings"]["capacity_bytes"], 64ull << 30);
}

TEST(MemCli, SamplesAndLogOnStdin) {
  const auto r = run_npu_doctor({"mem", "analyze", "-f", "json", "-"},
                                leaking_jsonl() + "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; "
                                                  "60.97 GiB total capacity; 57.12 GiB already allocated; 57.12 GiB "
                                                  "current active; 1.02 GiB free; 58.80 GiB reserved in total by PyTorch)\n");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["inputs"][0]["path"], "<stdin>");
  EXPECT_EQ(j["inputs"][0]["samples"], 3000);
  ASSERT_EQ(j["oom"].size(), 1u);
  EXPECT_EQ(j["oom"][0]["path"], "<stdin>") << "the log scan of stdin is shown as stdin too";
  EXPECT_EQ(j["oom"][0]["line"], 3001);
}

TEST(MemCli, OutputAndHtmlFilesAreWritten) {
  testing::TempDir d;
  const auto p = d.write("mem.jsonl", leaking_jsonl());
  const auto out = d.path() / "report.json";
  const auto html = d.path() / "mem.html";
  const auto r = run_npu_doctor({"mem", "analyze", "-f", "json", "-o", out.string(), "--html", html.string(), p.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(nlohmann::json::parse(testing::read_file(out))["schema"], "npu-doctor/mem/v1");
  EXPECT_NE(testing::read_file(html).find("id=\"chart-0\""), std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator(d.path())) {
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << "no temporary file left";
  }
}

TEST(MemCli, MissingInputIsAUsageErrorNamingThePath) {
  const auto r = run_npu_doctor({"mem", "analyze", "/nonexistent/mem.jsonl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/mem.jsonl"), std::string::npos) << r.err;
}

TEST(MemCli, BinaryInputIsAUsageErrorWithAReason) {
  testing::TempDir d;
  const auto bin = d.write("core.bin", std::string(8192, '\0'));
  const auto r = run_npu_doctor({"mem", "analyze", bin.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("binary"), std::string::npos) << r.err;
}

TEST(MemCli, GarbageLinesAreListedButDoNotStopTheAnalysis) {
  const auto r = run_npu_doctor({"mem", "analyze", testing::area_fixture("memory", "garbage.jsonl")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("INPUTS WITH PROBLEMS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line 3: not a JSON object"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line 6: \"allocated\" is not a non-negative number of bytes"), std::string::npos);
}

TEST(MemCli, EmptyOrUnrelatedInputIsAnErrorThatSaysSo) {
  testing::TempDir d;
  const auto p = d.write("empty.log", "");
  const auto r = run_npu_doctor({"mem", "analyze", p.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("no valid memory sample and no out-of-memory message in the input; " + p.string() +
                       ": empty file"),
            std::string::npos)
      << r.err;
}

TEST(MemCli, BadOptionValuesAreUsageErrors) {
  testing::TempDir d;
  const auto p = d.write("mem.jsonl", healthy_jsonl());
  auto r = run_npu_doctor({"mem", "analyze", "--capacity", "lots", p.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--capacity: not a size"), std::string::npos) << r.err;
  r = run_npu_doctor({"mem", "analyze", "--workload", "gaming", p.string()});
  EXPECT_EQ(r.exit_code, 2);
  r = run_npu_doctor({"mem", "analyze", "-", "-"}, "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("only once"), std::string::npos) << r.err;
  r = run_npu_doctor({"mem"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(MemCli, TuningOptionsChangeTheVerdicts) {
  testing::TempDir d;
  const auto p = d.write("mem.jsonl", healthy_jsonl());  // cache 0.5 GiB above the peak
  auto r = run_npu_doctor({"mem", "analyze", "-f", "json", "-j", "1", "--fragmentation-threshold", "256MiB", "--warmup",
                           "2000", p.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["devices"][0]["fragmentation"]["warning"]);
  EXPECT_EQ(j["settings"]["fragmentation_threshold_bytes"], 256u << 20);
  EXPECT_EQ(j["settings"]["warmup_steps"], 2000);
  EXPECT_EQ(j["devices"][0]["leak"]["from_step"], 2000);
  r = run_npu_doctor({"mem", "analyze", "-f", "json", "--workload", "inference", p.string(), testing::area_fixture("memory", "train_oom.log")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["oom"][0]["classification"], "mem.kv-cache-too-large");
  EXPECT_EQ(j["settings"]["workload"], "inference");
}

TEST(MemCli, HelpDescribesEveryOption) {
  const auto r = run_npu_doctor({"mem", "analyze", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* opt : {"--format", "--output", "--html", "--capacity", "--warmup", "--fragmentation-threshold",
                          "--workload", "--jobs", "Exit status"}) {
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
  }
  const auto w = run_npu_doctor({"mem", "watch", "--help"});
  EXPECT_EQ(w.exit_code, 0);
  for (const char* opt : {"--interval", "--duration", "--count", "--output", "--timeout", "--live", "SIGTERM"}) {
    EXPECT_NE(w.out.find(opt), std::string::npos) << opt;
  }
}

TEST(MemCli, ChineseReport) {
  testing::TempDir d;
  const auto p = d.write("mem.jsonl", leaking_jsonl());
  const auto r = run_npu_doctor({"mem", "analyze", "--lang", "zh", p.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("设备内存泄漏"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace npu_doctor::mem
