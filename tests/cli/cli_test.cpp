// The npu-doctor binary as users run it: arguments, exit codes, stdin, files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

std::string fixture(const std::string& rel) { return testing::fixtures_dir() + "/" + rel; }

TEST(Cli, DiagnoseFindsTheRootCauseAndExitsOne) {
  const auto r = run_npu_doctor({"diagnose", fixture("logs/device_oom_plog.log")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("ROOT CAUSE:"), std::string::npos);
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "no colour when piped";
}

TEST(Cli, HealthyLogExitsZero) {
  const auto r = run_npu_doctor({"diagnose", fixture("logs/healthy_training.log")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("No error-level finding"), std::string::npos);
}

TEST(Cli, JsonOnStdin) {
  const auto r = run_npu_doctor({"diagnose", "--format", "json", "-"},
                                "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total "
                                "capacity; 57.12 GiB already allocated; 57.12 GiB current active; 1.02 GiB free; 58.80 "
                                "GiB reserved in total by PyTorch)\n");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["root_cause"]["category"], "memory");
  EXPECT_EQ(j["inputs"][0]["path"], "<stdin>");
  const auto& caps = j["findings"][0]["evidence"][0]["captures"];
  EXPECT_EQ(caps["requested"], "2.00 GiB");
  EXPECT_EQ(caps["reserved"], "58.80 GiB");
}

TEST(Cli, MissingPathIsAUsageErrorNamingThePath) {
  const auto r = run_npu_doctor({"diagnose", "/nonexistent/train.log"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/train.log"), std::string::npos);
  EXPECT_NE(r.err.find("no such file or directory"), std::string::npos);
}

TEST(Cli, OneBadPathAmongGoodOnesIsReportedAndTheRestScanned) {
  const auto r = run_npu_doctor({"diagnose", "--format", "json", fixture("logs/device_oom_plog.log"), "/nonexistent/x.log"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent/x.log"), std::string::npos);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["root_cause"]["category"], "memory");
  ASSERT_EQ(j["inputs"].size(), 2u);
  EXPECT_EQ(j["inputs"][1]["status"], "error");
}

TEST(Cli, BinaryOnlyInputIsAnErrorWithAReason) {
  testing::TempDir d;
  const auto bin = d.write("core.bin", std::string(8192, '\0'));
  const auto r = run_npu_doctor({"diagnose", bin.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("binary"), std::string::npos);
}

TEST(Cli, EmptyFileHasNothingToReport) {
  testing::TempDir d;
  const auto empty = d.write("empty.log", "");
  const auto r = run_npu_doctor({"diagnose", empty.string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("empty.log is empty: nothing to diagnose."), std::string::npos) << r.out;
}

TEST(Cli, OutputFileIsWrittenWhole) {
  testing::TempDir d;
  const auto out = d.path() / "report.md";
  const auto r = run_npu_doctor({"diagnose", "-f", "markdown", "-o", out.string(), fixture("logs/device_oom_plog.log")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  const auto md = testing::read_file(out);
  EXPECT_NE(md.find("### ROOT CAUSE"), std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator(d.path())) {
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << "temporary file left behind";
  }
}

TEST(Cli, ChineseByFlagAndByLang) {
  auto r = run_npu_doctor({"diagnose", "--lang", "zh", fixture("logs/device_oom_plog.log")});
  EXPECT_NE(r.out.find("根因"), std::string::npos);
  r = run_npu_doctor({"diagnose", fixture("logs/device_oom_plog.log")}, "", {"LANG=zh_CN.UTF-8"});
  EXPECT_NE(r.out.find("根因"), std::string::npos);
}

TEST(Cli, ContextFlags) {
  const auto r = run_npu_doctor({"diagnose", "-f", "json", "-B", "2", "-A", "1", fixture("logs/device_oom_plog.log")});
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_LE(j["findings"][0]["context"]["before"].size(), 2u);
  EXPECT_LE(j["findings"][0]["context"]["after"].size(), 1u);
}

// The context rules read the lines around a finding whatever -B/-A asked: an aclnn parameter
// error whose operator check four lines above names a dtype is the dtype not supported, also
// when the user asks for no context lines at all (which the report then shows).
TEST(Cli, FewerContextLinesShownNeverChangeTheDiagnosis) {
  const std::string log = fixture("logs/aclnn_dtype_check_before_param_error.log");
  for (const std::vector<std::string>& flags : std::vector<std::vector<std::string>>{{}, {"-C", "0"}, {"-B", "0", "-A", "0"}, {"-B", "1"}}) {
    std::vector<std::string> args{"diagnose", "-f", "json"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back(log);
    const auto r = run_npu_doctor(args);
    const std::string shown = flags.empty() ? "defaults" : flags[0] + " " + flags[1];
    ASSERT_EQ(r.exit_code, 1) << shown << "\n" << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["root_cause"]["category"], "compile_op_unsupported") << shown;
    const std::size_t before = flags.empty() ? 8 : flags[0] == "-B" && flags[1] == "1" ? 1 : 0;
    for (const auto& f : j["findings"]) {
      EXPECT_LE(f["context"]["before"].size(), before) << shown;
      if (!flags.empty() && flags[1] == "0") {
        EXPECT_TRUE(f["context"]["after"].empty()) << shown;
      }
    }
  }
}

TEST(Cli, ExplainKnownAndUnknown) {
  auto r = run_npu_doctor({"explain", "600001"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("ENV_ERROR_DRIVER"), std::string::npos);
  r = run_npu_doctor({"explain", "seed.acl-error-memroy"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not in the knowledge base"), std::string::npos);
  EXPECT_NE(r.err.find("seed.acl-error-memory"), std::string::npos);
  // The issue's own examples, topic entries among them.
  for (const char* q : {"507035", "EI0002", "ERR00100", "200001", "memory.device-oom", "communication.hccl-timeout"}) {
    r = run_npu_doctor({"explain", q});
    EXPECT_EQ(r.exit_code, 0) << q << "\n" << r.err;
  }
}

TEST(Cli, KbLintAcceptsTheBuiltInBaseAndRejectsBrokenFiles) {
  auto r = run_npu_doctor({"kb", "lint"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("0 error(s)"), std::string::npos);

  // --alone: the broken file by itself (with the built-in base, each call would lint the
  // catalogue's 80k entries again, tens of seconds).
  r = run_npu_doctor({"kb", "lint", "--alone", fixture("bad-kb/unknown-category.yaml")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("unknown-category.yaml:7: error: unknown category 'network'"), std::string::npos) << r.out;

  r = run_npu_doctor({"kb", "lint", "--alone", fixture("bad-kb/sample-not-recognised.yaml")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("sample is not recognised"), std::string::npos) << r.out;

  r = run_npu_doctor({"kb", "lint", "/nonexistent/dir"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, SiteKnowledgeBaseByFlagAndEnvironment) {
  testing::TempDir d;
  const auto log = d.write("job.log", "writing checkpoint\nerror SITE-QUOTA-042 on /data\n");
  auto r = run_npu_doctor({"diagnose", "--kb", fixture("site-kb"), "-f", "json", log.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["root_cause"]["rule"], "site.storage-quota");
  EXPECT_EQ(j["root_cause"]["code"], "042");
  r = run_npu_doctor({"diagnose", "-f", "json", log.string()}, "", {"NPU_DOCTOR_KB_PATH=" + fixture("site-kb")});
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["root_cause"]["rule"], "site.storage-quota");
  r = run_npu_doctor({"diagnose", log.string()});
  EXPECT_EQ(r.exit_code, 0);
  // --kb before the paths takes one value; repeated, it adds directories.
  r = run_npu_doctor({"diagnose", "-f", "json", "--kb", fixture("site-kb"), "--kb", fixture("site-kb"), log.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["root_cause"]["rule"], "site.storage-quota");
}

// One duration syntax for every time-valued option (docs/cli.md, "Durations"): the same
// words for a bad value, checked while parsing, before any work starts.
TEST(Cli, EveryDurationOptionReadsOneSyntax) {
  const std::vector<std::vector<std::string>> options = {
      {"diagnose", "--skew"},          {"diagnose", "--incident-gap"},    {"bundle", "--since"},
      {"bundle", "--timeout"},         {"check", "--timeout"},            {"hccl", "hccn", "--timeout"},
      {"cluster", "--node-timeout"},   {"cluster", "--skew"},             {"merge", "--skew"},
      {"isolate", "--timeout"},        {"mem", "watch", "--interval"},    {"mem", "watch", "--duration"},
      {"mem", "watch", "--timeout"},   {"net", "serve", "--idle-timeout"}, {"net", "serve", "--exit-after"},
      {"net", "test", "--duration"},   {"net", "test", "--connect-timeout"}, {"net", "test", "--answer-timeout"},
      {"run", "--hang-after"},         {"run", "--kill-grace"},           {"run", "--poll-interval"},
      {"watch", "--exec-timeout"},     {"watch", "--poll-interval"},      {"watch", "--settle"},
      {"watch", "--quiet-gap"}};
  for (const auto& words : options) {
    const std::string flag = words.back();
    std::vector<std::string> help(words.begin(), words.end() - 1);
    help.push_back("--help");
    const auto h = run_npu_doctor(help);
    EXPECT_NE(h.out.find(flag + " DURATION"), std::string::npos) << flag << " in " << help[0] << " --help";

    std::vector<std::string> bad = words;
    bad.push_back("5x");
    const auto r = run_npu_doctor(bad);
    EXPECT_EQ(r.exit_code, 2) << words[0] << " " << flag;
    EXPECT_NE(r.err.find(flag + ": '5x' is not a duration"), std::string::npos) << words[0] << " " << flag << ": " << r.err;
  }
}

TEST(Cli, DurationsTakeUnitsBareSecondsAndBounds) {
  const auto log = fixture("logs/device_oom_plog.log");
  // Every unit, and a bare number as seconds.
  for (const char* gap : {"1d", "2h", "30m", "90s", "1500ms", "7200"}) {
    const auto r = run_npu_doctor({"diagnose", "--incident-gap", gap, "--skew", "2.5", log});
    EXPECT_EQ(r.exit_code, 1) << gap << ": " << r.err;
  }
  // Below an option's bound: the bound is named.
  const auto low = run_npu_doctor({"check", "--timeout", "1ms"});
  EXPECT_EQ(low.exit_code, 2);
  EXPECT_NE(low.err.find("--timeout: '1ms' is shorter than 50ms"), std::string::npos) << low.err;
  const auto high = run_npu_doctor({"net", "test", "--duration", "11m", "127.0.0.1"});
  EXPECT_EQ(high.exit_code, 2);
  EXPECT_NE(high.err.find("--duration: '11m' is longer than 10m"), std::string::npos) << high.err;
}

// A base that cannot be read would make every log look healthy: exit 3 instead of 0.
TEST(Cli, AnUnreadableKnowledgeBaseIsNoHealthyVerdict) {
  const auto r = run_npu_doctor({"diagnose", fixture("logs/device_oom_plog.log")}, "",
                                {"NPU_DOCTOR_KB_SNAPSHOT=/nonexistent/kb.snapshot"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("the built-in knowledge base could not be read"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("No known error"), std::string::npos) << r.out;
}

// diagnose --expected FILE (docs/expected-errors.md): the declared error is shown with the
// user's reason in text and JSON, the run exits 0; a broken file is a usage error naming it.
TEST(Cli, ExpectedErrorsFileSilencesADeclaredErrorAndExplainsWhy) {
  testing::TempDir dir;
  const auto log = dir.write("npu-smi.log", "DCMI module initialize failed. ret is -8005\n").string();
  const auto file = dir.write("expected.yaml",
                              "schema: npu-doctor/expected/v1\n"
                              "expected:\n"
                              "  - rule: device.dcmi-*\n"
                              "    reason: harmless on this board (vendor README)\n")
                        .string();
  EXPECT_EQ(run_npu_doctor({"diagnose", log}).exit_code, 1);
  const auto text = run_npu_doctor({"diagnose", "--expected", file, log});
  EXPECT_EQ(text.exit_code, 0) << text.out << text.err;
  EXPECT_NE(text.out.find("expected here: harmless on this board (vendor README)"), std::string::npos) << text.out;
  const auto js = run_npu_doctor({"diagnose", "-f", "json", "--expected", file, log});
  EXPECT_EQ(js.exit_code, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  EXPECT_TRUE(j["root_cause"].is_null());
  ASSERT_FALSE(j["findings"].empty());
  EXPECT_EQ(j["findings"][0]["severity"], "info");
  EXPECT_EQ(j["findings"][0]["expected"]["reason"], "harmless on this board (vendor README)");
  EXPECT_EQ(j["findings"][0]["expected"]["declared_at"], file + ":3");
  const auto broken = dir.write("broken.yaml", "schema: npu-doctor/expected/v1\nexpected:\n  - {rule: x}\n").string();
  const auto bad = run_npu_doctor({"diagnose", "--expected", broken, log});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(broken + ":3: a declaration needs a 'reason'"), std::string::npos) << bad.err;
}

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(run_npu_doctor({}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"diagnose"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"diagnose", "--format", "xml", "x"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"frobnicate"}).exit_code, 2);
  const auto help = run_npu_doctor({"diagnose", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("Exit status"), std::string::npos);
  const auto v = run_npu_doctor({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("npu-doctor"), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor
