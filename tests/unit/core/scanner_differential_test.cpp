// The scanner against a slow reference: for realistic documents made of every
// knowledge-base sample line between filler lines, the one-pass multi-pattern scanner
// (any block size) must count exactly what PCRE2 alone finds line by line. This guards
// against engine bugs (some Vectorscan builds lose matches) and block-boundary bugs.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <unordered_map>

#include "scanner.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

std::vector<std::string> all_samples(const KnowledgeBase& kb) {
  std::vector<std::string> out;
  for (const auto& x : kb.extractors()) out.insert(out.end(), x.samples_match.begin(), x.samples_match.end());
  for (const auto& e : kb.entries()) {
    out.insert(out.end(), e.samples_match.begin(), e.samples_match.end());
    out.insert(out.end(), e.samples_no_match.begin(), e.samples_no_match.end());
  }
  return out;
}

std::string document(const std::vector<std::string>& samples, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> lines = samples;
  std::shuffle(lines.begin(), lines.end(), rng);
  const char* filler[] = {
      "[INFO] GE(2440326,python):2024-04-08-15:18:42.280.217 [ge_api.cc:208]2440326 GEInitializeImpl:GEInitialize start",
      "{'loss': 1.2345, 'grad_norm': 0.731, 'learning_rate': 1e-05, 'epoch': 0.50}",
      " 50%|#####     | 500/1000 [10:00<10:00,  1.20s/it]",
      "[DEBUG] RUNTIME(1,python):2024-01-01-00:00:00.000.000 [stream.cc:1]1 Launch kernel MatMul on stream 3 task 77",
      ""};
  std::string doc;
  for (const auto& l : lines) {
    for (int k = static_cast<int>(rng() % 4); k > 0; --k) doc += std::string(filler[rng() % 5]) + "\n";
    doc += l + (rng() % 7 == 0 ? "\r\n" : "\n");
  }
  return doc;
}

// Each distinct line is tried once (every pattern on every line is the slow part: the
// filler lines repeat, and both seeds shuffle the same lines).
using ReferenceMemo = std::unordered_map<std::string, std::vector<std::string>>;

std::map<std::string, uint64_t> reference_counts(const KbMatcher& m, const std::string& doc, ReferenceMemo& memo) {
  std::map<std::string, uint64_t> counts;
  std::size_t begin = 0;
  while (begin < doc.size()) {
    std::size_t end = doc.find('\n', begin);
    if (end == std::string::npos) end = doc.size();
    std::string_view line(doc.data() + begin, end - begin);
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    auto it = memo.find(std::string(line));
    if (it == memo.end()) {
      std::vector<std::string> keys;
      for (const auto& h : m.match_line_reference(line)) {
        Finding f;
        f.entry = h.entry;
        f.code = h.code;
        keys.push_back(finding_key(f));
      }
      it = memo.emplace(std::string(line), std::move(keys)).first;
    }
    for (const auto& k : it->second) ++counts[k];
    begin = end + 1;
  }
  return counts;
}

TEST(ScannerDifferential, OnePassScanEqualsPcreLineByLine) {
  const KnowledgeBase& kb = testing::builtin_kb();
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(kb, problems);
  ASSERT_TRUE(problems.empty());
  const auto samples = all_samples(kb);
  ASSERT_GT(samples.size(), 200u);
  ReferenceMemo memo;
  for (unsigned seed : {1u, 2u}) {
    const std::string doc = document(samples, seed);
    const auto want = reference_counts(*matcher, doc, memo);
    for (std::size_t block : {std::size_t{4096}, std::size_t{65536}, std::size_t{4} << 20}) {
      ScanOptions opts;
      opts.block_size = block;
      Scanner scanner(*matcher, opts);
      FindingCollector out(opts.max_evidence);
      testing::StringStream in(doc, 1000 + seed * 77);
      InputReport rep;
      scanner.scan(in, 0, rep, out);
      std::map<std::string, uint64_t> got;
      for (const auto& f : out.findings()) got[finding_key(f)] = f.count;
      for (const auto& [key, n] : want) EXPECT_EQ(got[key], n) << key << " seed " << seed << " block " << block;
      for (const auto& [key, n] : got) EXPECT_TRUE(want.count(key)) << "unexpected " << key << " block " << block;
    }
  }
}

TEST(ScannerDifferential, TheEngineSelfTestPassesOnTheShippedKnowledgeBase) {
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(testing::builtin_kb(), problems);
  std::string miss;
  EXPECT_EQ(matcher->engine_self_test(&miss), 0u) << miss;
}

}  // namespace
}  // namespace npu_doctor
