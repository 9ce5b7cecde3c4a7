#pragma once
// A streaming CSV reader for msprof and msprof-analyze outputs: one record at a time,
// fields quoted or not ("" escapes a quote, quoted fields may span lines), a UTF-8 BOM
// and CR line ends tolerated. Memory is one read buffer plus one record, whatever the
// file size; a record longer than the cap (an unterminated quote, a binary file) stops
// the reader with an error instead of swallowing the rest of the file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/input_source.hpp"

namespace npu_doctor::profile_detail {

class CsvReader {
 public:
  explicit CsvReader(ByteStream& in, std::size_t max_record_bytes = 1u << 20);

  // Reads the next record into `fields` (views valid until the next call). False at the
  // end of the input or on an error (see error()). Blank lines are skipped.
  bool next(std::vector<std::string_view>& fields);

  uint64_t record_line() const { return record_line_; }  // 1-based line where the record starts
  uint64_t bytes_read() const { return bytes_; }
  const std::string& error() const { return error_; }
  // True when the input ended inside a quoted field (a truncated file).
  bool truncated() const { return truncated_; }

 private:
  bool fill();
  int get();

  ByteStream& in_;
  std::size_t max_record_;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t len_ = 0;
  bool eof_ = false;
  bool first_ = true;
  uint64_t line_ = 1;
  uint64_t record_line_ = 0;
  uint64_t bytes_ = 0;
  std::string record_;                    // the unquoted fields, back to back
  std::vector<std::size_t> bounds_;       // end offset of each field in record_
  std::string error_;
  bool truncated_ = false;
};

// Header names compared loosely: case, spaces and underscores ignored, so
// "Communication (Not Overlapped)" == "Communication(Not Overlapped)" and
// "Device_id" == "Device ID".
std::string normalize_header(std::string_view name);

// Where the columns of a header are, by any of several names (CANN versions rename them).
class CsvColumns {
 public:
  explicit CsvColumns(const std::vector<std::string_view>& header);
  // Index of the first of `names` present, or -1.
  int find(std::initializer_list<std::string_view> names) const;
  std::size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;  // normalized
};

// A numeric cell: surrounding blanks, tabs and stray quotes trimmed ("1736413971558972.912\t"
// from msprof's start times). Empty, "N/A" and non-numbers give false.
bool parse_number(std::string_view cell, double& out);
// Trims blanks, tabs and stray quotes.
std::string_view trim_cell(std::string_view cell);
// "N/A", "NA", "-", "" : a cell that says "no value" rather than a bad value.
bool is_empty_cell(std::string_view cell);

}  // namespace npu_doctor::profile_detail
