// Catalogue entries (docs/kb-messages.md): formats become patterns, error-level-only
// recognition, provenance, category texts, and precedence below hand-written knowledge.
#include <gtest/gtest.h>

#include "kb_matcher.hpp"
#include "kb_snapshot.hpp"
#include "npu_doctor/catalogue.hpp"
#include "scan_plan.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

const char* kCatalogue = R"(schema: npu-doctor/kb/v1
family: src-x
description: test catalogue
source: {component: X, repo: example/x, commit: 0123456789abcdef0123456789abcdef01234567, formats_found: 5, skipped: {too_generic: 2}}
defaults: {origin: source, layer: hccl, level: error, category: communication}
entries:
  - id: src-x.notify
    format: '[%s]notify wait timeout, notify id[%u]'
    title: {en: notify timeout, zh: notify 超时}
    references: ['https://github.com/example/x/blob/0123456789abcdef0123456789abcdef01234567/a.cc#L1']
    samples: {match: ['[ERROR] HCCL(1,python):2025-01-01-00:00:00.000.000 [a.cc:1]2 [W]notify wait timeout, notify id[3]']}
  - id: src-x.wait
    format: 'wait timeout, id[%u]'
    role: symptom
    title: {en: wait, zh: wait}
    references: ['https://github.com/example/x/blob/0123456789abcdef0123456789abcdef01234567/a.cc#L2']
    samples: {match: ['[ERROR] HCCL(1,python):x wait timeout, id[3]']}
  - id: src-x.py
    format: 'Unsupported dtype {} for {}'
    format_style: python
    level: any
    raised_as: [ValueError, TypeError]
    category: compile_op_unsupported
    title: {en: dtype, zh: dtype}
    references: ['https://github.com/example/x/blob/0123456789abcdef0123456789abcdef01234567/a.py#L3']
    samples: {match: ['ValueError: Unsupported dtype bf16 for npu']}
)";

const char* kCurated = R"(schema: npu-doctor/kb/v1
family: cur
defaults: {layer: hccl, category: communication}
entries:
  - id: cur.notify
    match: ['notify wait timeout']
    symptom_of: [any]
    title: {en: n, zh: n}
    cause: {en: n, zh: n}
    remedies: [{en: n, zh: n}]
    samples: {match: ['notify wait timeout']}
)";

const char* kCategories = R"(schema: npu-doctor/kb/v1
family: category
defaults: {layer: system, matches_logs: false, severity: info, role: hint}
entries:
  - id: category.communication
    category: communication
    title: {en: comm, zh: comm}
    cause: {en: general communication cause, zh: 通信}
    remedies: [{en: check the network, zh: 检查网络}]
)";

std::vector<std::string> ids(const KbMatcher& m, const std::string& line) {
  std::vector<std::string> out;
  for (const auto& h : m.match_line(line)) out.push_back(h.entry->id);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(KbCatalogue, FormatsLoadAsPatternsWithProvenance) {
  std::vector<KbProblem> problems;
  const KnowledgeBase kb = testing::kb_from_yaml({kCatalogue, kCategories}, problems);
  for (const auto& p : problems) ADD_FAILURE() << p.file << ":" << p.line << " " << p.message;
  const Entry* e = kb.find_id("src-x.notify");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->origin, Origin::source);
  EXPECT_EQ(e->level, LevelRequirement::error);
  EXPECT_EQ(e->format, "[%s]notify wait timeout, notify id[%u]");
  ASSERT_EQ(e->patterns.size(), 1u);
  // No cause or remedies of its own: its category's.
  EXPECT_EQ(e->cause_text().en, "general communication cause");
  ASSERT_EQ(e->remedy_texts().size(), 1u);
  ASSERT_EQ(kb.sources().size(), 1u);
  EXPECT_EQ(kb.sources()[0].component, "X");
  EXPECT_EQ(kb.sources()[0].formats_found, 5);
  ASSERT_EQ(kb.sources()[0].skipped.size(), 1u);
}

