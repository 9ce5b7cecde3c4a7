#include "csv_reader.hpp"

#include "npu_doctor/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace npu_doctor::profile_detail {

namespace {
constexpr std::size_t kBufferBytes = 1u << 20;
}

CsvReader::CsvReader(ByteStream& in, std::size_t max_record_bytes)
    : in_(in), max_record_(max_record_bytes), buf_(kBufferBytes) {}

bool CsvReader::fill() {
  if (eof_) return false;
  const long r = in_.read(buf_.data(), buf_.size());
  if (r < 0) {
    error_ = "read error: " + in_.error();
    eof_ = true;
    return false;
  }
  if (r == 0) {
    eof_ = true;
    return false;
  }
  pos_ = 0;
  len_ = static_cast<std::size_t>(r);
  bytes_ += len_;
  if (first_) {
    first_ = false;
    if (len_ >= 3 && static_cast<unsigned char>(buf_[0]) == 0xEF && static_cast<unsigned char>(buf_[1]) == 0xBB &&
        static_cast<unsigned char>(buf_[2]) == 0xBF) {
      pos_ = 3;  // UTF-8 byte order mark (Excel re-saves)
    }
    if (looks_binary(std::string_view(buf_.data(), std::min<std::size_t>(len_, 4096)))) {
      error_ = "binary data, not a CSV file";
      eof_ = true;
      len_ = 0;
      return false;
    }
  }
  return true;
}

int CsvReader::get() {
  if (pos_ >= len_ && !fill()) return -1;
  if (pos_ >= len_) return -1;
  return static_cast<unsigned char>(buf_[pos_++]);
}

bool CsvReader::next(std::vector<std::string_view>& fields) {
  fields.clear();
  if (!error_.empty()) return false;
  for (;;) {
    record_.clear();
    bounds_.clear();
    record_line_ = line_;
    bool in_quotes = false;
    bool any = false;  // any character of this record seen (blank lines are skipped)
    int c = 0;
    for (;;) {
      c = get();
      if (c < 0) break;
      if (record_.size() >= max_record_) {
        error_ = "a record at line " + std::to_string(record_line_) + " is longer than " +
                 std::to_string(max_record_ >> 10) + " KiB (an unterminated quote or not a CSV file)";
        return false;
      }
      if (in_quotes) {
        if (c == '"') {
          if (pos_ >= len_) fill();
          if (pos_ < len_ && buf_[pos_] == '"') {
            ++pos_;
            record_.push_back('"');
          } else {
            in_quotes = false;
          }
        } else {
          if (c == '\n') ++line_;
          record_.push_back(static_cast<char>(c));
        }
        continue;
      }
      if (c == '\n') {
        ++line_;
        break;
      }
      if (c == '\r') continue;
      any = true;
      if (c == '"') {
        in_quotes = true;
      } else if (c == ',') {
        bounds_.push_back(record_.size());
      } else {
        record_.push_back(static_cast<char>(c));
      }
    }
    if (in_quotes) truncated_ = true;
    if (!any && record_.empty() && bounds_.empty()) {
      if (c < 0) return false;
      continue;  // blank line
    }
    bounds_.push_back(record_.size());
    std::size_t start = 0;
    for (std::size_t end : bounds_) {
      fields.emplace_back(record_.data() + start, end - start);
      start = end;
    }
    return true;
  }
}

std::string normalize_header(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (std::isspace(u) != 0 || ch == '_' || ch == '"') continue;
    out.push_back(static_cast<char>(std::tolower(u)));
  }
  return out;
}

CsvColumns::CsvColumns(const std::vector<std::string_view>& header) {
  names_.reserve(header.size());
  for (auto h : header) names_.push_back(normalize_header(h));
}

int CsvColumns::find(std::initializer_list<std::string_view> names) const {
  for (auto n : names) {
    const std::string key = normalize_header(n);
    auto it = std::find(names_.begin(), names_.end(), key);
    if (it != names_.end()) return static_cast<int>(it - names_.begin());
  }
  return -1;
}

std::string_view trim_cell(std::string_view cell) {
  auto blank = [](char ch) { return ch == ' ' || ch == '\t' || ch == '"' || ch == '\r' || ch == '\n'; };
  while (!cell.empty() && blank(cell.front())) cell.remove_prefix(1);
  while (!cell.empty() && blank(cell.back())) cell.remove_suffix(1);
  return cell;
}

bool is_empty_cell(std::string_view cell) {
  cell = trim_cell(cell);
  return cell.empty() || cell == "N/A" || cell == "NA" || cell == "n/a" || cell == "-" || cell == "null";
}

bool parse_number(std::string_view cell, double& out) {
  cell = trim_cell(cell);
  if (cell.empty()) return false;
  if (cell.front() == '+') cell.remove_prefix(1);
  const char* end = cell.data() + cell.size();
  auto [p, ec] = std::from_chars(cell.data(), end, out);
  return ec == std::errc() && p == end && std::isfinite(out);
}

}  // namespace npu_doctor::profile_detail
