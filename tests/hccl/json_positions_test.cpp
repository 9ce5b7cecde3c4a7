// Positions of JSON values and parse errors, which every rank-table message relies on.
#include <gtest/gtest.h>

#include "hccl/json_positions.hpp"

namespace npu_doctor::hccl {
namespace {

TextPosition at(const std::string& text, const std::string& path) {
  JsonError err;
  auto pj = parse_positioned_json(text, &err);
  EXPECT_TRUE(pj) << err.message;
  if (!pj) return {};
  auto off = pj->offset_of(path);
  EXPECT_TRUE(off) << path;
  return position_of(text, off.value_or(0));
}

TEST(HcclJsonPositions, EveryValueHasItsLineAndColumn) {
  const std::string text =
      "{\n"
      "  \"a\": [1, 22,\n"
      "        {\"k\": \"v\\\"q\", \"n\": null, \"t\": true}],\n"
      "  \"b\": -3.5e2\n"
      "}";
  EXPECT_EQ(at(text, "").line, 1u);
  EXPECT_EQ(at(text, "a").line, 2u);
  EXPECT_EQ(at(text, "a").column, 8u);
  EXPECT_EQ(at(text, "a[1]").column, 12u);
  EXPECT_EQ(at(text, "a[2].k").line, 3u);
  EXPECT_EQ(at(text, "a[2].k").column, 15u) << "the opening quote, across an escaped quote";
  EXPECT_EQ(at(text, "a[2].n").column, 28u);
  EXPECT_EQ(at(text, "a[2].t").column, 39u);
  EXPECT_EQ(at(text, "b").line, 4u);
  EXPECT_EQ(at(text, "b").column, 8u);
}

TEST(HcclJsonPositions, AMissingPathFallsBackToItsParent) {
  JsonError err;
  auto pj = parse_positioned_json("{\"x\": {\"y\": 1}}", &err);
  ASSERT_TRUE(pj);
  EXPECT_EQ(pj->offset_of("x.zz"), pj->offset_of("x"));
  EXPECT_EQ(pj->value["x"]["y"], 1);
}

TEST(HcclJsonPositions, DuplicateKeysAreReported) {
  JsonError err;
  const std::string text = "{\"a\": 1,\n \"a\": 2}";
  auto pj = parse_positioned_json(text, &err);
  ASSERT_TRUE(pj);
  ASSERT_EQ(pj->duplicate_keys.size(), 1u);
  EXPECT_EQ(pj->duplicate_keys[0].first, "a");
  EXPECT_EQ(position_of(text, pj->duplicate_keys[0].second).line, 2u);
}

TEST(HcclJsonPositions, SyntaxErrorsAndDepthHaveAPosition) {
  JsonError err;
  const std::string text = "{\n  \"a\": 1\n  \"b\": 2\n}";
  EXPECT_FALSE(parse_positioned_json(text, &err));
  const auto pos = position_of(text, err.offset);
  EXPECT_EQ(pos.line, 3u) << err.message;
  EXPECT_EQ(pos.column, 3u) << "the start of the unexpected token: " << err.message;
  EXPECT_FALSE(parse_positioned_json(std::string(100000, '['), &err));
  EXPECT_NE(err.message.find("deeper"), std::string::npos) << err.message;
  EXPECT_FALSE(parse_positioned_json("", &err));
  EXPECT_FALSE(parse_positioned_json("{\"a\": tru}", &err));
}

}  // namespace
}  // namespace npu_doctor::hccl
