#pragma once
// Small string helpers shared by the check parsers.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/text.hpp"

namespace npu_doctor::checks {

using npu_doctor::split;  // shared with the other parsers (npu_doctor/text.hpp)
using npu_doctor::trim;
std::string to_lower(std::string_view s);
std::string join(const std::vector<std::string>& parts, std::string_view sep);

// A line of a text, 1-based, without its line end.
struct NumberedLine {
  std::size_t number = 0;
  std::string text;
};

// The first line whose text, trimmed, starts with `key` followed by optional blanks and
// '=' or ':' ("Version=24.1.rc2", "Firmware Version : 7.1.0.7.220").
std::optional<NumberedLine> find_key_line(std::string_view text, std::string_view key);

// The first line containing `needle`.
std::optional<NumberedLine> find_line_containing(std::string_view text, std::string_view needle);

// A decimal integer, possibly negative (the whole string, after trimming).
std::optional<long long> to_integer(std::string_view s);

// True when the text has NUL bytes or is mostly not printable: not a text file.
bool looks_binary(std::string_view s);

}  // namespace npu_doctor::checks
