#include <gtest/gtest.h>

#include "profile/csv_reader.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::profile_detail {
namespace {

using testing::StringStream;

std::vector<std::vector<std::string>> read_all(const std::string& text, std::string* error = nullptr,
                                               bool* truncated = nullptr, std::size_t chunk = 1 << 20,
                                               std::size_t cap = 1u << 20) {
  StringStream in(text, chunk);
  CsvReader csv(in, cap);
  std::vector<std::vector<std::string>> out;
  std::vector<std::string_view> f;
  while (csv.next(f)) out.emplace_back(f.begin(), f.end());
  if (error != nullptr) *error = csv.error();
  if (truncated != nullptr) *truncated = csv.truncated();
  return out;
}

TEST(ProfileCsvReader, QuotedFieldsWithCommasQuotesAndNewlines) {
  const auto rows = read_all("a,b,c\n1,\"x,y\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",z\n");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1][1], "x,y");
  EXPECT_EQ(rows[1][2], "say \"hi\"");
  EXPECT_EQ(rows[2][1], "two\nlines");
  EXPECT_EQ(rows[2][2], "z");
}

TEST(ProfileCsvReader, MsprofTripleQuotedShapesAndTabbedTimes) {
  // kernel_details.csv writes shapes as """81920,4096;8192,512""" and start times with a tab.
  const auto rows = read_all("Input Shapes,Start Time(us)\n\"\"\"81920,4096;8192,512\"\"\",\"1736413971558972.912\t\"\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1][0], "\"81920,4096;8192,512\"");
  double v = 0;
  ASSERT_TRUE(parse_number(rows[1][1], v));
  EXPECT_DOUBLE_EQ(v, 1736413971558972.912);
}

TEST(ProfileCsvReader, BomCrlfBlankLinesAndEmptyFields) {
  const auto rows = read_all("\xEF\xBB\xBFh1,h2\r\n\r\n1,\r\n,2\r\n");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][0], "h1");
  EXPECT_EQ(rows[1], (std::vector<std::string>{"1", ""}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"", "2"}));
}

TEST(ProfileCsvReader, RecordsSplitAcrossReadsAreJoined) {
  std::string text = "a,b\n";
  for (int i = 0; i < 200; ++i) text += std::to_string(i) + ",\"q" + std::to_string(i) + "\"\n";
  const auto rows = read_all(text, nullptr, nullptr, 7);  // 7-byte reads cut fields and quotes
  ASSERT_EQ(rows.size(), 201u);
  EXPECT_EQ(rows[200][1], "q199");
}

TEST(ProfileCsvReader, UnterminatedQuoteAtEndIsTruncated) {
  bool truncated = false;
  const auto rows = read_all("a,b\n1,\"never closed", nullptr, &truncated);
  EXPECT_TRUE(truncated);
  ASSERT_EQ(rows.size(), 2u);
}

TEST(ProfileCsvReader, OverlongRecordStopsWithAnError) {
  std::string error;
  const auto rows = read_all("a\n\"" + std::string(5000, 'x') + "\n", &error, nullptr, 1 << 20, 1024);
  EXPECT_EQ(rows.size(), 1u);
  EXPECT_NE(error.find("longer than"), std::string::npos) << error;
}

TEST(ProfileCsvReader, BinaryInputIsRefused) {
  std::string error;
  std::string bin;
  for (int i = 0; i < 2000; ++i) bin.push_back(static_cast<char>(i % 7));
  const auto rows = read_all(bin, &error);
  EXPECT_TRUE(rows.empty());
  EXPECT_NE(error.find("binary"), std::string::npos);
}

TEST(ProfileCsvColumns, HeadersMatchLooselyAndByAlias) {
  const std::vector<std::string_view> header = {"Device_id", "Communication (Not Overlapped)", " Task Duration(us) "};
  const CsvColumns cols(header);
  EXPECT_EQ(cols.find({"Device ID"}), 0);
  EXPECT_EQ(cols.find({"Communication(Not Overlapped)"}), 1);
  EXPECT_EQ(cols.find({"Duration(us)", "Task Duration(us)"}), 2);
  EXPECT_EQ(cols.find({"Task Type"}), -1);
}

TEST(ProfileCsvNumbers, EmptyAndBadCells) {
  double v = 0;
  EXPECT_TRUE(parse_number(" 12.5 ", v));
  EXPECT_DOUBLE_EQ(v, 12.5);
  EXPECT_FALSE(parse_number("N/A", v));
  EXPECT_FALSE(parse_number("12abc", v));
  EXPECT_FALSE(parse_number("nan", v));
  EXPECT_TRUE(is_empty_cell("N/A"));
  EXPECT_TRUE(is_empty_cell("\t"));
  EXPECT_FALSE(is_empty_cell("abc"));
}

}  // namespace
}  // namespace npu_doctor::profile_detail