TEST(KbCatalogue, ErrorLevelEntriesNeedAnErrorLevelLine) {
  std::vector<KbProblem> problems;
  const KnowledgeBase kb = testing::kb_from_yaml({kCatalogue}, problems);
  auto m = KbMatcher::build(kb, problems);
  EXPECT_EQ(ids(*m, "[ERROR] HCCL(1,python):x [W]notify wait timeout, notify id[3]"),
            (std::vector<std::string>{"src-x.notify"}));
  EXPECT_TRUE(ids(*m, "[INFO] HCCL(1,python):x [W]notify wait timeout, notify id[3]").empty());
  EXPECT_TRUE(ids(*m, "[W]notify wait timeout, notify id[3]").empty());
  // Raised as an exception: the class name is part of the pattern, any level.
  EXPECT_EQ(ids(*m, "[rank0]: ValueError: Unsupported dtype bf16 for npu"), (std::vector<std::string>{"src-x.py"}));
  EXPECT_EQ(ids(*m, "TypeError: Unsupported dtype x for y"), (std::vector<std::string>{"src-x.py"}));
  EXPECT_TRUE(ids(*m, "Unsupported dtype bf16 for npu").empty());
  // A ValueError raised in a pydantic validator, as pydantic's ValidationError prints it.
  EXPECT_EQ(ids(*m, "  Value error, Unsupported dtype bf16 for npu [type=value_error, input_value=ArgsKwargs(())]"),
            (std::vector<std::string>{"src-x.py"}));
  EXPECT_TRUE(ids(*m, "  Assertion failed, Unsupported dtype bf16 for npu [type=assertion_error]").empty());
}

TEST(KbCatalogue, AnAssertionRaisedInAPydanticValidatorReadsAsPydanticPrintsIt) {
  const char* yaml = R"(schema: npu-doctor/kb/v1
family: src-y
description: test catalogue
source: {component: Y, repo: example/y, commit: 0123456789abcdef0123456789abcdef01234567, formats_found: 1}
defaults: {origin: source, layer: framework, category: other}
entries:
  - id: src-y.sizes
    format: 'capture sizes {} hold no multiple of tp_size {}'
    format_style: python
    raised_as: [AssertionError]
    title: {en: sizes, zh: sizes}
    references: ['https://github.com/example/y/blob/0123456789abcdef0123456789abcdef01234567/c.py#L1']
    samples: {match: ['AssertionError: capture sizes [3, 6] hold no multiple of tp_size 8']}
)";
  std::vector<KbProblem> problems;
  const KnowledgeBase kb = testing::kb_from_yaml({yaml}, problems);
  for (const auto& p : problems) ADD_FAILURE() << p.file << ":" << p.line << " " << p.message;
  auto m = KbMatcher::build(kb, problems);
  EXPECT_EQ(ids(*m, "AssertionError: capture sizes [3, 6] hold no multiple of tp_size 8"),
            (std::vector<std::string>{"src-y.sizes"}));
  EXPECT_EQ(ids(*m, "  Assertion failed, capture sizes [3, 6] hold no multiple of tp_size 8 [type=assertion_error]"),
            (std::vector<std::string>{"src-y.sizes"}));
  // Pydantic's form of a ValueError is not an AssertionError's.
  EXPECT_TRUE(ids(*m, "  Value error, capture sizes [3, 6] hold no multiple of tp_size 8 [type=value_error]").empty());
}

TEST(KbCatalogue, OneCatalogueHitPerLineAndNoneWhereCuratedKnowledgeClaimsIt) {
  std::vector<KbProblem> problems;
  const KnowledgeBase kb = testing::kb_from_yaml({kCatalogue}, problems);
  auto m = KbMatcher::build(kb, problems);
  // Both formats match; the one with more literal text stands for the line.
  EXPECT_EQ(ids(*m, "[ERROR] HCCL(1,python):x [W]notify wait timeout, notify id[3]"),
            (std::vector<std::string>{"src-x.notify"}));
  const KnowledgeBase both = testing::kb_from_yaml({kCatalogue, kCurated}, problems);
  auto m2 = KbMatcher::build(both, problems);
  EXPECT_EQ(ids(*m2, "[ERROR] HCCL(1,python):x [W]notify wait timeout, notify id[3]"),
            (std::vector<std::string>{"cur.notify"}));
  const auto hits = m2->match_line("[ERROR] HCCL(1,python):x wait timeout, id[3]");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].specificity, Specificity::source_message);
}

