#include "npu_doctor/text.hpp"

#include <algorithm>
#include <cctype>

namespace npu_doctor {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence at s[i], or 0 if invalid.
std::size_t utf8_len(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF) n = 3;
  else if (b0 >= 0xF0 && b0 <= 0xF4) n = 4;
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  const auto b1 = static_cast<unsigned char>(s[i + 1]);
  if (b0 == 0xE0 && b1 < 0xA0) return 0;   // overlong
  if (b0 == 0xED && b1 > 0x9F) return 0;   // surrogate
  if (b0 == 0xF0 && b1 < 0x90) return 0;   // overlong
  if (b0 == 0xF4 && b1 > 0x8F) return 0;   // above U+10FFFF
  return n;
}

// Length of an ANSI escape sequence at s[i] (ESC ...), at least 1.
std::size_t escape_len(std::string_view s, std::size_t i) {
  if (i + 1 < s.size() && s[i + 1] == '[') {
    std::size_t j = i + 2;
    while (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x20 && static_cast<unsigned char>(s[j]) <= 0x3F) ++j;
    return j < s.size() ? j + 1 - i : j - i;  // include the final byte
  }
  return i + 1 < s.size() ? 2 : 1;
}

}  // namespace

std::string sanitize_line(std::string_view raw) {
  while (!raw.empty() && (raw.back() == '\r' || raw.back() == '\n')) raw.remove_suffix(1);
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size();) {
    const auto c = static_cast<unsigned char>(raw[i]);
    if (c == 0x1B) {
      i += escape_len(raw, i);
      continue;
    }
    if (c == '\t') {
      out += '\t';
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7F) {
      out += kReplacement;
      ++i;
      continue;
    }
    const std::size_t n = utf8_len(raw, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(raw.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string_view utf8_prefix(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

bool looks_binary(std::string_view head) {
  if (head.empty()) return false;
  std::size_t nul = 0, control = 0;
  for (char ch : head) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 0) ++nul;
    else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1B && c != '\b') ++control;
  }
  // A crashed job can leave a few NUL bytes in a text log; a binary file has many. Text
  // has next to no other control characters (ESC, \b, \r are allowed above), while random
  // or compressed bytes have about 10 % of them and 0.4 % NULs.
  return nul * 100 > head.size() || (nul + control) * 20 > head.size();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace npu_doctor
