// The catalogue of UI words (data/ui.yaml, docs/ui-words.md): every key has both languages,
// texts with placeholders format by name in both, and the generator (src/kbc/ui_words_gen.cpp)
// refuses a catalogue that breaks the lint rules.
#include "npu_doctor/ui_words.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using ui::Key;

TEST(UiWords, EveryKeyHasBothLanguagesAndItsName) {
  for (int i = 0; i < static_cast<int>(Key::count_); ++i) {
    const auto k = static_cast<Key>(i);
    EXPECT_FALSE(ui::word(k, Lang::en).empty()) << ui::key_name(k);
    EXPECT_FALSE(ui::word(k, Lang::zh).empty()) << ui::key_name(k);
    EXPECT_NE(ui::key_name(k).find('.'), std::string_view::npos);
    // A formatted text is a format string; a plain one has its {{ }} already undone.
    if (ui::formatted(k)) {
      EXPECT_NE(ui::word(k, Lang::en).find('{'), std::string_view::npos) << ui::key_name(k);
    }
  }
  EXPECT_EQ(ui::key_name(Key::report_root_cause), "report.root_cause");
  EXPECT_EQ(ui::word(Key::report_root_cause, Lang::en), "ROOT CAUSE");
  EXPECT_EQ(ui::word(Key::report_root_cause, Lang::zh), "根因");
}

// A word nothing prints is a word translators keep for nothing: every key is named in src/.
TEST(UiWords, EveryKeyIsUsedBySomeSource) {
  std::string sources;
  const auto src = std::filesystem::path(NPU_DOCTOR_KB_DIR).parent_path() / "src";
  for (const auto& f : std::filesystem::recursive_directory_iterator(src)) {
    const auto ext = f.path().extension();
    if (f.is_regular_file() && (ext == ".cpp" || ext == ".hpp")) sources += testing::read_file(f.path());
  }
  ASSERT_GT(sources.size(), 100000u) << src;
  for (int i = 0; i < static_cast<int>(Key::count_); ++i) {
    std::string name(ui::key_name(static_cast<Key>(i)));
    for (char& c : name)
      if (c == '.') c = '_';
    EXPECT_NE(sources.find("Key::" + name), std::string::npos) << ui::key_name(static_cast<Key>(i)) << " is used nowhere";
  }
}

TEST(UiWords, PlaceholdersAreFilledByNameInBothLanguages) {
  const auto waited = [](Lang l) {
    return ui::text(Key::report_waited_read_first, l, fmt::arg("who", "rank 0"), fmt::arg("peer", 3));
  };
  EXPECT_EQ(waited(Lang::en), "rank 0 waited for rank 3: read rank 3's logs first");
  EXPECT_EQ(waited(Lang::zh), "rank 0 在等待 rank 3：请先看 rank 3 的日志");
  // Arguments in any order: names, not positions.
  EXPECT_EQ(ui::text(Key::incident_n_of, Lang::en, fmt::arg("total", std::size_t{3}), fmt::arg("n", 2)), "INCIDENT 2 OF 3");
  EXPECT_EQ(ui::text(Key::incident_n_of, Lang::zh, fmt::arg("n", 2), fmt::arg("total", 3)), "事件 2/3");
  EXPECT_EQ(ui::text(Key::report_inputs_are_empty, Lang::en, fmt::arg("n", 4)), "The 4 inputs are empty: nothing to diagnose.");
  EXPECT_EQ(ui::text(Key::report_input_is_empty, Lang::zh, fmt::arg("path", "a.log")), "a.log 是空文件：没有可诊断的内容。");
  EXPECT_EQ(ui::text(Key::report_waited_for, Lang::en, fmt::arg("peer", 7)), "waited for rank 7");
  EXPECT_EQ(ui::text(Key::report_cluster_head, Lang::zh, fmt::arg("ranks", 8)), "集群  8 个 rank");
  EXPECT_EQ(ui::text(Key::report_cluster_confidence, Lang::zh, fmt::arg("confidence", std::string("high"))), "置信度 high");
  // A plain word through text() is the word.
  EXPECT_EQ(ui::text(Key::check_fix, Lang::zh), "修复命令");
}

TEST(UiWords, AMissingArgumentLeavesTheTextUnformattedInsteadOfThrowing) {
  EXPECT_EQ(ui::text(Key::report_waited_for, Lang::en, fmt::arg("rank", 7)), "waited for rank {peer}");
  EXPECT_EQ(ui::text(Key::report_waited_for, Lang::en), "waited for rank {peer}");
}

struct Generated {
  testing::RunResult run;
  std::string keys;
  std::string table;
};

Generated generate(const testing::TempDir& t, const std::string& yaml) {
  const auto file = t.write("ui.yaml", yaml);
  const auto keys = t.path() / "ui_keys.hpp";
  const auto table = t.path() / "table.inc";
  Generated g;
  g.run = testing::run_program(NPU_DOCTOR_UI_WORDS_BINARY,
                               {keys.string(), table.string(), (t.path() / "stamp").string(), file.string()});
  if (std::filesystem::exists(keys)) g.keys = testing::read_file(keys);
  if (std::filesystem::exists(table)) g.table = testing::read_file(table);
  return g;
}