// "The most literal text" is measured in each format's own style, without the blanks around
// its placeholders, as the catalogue scripts measure it when they drop a shadowed twin: a
// Python "{}" is no literal text (read as printf it counted two characters and won here).
TEST(KbCatalogue, TheMostLiteralFormatIsMeasuredInItsOwnStyle) {
  const char* yaml = R"(schema: npu-doctor/kb/v1
family: src-w
description: test catalogue
source: {component: W, repo: example/w, commit: 0123456789abcdef0123456789abcdef01234567, formats_found: 2}
defaults: {origin: source, layer: framework}
entries:
  - id: src-w.py
    format: 'fixture {} pool {} drained'
    format_style: python
    category: other
    title: {en: py, zh: py}
    references: ['https://github.com/example/w/blob/0123456789abcdef0123456789abcdef01234567/w.py#L1']
    samples: {match: ['fixture a pool b drained']}
  - id: src-w.c
    format: 'fixture %s pool %s drained now'
    category: memory
    title: {en: c, zh: c}
    references: ['https://github.com/example/w/blob/0123456789abcdef0123456789abcdef01234567/w.cc#L1']
    samples: {match: ['fixture a pool b drained now']}
)";
  std::vector<KbProblem> problems;
  const KnowledgeBase kb = testing::kb_from_yaml({yaml}, problems);
  for (const auto& p : problems) ADD_FAILURE() << p.file << ":" << p.line << " " << p.message;
  EXPECT_EQ(literal_weight(*kb.find_id("src-w.py")), 18u);  // "fixture" "pool" "drained"
  EXPECT_EQ(literal_weight(*kb.find_id("src-w.c")), 22u);   // ... "drained now"
  auto m = KbMatcher::build(kb, problems);
  EXPECT_EQ(ids(*m, "fixture a pool b drained now"), (std::vector<std::string>{"src-w.c"}));
  EXPECT_EQ(ids(*m, "fixture a pool b drained"), (std::vector<std::string>{"src-w.py"}));
  // The snapshot keeps the style, so a snapshot's base measures the same.
  const auto back = read_kb_snapshot_copy(write_kb_snapshot(kb));
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->find_id("src-w.py")->python_format);
  EXPECT_FALSE(back->find_id("src-w.c")->python_format);
  EXPECT_EQ(literal_weight(*back->find_id("src-w.py")), 18u);
}

TEST(KbCatalogue, BadCatalogueEntriesAreRefusedWithTheReason) {
  const std::string head = R"(schema: npu-doctor/kb/v1
family: src-y
defaults: {origin: source, layer: hccl, category: other}
entries:
)";
  // As a shipped file (kb/messages/): users' files are not held to the provenance rules.
  auto problems_of = [&](const std::string& entry) {
    std::vector<KbProblem> problems;
    parse_kb_file("kb/messages/y.yaml", head + entry, false, problems);
    std::string all;
    for (const auto& p : problems) all += p.message + "\n";
    return all;
  };
  const std::string ref = "    references: ['https://github.com/e/y/blob/0123456789abcdef0123456789abcdef01234567/a.cc#L1']\n";
  EXPECT_NE(problems_of("  - id: src-y.a\n    format: '%s: %d'\n    title: {en: a, zh: a}\n" + ref +
                        "    samples: {match: ['x: 1']}\n")
                .find("literal"),
            std::string::npos);
  EXPECT_NE(problems_of("  - id: src-y.b\n    format: 'load failed %d'\n    title: {en: a, zh: a}\n"
                        "    references: ['https://github.com/e/y/blob/main/a.cc']\n    samples: {match: ['load failed 1']}\n")
                .find("pinned"),
            std::string::npos);
  EXPECT_NE(problems_of("  - id: src-y.c\n    format: 'load failed %d'\n    match: ['load']\n    title: {en: a, zh: a}\n" +
                        ref + "    samples: {match: ['load failed 1']}\n")
                .find("both format and match"),
            std::string::npos);
  // Hand-written entries still need a cause and remedies.
  EXPECT_NE(problems_of("  - id: src-y.d\n    origin: curated\n    match: ['x']\n    title: {en: a, zh: a}\n"
                        "    samples: {match: ['x']}\n")
                .find("has no cause"),
            std::string::npos);
}

TEST(KbCatalogue, TheSnapshotKeepsCatalogueFieldsAndTheGate) {
  std::vector<KbProblem> problems;
  KnowledgeBase kb = testing::kb_from_yaml({kCatalogue, kCategories}, problems);
  ScanGate gate;
  gate.literals = {"fail", "timeout"};
  gate.error_markers = true;
  kb.set_gate(gate);
  const auto back = read_kb_snapshot_copy(write_kb_snapshot(kb));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->gate(), gate);
  const Entry* e = back->find_id("src-x.py");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->origin, Origin::source);
  EXPECT_EQ(e->level, LevelRequirement::any);
  EXPECT_EQ(e->format, "Unsupported dtype {} for {}");
  ASSERT_EQ(back->sources().size(), 1u);
  EXPECT_EQ(back->sources()[0].commit, "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(back->find_id("src-x.notify")->cause_text().en, "general communication cause");
}

}  // namespace
}  // namespace npu_doctor

