// npu-doctor's own words in the user's language (issue 20): help texts and the tool's error
// messages come from the catalogue (data/ui.yaml, help.* and error.*), in the language of
// --lang or else of the environment, decided before the help is built.
#include <gtest/gtest.h>

#include <string>

#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

std::string fixture(const std::string& rel) { return testing::fixtures_dir() + "/" + rel; }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The diagnose command's description, an option's help and the exit-status footer.
constexpr const char* kZhAbout = "扫描日志（文件、plog 目录、归档，- 表示标准输入）并给出根因";
constexpr const char* kZhOutput = "将报告写入 FILE，而不是标准输出";
constexpr const char* kZhFooter = "退出状态：0 未发现错误，1 找到了根因";
constexpr const char* kEnOutput = "Write the report to FILE instead of stdout";

TEST(CliLang, HelpInChineseByFlag) {
  for (const auto& args : {std::vector<std::string>{"--lang", "zh", "diagnose", "--help"},
                           std::vector<std::string>{"diagnose", "--help", "--lang=zh"},
                           std::vector<std::string>{"diagnose", "--lang", "zh", "--help"}}) {
    const auto r = run_npu_doctor(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(has(r.out, kZhAbout)) << r.out;
    EXPECT_TRUE(has(r.out, kZhOutput)) << r.out;
    EXPECT_TRUE(has(r.out, kZhFooter)) << r.out;
    EXPECT_TRUE(has(r.out, "输出本帮助信息并退出")) << "and CLI11's own --help: " << r.out;
    EXPECT_TRUE(has(r.out, "用法: ")) << "the frame: " << r.out;
    EXPECT_TRUE(has(r.out, "[选项] paths...")) << r.out;
    EXPECT_TRUE(has(r.out, "\n位置参数:\n")) << r.out;
    EXPECT_TRUE(has(r.out, "\n选项:\n")) << r.out;
    EXPECT_FALSE(has(r.out, "Options:")) << r.out;
    EXPECT_FALSE(has(r.out, kEnOutput)) << r.out;
  }
}

TEST(CliLang, HelpInChineseByEnvironment) {
  auto r = run_npu_doctor({"diagnose", "--help"}, "", {"LANG=zh_CN.UTF-8"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, kZhAbout)) << r.out;
  EXPECT_TRUE(has(r.out, kZhOutput)) << r.out;
  // LC_ALL comes before LANG, as for the reports.
  r = run_npu_doctor({"--help"}, "", {"LANG=en_US.UTF-8", "LC_ALL=zh_CN.UTF-8"});
  EXPECT_TRUE(has(r.out, "npu-doctor：华为昇腾 NPU 故障的根因诊断")) << r.out;
  EXPECT_TRUE(has(r.out, "检查和浏览知识库")) << "subcommand list: " << r.out;
  EXPECT_TRUE(has(r.out, "报告语言：en 或 zh")) << "global options: " << r.out;
  EXPECT_TRUE(has(r.out, "\n子命令:\n")) << r.out;
}

TEST(CliLang, FlagOverridesEnvironmentAndEnglishHelpStaysAsItWas) {
  auto r = run_npu_doctor({"diagnose", "--help", "--lang", "en"}, "", {"LANG=zh_CN.UTF-8"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.out, kEnOutput)) << r.out;
  EXPECT_FALSE(has(r.out, kZhOutput)) << r.out;
  r = run_npu_doctor({"diagnose", "--help"});
  EXPECT_TRUE(has(r.out, "Scan logs (files, plog directories, archives, - for stdin) and name the root cause")) << r.out;
  EXPECT_TRUE(has(r.out, "Regex applied to each input path to find its rank and node, with named groups "
                         "(?<rank>\\d+) and (?<host>...)"))
      << "escapes survive the catalogue: " << r.out;
  // Braces are doubled in the catalogue and come out single.
  r = run_npu_doctor({"cluster", "--help"});
  EXPECT_TRUE(has(r.out, "{hostname} and {rank} are replaced per node")) << r.out;
  r = run_npu_doctor({"cluster", "--help", "--lang", "zh"});
  EXPECT_TRUE(has(r.out, "{hostname} 和 {rank} 按节点替换")) << r.out;
}

TEST(CliLang, AMissingInputFileInChineseIsAUsageError) {
  const auto r = run_npu_doctor({"--lang", "zh", "diagnose", "/nonexistent/train.log"});
  EXPECT_EQ(r.exit_code, 2) << r.err;  // the documented status: usage error or no input readable
  EXPECT_TRUE(has(r.err, "npu-doctor: 没有任何输入能被扫描；/nonexistent/train.log：文件或目录不存在")) << r.err;
  const auto by_env = run_npu_doctor({"diagnose", "/nonexistent/train.log"}, "", {"LANG=zh_CN.UTF-8"});
  EXPECT_EQ(by_env.exit_code, 2);
  EXPECT_TRUE(has(by_env.err, "文件或目录不存在")) << by_env.err;
  const auto en = run_npu_doctor({"diagnose", "/nonexistent/train.log"});
  EXPECT_TRUE(has(en.err, "npu-doctor: no input could be scanned; /nonexistent/train.log: no such file or directory"))
      << en.err;
}

TEST(CliLang, InputNotesAndUsageErrorsInChinese) {
  testing::TempDir d;
  const auto bin = d.write("core.bin", std::string(8192, '\0'));
  auto r = run_npu_doctor({"diagnose", "--lang", "zh", bin.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "二进制数据，不是文本日志")) << "the reader's note, translated: " << r.err;
  r = run_npu_doctor({"--lang", "zh", "diagnos"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "npu-doctor: 'diagnos' 不是 npu-doctor 的命令。你是不是想输入 'diagnose'？")) << r.err;
  EXPECT_TRUE(has(r.err, "命令：diagnose, explain")) << r.err;
  r = run_npu_doctor({"diagnose", "--lang", "zh", "--skew", "5parsecs", fixture("logs/device_oom_plog.log")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "'5parsecs' 不是时长")) << "our validator inside CLI11's message: " << r.err;
  EXPECT_TRUE(has(r.err, "\n运行时加上 --help 可查看更多信息。\n")) << r.err;
  r = run_npu_doctor({"diagnose", "--lang", "zh", "--incident", "x", fixture("logs/device_oom_plog.log")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "--incident 'x'：请给出事件编号（1 = 最早的）或 all")) << r.err;
  r = run_npu_doctor({"explain", "", "--lang", "zh"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "explain：请给出错误码、规则 id 或一行日志")) << r.err;
}

}  // namespace
}  // namespace npu_doctor
