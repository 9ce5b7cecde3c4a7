// Training the word fallback's model (liblinear): settings, labelled lines, determinism,
// the scorer against liblinear's own probabilities, and the embedded model being the one
// this knowledge base and these data files give.
#include <gtest/gtest.h>

#include <algorithm>

#include "npu_doctor/embedded_files.hpp"
#include "support/test_support.hpp"
#include "word_training.hpp"

namespace npu_doctor {
namespace {

std::vector<TrainingText> toy_texts(bool three_classes = true) {
  std::vector<TrainingText> t = {
      {Category::memory, "device out of memory, allocation failed", "a", true},
      {Category::memory, "not enough free memory on the device", "a", true},
      {Category::memory, "memory pool exhausted while allocating", "a", false},
      {Category::communication, "socket connection to the peer timed out", "b", true},
      {Category::communication, "the peer closed the socket connection", "b", true},
      {Category::communication, "link down between ranks, connection lost", "b", false},
  };
  if (three_classes) {
    t.push_back({Category::permission_device, "permission denied opening the device", "c", true});
    t.push_back({Category::permission_device, "operation not permitted on the device node", "c", true});
  }
  return t;
}

WordTrainingConfig toy_config() {
  WordTrainingConfig c;
  c.min_count = 1;
  c.features.hash_bits = 16;
  c.root_threshold = 0.6;
  c.report_threshold = 0.4;
  c.error_words = {"error", "failed"};
  return c;
}

TEST(WordTraining, SameTextsSameBytes) {
  const auto a = write_word_model(train_word_model(toy_texts(), toy_config(), "v"));
  const auto b = write_word_model(train_word_model(toy_texts(), toy_config(), "v"));
  EXPECT_EQ(a, b);
  auto other = toy_texts();
  other.push_back({Category::memory, "memory again", "a", true});
  EXPECT_NE(write_word_model(train_word_model(other, toy_config(), "v")), a);
}

TEST(WordTraining, TheScorerGivesLiblinearsProbabilities) {
  for (bool three : {true, false}) {  // liblinear keeps a single weight vector for two classes
    double deviation = 1;
    const auto m = train_word_model(toy_texts(three), toy_config(), "v", &deviation);
    EXPECT_EQ(m.classes.size(), three ? 3u : 2u);
    EXPECT_LT(deviation, 1e-5) << three;
    EXPECT_EQ(best_prediction(m, "free memory is not enough").category, Category::memory);
    EXPECT_EQ(best_prediction(m, "the socket to the peer timed out").category, Category::communication);
    EXPECT_EQ(m.error_words, toy_config().error_words);
    EXPECT_DOUBLE_EQ(m.root_threshold, 0.6);
  }
}

TEST(WordTraining, RareFeaturesAreLeftOut) {
  auto c = toy_config();
  const auto all = train_word_model(toy_texts(), c, "v");
  c.min_count = 2;
  const auto common = train_word_model(toy_texts(), c, "v");
  EXPECT_LT(common.buckets.size(), all.buckets.size());
  EXPECT_GT(common.buckets.size(), 0u);
}

TEST(WordTraining, SettingsAreCheckedWithReasons) {
  WordTrainingConfig c;
  std::string err;
  EXPECT_TRUE(parse_word_training_config(
      "schema: npu-doctor/word-classifier/v1\nfeatures: {hash_bits: 18, char_ngrams: [2, 4]}\n"
      "training: {C: 2.5, exclude_families: [words]}\nthresholds: {root_cause: 0.7, report: 0.5}\n"
      "candidates: {error_words: [error]}\n",
      c, err))
      << err;
  EXPECT_EQ(c.features.hash_bits, 18u);
  EXPECT_EQ(c.features.char_min, 2u);
  EXPECT_DOUBLE_EQ(c.c, 2.5);
  EXPECT_EQ(c.exclude_families, std::vector<std::string>{"words"});
  EXPECT_DOUBLE_EQ(c.root_threshold, 0.7);
  for (const char* bad : {"schema: other\n", "schema: npu-doctor/word-classifier/v1\nfeatures: {hash_bits: 40}\n",
                          "schema: npu-doctor/word-classifier/v1\nthresholds: {root_cause: 0.3, report: 0.5}\n",
                          "schema: npu-doctor/word-classifier/v1\ntraining: {C: -1}\n", "schema: [unclosed\n"}) {
    WordTrainingConfig x;
    err.clear();
    EXPECT_FALSE(parse_word_training_config(bad, x, err)) << bad;
    EXPECT_FALSE(err.empty()) << bad;
  }
}

TEST(WordTraining, LabelledLinesAreReadAndBadRowsNamed) {
  std::vector<std::string> problems;
  const auto t = texts_from_lines_tsv("lines.tsv",
                                      "# comment\n"
                                      "memory\tfree memory is low\tsource\r\n"
                                      "\n"
                                      "memroy\tx\tsource\n"
                                      "memory\tno source\n"
                                      "memory\t\tsource\n",
                                      problems);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].category, Category::memory);
  EXPECT_EQ(t[0].text, "free memory is low");
  EXPECT_EQ(t[0].family, "lines");
  EXPECT_TRUE(t[0].sample);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0], "lines.tsv:4: unknown category 'memroy'");
  EXPECT_NE(problems[1].find("lines.tsv:5:"), std::string::npos);
  EXPECT_NE(problems[2].find("lines.tsv:6:"), std::string::npos);
}