namespace npu_doctor {
namespace {

// The test catalogue with the curated entry and the category texts, planned against a gate
// of "timeout" and the error markers, as the knowledge-base compiler plans the shipped base.
KnowledgeBase planned_catalogue() {
  std::vector<KbProblem> problems;
  KnowledgeBase yaml = testing::kb_from_yaml({kCatalogue, kCategories, kCurated}, problems);
  EXPECT_TRUE(problems.empty());
  auto parts = std::move(yaml).release();
  ScanGate gate;
  gate.literals = {"timeout"};
  gate.error_markers = true;
  plan_patterns(parts.entries, parts.extractors, gate, false);
  KnowledgeBase planned(std::move(parts.entries), std::move(parts.extractors), "v", std::move(parts.sources));
  planned.set_gate(gate);
  return planned;
}

// A snapshot keeps planned catalogue entries in its catalogue section, read in place: not
// decoded at load, matched through their records, decoded when a line matches them.
TEST(KbCatalogue, ASnapshotsCatalogueIsReadInPlaceAndDecodedWhenMatched) {
  std::vector<KbProblem> problems;
  const KnowledgeBase planned = planned_catalogue();
  const auto kb = read_kb_snapshot_copy(write_kb_snapshot(planned));
  ASSERT_TRUE(kb);
  ASSERT_NE(kb->catalogue(), nullptr);
  EXPECT_EQ(kb->catalogue()->size(), 3u);          // the three src-x entries
  EXPECT_EQ(kb->entries().size(), 2u);             // the curated one and the category texts
  EXPECT_EQ(kb->entry_count(), 5u);
  const Entry* e = kb->find_id("src-x.py");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->format, "Unsupported dtype {} for {}");
  EXPECT_EQ(kb->find_id("src-x.nope"), nullptr);
  auto m = KbMatcher::build(*kb, problems);
  ASSERT_TRUE(problems.empty());
  const auto hits = m->match_line("[ERROR] HCCL(1,python):x wait timeout, id[3]");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].entry->id, "src-x.wait");
  EXPECT_EQ(hits[0].entry->cause_text().en, "general communication cause");  // category texts reach decoded entries
  std::size_t visited = 0;
  kb->for_each_entry([&](const Entry&) { ++visited; });
  EXPECT_EQ(visited, 5u);
  // Damage: a cut snapshot is refused.
  const std::string bytes = write_kb_snapshot(planned);
  EXPECT_FALSE(read_kb_snapshot_copy(bytes.substr(0, bytes.size() - 20)));
}

// A catalogue read in place from a read-only file mapping (how the binary's own snapshot and
// NPU_DOCTOR_KB_SNAPSHOT's are read) gives its pages back and reads them again: kb lint's
// one pass (programs without machine code, let go with the entries) finds the same after.
TEST(KbCatalogue, AMappedCatalogueReadsTheSameAfterItsPagesAreGivenBack) {
  std::vector<KbProblem> problems;
  const KnowledgeBase planned = planned_catalogue();
  testing::TempDir dir;
  const testing::ReadOnlyMapping mapped(dir.write("kb.snapshot", write_kb_snapshot(planned)));
  ASSERT_FALSE(mapped.bytes().empty());
  const auto kb = read_kb_snapshot(mapped.bytes(), nullptr, Catalogue::Bytes::read_only_mapping);
  ASSERT_TRUE(kb);
  for (const auto use : {KbMatcher::ProgramUse::repeated, KbMatcher::ProgramUse::one_pass}) {
    auto m = KbMatcher::build(*kb, problems, {}, use);
    ASSERT_TRUE(problems.empty());
    for (int round = 0; round < 2; ++round) {
      const auto hits = m->match_line("[ERROR] HCCL(1,python):x wait timeout, id[3]");
      ASSERT_EQ(hits.size(), 1u) << round;
      EXPECT_EQ(hits[0].entry->id, "src-x.wait");
      EXPECT_EQ(hits[0].entry->format, "wait timeout, id[%u]");
      m->forget_made();  // lets go of the entry and gives the catalogue's pages back
    }
    std::string miss;
    EXPECT_EQ(m->engine_self_test(&miss, true), 0u) << miss;
  }
}

}  // namespace
}  // namespace npu_doctor
