#include "line_grams.hpp"

#include <algorithm>

namespace npu_doctor {
namespace {

// A byte lowered as the analysis lowers its strings (regex_literals.hpp), widened for a gram.
inline uint32_t gram_lower(unsigned char c) { return ascii_lower_byte(c); }

}  // namespace

uint32_t LineGrams::gram_at(std::string_view s) {
  return gram_lower(static_cast<unsigned char>(s[0])) | (gram_lower(static_cast<unsigned char>(s[1])) << 8) |
         (gram_lower(static_cast<unsigned char>(s[2])) << 16) | (gram_lower(static_cast<unsigned char>(s[3])) << 24);
}

void LineGrams::read(std::string_view line) {
  bits_.fill(0);
  uint32_t window = 0;  // the last four bytes read, lower-cased, the latest highest (as gram_at)
  for (std::size_t i = 0; i < line.size(); ++i) {
    window = (window >> 8) | (gram_lower(static_cast<unsigned char>(line[i])) << 24);
    if (i < 3) continue;
    const uint32_t s = slot(window);
    bits_[s >> 6] |= uint64_t{1} << (s & 63);
  }
}

GramFilter::GramFilter(const RequiredLiterals& literals) {
  for (const auto& clause : literals.clauses) {
    if (clauses_.size() >= kMaxClauses) break;
    if (clause.empty() || std::any_of(clause.begin(), clause.end(), [](const std::string& s) { return s.size() < 4; })) {
      continue;
    }
    if (clause.size() == 1) {
      // Side by side pieces of the string (and its last four bytes): a line that holds one
      // word of a message but not the message lacks most of them.
      const std::string& s = clause.front();
      for (std::size_t at = 0, n = 0; n < kMaxPieces && at + 4 <= s.size(); ++n) {
        const uint32_t g = LineGrams::gram_at(std::string_view(s).substr(at));
        if (std::none_of(clauses_.begin(), clauses_.end(), [&](const auto& c) { return c.size() == 1 && c.front() == g; })) {
          clauses_.push_back({g});
        }
        at = at + 8 <= s.size() ? at + 4 : (at + 4 < s.size() ? s.size() - 4 : s.size());
      }
      continue;
    }
    std::vector<uint32_t> firsts;
    for (const auto& s : clause) firsts.push_back(LineGrams::gram_at(s));
    clauses_.push_back(std::move(firsts));
  }
}

bool GramFilter::may_match(const LineGrams& line) const {
  return std::all_of(clauses_.begin(), clauses_.end(), [&](const std::vector<uint32_t>& clause) {
    return std::any_of(clause.begin(), clause.end(), [&](uint32_t g) { return line.may_hold(g); });
  });
}

}  // namespace npu_doctor
