// Every finding id the hccl, net and isolate code raises (kb_id::... constants, so it exists)
// is an analysis entry with English and Chinese texts, and every entry of hccl_config.yaml
// is raised somewhere.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using npu_doctor::testing::builtin_kb;
using npu_doctor::testing::read_file;

// The constant's name of an id: "hccl-config.rank-not-set" -> "hccl_config::rank_not_set"
// (src/kbc/entry_ids.cpp; these families need none of its other rules).
std::string constant_of(std::string id) {
  const auto dot = id.find('.');
  for (char& c : id) {
    if (c == '-' || c == '.') c = '_';
  }
  return id.substr(0, dot) + "::" + id.substr(dot + 1);
}

// The ids whose constants the hccl, net and isolate sources name.
std::set<std::string> ids_in_sources() {
  const std::filesystem::path src = std::filesystem::path(NPU_DOCTOR_KB_DIR).parent_path() / "src";
  const std::regex constant(R"re(kb_id::((?:hccl_config|net|isolate)::[A-Za-z0-9_]+))re");
  std::set<std::string> named;
  for (const char* dir : {"hccl", "net", "isolate"}) {
    for (const auto& f : std::filesystem::directory_iterator(src / dir)) {
      const std::string text = read_file(f.path());
      for (std::sregex_iterator it(text.begin(), text.end(), constant), end; it != end; ++it) named.insert((*it)[1].str());
    }
  }
  std::set<std::string> out;
  for (const auto& e : builtin_kb().entries()) {
    if (named.count(constant_of(e.id)) != 0) out.insert(e.id);
  }
  EXPECT_EQ(out.size(), named.size()) << "a constant maps to no entry: constant_of() is out of step with the generator";
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
