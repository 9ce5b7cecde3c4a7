#include "checks/version.hpp"

#include <algorithm>
#include <cctype>

#include "core/text_util.hpp"

namespace npu_doctor::checks {
namespace {

// Ordering classes of one component. A missing component ranks between pre-releases
// and numbers: 23.0.rc3 < 23.0 < 23.0.0 < 23.0.0.post1.
enum Kind : int { kDev = 0, kAlpha = 1, kBeta = 2, kWord = 3, kRc = 4, kEnd = 5, kNumber = 6, kPost = 7 };

Version::Part part_of(std::string_view piece) {
  Version::Part p;
  std::size_t i = 0;
  while (i < piece.size() && std::isalpha(static_cast<unsigned char>(piece[i]))) ++i;
  const std::string letters(piece.substr(0, i));
  std::size_t j = i;
  while (j < piece.size() && std::isdigit(static_cast<unsigned char>(piece[j]))) ++j;
  const std::string_view digits = piece.substr(i, j - i);
  for (char c : digits) {
    if (p.number < 100000000000000LL) p.number = p.number * 10 + (c - '0');
  }
  p.word = letters + std::string(piece.substr(j));  // anything after the number breaks ties
  if (letters.empty()) {
    p.kind = kNumber;
  } else if (letters == "rc") {
    p.kind = kRc;
  } else if (letters == "post") {
    p.kind = kPost;
  } else if (letters == "dev") {
    p.kind = kDev;
  } else if (letters == "alpha" || letters == "a") {
    p.kind = kAlpha;
  } else if (letters == "beta" || letters == "b") {
    p.kind = kBeta;
  } else {
    p.kind = kWord;
  }
  return p;
}

std::strong_ordering compare_parts(const Version::Part& a, const Version::Part& b) {
  if (auto c = a.kind <=> b.kind; c != 0) return c;
  if (auto c = a.number <=> b.number; c != 0) return c;
  return a.word <=> b.word;
}

bool same_part(const Version::Part& a, const Version::Part& b) { return compare_parts(a, b) == 0; }

}  // namespace

std::optional<Version> Version::parse(std::string_view text) {
  text = trim(text);
  if (text.empty() || std::none_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    return std::nullopt;
  }
  Version v;
  v.text_ = std::string(text);
  std::string lower = to_lower(text);
  if (const auto plus = lower.find('+'); plus != std::string::npos) lower.resize(plus);  // PEP 440 local label
  if (!lower.empty() && lower.front() == 'v' && lower.size() > 1 && std::isdigit(static_cast<unsigned char>(lower[1]))) {
    lower.erase(0, 1);
  }
  std::size_t start = 0;
  for (std::size_t i = 0; i <= lower.size(); ++i) {
    if (i == lower.size() || lower[i] == '.' || lower[i] == '-' || lower[i] == '_') {
      if (i > start) v.parts_.push_back(part_of(std::string_view(lower).substr(start, i - start)));
      start = i + 1;
    }
  }
  if (v.parts_.empty()) return std::nullopt;
  return v;
}

std::strong_ordering Version::operator<=>(const Version& other) const {
  const Part end{kEnd, 0, {}};
  const std::size_t n = std::max(parts_.size(), other.parts_.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Part& a = i < parts_.size() ? parts_[i] : end;
    const Part& b = i < other.parts_.size() ? other.parts_[i] : end;
    if (auto c = compare_parts(a, b); c != 0) return c;
  }
  return std::strong_ordering::equal;
}

bool Version::has_prefix(const Version& prefix) const {
  if (prefix.parts_.size() > parts_.size()) return false;
  for (std::size_t i = 0; i < prefix.parts_.size(); ++i) {
    if (!same_part(parts_[i], prefix.parts_[i])) return false;
  }
  return true;
}

std::string Version::release() const {
  std::string out;
  for (const auto& p : parts_) {
    if (p.kind != kNumber || !p.word.empty()) break;
    if (!out.empty()) out += '.';
    out += std::to_string(p.number);
  }
  return out;
}

std::optional<VersionSpec> VersionSpec::parse(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  VersionSpec s;
  s.text_ = std::string(text);
  if (text.front() == '[') {
    const auto groups = parse_bracket_list(text);
    if (groups.size() != 1 || groups[0].size() != 2) return std::nullopt;
    std::string_view hi = groups[0][1];
    if (!hi.empty() && hi.back() == '.') {
      s.hi_open_prefix_ = true;
      hi.remove_suffix(1);
    }
    s.lo_ = Version::parse(groups[0][0]);
    s.hi_ = Version::parse(hi);
    if (!s.lo_ || !s.hi_) return std::nullopt;
    return s;
  }
  std::string_view body = text;
  if (body.ends_with(".*")) {
    s.prefix_ = true;
    body.remove_suffix(2);
  } else if (body.ends_with("*")) {
    s.prefix_ = true;
    body.remove_suffix(1);
  }
  s.exact_or_prefix_ = Version::parse(body);
  if (!s.exact_or_prefix_) return std::nullopt;
  return s;
}

bool VersionSpec::matches(const Version& v) const {
  if (exact_or_prefix_) return prefix_ ? v.has_prefix(*exact_or_prefix_) : v == *exact_or_prefix_;
  if (!lo_ || !hi_ || v < *lo_) return false;
  return v <= *hi_ || (hi_open_prefix_ && v.has_prefix(*hi_));
}

std::vector<std::vector<std::string>> parse_bracket_list(std::string_view text) {
  std::vector<std::vector<std::string>> groups;
  std::size_t i = 0;
  while ((i = text.find('[', i)) != std::string_view::npos) {
    const std::size_t close = text.find(']', i + 1);
    if (close == std::string_view::npos) break;
    std::vector<std::string> items;
    for (std::string_view item : split(text.substr(i + 1, close - i - 1), ',')) {
      item = trim(item);
      if (!item.empty()) items.emplace_back(item);
    }
    groups.push_back(std::move(items));
    i = close + 1;
  }
  return groups;
}

std::optional<std::vector<VersionSpec>> parse_version_ranges(std::string_view text) {
  const auto groups = parse_bracket_list(text);
  if (groups.empty()) return std::nullopt;
  std::vector<VersionSpec> out;
  for (const auto& g : groups) {
    if (g.size() != 2) return std::nullopt;
    auto spec = VersionSpec::parse("[" + g[0] + "," + g[1] + "]");
    if (!spec) return std::nullopt;
    out.push_back(std::move(*spec));
  }
  return out;
}

}  // namespace npu_doctor::checks
