// Every finding id the hccl, net and isolate code raises exists in the built-in knowledge
// base as an analysis entry with English and Chinese texts.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using npu_doctor::testing::builtin_kb;
using npu_doctor::testing::read_file;

std::set<std::string> ids_in_sources() {
  const std::filesystem::path src = std::filesystem::path(NPU_DOCTOR_KB_DIR).parent_path() / "src";
  const std::regex id(R"re("((?:hccl-config|net|isolate)\.[a-z0-9-]+)")re");
  std::set<std::string> out;
  for (const char* dir : {"analyzers/hccl", "net", "isolate"}) {
    for (const auto& f : std::filesystem::directory_iterator(src / dir)) {
      const std::string text = read_file(f.path());
      for (std::sregex_iterator it(text.begin(), text.end(), id), end; it != end; ++it) out.insert((*it)[1].str());
    }
  }
  return out;
}

TEST(HcclKnowledgeBase, EveryRaisedIdIsAnAnalysisEntryInBothLanguages) {
  const auto ids = ids_in_sources();
  EXPECT_GE(ids.size(), 40u);
  for (const auto& id : ids) {
    const Entry* e = builtin_kb().find_id(id);
    ASSERT_NE(e, nullptr) << id;
    EXPECT_FALSE(e->matches_logs) << id;
    EXPECT_FALSE(e->title.zh.empty()) << id;
    EXPECT_FALSE(e->cause.zh.empty()) << id;
    ASSERT_FALSE(e->remedies.empty()) << id;
    for (const auto& r : e->remedies) EXPECT_FALSE(r.zh.empty()) << id;
  }
}

TEST(HcclKnowledgeBase, EveryEntryOfTheFileIsRaisedSomewhere) {
  const auto ids = ids_in_sources();
  for (const auto& e : builtin_kb().entries()) {
    if (e.source.file.find("hccl_config.yaml") == std::string::npos) continue;
    EXPECT_TRUE(ids.count(e.id)) << e.id << " is never raised";
  }
}

}  // namespace
}  // namespace npu_doctor
