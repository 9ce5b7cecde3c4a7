#pragma once
// Text from logs is untrusted bytes: make it safe to print and to put in JSON.
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor {

// Valid UTF-8 with terminal escapes (ANSI colour codes) removed, other control
// characters and invalid bytes replaced by U+FFFD, tabs kept, a trailing CR dropped.
std::string sanitize_line(std::string_view raw);

// At most `max_bytes` bytes of valid UTF-8 `s`, cut at a character boundary.
std::string_view utf8_prefix(std::string_view s, std::size_t max_bytes);

// `s` without the carriage returns that end it (a CRLF file read line by line).
inline std::string_view strip_cr(std::string_view s) {
  while (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

// True if the first bytes of a stream look like binary data rather than text.
bool looks_binary(std::string_view head);

// `s` without leading and trailing white space.
std::string_view trim(std::string_view s);
// The pieces of `s` between `sep`s (empty pieces kept; "" gives one empty piece).
std::vector<std::string_view> split(std::string_view s, char sep);

// Levenshtein distance (insertions, deletions, substitutions of bytes): how far a typed
// word is from a known one, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);

// `s` as a number of type T (an integer, or a floating type) when the whole of `s` is one,
// in range; nullopt otherwise (also for "", a sign alone, or white space around it).
template <typename T>
std::optional<T> parse_number(std::string_view s) {
  T v{};
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace npu_doctor
