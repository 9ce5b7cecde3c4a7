// The matcher image (kb_matcher_image.cpp): the tables npu-doctor-kbc computed for the
// built-in knowledge base are exactly what a run would compute, a run uses them only for
// the knowledge base they were made for, and a damaged image is refused or read safely.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "kb_matcher.hpp"
#include "kb_snapshot.hpp"
#include "line_index.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

// The built-in snapshot read again: a base of our own whose image we may take away.
KnowledgeBase builtin_snapshot() {
  const auto files = kb_snapshots_in_use();
  if (files.empty()) throw std::runtime_error("no built-in snapshot");
  auto kb = read_kb_snapshot(files.front().content);
  if (!kb) throw std::runtime_error("the built-in snapshot does not read");
  return std::move(*kb);
}

std::vector<std::string> fixture_lines() {
  std::vector<std::string> lines;
  for (const auto& log : testing::fixture_logs()) {
    std::ifstream in(log, std::ios::binary);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  return lines;
}

std::vector<std::pair<std::size_t, std::size_t>> candidates(const KbMatcher& m, std::string_view line) {
  std::vector<LineIndex::Hit> hits;
  std::vector<uint32_t> seen;
  m.index().candidates(line, hits, seen);
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (const auto& h : hits) out.emplace_back(h.pattern, h.position);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(MatcherImage, TheShippedImageIsWhatARunWouldComputeAndARunUsesIt) {
  const KnowledgeBase& shipped = testing::builtin_kb();
  ASSERT_FALSE(shipped.matcher_image().empty());
  std::vector<KbProblem> problems;
  const auto from_image = KbMatcher::build(shipped, problems);
  ASSERT_TRUE(problems.empty());
  EXPECT_TRUE(from_image->index_from_image());

  KnowledgeBase bare = builtin_snapshot();
  bare.set_matcher_image({}, nullptr);
  const auto computed = KbMatcher::build(bare, problems);
  ASSERT_TRUE(problems.empty());
  EXPECT_FALSE(computed->index_from_image());
  // Byte for byte: the fingerprint, the patterns outside the gate, the whole index.
  EXPECT_TRUE(computed->write_image() == shipped.matcher_image());
  EXPECT_EQ(from_image->ungated_count(), computed->ungated_count());
  EXPECT_EQ(from_image->unindexed_ungated(), computed->unindexed_ungated());
  EXPECT_EQ(from_image->pattern_count(), computed->pattern_count());

  const auto lines = fixture_lines();
  ASSERT_GT(lines.size(), 1000u);
  std::size_t with_candidates = 0;
  for (const auto& line : lines) {
    const auto a = candidates(*from_image, line);
    ASSERT_EQ(a, candidates(*computed, line)) << line;
    ASSERT_EQ(from_image->passes_gate(line), computed->passes_gate(line)) << line;
    if (!a.empty()) ++with_candidates;
  }
  EXPECT_GT(with_candidates, 100u);  // the comparison compared something
}

TEST(MatcherImage, AnImageMadeForOtherPatternsIsNotUsed) {
  KnowledgeBase kb = builtin_snapshot();
  std::string image(kb.matcher_image());
  ASSERT_GT(image.size(), 16u);
  image[8] = static_cast<char>(image[8] ^ 1);  // the fingerprint's first byte
  auto owned = std::make_shared<std::string>(image);
  kb.set_matcher_image(*owned, owned);
  std::vector<KbProblem> problems;
  const auto m = KbMatcher::build(kb, problems);
  EXPECT_FALSE(m->index_from_image());
  EXPECT_EQ(m->pattern_count(), KbMatcher::build(testing::builtin_kb(), problems)->pattern_count());
  EXPECT_FALSE(m->match_line("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB").empty());

  // Entries layered over the snapshot give it up.
  KnowledgeBase layered = builtin_snapshot();
  auto parts = std::move(layered).release();
  KnowledgeBase rebuilt(std::move(parts.entries), std::move(parts.extractors), "v", std::move(parts.sources));
  EXPECT_TRUE(rebuilt.matcher_image().empty());
}

// A small index and its image.
struct SmallImage {
  LineIndex index;
  std::string image;
  SmallImage() {
    const std::vector<std::string_view> keys_a = {"erro", "fail"}, keys_b = {"time", "out"};
    index.add(0, keys_a);
    index.add(1, keys_b);
    index.add(2, {});
    index.finish();
    image = index.write_image();
  }
};

TEST(MatcherImage, AnIndexReadFromItsImageFindsWhatTheBuiltOneFinds) {
  SmallImage built;
  const testing::AlignedCopy small(built.image);
  LineIndex read;
  ASSERT_TRUE(read.read_image(small.bytes, 3));
  EXPECT_FALSE(LineIndex().read_image(small.bytes, 2));  // more patterns than the base has
  EXPECT_EQ(read.size(), 3u);
  for (std::string_view line : {"an error here", "TIMEOUT after fail", "nothing", ""}) {
    std::vector<LineIndex::Hit> a, b;
    std::vector<uint32_t> seen;
    built.index.candidates(line, a, seen);
    read.candidates(line, b, seen);
    ASSERT_EQ(a.size(), b.size()) << line;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].pattern, b[i].pattern);
      EXPECT_EQ(a[i].position, b[i].position);
    }
  }
  // Refused: cut short, misaligned, another magic.
  LineIndex refused;
  EXPECT_FALSE(refused.read_image(small.bytes.substr(0, small.bytes.size() - 8), 3));
  auto shifted = std::make_unique<uint64_t[]>(small.bytes.size() / 8 + 2);
  char* at4 = static_cast<char*>(static_cast<void*>(shifted.get())) + 4;
  std::memcpy(at4, small.bytes.data(), small.bytes.size());
  EXPECT_FALSE(refused.read_image(std::string_view(at4, small.bytes.size()), 3));
  testing::AlignedCopy other(small.bytes);
  other.data()[0] = 'X';
  EXPECT_FALSE(refused.read_image(other.bytes, 3));
  EXPECT_EQ(refused.size(), 0u);
}

TEST(MatcherImage, ADamagedImageIsNeverReadOutOfBounds) {
  // Every byte of the header, the ids and the slots changed in turn: an image that is still
  // accepted is looked up without reading or writing out of bounds (ASan runs this too).
  const SmallImage small;
  const std::size_t tables_end = std::min<std::size_t>(small.image.size(), 1024);
  std::size_t accepted = 0;
  for (std::size_t at = 0; at < tables_end; ++at) {
    for (const int value : {0x00, 0x7F, 0xFF}) {
      testing::AlignedCopy copy(small.image);
      copy.data()[at] = static_cast<char>(value);
      LineIndex damaged;
      if (!damaged.read_image(copy.bytes, 1000)) continue;
      ++accepted;
      std::vector<LineIndex::Hit> hits;
      std::vector<uint32_t> seen;
      damaged.candidates("an error: TIMEOUT after fail, out of time", hits, seen);
      damaged.all_positions("error fail time out", hits);
      for (const auto& h : hits) ASSERT_LT(h.pattern, damaged.size());
    }
  }
  EXPECT_GT(accepted, 100u);  // most changes keep the layout: the lookups above ran
}

}  // namespace
}  // namespace npu_doctor
