// The multi-line reports the scanner reads back through (lines_above.hpp).
#include "lines_above.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "npu_doctor/line_info.hpp"

namespace npu_doctor {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A line CANN's error manager writes into a report: "EH9999: Inner Error!", "EZ9999[PID: 1]",
// "[Error]: The vector core execution is abnormal.", an indented detail or "TraceBack" line.
bool is_error_manager_line(std::string_view line) {
  if (line.empty()) return false;
  if (line.front() == ' ' || line.front() == '\t') return true;
  if (line.starts_with("[Error]:") || line.starts_with("TraceBack")) return true;
  return line.size() >= 7 && message_code_at(line, 0) && (line[6] == ':' || line[6] == '[');
}

// c10's warning line: "[W compiler_depend.ts:316] Warning: ..." or "[W1230 06:28:14.5 file.cpp:52] Warning: ...",
// possibly after a rank prefix ("[rank3]:[W...").
bool is_torch_warning_header(std::string_view line) {
  const std::string_view head = line.substr(0, std::min<std::size_t>(line.size(), 200));
  const std::size_t warning = head.find("] Warning: ");
  if (warning == std::string_view::npos) return false;
  const std::size_t open = head.rfind("[W", warning);
  return open != std::string_view::npos && open + 2 < head.size() && (head[open + 2] == ' ' || is_digit(head[open + 2]));
}

// c10 closes a warning's message with " (function NAME)".
bool closes_torch_warning(std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  if (line.empty() || line.back() != ')') return false;
  const std::size_t open = line.rfind("(function ");
  return open != std::string_view::npos && (open == 0 || line[open - 1] == ' ');
}

}  // namespace

std::string_view without_process_prefix(std::string_view line) {
  // "(EngineCore_DP0 pid=336150) ", "(RayWorkerWrapper pid=134738, ip=10.0.0.1) "
  if (line.size() < 8 || line.front() != '(') return line;
  const std::size_t close = line.substr(0, 120).find(") ");
  if (close == std::string_view::npos) return line;
  const std::string_view inside = line.substr(1, close - 1);
  const std::size_t pid = inside.find(" pid=");
  if (pid == std::string_view::npos || pid == 0 || inside.find(' ') != pid) return line;
  return line.substr(close + 2);
}

std::size_t start_of_line_ending_at(std::string_view block, std::size_t end) {
  const void* nl = end == 0 ? nullptr : memrchr(block.data(), '\n', end);
  return nl == nullptr ? 0 : static_cast<std::size_t>(static_cast<const char*>(nl) - block.data()) + 1;
}

bool in_traceback_body(std::string_view line) {
  return (!line.empty() && (line.front() == ' ' || line.front() == '\t')) ||
         line.starts_with("Traceback (most recent call last)");
}

bool ends_ignored_exception(std::string_view block, std::size_t line_start, const std::deque<ContextLine>& tail) {
  constexpr std::size_t kMaxTracebackLines = 200;
  std::size_t read = 0;
  return read_lines_above(block, line_start, tail, [&](std::string_view l) -> std::optional<bool> {
    l = without_process_prefix(l);
    // Python's marker of an exception it could not raise, and the logging module's marker
    // of an exception raised while it wrote a record (Handler.handleError).
    if (l.starts_with("Exception ignored ") || l.starts_with("--- Logging error ---")) {
      return read > 0;  // a marker right above a line is no report
    }
    if (!in_traceback_body(l) || ++read >= kMaxTracebackLines) return false;
    return std::nullopt;
  });
}

std::size_t traceback_header_distance(std::string_view line, std::string_view block, std::size_t line_start,
                                      const std::deque<ContextLine>& tail) {
  constexpr std::size_t kMaxTracebackLines = 200;
  constexpr std::string_view kTraceback = "Traceback (most recent call last):";
  // The lines walked from the nearest up, until the "Traceback" line tells the prefix; views
  // into the block or the tail, both alive for this call.
  std::vector<std::string_view> walked;
  std::string_view prefix;
  bool traceback_seen = false;
  std::size_t header = 0;
  read_lines_above(block, line_start, tail, [&](std::string_view l) -> std::optional<bool> {
    if (traceback_seen) {  // the line above the "Traceback" line: the header, under the same prefix
      const bool heads = l.starts_with(prefix) && l.size() > prefix.size() && !in_traceback_body(l.substr(prefix.size()));
      if (heads) header = walked.size() + 1;
      return heads;
    }
    const std::size_t at = l.substr(0, 300).find(kTraceback);
    if (at == std::string_view::npos) {
      if (walked.size() >= kMaxTracebackLines) return false;
      walked.push_back(l);
      return std::nullopt;
    }
    prefix = l.substr(0, at);
    const bool frames_fit = !walked.empty() && line.starts_with(prefix) && !in_traceback_body(line.substr(prefix.size())) &&
                            std::all_of(walked.begin(), walked.end(), [&](std::string_view w) {
      return w.starts_with(prefix) && in_traceback_body(w.substr(prefix.size()));
    });
    if (!frames_fit) return false;
    walked.push_back(l);
    traceback_seen = true;
    return std::nullopt;
  });
  return header;
}

std::optional<std::string_view> torch_warning_header_of(std::string_view line, std::string_view block,
                                                        std::size_t line_start, const std::deque<ContextLine>& tail) {
  // Reports are a few dozen lines (the error manager's TraceBack included).
  constexpr std::size_t kMaxReportLines = 64;
  if (!is_error_manager_line(without_process_prefix(line))) return std::nullopt;
  std::size_t read = 0;
  std::optional<std::string_view> header;
  read_lines_above(block, line_start, tail, [&](std::string_view l) -> std::optional<bool> {
    l = without_process_prefix(l);
    if (is_torch_warning_header(l)) {
      if (!closes_torch_warning(l)) header = l;
      return true;
    }
    if (!is_error_manager_line(l) || closes_torch_warning(l) || ++read >= kMaxReportLines) return false;
    return std::nullopt;
  });
  return header;
}

}  // namespace npu_doctor
