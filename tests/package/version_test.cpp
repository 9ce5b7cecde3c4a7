// `npu-doctor --version`: the program, the built-in knowledge base (read from the
// snapshot header), the site directory, and the build's optional features.
#include <gtest/gtest.h>

#include <hs/hs.h>

#include <filesystem>

#include "kb_snapshot.hpp"
#include "build_info/build_info.hpp"
#include "npu_doctor/embedded_files.hpp"
#include "npu_doctor/version.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

TEST(VersionSnapshotSummary, AgreesWithTheFullSnapshotAndRefusesDamage) {
  ASSERT_FALSE(embedded_knowledge_base().empty());
  const std::string_view data = embedded_knowledge_base().front().content;
  const auto summary = read_kb_snapshot_summary(data);
  const auto full = read_kb_snapshot(data);
  ASSERT_TRUE(summary && full);
  EXPECT_EQ(summary->version, full->version());
  EXPECT_EQ(summary->entries, full->entry_count());
  EXPECT_GT(summary->entries, 500u);
  EXPECT_FALSE(read_kb_snapshot_summary(data.substr(0, 40)));
  EXPECT_FALSE(read_kb_snapshot_summary("not a snapshot"));
}

TEST(VersionFlag, PrintsProgramKnowledgeBaseAndFeatures) {
  const auto r = run_npu_doctor({"--version"}, "", {"NPU_DOCTOR_SYSTEM_KB_DIR="});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const KnowledgeBase& kb = testing::builtin_kb();
  EXPECT_TRUE(r.out.starts_with("npu-doctor " + std::string(kVersion) + "\n")) << r.out;
  EXPECT_NE(r.out.find("knowledge base: " + kb.version() + ", " + std::to_string(kb.entry_count()) + " entries built in"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("site knowledge base"), std::string::npos) << "NPU_DOCTOR_SYSTEM_KB_DIR empty: none";
  EXPECT_NE(r.out.find("compression: gzip bzip2 xz"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(libarchive 3."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::string(hs_version())), std::string::npos) << r.out;
  const bool mpi = std::filesystem::exists(std::filesystem::path(NPU_DOCTOR_BINARY).parent_path() / "npu-doctor-mpi");
  EXPECT_NE(r.out.find(mpi ? "mpi: yes" : "mpi: no"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.back(), '\n');
  EXPECT_EQ(r.out.find("\n\n"), std::string::npos);
}

TEST(VersionFlag, CountsTheSiteKnowledgeBaseFiles) {
  testing::TempDir d;
  d.write("a.yaml", "schema: npu-doctor/kb/v1\nfamily: a\nentries: []\n");
  d.write("b.yml", "schema: npu-doctor/kb/v1\nfamily: b\nentries: []\n");
  d.write("notes.txt", "not a knowledge-base file");
  const auto r = run_npu_doctor({"--version"}, "", {"NPU_DOCTOR_SYSTEM_KB_DIR=" + d.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("site knowledge base: " + d.path().string() + " (2 files)"), std::string::npos) << r.out;
  EXPECT_EQ(kb_files_in(d.path().string()).size(), 2u);
  EXPECT_TRUE(kb_files_in((d.path() / "missing").string()).empty());
}

TEST(VersionFlag, BuildInfoNamesTheEngine) {
  const BuildInfo b = build_info();
  EXPECT_TRUE(b.engine.starts_with("Hyperscan ") || b.engine.starts_with("Vectorscan ")) << b.engine;
  EXPECT_EQ(b.version, kVersion);
}

}  // namespace
}  // namespace npu_doctor
