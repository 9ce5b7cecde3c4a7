// The threaded parts of the scanner, for ThreadSanitizer (the `tsan` preset builds just
// these and the chunk reader's and scanner's unit tests) and for every other build:
// `diagnose -j` (inputs scanned on several threads, merged in input order) and the
// scanner's read-ahead thread must give exactly what one thread gives.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "finding_collector.hpp"
#include "diagnosis/diagnosis.hpp"
#include "npu_doctor/finding.hpp"
#include "scanner.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

namespace fs = std::filesystem;

std::string summary(const DiagnosisReport& r) {
  std::string s;
  for (const InputReport& in : r.inputs) s += in.path + " " + std::to_string(in.bytes) + " " + std::to_string(in.lines) + "\n";
  for (const Finding& f : r.findings) s += finding_key(f) + " x" + std::to_string(f.count) + "\n";
  return s;
}

TEST(ThreadedScan, DiagnoseOnFourThreadsEqualsOneThread) {
  // Twelve inputs of different sizes so that threads finish out of order.
  testing::TempDir dir;
  const fs::path logs = fs::path(testing::fixtures_dir()) / "realworld-dev";
  int copied = 0;
  for (const auto& e : fs::directory_iterator(logs)) {
    if (e.path().extension() != ".log" || copied == 12) continue;
    std::string text = testing::read_file(e.path());
    for (int i = 0; i < copied % 4; ++i) text += text;  // up to 8 times the fixture
    dir.write("rank" + std::to_string(copied) + ".log", text);
    ++copied;
  }
  ASSERT_EQ(copied, 12);
  std::vector<KbProblem> problems;
  Diagnoser diagnoser(testing::builtin_kb(), problems);
  DiagnoseOptions options;
  options.paths = {dir.path().string()};
  options.jobs = 1;
  const std::string one = summary(diagnoser.run(options));
  options.jobs = 4;
  const std::string four = summary(diagnoser.run(options));
  EXPECT_EQ(one, four);
  EXPECT_NE(one.find("rank11.log"), std::string::npos);
}

TEST(ThreadedScan, ReadAheadThreadGivesTheSameFindings) {
  // Many blocks, so the read-ahead thread runs for most of the input.
  std::string text;
  const std::string log = testing::read_file(fs::path(testing::fixtures_dir()) / "logs" / "device_oom_plog.log");
  for (int i = 0; i < 40; ++i) text += log;
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(testing::builtin_kb(), problems);
  auto scan = [&](bool read_ahead) {
    ScanOptions options;
    options.block_size = 4096;
    options.read_ahead = read_ahead;
    Scanner scanner(*matcher, options);
    FindingCollector out(options.max_evidence);
    testing::StringStream in(text, 1000);
    InputReport report;
    report.path = "big.log";
    scanner.scan(in, 0, report, out);
    std::string s = std::to_string(report.bytes) + " " + std::to_string(report.lines) + "\n";
    for (const Finding& f : out.take()) s += finding_key(f) + " x" + std::to_string(f.count) + "\n";
    return s;
  };
  const std::string without = scan(false);
  EXPECT_EQ(scan(true), without);
  EXPECT_NE(without.find(" x40"), std::string::npos) << without;
}

}  // namespace
}  // namespace npu_doctor