TEST(WordTraining, KnowledgeBaseTextsAreLabelledAndTheFallbacksOwnLeftOut) {
  std::vector<KbProblem> problems;
  const auto kb = testing::kb_from_yaml(
      {R"(schema: npu-doctor/kb/v1
family: m
entries:
  - {id: m.oom, match: ['OOM'], category: memory, layer: runtime, name: ACL_ERROR_RT_MEMORY_ALLOCATION, title: {en: Out of memory, zh: 内存不足}, cause: {en: Memory ran out, zh: 内存耗尽}, remedies: [{en: r, zh: r}], samples: {match: ['x OOM here']}}
)",
       R"(schema: npu-doctor/kb/v1
family: words
entries:
  - {id: words.memory, matches_logs: false, category: memory, layer: runtime, title: {en: t, zh: t}, cause: {en: c, zh: c}, remedies: [{en: r, zh: r}]}
)"},
      problems);
  WordTrainingConfig c;
  c.exclude_families = {"words"};
  const auto t = texts_from_kb(kb, c);
  std::vector<std::string> got;
  for (const auto& x : t) {
    EXPECT_EQ(x.category, Category::memory);
    EXPECT_EQ(x.family, "m");
    got.push_back((x.sample ? "S:" : "P:") + x.text);
  }
  EXPECT_EQ(got, (std::vector<std::string>{"S:x OOM here", "P:ACL_ERROR_RT_MEMORY_ALLOCATION", "P:Out of memory",
                                           "P:内存不足", "P:Memory ran out", "P:内存耗尽"}));
}

TEST(WordTraining, TheCatalogueIsLeftOutUnlessAsked) {
  std::vector<KbProblem> problems;
  const auto kb = testing::kb_from_yaml(
      {R"(schema: npu-doctor/kb/v1
family: m
entries:
  - {id: m.oom, match: ['OOM'], category: memory, layer: runtime, title: {en: Out of memory, zh: 内存不足}, cause: {en: Memory ran out, zh: 内存耗尽}, remedies: [{en: r, zh: r}], samples: {match: ['x OOM here']}}
  - {id: m.gen, origin: source, match: ['HBM gone'], category: memory, layer: runtime, title: {en: Generated title, zh: 生成的标题}, samples: {match: ['HBM gone now']}}
)"},
      problems);
  for (const auto& p : problems) ADD_FAILURE() << p.message;
  WordTrainingConfig c;
  auto texts_of = [&] {
    std::vector<std::string> got;
    for (const auto& x : texts_from_kb(kb, c)) got.push_back(x.text);
    return got;
  };
  auto has = [](const std::vector<std::string>& v, const std::string& t) { return std::find(v.begin(), v.end(), t) != v.end(); };
  EXPECT_FALSE(has(texts_of(), "HBM gone now"));
  EXPECT_TRUE(has(texts_of(), "x OOM here"));
  c.include_catalogue = true;
  EXPECT_TRUE(has(texts_of(), "HBM gone now"));
  EXPECT_TRUE(has(texts_of(), "Generated title"));
}

// The embedded model is what this knowledge base gives: trained from the same snapshot (so
// a change to kb/ retrains it: the build's dependency), the same settings and lines.
TEST(WordTraining, TheEmbeddedModelIsTrainedFromThisKnowledgeBase) {
  const auto files = embedded_word_model();
  ASSERT_EQ(files.size(), 1u);
  const auto model = read_word_model(files.front().content);
  ASSERT_TRUE(model.has_value());
  EXPECT_EQ(model->version, testing::builtin_kb().version());
  EXPECT_GE(model->classes.size(), 11u);
  EXPECT_GE(model->root_threshold, model->report_threshold);
}

}  // namespace
}  // namespace npu_doctor
