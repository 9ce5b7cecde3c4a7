// The site's knowledge-base overrides directory (/etc/npu-doctor/kb.d by default; the
// tests point NPU_DOCTOR_SYSTEM_KB_DIR at a temporary one): read by every command without
// --kb, its entries replace built-in ones, and --kb / NPU_DOCTOR_KB_PATH override it.
#include <gtest/gtest.h>

#include "npu_doctor/install_paths.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

std::string override_yaml(const std::string& title) {
  return "schema: npu-doctor/kb/v1\nfamily: acl\ndefaults:\n  namespace: acl\n  layer: runtime\nentries:\n"
         "  - id: acl.507015\n    code: \"507015\"\n    category: aicore_exception\n"
         "    title: {en: \"" + title + "\", zh: \"" + title + "\"}\n"
         "    cause: {en: \"Site text.\", zh: \"Site text.\"}\n"
         "    remedies: [{en: \"Call the site hotline.\", zh: \"Call the site hotline.\"}]\n";
}

TEST(InstallSiteKnowledgeBase, AFileThereOverridesABuiltInEntry) {
  testing::TempDir site;
  site.write("local.yaml", override_yaml("Site AI Core text"));
  const auto r = run_npu_doctor({"explain", "507015"}, "", {"NPU_DOCTOR_SYSTEM_KB_DIR=" + site.path().string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Site AI Core text"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Call the site hotline."), std::string::npos) << r.out;

  const auto builtin = run_npu_doctor({"explain", "507015"}, "", {"NPU_DOCTOR_SYSTEM_KB_DIR="});
  EXPECT_EQ(builtin.out.find("Site AI Core text"), std::string::npos) << "empty variable: no site directory";
  EXPECT_NE(builtin.out.find("AI Core execution failed"), std::string::npos) << builtin.out;
}

TEST(InstallSiteKnowledgeBase, KbOptionAndPathOverrideTheSiteDirectory) {
  testing::TempDir site, user;
  site.write("local.yaml", override_yaml("Site AI Core text"));
  user.write("mine.yaml", override_yaml("User AI Core text"));
  const std::string env = "NPU_DOCTOR_SYSTEM_KB_DIR=" + site.path().string();
  auto r = run_npu_doctor({"explain", "507015", "--kb", user.path().string()}, "", {env});
  EXPECT_NE(r.out.find("User AI Core text"), std::string::npos) << r.out << r.err;
  r = run_npu_doctor({"explain", "507015"}, "", {env, "NPU_DOCTOR_KB_PATH=" + user.path().string()});
  EXPECT_NE(r.out.find("User AI Core text"), std::string::npos) << r.out << r.err;
}

TEST(InstallSiteKnowledgeBase, MissingOrEmptyDirectoryIsQuietAndBrokenFilesAreReported) {
  testing::TempDir site;
  auto r = run_npu_doctor({"explain", "507015"}, "", {"NPU_DOCTOR_SYSTEM_KB_DIR=" + (site.path() / "none").string()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  r = run_npu_doctor({"explain", "507015"}, "", {"NPU_DOCTOR_SYSTEM_KB_DIR=" + site.path().string()});
  EXPECT_EQ(r.err, "");
  site.write("broken.yaml", "schema: npu-doctor/kb/v1\nfamily: x\nentries: [ {id: \n");
  r = run_npu_doctor({"explain", "507015"}, "", {"NPU_DOCTOR_SYSTEM_KB_DIR=" + site.path().string()});
  EXPECT_EQ(r.exit_code, 0) << "a broken site file does not stop the built-in knowledge base";
  EXPECT_NE(r.err.find("broken.yaml"), std::string::npos) << r.err;
}

TEST(InstallSiteKnowledgeBase, DefaultIsConfiguredAtBuildTime) {
  // The build's default; the package tests check the installed directory itself.
  EXPECT_EQ(std::string(kSystemKbDir), NPU_DOCTOR_EXPECTED_SYSTEM_KB_DIR);
}

}  // namespace
}  // namespace npu_doctor
