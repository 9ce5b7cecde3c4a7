#pragma once
// What text any match of a pattern must contain, read from the pattern itself. The scanner
// uses it twice: to prove that a pattern needs one of the gate's literals (so only lines that
// pass the gate are given to the full knowledge base), and to index patterns by their
// literals (so a line is confirmed only against the patterns whose literals it holds).
//
// The analysis is sound, never exact: whatever it does not understand counts as "matches
// anything", and every string is lower-case ASCII (a case-insensitive superset). If the
// result says a match contains one of {"fail", "error"}, every match of the pattern, on any
// line, contains "fail" or "error" in some letter case.
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor {

struct RequiredLiterals {
  // Each clause: the match contains at least one of these strings. All clauses hold.
  std::vector<std::vector<std::string>> clauses;

  // The clause that narrows a search most: the one whose shortest string is longest
  // (nullptr when there is no clause).
  const std::vector<std::string>* best() const;
};

RequiredLiterals required_literals(std::string_view regex);

// ASCII lower case; other bytes unchanged (the analysis and the index compare this way).
std::string ascii_lower(std::string_view s);
// One byte as ascii_lower lowers it: the index and the line filter read a line this way, so
// that a string the analysis wrote is found in any letter case.
constexpr unsigned char ascii_lower_byte(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c - 'A' + 'a') : c;
}

}  // namespace npu_doctor