TEST(UiWordsGenerator, WritesTheEnumAndTheTable) {
  testing::TempDir t;
  const auto g = generate(t,
                          "b.plain: {en: \"a {{brace}} \\\"q\\\"\", zh: \"括号 {{x}}\"}\n"
                          "a.sentence: {en: \"{who} waited for {peer:>3}\", zh: \"{peer} {who}\"}\n");
  ASSERT_EQ(g.run.exit_code, 0) << g.run.err;
  EXPECT_NE(g.keys.find("enum class Key : unsigned short {\n  a_sentence,  // {peer} {who}\n  b_plain,\n  count_\n};"),
            std::string::npos)
      << g.keys;
  EXPECT_NE(g.table.find("{\"a.sentence\", {\"{who} waited for {peer:>3}\", \"{peer} {who}\"}, true},"), std::string::npos)
      << g.table;
  EXPECT_NE(g.table.find("{\"b.plain\", {\"a {brace} \\\"q\\\"\", \"括号 {x}\"}, false},"), std::string::npos)
      << "a plain text has its doubled braces undone\n" << g.table;
}

TEST(UiWordsGenerator, RewritesTheKeysOnlyWhenTheKeysChange) {
  testing::TempDir t;
  ASSERT_EQ(generate(t, "a.b: {en: \"x\", zh: \"甲\"}\n").run.exit_code, 0);
  const auto keys = t.path() / "ui_keys.hpp";
  const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(1);
  std::filesystem::last_write_time(keys, old);
  const auto g = generate(t, "a.b: {en: \"y\", zh: \"乙\"}\n");
  ASSERT_EQ(g.run.exit_code, 0) << g.run.err;
  EXPECT_EQ(std::filesystem::last_write_time(keys), old) << "a text edit must not recompile the code naming keys";
  EXPECT_NE(g.table.find("\"y\""), std::string::npos);
  ASSERT_EQ(generate(t, "a.b: {en: \"y\", zh: \"乙\"}\na.c: {en: \"z\", zh: \"丙\"}\n").run.exit_code, 0);
  EXPECT_NE(std::filesystem::last_write_time(keys), old);
}

TEST(UiWordsGenerator, RefusesACatalogueThatBreaksTheRules) {
  const struct {
    const char* yaml;
    const char* says;
  } cases[] = {
      {"a.b: {en: \"x\"}\n", "key 'a.b': no zh text (every word needs both en and zh)"},
      {"a.b: {en: \"x\", zh: \"\"}\n", "no zh text"},
      {"a.b: {zh: \"x\"}\n", "no en text"},
      {"a.b: {en: \"wait {peer}\", zh: \"等待 {rank}\"}\n", "en and zh differ in placeholders (en {peer}, zh {rank})"},
      {"a.b: {en: \"wait {peer}\", zh: \"等待\"}\n", "(en {peer}, zh none)"},
      {"a.b: {en: \"x\", zh: \"甲\"}\nc.d: {en: \"y\", zh: \"乙\"}\na.b: {en: \"z\", zh: \"丙\"}\n",
       "ui.yaml:3: key 'a.b': defined twice (first on line 1)"},
      {"a.b: {en: \"{0} waited\", zh: \"{0} 等待\"}\n", "has no name (placeholders are named"},
      {"a.b: {en: \"{} waited\", zh: \"{} 等待\"}\n", "has no name"},
      {"a.b: {en: \"a { b\", zh: \"甲\"}\n", "en: an unclosed '{'"},
      {"a.b: {en: \"a } b\", zh: \"甲\"}\n", "en: a lone '}'"},
      {"a.b_c: {en: \"x\", zh: \"甲\"}\na_b.c: {en: \"y\", zh: \"乙\"}\n", "makes the same C++ name ui::Key::a_b_c as 'a.b_c'"},
      {"root: {en: \"x\", zh: \"甲\"}\n", "not a key (dotted lowercase words"},
      {"a.B: {en: \"x\", zh: \"甲\"}\n", "not a key"},
      {"a.b: {en: \"x\", zh: \"甲\", fr: \"y\"}\n", "unknown field 'fr' (only en and zh)"},
      {"a.b: \"x\"\n", "expected {en: ..., zh: ...}"},
      {"- a\n", "expected a map of keys"},
      {"a.b: {en: \"x\", zh: [\n", "ui.yaml"},
  };
  for (const auto& c : cases) {
    testing::TempDir t;
    const auto g = generate(t, c.yaml);
    EXPECT_EQ(g.run.exit_code, 1) << c.yaml;
    EXPECT_NE(g.run.err.find(c.says), std::string::npos) << c.yaml << "\n" << g.run.err;
    EXPECT_TRUE(g.keys.empty()) << "nothing is written for a broken catalogue: " << c.yaml;
  }
}

}  // namespace
}  // namespace npu_doctor
