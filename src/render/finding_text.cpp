#include "finding_text.hpp"

namespace npu_doctor::render_detail {

std::string location(const Evidence& e) { return e.path + ":" + std::to_string(e.line); }

std::string short_label(const Finding& f, Lang lang) {
  const std::string title = finding_title(f, lang);
  if (f.code.empty()) return title;
  return f.code + " " + title;
}

}  // namespace npu_doctor::render_detail
