#pragma once
// Checks the HTML pages the reports write (profile, diagnose), without a browser.
#include <set>
#include <string>
#include <vector>

namespace npu_doctor::testing {

// A small well-formedness check: every element closed in order (void elements excepted),
// attribute quotes balanced, '&' only as an entity. Returns "" or what is wrong.
inline std::string html_problem(const std::string& h) {
  static const std::set<std::string> kVoid = {"meta", "br", "hr", "img", "input", "link"};
  std::vector<std::string> open;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (h[i] == '&') {
      const auto semi = h.find(';', i);
      if (semi == std::string::npos || semi - i > 8) return "bare '&' at " + std::to_string(i);
      continue;
    }
    if (h[i] == '>') return "stray '>' at " + std::to_string(i);
    if (h[i] != '<') continue;
    if (h.compare(i, 9, "<!DOCTYPE") == 0) {
      i = h.find('>', i);
      continue;
    }
    std::size_t j = i + 1;
    char quote = 0;
    for (; j < h.size(); ++j) {
      if (quote != 0) {
        if (h[j] == quote) quote = 0;
      } else if (h[j] == '"' || h[j] == '\'') {
        quote = h[j];
      } else if (h[j] == '<') {
        return "'<' inside a tag at " + std::to_string(j);
      } else if (h[j] == '>') {
        break;
      }
    }
    if (j >= h.size()) return "unterminated tag at " + std::to_string(i);
    const std::string tag = h.substr(i + 1, j - i - 1);
    if (tag.empty()) return "empty tag";
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) return "</" + name + "> closes <" + (open.empty() ? "" : open.back()) + ">";
      open.pop_back();
    } else {
      const std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
      if (tag.back() != '/' && kVoid.count(name) == 0) open.push_back(name);
    }
    i = j;
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

}  // namespace npu_doctor::testing
