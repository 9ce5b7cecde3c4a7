// Environment dumps in every form users have them: `env` output, exports, `declare -x`,
// /proc/<pid>/environ, and npu-doctor's own capture.
#include <gtest/gtest.h>

#include "hccl/env_file.hpp"
#include "hccl/hccl_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::hccl {
namespace {

using npu_doctor::testing::read_file;

TEST(HcclEnvFile, EnvOutputKeepsLineNumbersAndTheRawValue) {
  const auto f = parse_env_file("a.env", "PATH=/usr/bin\nMASTER_ADDR=10.0.0.1\n\nHCCL_IF_IP=10.0.0.1\nA=b=c\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->format, EnvFormat::env);
  ASSERT_NE(f->find("HCCL_IF_IP"), nullptr);
  EXPECT_EQ(f->find("HCCL_IF_IP")->line, 4u);
  EXPECT_EQ(f->find("A")->value, "b=c");
  EXPECT_EQ(f->find("NOPE"), nullptr);
}

TEST(HcclEnvFile, ExportsAndDeclareAreUnquoted) {
  const auto f = parse_env_file("x", "export A=\"1 2\"\ndeclare -x B=\"say \\\"hi\\\"\"\nexport C='$x'\nsetenv D 5\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->format, EnvFormat::exports);
  EXPECT_EQ(f->find("A")->value, "1 2");
  EXPECT_EQ(f->find("B")->value, "say \"hi\"");
  EXPECT_EQ(f->find("C")->value, "$x");
  EXPECT_EQ(f->find("D")->value, "5");
}

TEST(HcclEnvFile, ProcEnvironIsNulSeparated) {
  const std::string text = read_file(testing::fixture("env/mismatch/rank2.environ"));
  const auto f = parse_env_file("rank2.environ", text);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->format, EnvFormat::environ);
  EXPECT_EQ(f->find("MASTER_PORT")->value, "29501");
  EXPECT_EQ(f->find("MASTER_PORT")->line, 3u) << "entry number";
}

TEST(HcclEnvFile, CaptureHeaderGivesTheHost) {
  const auto f = parse_env_file("r3", read_file(testing::fixture("env/mismatch/rank3.env")));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->format, EnvFormat::capture);
  EXPECT_EQ(f->host, "node-1");
  EXPECT_EQ(f->find("RANK")->line, 8u);
}

TEST(HcclEnvFile, MultiLineValuesOfEnvOutputContinue) {
  const auto f = parse_env_file("x", "BASH_FUNC_x%%=() {  echo hi\n}\nRANK=3\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->find("RANK")->value, "3");
  EXPECT_EQ(f->vars.size(), 1u) << "BASH_FUNC_x%% is not a variable name, its lines are skipped";
}

TEST(HcclEnvFile, ALaterAssignmentWins) {
  const auto f = parse_env_file("x", "export RANK=1\nexport RANK=2\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->find("RANK")->value, "2");
  EXPECT_EQ(f->find("RANK")->line, 2u);
}

TEST(HcclEnvFile, GarbageEmptyAndBinaryAreRefusedWithAReason) {
  std::string error;
  EXPECT_FALSE(parse_env_file("x", "", &error));
  EXPECT_NE(error.find("no NAME=value"), std::string::npos) << error;
  EXPECT_FALSE(parse_env_file("x", "this is a log line\nanother one\n", &error));
  std::string binary(4096, '\x01');
  binary[10] = '\x7f';
  EXPECT_FALSE(parse_env_file("x", binary, &error));
  EXPECT_NE(error.find("binary"), std::string::npos) << error;
  EXPECT_FALSE(parse_env_file("x", std::string("\0\0\0", 3), &error));
}

TEST(HcclEnvFile, CaptureKeepsOnlyJobVariablesAndReadsBack) {
  const std::map<std::string, std::string> env = {{"HCCL_CONNECT_TIMEOUT", "600"}, {"RANK", "2"},
                                                  {"AWS_SECRET_ACCESS_KEY", "x"}, {"PATH", "/bin"},
                                                  {"HCCL_ALGO", "level0:NA;level1:ring\nx"}};
  const std::string text = format_env_capture(env, "node-7", "/proc/1/environ", "2025-01-01T00:00:00");
  EXPECT_EQ(text.find("SECRET"), std::string::npos);
  EXPECT_EQ(text.find("PATH="), std::string::npos);
  const auto f = parse_env_file("cap", text);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->format, EnvFormat::capture);
  EXPECT_EQ(f->host, "node-7");
  EXPECT_EQ(f->find("RANK")->value, "2");
  EXPECT_EQ(f->find("HCCL_ALGO")->value, "level0:NA;level1:ring\nx") << "a newline survives the round trip";
}

TEST(HcclEnvFile, ANameAssignedAgainKeepsItsLastValueAtItsLastPlace) {
  const auto f = parse_env_file("x", "A=1\nB=2\nA=3\nC=4\nB=5\nmore\n");
  ASSERT_TRUE(f);
  ASSERT_EQ(f->vars.size(), 3u);
  EXPECT_EQ(f->vars[0].name, "A");
  EXPECT_EQ(f->vars[0].value, "3");
  EXPECT_EQ(f->vars[0].line, 3u);
  EXPECT_EQ(f->vars[1].name, "C");
  EXPECT_EQ(f->vars[2].name, "B");
  EXPECT_EQ(f->vars[2].value, "5\nmore") << "a continued value belongs to the last assignment";
  const auto environ = parse_env_file("e", std::string("X=1\0Y=2\0X=3\0", 12));
  ASSERT_TRUE(environ);
  ASSERT_EQ(environ->vars.size(), 2u);
  EXPECT_EQ(environ->vars[1].name, "X");
  EXPECT_EQ(environ->vars[1].value, "3");
}

// `hccl env` keeps only the variables it checks: the others are counted, their continuation
// lines dropped with them, and a dump of nothing but other variables is still a dump.
TEST(HcclEnvFile, VariablesNotKeptAreCountedNotStored) {
  const auto keep = [](std::string_view name) { return name.starts_with("HCCL_"); };
  const auto f = parse_env_file("a.env", "PATH=/usr/bin\nMOTD=line one\nline two\nHCCL_IF_IP=10.0.0.1\nHCCL_X=a\nb\n", nullptr, keep);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->vars.size(), 2u);
  EXPECT_EQ(f->others, 2u);
  EXPECT_EQ(f->variable_count(), 4u);
  EXPECT_EQ(f->find("PATH"), nullptr);
  EXPECT_EQ(f->find("HCCL_IF_IP")->value, "10.0.0.1");  // "line two" went with MOTD
  EXPECT_EQ(f->find("HCCL_X")->value, "a\nb");
  EXPECT_EQ(f->skipped_lines, 0u);
  const auto environ = parse_env_file("environ", std::string("PATH=/bin\0HCCL_BUFFSIZE=200\0", 28), nullptr, keep);
  ASSERT_TRUE(environ);
  EXPECT_EQ(environ->variable_count(), 2u);
  ASSERT_EQ(environ->vars.size(), 1u);
  const auto others_only = parse_env_file("b.env", "PATH=/usr/bin\nHOME=/root\n", nullptr, keep);
  ASSERT_TRUE(others_only);
  EXPECT_TRUE(others_only->vars.empty());
  EXPECT_EQ(others_only->variable_count(), 2u);
}

}  // namespace
}  // namespace npu_doctor::hccl
