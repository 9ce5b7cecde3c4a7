#include "report_text.hpp"

#include <algorithm>

namespace npu_doctor::render_detail {

std::string location(const Evidence& e) { return e.path + ":" + std::to_string(e.line); }

std::string short_label(const Finding& f, Lang lang) {
  const std::string title = finding_title(f, lang);
  if (f.code.empty()) return title;
  return f.code + " " + title;
}

std::vector<std::size_t> presentation_order(const DiagnosisReport& r) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < r.findings.size(); ++i) order.push_back(i);
  const std::size_t root = r.root ? r.root->finding : r.findings.size();
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if ((a == root) != (b == root)) return a == root;
    return category_priority(r.findings[a].entry->category) < category_priority(r.findings[b].entry->category);
  });
  return order;
}

}  // namespace npu_doctor::render_detail
