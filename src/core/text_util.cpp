#include "text_util.hpp"

#include <cctype>

namespace npu_doctor::checks {

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

namespace {

template <typename Pred>
std::optional<NumberedLine> find_line(std::string_view text, Pred pred) {
  std::size_t number = 0;
  for (std::string_view line : split(text, '\n')) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (pred(line)) return NumberedLine{number, std::string(line)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<NumberedLine> find_key_line(std::string_view text, std::string_view key) {
  return find_line(text, [&](std::string_view line) {
    line = trim(line);
    if (!line.starts_with(key)) return false;
    line.remove_prefix(key.size());
    line = trim(line);
    return !line.empty() && (line.front() == '=' || line.front() == ':');
  });
}

std::optional<NumberedLine> find_line_containing(std::string_view text, std::string_view needle) {
  return find_line(text, [&](std::string_view line) { return line.find(needle) != std::string_view::npos; });
}

std::optional<long long> to_integer(std::string_view s) {
  return parse_number<long long>(trim(s));
}

bool looks_binary(std::string_view s) {
  std::size_t odd = 0;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 0) return true;
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') ++odd;
  }
  return !s.empty() && odd * 10 > s.size();
}

}  // namespace npu_doctor::checks
