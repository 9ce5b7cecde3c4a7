#include <gtest/gtest.h>

#include <cstdlib>

#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor {
namespace {

TEST(Vocabulary, ExactlyTheTwelveCategoriesRoundTrip) {
  const char* names[] = {"memory", "resource", "communication", "rank_config", "compile_op_unsupported",
                         "compile_shape", "compute_overflow_nan", "driver_firmware_env",
                         "install_version_mismatch", "permission_device", "aicore_exception", "other"};
  EXPECT_EQ(categories_in_priority_order().size(), 12u);
  for (const char* n : names) {
    auto c = parse_category(n);
    ASSERT_TRUE(c) << n;
    EXPECT_EQ(to_string(*c), n);
  }
  EXPECT_FALSE(parse_category("oom"));
}

TEST(Vocabulary, SeedOrderPutsDriverThenMemoryThenCommunication) {
  EXPECT_LT(category_priority(Category::driver_firmware_env), category_priority(Category::memory));
  EXPECT_LT(category_priority(Category::memory), category_priority(Category::communication));
  EXPECT_EQ(category_priority(Category::other), 11);
}

TEST(Vocabulary, LanguageFromEnvironment) {
  setenv("LC_ALL", "zh_CN.UTF-8", 1);
  EXPECT_EQ(lang_from_environment(), Lang::zh);
  setenv("LC_ALL", "en_US.UTF-8", 1);
  EXPECT_EQ(lang_from_environment(), Lang::en);
  unsetenv("LC_ALL");
  unsetenv("LC_MESSAGES");
  setenv("LANG", "zh_TW.UTF-8", 1);
  EXPECT_EQ(lang_from_environment(), Lang::zh);
  unsetenv("LANG");
  EXPECT_EQ(lang_from_environment(), Lang::en);
}

}  // namespace
}  // namespace npu_doctor
