#pragma once
// Terminal output shared by the hccl, net and isolate reports: colours, and a finding
// as a block (severity, title, category, id; each place that shows it with its values;
// cause and remedies; the concrete fix when there is one).
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/finding.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor::hccl {

struct TextStyle {
  bool on = false;
  std::string wrap(std::string_view code, std::string_view s) const;
  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string dim(std::string_view s) const { return wrap("2", s); }
  std::string cyan(std::string_view s) const { return wrap("36", s); }
  std::string green(std::string_view s) const { return wrap("1;32", s); }
  std::string red(std::string_view s) const { return wrap("1;31", s); }
  std::string yellow(std::string_view s) const { return wrap("33", s); }
  std::string severity(Severity v, std::string_view s) const;
};

// Every finding, as blocks; the verdict line at the end ("No problems found." or counts).
void print_findings_text(const std::vector<Finding>& findings, const RenderOptions& o, std::ostream& out);

// `s` padded with spaces on the right to `width` (kept whole when longer): table cells.
std::string pad(std::string s, std::size_t width);

// `v` with `precision` decimals ("%.*f").
std::string fixed(double v, int precision);

// "path:line" of an evidence item ("" when it has no path).
std::string evidence_location(const Evidence& e);

}  // namespace npu_doctor::hccl
