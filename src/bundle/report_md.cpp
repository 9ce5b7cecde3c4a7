#include "bundle/report_md.hpp"

#include <stdexcept>

#include "npu_doctor/embedded_files.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
std::span<const EmbeddedFile> embedded_bundle_data();
}

namespace npu_doctor::bundle {

std::string fill_template(std::string_view text, const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto open = text.find("{{", pos);
    const auto close = open == std::string_view::npos ? open : text.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    out.append(text.substr(pos, open - pos));
    const std::string_view name = text.substr(open + 2, close - open - 2);
    bool found = false;
    for (const auto& [k, v] : values) {
      if (k == name) {
        out += v;
        found = true;
        break;
      }
    }
    if (!found) out.append(text.substr(open, close + 2 - open));
    pos = close + 2;
  }
  out.append(text.substr(std::min(pos, text.size())));
  return out;
}

namespace {

std::string_view report_template(Lang lang) {
  const std::string_view wanted = lang == Lang::zh ? "bundle-report.zh.md" : "bundle-report.en.md";
  for (const auto& f : embedded_bundle_data()) {
    if (f.name == wanted) return f.content;
  }
  throw std::runtime_error("data/" + std::string(wanted) + " is not embedded");
}

// A fenced block whose fence is longer than any backtick run inside.
std::string code_block(const std::string& text, std::string_view empty) {
  if (text.empty()) return "_" + std::string(empty) + "_\n";
  std::string fence = "```";
  while (text.find(fence) != std::string::npos) fence += '`';
  return fence + "\n" + text + (text.ends_with('\n') ? "" : "\n") + fence + "\n";
}

std::string cell(std::string s) {
  for (auto& c : s) {
    if (c == '|' || c == '\n') c = ' ';
  }
  return s;
}

}  // namespace

std::string render_report_md(const ReportFacts& f, Lang lang) {
  const std::string_view none = ui::word(ui::Key::bundle_not_collected, lang);
  std::string versions;
  for (const auto& [k, v] : f.versions) versions += "| " + cell(k) + " | " + cell(v) + " |\n";
  std::string steps;
  for (const auto& [id, status] : f.check_steps) steps += "- " + id + ": " + status + "\n";
  for (const auto& x : f.check_findings) steps += "  - " + x + "\n";
  std::string skipped;
  for (const auto& s : f.skipped) skipped += "- `" + cell(s.item) + "`: " + cell(s.reason) + "\n";
  if (skipped.empty()) skipped = "-\n";
  return fill_template(report_template(lang),
                       {{"created", f.created},
                        {"tool_version", f.tool_version},
                        {"hardware", code_block(f.hardware, none)},
                        {"versions", versions},
                        {"check_status", f.check_status.empty() ? std::string(none) : f.check_status},
                        {"check_steps", steps},
                        {"root_cause", code_block(f.root_cause, ui::word(ui::Key::bundle_no_error_found, lang))},
                        {"findings", std::to_string(f.findings)},
                        {"logs", std::to_string(f.logs)},
                        {"environment", code_block(f.environment, none)},
                        {"topology", code_block(f.topology, none)},
                        {"skipped", skipped}});
}

}  // namespace npu_doctor::bundle
