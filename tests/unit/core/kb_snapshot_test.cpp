#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "kb_snapshot.hpp"
#include "pattern_set.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

TEST(KbSnapshot, RoundTripKeepsEveryField) {
  const KnowledgeBase& kb = testing::builtin_kb();
  const auto again = read_kb_snapshot_copy(write_kb_snapshot(kb));
  ASSERT_TRUE(again);
  ASSERT_EQ(again->entries().size(), kb.entries().size());
  ASSERT_EQ(again->extractors().size(), kb.extractors().size());
  EXPECT_EQ(again->version(), kb.version());
  for (std::size_t i = 0; i < kb.entries().size(); ++i) {
    const Entry& a = kb.entries()[i];
    const Entry& b = again->entries()[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.codes, b.codes);
    EXPECT_EQ(a.category, b.category);
    EXPECT_EQ(a.role, b.role);
    EXPECT_EQ(a.severity, b.severity);
    EXPECT_EQ(a.symptom_of, b.symptom_of);
    EXPECT_EQ(a.priority, b.priority);
    EXPECT_EQ(a.any_level, b.any_level);
    EXPECT_EQ(a.passes_run, b.passes_run);
    EXPECT_EQ(a.fails_run, b.fails_run);
    EXPECT_EQ(a.recovers, b.recovers);
    EXPECT_EQ(a.title.zh, b.title.zh);
    EXPECT_EQ(a.remedies.size(), b.remedies.size());
    EXPECT_EQ(a.patterns.size(), b.patterns.size());
    EXPECT_EQ(a.seed.has_value(), b.seed.has_value());
    EXPECT_EQ(a.source.file, b.source.file);
    EXPECT_EQ(a.source.line, b.source.line);
    ASSERT_EQ(a.context.size(), b.context.size());
    for (std::size_t k = 0; k < a.context.size(); ++k) {
      EXPECT_EQ(a.context[k].near.regex, b.context[k].near.regex);
      EXPECT_EQ(a.context[k].means, b.context[k].means);
    }
    ASSERT_EQ(a.context_signal.size(), b.context_signal.size());
    if (!a.context_signal.empty()) {
      EXPECT_EQ(a.context_signal[0].regex, b.context_signal[0].regex);
    }
  }
  // The shipped signal is kept, and the rules that use it were given its words.
  const Entry* unsupported = again->find_id("op.configuration-not-supported");
  ASSERT_NE(unsupported, nullptr);
  ASSERT_EQ(unsupported->context_signal.size(), 1u);
  const Entry* tiling = again->find_id("acl.561002");
  ASSERT_NE(tiling, nullptr);
  ASSERT_FALSE(tiling->context.empty());
  EXPECT_EQ(tiling->context[0].near.regex, unsupported->context_signal[0].regex);
  // Both flags of the word they share survive (kb_snapshot.cpp).
  const Entry* passed = again->find_id("testrun.gtest-passed");
  ASSERT_NE(passed, nullptr);
  EXPECT_TRUE(passed->passes_run);
  EXPECT_FALSE(passed->fails_run);
  EXPECT_FALSE(passed->any_level);
  const Entry* failed = again->find_id("testrun.gtest-failed");
  ASSERT_NE(failed, nullptr);
  EXPECT_TRUE(failed->fails_run);
  EXPECT_FALSE(failed->passes_run);
  const Entry* seed = again->find_id("seed.hccl-error-timeout");
  ASSERT_NE(seed, nullptr);
  EXPECT_EQ(seed->ranges.at(0).lo, 200000);
  EXPECT_EQ(seed->seed->remedy, "raise HCCL_CONNECT_TIMEOUT / check the NIC's physical links");
}

