#include "checks/probe_glob.hpp"

#include "core/text_util.hpp"

namespace npu_doctor::checks {

bool wildcard_match(std::string_view pattern, std::string_view name) {
  // Iterative matcher with backtracking to the last '*': linear in practice.
  std::size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string> glob_paths(const Probe& probe, std::string_view pattern, std::size_t limit) {
  std::vector<std::string> current = {""};
  for (std::string_view part : split(pattern, '/')) {
    if (part.empty()) continue;
    std::vector<std::string> next;
    for (const auto& base : current) {
      if (part.find('*') == std::string_view::npos) {
        next.push_back(base + "/" + std::string(part));
        continue;
      }
      for (const auto& name : probe.list_dir(base.empty() ? "/" : base)) {
        if (name != "." && name != ".." && wildcard_match(part, name)) next.push_back(base + "/" + name);
        if (next.size() >= limit) break;
      }
    }
    current = std::move(next);
    if (current.empty()) return {};
  }
  std::vector<std::string> out;
  for (auto& p : current) {
    if (probe.stat(p).exists) out.push_back(std::move(p));
  }
  return out;
}

}  // namespace npu_doctor::checks
