#pragma once
// A cheap "no" before PCRE2. The index (line_index.hpp) names the patterns whose 3-4 byte
// key a line holds; most of them then fail to match (on real logs their confirmation is
// half of the scan). A pattern's analysis (regex_literals.hpp) says which strings every match
// holds; a line that lacks a four-byte piece of such a string cannot match, and a set of the
// line's four-byte pieces, built once per line, answers that with a bit test.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "regex_literals.hpp"

namespace npu_doctor {

// The lower-cased four-byte pieces of one line, as bits of a small hashed set: a piece the
// line holds always tests true; one it lacks tests false but for the rare collision.
class LineGrams {
 public:
  void read(std::string_view line);
  bool may_hold(uint32_t gram) const { return (bits_[slot(gram) >> 6] >> (slot(gram) & 63)) & 1U; }

  // The lower-cased piece at the start of `s`, little-endian; `s` holds four bytes or more.
  static uint32_t gram_at(std::string_view s);

 private:
  static uint32_t slot(uint32_t gram) { return (gram * 2654435761u) >> (32 - kBits); }
  static constexpr unsigned kBits = 12;  // 4,096 bits: a line of 200 bytes sets ~5 % of them
  std::array<uint64_t, (std::size_t{1} << kBits) / 64> bits_{};
};

// What a line must hold for a pattern to match it: every clause's test passes, a clause
// being pieces of which the line must hold at least one. Empty: no test, every line may.
class GramFilter {
 public:
  GramFilter() = default;
  // From a pattern's required literals: a clause of one string tests up to kMaxPieces
  // side-by-side pieces of it, each its own clause; a clause of several strings tests the
  // first piece of each; strings shorter than four bytes make their clause untestable.
  explicit GramFilter(const RequiredLiterals& literals);
  bool may_match(const LineGrams& line) const;
  bool empty() const { return clauses_.empty(); }

 private:
  static constexpr std::size_t kMaxClauses = 6;   // clauses of the pattern read
  static constexpr std::size_t kMaxPieces = 8;    // pieces tested of one string
  std::vector<std::vector<uint32_t>> clauses_;
};

}  // namespace npu_doctor
