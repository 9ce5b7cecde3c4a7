// The compact parts of an input's report: times with their text inline, interned words.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "npu_doctor/compact_time.hpp"
#include "npu_doctor/input_report.hpp"
#include "npu_doctor/interned_string.hpp"
#include "npu_doctor/line_info.hpp"

namespace npu_doctor {
namespace {

Timestamp stamp(int64_t micros, bool has_year, std::string text) {
  Timestamp t;
  t.micros = micros;
  t.has_year = has_year;
  t.text = std::move(text);
  return t;
}

void expect_same(const std::optional<Timestamp>& want, const CompactTime& got) {
  ASSERT_EQ(want.has_value(), got.has_value());
  if (!want) return;
  EXPECT_EQ(want->micros, got->micros);
  EXPECT_EQ(want->has_year, got->has_year);
  EXPECT_EQ(want->text, got->text);
  const std::optional<Timestamp> back = got;
  EXPECT_EQ(back->text, want->text);
  EXPECT_EQ(dated(want), dated(got));
}

TEST(CompactTime, KeepsItsSizeSmall) {
  EXPECT_LE(sizeof(CompactTime), 40U);
  EXPECT_LT(sizeof(CompactTime), sizeof(std::optional<Timestamp>));
}

TEST(CompactTime, ATimeRoundTripsExactly) {
  // Inline (a plog stamp, 27 bytes; the longest inline, 30), on the heap (31 and far
  // longer, as a node summary may carry), empty text, yearless, negative micros.
  const std::vector<Timestamp> times = {
      stamp(1725382198000100, true, "2024-09-03-16:49:58.000.100"),
      stamp(1, true, std::string(30, '7')),
      stamp(2, true, std::string(31, '8')),
      stamp(3, false, std::string(5000, 'x') + "\n\0tail"),
      stamp(4, false, ""),
      stamp(-86400000000, false, "E1212 12:10:10"),
  };
  for (const auto& t : times) {
    CompactTime c = std::optional<Timestamp>(t);
    expect_same(t, c);
    CompactTime copy = c;  // copies own their text: the original may go
    c.reset();
    EXPECT_FALSE(c);
    expect_same(t, copy);
    CompactTime moved = std::move(copy);
    expect_same(t, moved);
    CompactTime assigned;
    assigned = moved;
    expect_same(t, assigned);
    EXPECT_TRUE(assigned == moved);
    assigned = std::optional<Timestamp>(stamp(5, true, "2025-01-01 00:00:00"));  // replaces a heap text
    EXPECT_EQ(assigned.text(), "2025-01-01 00:00:00");
  }
}

TEST(CompactTime, NoTimeIsEmpty) {
  CompactTime none;
  EXPECT_FALSE(none.has_value());
  EXPECT_FALSE(dated(none));
  EXPECT_EQ(std::optional<Timestamp>(none), std::nullopt);
  none = std::optional<Timestamp>();
  EXPECT_FALSE(none);
  EXPECT_TRUE(none == CompactTime());
}

TEST(InternedString, EqualTextsShareOnePointerAndEmptyCostsNothing) {
  const InternedString a = std::string("archive member");
  const InternedString b = std::string_view("archive member");
  EXPECT_EQ(&a.str(), &b.str());
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a == "archive member");
  EXPECT_FALSE(a == "file");
  EXPECT_TRUE(InternedString().empty());
  EXPECT_TRUE(InternedString("").empty());
  EXPECT_EQ(InternedString().str(), "");
  EXPECT_EQ(sizeof(InternedString), sizeof(void*));
}

TEST(InputReport, IsSmallerThanItsTextFields) {
  // What 100,000 inputs hold: path, note, counts, two interned words, two compact times
  // and the events vector. Grows only by a deliberate change (see bench/README.md).
  EXPECT_LE(sizeof(InputReport), 216U);
}

}  // namespace
}  // namespace npu_doctor