// explain's load: texts stay in the snapshot, with_texts() gives one entry's, the same as
// a full decode; the categories' are there from the start (every entry may show them).
TEST(KbSnapshot, DeferredTextsAreDecodedForTheEntryAskedFor) {
  const KnowledgeBase& kb = testing::builtin_kb();
  const auto bytes = std::make_shared<const std::string>(write_kb_snapshot(kb));
  const auto full = read_kb_snapshot(*bytes, bytes);
  auto lazy = read_kb_snapshot(*bytes, bytes, Catalogue::Bytes::in_memory, EntryTexts::deferred);
  ASSERT_TRUE(full && lazy);
  ASSERT_EQ(lazy->entries().size(), full->entries().size());
  const Entry* oom = lazy->find_id("memory.device-oom");
  ASSERT_NE(oom, nullptr);
  EXPECT_TRUE(oom->title.en.empty());
  EXPECT_TRUE(oom->remedies.empty());
  const Entry* vector_core = lazy->find_id("acl.507035");  // what lookups and the matcher need is there
  ASSERT_NE(vector_core, nullptr);
  EXPECT_EQ(vector_core->codes, full->find_id("acl.507035")->codes);
  EXPECT_TRUE(vector_core->title.en.empty());
  const Entry* category = lazy->find_id(category_entry_id(Category::memory));
  ASSERT_NE(category, nullptr);
  EXPECT_FALSE(category->cause.en.empty());
  for (std::size_t i = 0; i < full->entries().size(); ++i) {
    const Entry& a = full->entries()[i];
    const Entry& b = lazy->with_texts(lazy->entries()[i]);
    ASSERT_EQ(a.id, b.id);
    EXPECT_EQ(a.title.en, b.title.en) << a.id;
    EXPECT_EQ(a.title.zh, b.title.zh) << a.id;
    EXPECT_EQ(a.cause_text().en, b.cause_text().en) << a.id;
    ASSERT_EQ(a.remedy_texts().size(), b.remedy_texts().size()) << a.id;
    for (std::size_t k = 0; k < a.remedy_texts().size(); ++k) EXPECT_EQ(a.remedy_texts()[k].zh, b.remedy_texts()[k].zh);
    EXPECT_EQ(a.references, b.references) << a.id;
    EXPECT_EQ(a.samples_match, b.samples_match) << a.id;
    EXPECT_EQ(a.samples_no_match, b.samples_no_match) << a.id;
    EXPECT_EQ(a.seed.has_value(), b.seed.has_value()) << a.id;
    EXPECT_EQ(&b, &lazy->with_texts(lazy->entries()[i])) << "decoded once";
  }
  // A full knowledge base, and an entry of the catalogue, are given back as they are.
  EXPECT_EQ(&full->with_texts(full->entries()[0]), &full->entries()[0]);
  ASSERT_NE(lazy->catalogue(), nullptr);
  const Entry& from_catalogue = lazy->catalogue()->entry(0);
  EXPECT_EQ(&lazy->with_texts(from_catalogue), &from_catalogue);
  EXPECT_FALSE(from_catalogue.title.en.empty());
  // Layering files over a deferred base first decodes every text.
  auto parts = std::move(*lazy).release();
  const auto it = std::find_if(parts.entries.begin(), parts.entries.end(), [](const Entry& e) { return e.id == "memory.device-oom"; });
  ASSERT_NE(it, parts.entries.end());
  EXPECT_FALSE(it->title.en.empty());
  EXPECT_FALSE(it->remedies.empty() && it->cause.en.empty());
}

TEST(KbSnapshot, DamagedSnapshotsAreRefused) {
  const std::string good = write_kb_snapshot(testing::builtin_kb());
  EXPECT_FALSE(read_kb_snapshot(good.substr(0, good.size() / 2)));
  EXPECT_FALSE(read_kb_snapshot(""));
  EXPECT_FALSE(read_kb_snapshot("NOT A SNAPSHOT"));
  std::string extended = good + "x";
  EXPECT_FALSE(read_kb_snapshot(extended));
}

TEST(PatternSetCache, StoresReusesAndSurvivesCorruption) {
  testing::TempDir dir;
  const std::string cache = (dir.path() / "cache").string();
  std::vector<PatternSet::Spec> specs = {{"BOOM", false}, {"bang (?<n>\\d+)", true}};
  PatternSet::CompileError error;
  auto first = PatternSet::compile(specs, error, cache);
  ASSERT_TRUE(first);
  EXPECT_FALSE(first->loaded_from_cache());
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(cache)) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);

  auto second = PatternSet::compile(specs, error, cache);
  ASSERT_TRUE(second);
  EXPECT_TRUE(second->loaded_from_cache());
  auto scratch = second->make_scratch();
  std::vector<std::size_t> hits;
  std::string err;
  second->scan("x BANG 7 BOOM\n", scratch, [&](std::size_t id, std::size_t) { hits.push_back(id); }, err);
  EXPECT_EQ(hits.size(), 2u);

  // Other patterns get another file; a damaged file is compiled again, not trusted.
  auto other = PatternSet::compile({{"OTHER", false}}, error, cache);
  ASSERT_TRUE(other);
  EXPECT_FALSE(other->loaded_from_cache());
  dir.write("cache/" + files[0].filename().string(), "garbage");
  auto third = PatternSet::compile(specs, error, cache);
  ASSERT_TRUE(third);
  EXPECT_FALSE(third->loaded_from_cache());
}

}  // namespace
}  // namespace npu_doctor
