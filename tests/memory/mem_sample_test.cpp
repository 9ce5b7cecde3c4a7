#include <gtest/gtest.h>

#include "memory/mem_sample.hpp"

namespace npu_doctor::mem {
namespace {

LineKind parse(const std::string& line, MemSample& s, std::string& why) { return parse_sample_line(line, s, why); }

TEST(MemSampleLine, TheIssuesExample) {
  MemSample s;
  std::string why;
  ASSERT_EQ(parse(R"({"step": 120, "time": 1718000000.5, "device": 0, "allocated": 41234567168, "reserved": 45097156608, "max_allocated": 43000000000})",
                  s, why),
            LineKind::sample)
      << why;
  EXPECT_EQ(s.step, 120);
  EXPECT_DOUBLE_EQ(s.time.value(), 1718000000.5);
  EXPECT_EQ(s.device, 0);
  EXPECT_EQ(s.allocated, 41234567168u);
  EXPECT_EQ(s.reserved.value(), 45097156608u);
  EXPECT_EQ(s.max_allocated.value(), 43000000000u);
  EXPECT_FALSE(s.capacity);
}

TEST(MemSampleLine, OptionalFieldsMayBeMissingOrNull) {
  MemSample s;
  std::string why;
  ASSERT_EQ(parse(R"({"step": 7, "allocated": 1000})", s, why), LineKind::sample) << why;
  EXPECT_EQ(s.device, 0);
  EXPECT_FALSE(s.time);
  EXPECT_FALSE(s.reserved);
  EXPECT_FALSE(s.max_allocated);
  ASSERT_EQ(parse(R"({"step": 8, "allocated": 1000, "reserved": null, "device": 3, "capacity": 2e9, "phase": "inference", "extra": [1,2]})",
                  s, why),
            LineKind::sample)
      << why;
  EXPECT_EQ(s.device, 3);
  EXPECT_EQ(s.capacity.value(), 2000000000u);
  EXPECT_TRUE(s.inference);
  EXPECT_FALSE(s.reserved);
}

TEST(MemSampleLine, FloatsThatAreWholeNumbersAreAccepted) {
  MemSample s;
  std::string why;
  ASSERT_EQ(parse(R"({"step": 12.0, "allocated": 4.1e10})", s, why), LineKind::sample) << why;
  EXPECT_EQ(s.step, 12);
  EXPECT_EQ(s.allocated, 41000000000u);
}

TEST(MemSampleLine, LogTextIsNotAnError) {
  MemSample s;
  std::string why;
  EXPECT_EQ(parse("[INFO] step 120 loss 2.31", s, why), LineKind::other);
  EXPECT_EQ(parse("   ", s, why), LineKind::blank);
  EXPECT_EQ(parse("\r", s, why), LineKind::blank);
}

TEST(MemSampleLine, BrokenSamplesSayWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"step": 1, "allocated": )", "not a JSON object"},
      {R"({"allocated": 5})", "no \"step\""},
      {R"({"step": 1})", "no \"allocated\""},
      {R"({"step": "one", "allocated": 5})", "\"step\" is not an integer"},
      {R"({"step": 1.5, "allocated": 5})", "\"step\" is not an integer"},
      {R"({"step": 1, "allocated": -5})", "\"allocated\" is not a non-negative number of bytes"},
      {R"({"step": 1, "allocated": "5 GiB"})", "\"allocated\" is not a non-negative number of bytes"},
      {R"({"step": 1, "allocated": 5, "reserved": true})", "\"reserved\" is not a non-negative number of bytes"},
      {R"({"step": 1, "allocated": 5, "device": -1})", "\"device\" is not a device number"},
      {R"({"step": 1, "allocated": 5, "time": "noon"})", "\"time\" is not a number"},
  };
  for (const auto& [line, reason] : cases) {
    MemSample s;
    std::string why;
    EXPECT_EQ(parse(line, s, why), LineKind::invalid) << line;
    EXPECT_EQ(why, reason) << line;
  }
}

TEST(MemSampleLine, OverlongLinesAreRejectedWithoutParsing) {
  MemSample s;
  std::string why;
  const std::string huge = "{\"step\": 1, \"allocated\": 5, \"pad\": \"" + std::string(kMaxSampleLine, 'x') + "\"}";
  EXPECT_EQ(parse(huge, s, why), LineKind::invalid);
  EXPECT_NE(why.find("longer than"), std::string::npos);
  // Deeply nested JSON is just an invalid sample, not a crash.
  EXPECT_EQ(parse("{\"a\": " + std::string(2000, '['), s, why), LineKind::invalid);
}

}  // namespace
}  // namespace npu_doctor::mem
