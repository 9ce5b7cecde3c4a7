// Entries raised by name are named through generated constants (npu_doctor/kb_ids.hpp,
// src/kbc/entry_ids.cpp): the constants are the knowledge base's ids, a knowledge base that
// lacks one throws MissingEntry (reported as an internal error), and the generator refuses
// ids that would make the same C++ name or none.
#include <gtest/gtest.h>

#include "core/finding_set.hpp"
#include "npu_doctor/kb_ids.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

TEST(EntryIds, EveryConstantNamesABuiltInEntry) {
  const KnowledgeBase& kb = testing::builtin_kb();
  for (const EntryId id : {kb_id::live::job_hung, kb_id::net::hccl_test_no_result, kb_id::ecode::EZ9999,
                           kb_id::pta::ERR00100, kb_id::hccl_config::ranktable_not_json}) {
    EXPECT_EQ(kb.entry(id).id, id.str());
  }
}

TEST(EntryIds, AKnowledgeBaseWithoutTheEntryThrowsNamingIt) {
  const KnowledgeBase empty;
  try {
    (void)empty.entry(kb_id::live::job_hung);
    FAIL() << "no exception";
  } catch (const MissingEntry& e) {
    EXPECT_NE(std::string(e.what()).find("'live.job-hung' is missing"), std::string::npos) << e.what();
  }
  FindingSet set(empty);
  EXPECT_THROW(set.add(kb_id::live::job_hung, Evidence{}), MissingEntry);
}

TEST(EntryIds, TheSinkKeepsOneFindingPerEntry) {
  FindingSet set(testing::builtin_kb(), 2);
  for (int i = 0; i < 3; ++i) set.add(kb_id::net::hccl_test_no_result, evidence_at("a.txt", 1, "x"));
  set.add(kb_id::net::hccl_test_check_failed, evidence_at("a.txt", 2, "y"));
  ASSERT_EQ(set.findings().size(), 2u);
  EXPECT_EQ(set.findings()[0].count, 3u);
  EXPECT_EQ(set.findings()[0].evidence.size(), 2u) << "evidence is capped, the count is not";
  EXPECT_TRUE(set.has(kb_id::net::hccl_test_check_failed));
  EXPECT_FALSE(set.has(kb_id::net::roce_link_down));
}

TEST(EntryIds, TheGeneratorMapsIdsToNamesAndRefusesClashes) {
  testing::TempDir t;
  const auto good = t.write("good.yaml",
                            "entries:\n  - id: net.a-b\n  - id: x.default\n  - id: y.1st\n  - id: ecode.EZ9999\n");
  const auto header = t.path() / "ids.hpp";
  const auto stamp = t.path() / "stamp";
  auto r = testing::run_program(NPU_DOCTOR_KB_IDS_BINARY, {header.string(), stamp.string(), good.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = testing::read_file(header);
  EXPECT_NE(text.find("namespace net {\ninline constexpr EntryId a_b{\"net.a-b\"};"), std::string::npos) << text;
  EXPECT_NE(text.find("EntryId default_{\"x.default\"}"), std::string::npos) << "a keyword gets a trailing _";
  EXPECT_NE(text.find("EntryId n1st{\"y.1st\"}"), std::string::npos) << "a leading digit gets an n";
  EXPECT_NE(text.find("EntryId EZ9999{\"ecode.EZ9999\"}"), std::string::npos);

  const auto clash = t.write("clash.yaml", "entries:\n  - id: net.a-b\n  - id: net.a.b\n");
  r = testing::run_program(NPU_DOCTOR_KB_IDS_BINARY, {header.string(), stamp.string(), clash.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("make the same C++ name kb_id::net::a_b"), std::string::npos) << r.err;

  const auto odd = t.write("odd.yaml", "entries:\n  - id: net.a b\n");
  r = testing::run_program(NPU_DOCTOR_KB_IDS_BINARY, {header.string(), stamp.string(), odd.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("makes no C++ name"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace npu_doctor
