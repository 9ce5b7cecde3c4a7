#include <cctype>

#include "profile_accumulator.hpp"

namespace npu_doctor::profile_detail {

std::string normalize_task_type(std::string_view raw) {
  std::string out;
  for (char ch : raw) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\t' || ch == '\r') continue;
    out.push_back(std::isspace(u) != 0 || ch == '-' ? '_' : static_cast<char>(std::toupper(u)));
  }
  while (!out.empty() && out.front() == '_') out.erase(out.begin());
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || out == "N/A") return "UNKNOWN";
  return out;
}

void ColumnIssues::missing(const std::string& column) {
  sink_.push_back({path_, column, "missing", 0, 0, {}});
}

void ColumnIssues::bad(const std::string& column, uint64_t line, std::string_view cell) {
  auto [it, inserted] = bad_.try_emplace(column);
  ColumnProblem& p = it->second;
  if (inserted) {
    p = {path_, column, "non-numeric", 0, line, std::string(cell.substr(0, 40))};
  }
  ++p.rows;
}

void ColumnIssues::short_row(uint64_t line, std::size_t fields, std::size_t expected) {
  if (short_.rows == 0) {
    short_ = {path_, "", "short rows", 0, line,
              std::to_string(fields) + " of " + std::to_string(expected) + " fields"};
  }
  ++short_.rows;
}

void ColumnIssues::flush() {
  for (auto& [col, p] : bad_) sink_.push_back(std::move(p));
  bad_.clear();
  if (short_.rows > 0) sink_.push_back(short_);
  short_ = {};
}

}  // namespace npu_doctor::profile_detail
