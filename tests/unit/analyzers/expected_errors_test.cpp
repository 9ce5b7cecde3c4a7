#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "diagnosis/diagnosis.hpp"
#include "diagnosis/expected_errors.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

// A board whose vendor says npu-smi's DCMI messages are harmless: the user declares them.
const std::string kDcmiLog =
    "npu-smi info\n"
    "DCMI module initialize failed. ret is -8005\n";

std::string load_problem(testing::TempDir& dir, const std::string& text) {
  ExpectedErrors e;
  std::string error;
  const auto path = dir.write("expected.yaml", text).string();
  EXPECT_FALSE(e.load(path, error)) << text;
  EXPECT_EQ(error.rfind(path, 0), 0u) << error;  // the message starts with the file
  return error;
}

DiagnosisReport run_with(Diagnoser& d, const std::string& log_path, const ExpectedErrors& e) {
  DiagnoseOptions o;
  o.paths = {log_path};
  o.expected = std::make_shared<ExpectedErrors>(e);
  return d.run(o);
}

// What the file may hold, and every mistake named with its line.
TEST(ExpectedErrors, BadFilesAreRejectedWithFileLineAndWhy) {
  testing::TempDir dir;
  const std::string head = "schema: npu-doctor/expected/v1\nexpected:\n";
  EXPECT_NE(load_problem(dir, "expected: []\n").find("schema: npu-doctor/expected/v1"), std::string::npos);
  EXPECT_NE(load_problem(dir, head + "  - {rule: a.b}\n").find("expected.yaml:3: a declaration needs a 'reason'"),
            std::string::npos);
  EXPECT_NE(load_problem(dir, head + "  - {reason: harmless}\n").find(":3: a declaration needs a 'rule'"), std::string::npos);
  EXPECT_NE(load_problem(dir, head + "  - {rule: a.b, reason: x, why: y}\n").find("unknown key 'why'"), std::string::npos);
  EXPECT_NE(load_problem(dir, head + "  - reason: x\n    line: 'a(b'\n").find(":4: 'line' is not a valid regular expression"),
            std::string::npos);
  EXPECT_NE(load_problem(dir, head + "  - {rule: '', reason: x}\n").find("'rule' must be a non-empty string"), std::string::npos);
  EXPECT_NE(load_problem(dir, "schema: npu-doctor/expected/v1\nexpected: {rule: x}\n").find("must be a list"), std::string::npos);
  EXPECT_NE(load_problem(dir, "schema: npu-doctor/expected/v1\nextra: 1\nexpected: []\n").find(":2: unknown key 'extra'"),
            std::string::npos);
  EXPECT_NE(load_problem(dir, head + "  - [unclosed\n").find("not valid YAML"), std::string::npos);
  EXPECT_NE(load_problem(dir, head + "  - {? {a: 1} : x, reason: y}\n").find("not valid YAML"), std::string::npos);
  EXPECT_NE(load_problem(dir, head + "  - {rule: [a, b], reason: y}\n").find("'rule' must be a non-empty string"),
            std::string::npos);
  EXPECT_NE(load_problem(dir, head + std::string(2u << 20, '#')).find("larger than 1 MiB"), std::string::npos);
  ExpectedErrors e;
  std::string error;
  EXPECT_FALSE(e.load((dir.path() / "missing.yaml").string(), error));
  EXPECT_NE(error.find("cannot read the file"), std::string::npos);
  EXPECT_FALSE(e.load("/dev/zero", error));  // never read: it would not end
  EXPECT_NE(error.find("/dev/zero: not a regular file"), std::string::npos);
  EXPECT_FALSE(e.load(dir.path().string(), error));
  EXPECT_TRUE(e.empty());
}

// A declared error is shown with the user's reason and is no root cause; one the file does
// not name (another rule, a line its regex does not find) still is.
TEST(ExpectedErrors, ADeclaredErrorIsNoRootCauseAndKeepsItsReason) {
  testing::TempDir dir;
  const auto log = dir.write("npu-smi.log", kDcmiLog).string();
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  const auto expected = [&](const std::string& declarations) {
    ExpectedErrors e;
    std::string error;
    EXPECT_TRUE(e.load(dir.write("e.yaml", "schema: npu-doctor/expected/v1\nexpected:\n" + declarations).string(), error))
        << error;
    return e;
  };
  DiagnoseOptions plain;
  plain.paths = {log};
  ASSERT_NE(d.run(plain).root_finding(), nullptr);  // without the file, the DCMI lines are the failure

  const auto r = run_with(d, log, expected("  - rule: device.dcmi-*\n    reason: the Orange Pi vendor says this is harmless\n"));
  EXPECT_EQ(r.root_finding(), nullptr);
  ASSERT_FALSE(r.findings.empty());
  for (const auto& f : r.findings) {
    ASSERT_TRUE(f.expected.has_value()) << f.entry->id;
    EXPECT_EQ(f.expected->reason, "the Orange Pi vendor says this is harmless");
    EXPECT_EQ(f.expected->source, dir.path().string() + "/e.yaml:3");
    EXPECT_EQ(effective_severity(f), Severity::info);
  }
  // By the line alone, and by rule and line together.
  EXPECT_EQ(run_with(d, log, expected("  - {line: 'DCMI module initialize failed', reason: harmless}\n")).root_finding(), nullptr);
  EXPECT_EQ(run_with(d, log, expected("  - {rule: 'device.*', line: 'ret is -8005', reason: harmless}\n")).root_finding(),
            nullptr);
  // Another rule, or a line the regex does not find: the failure stands.
  EXPECT_NE(run_with(d, log, expected("  - {rule: hccl.*, reason: harmless}\n")).root_finding(), nullptr);
  EXPECT_NE(run_with(d, log, expected("  - {rule: 'device.*', line: 'ret is -9999', reason: harmless}\n")).root_finding(),
            nullptr);
}

// The example of docs/expected-errors.md is a file the loader accepts.
TEST(ExpectedErrors, TheDocumentedExampleLoads) {
  std::ifstream in(std::string(NPU_DOCTOR_KB_DIR) + "/../docs/expected-errors.md");
  std::stringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  const auto begin = text.find("```yaml\n");
  ASSERT_NE(begin, std::string::npos);
  const auto end = text.find("```", begin + 8);
  testing::TempDir dir;
  ExpectedErrors e;
  std::string error;
  EXPECT_TRUE(e.load(dir.write("doc.yaml", text.substr(begin + 8, end - begin - 8)).string(), error)) << error;
  EXPECT_FALSE(e.empty());
}

}  // namespace
}  // namespace npu_doctor
