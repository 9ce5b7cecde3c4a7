#pragma once
// What the lines above a line say about its level: two multi-line reports whose lines look
// like errors but belong to a run that went on. The scanner asks only for lines the first
// stage let through, and reads back only while the lines above still fit the report.
#include <cstddef>
#include <deque>
#include <optional>
#include <string_view>

#include "npu_doctor/finding.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor {

// Where the line that ends at `end` (its newline's index, or the block's end) begins.
std::size_t start_of_line_ending_at(std::string_view block, std::size_t end);

// Calls `visit` on each line above the one starting at `line_start`, nearest first: those of
// `block`, then `tail` (the last lines before the block, kept as context). Returns the
// first answer `visit` gives (nullopt: read on); false when the lines run out.
template <class Visit>
bool read_lines_above(std::string_view block, std::size_t line_start, const std::deque<ContextLine>& tail,
                      Visit&& visit) {
  for (std::size_t p = line_start; p > 0;) {
    const std::size_t end = p - 1;  // the newline ending the line above
    const std::size_t begin = start_of_line_ending_at(block, end);
    if (const std::optional<bool> answer = visit(strip_cr(block.substr(begin, end - begin)))) return *answer;
    p = begin;
  }
  for (auto it = tail.rbegin(); it != tail.rend(); ++it) {
    if (const std::optional<bool> answer = visit(std::string_view(it->text))) return *answer;
  }
  return false;
}

// The line without the process prefix vLLM's and Ray's multiprocess logging puts on every
// line of a child ("(EngineCore_DP0 pid=336150) ", "(RayWorkerWrapper pid=1, ip=...) ").
std::string_view without_process_prefix(std::string_view line);

// A Python traceback's line below its first: the header, or an indented frame or source line.
bool in_traceback_body(std::string_view line);

// Python prints an exception it could not raise (in a destructor, at interpreter exit, in a
// callback) as "Exception ignored in: <function X.__del__ ...>", its traceback, then the
// exception's line: the program went on, so that line is a warning, not a failure. So does
// the logging module for an exception raised while it wrote a record ("--- Logging error
// ---", then the traceback; a child's lines may carry vLLM's process prefix). Whether
// the line starting at `line_start` ends such a report: the lines above it, up to the
// marker, are all the traceback's (its header or indented frames and code). A report cut
// farther up than `tail` reaches is read as a plain exception.
bool ends_ignored_exception(std::string_view block, std::size_t line_start, const std::deque<ContextLine>& tail);

// A logger that writes an exception with its traceback ("AsyncLLM output_handler failed.",
// then "Traceback (most recent call last):", frames, the exception) heads it with its own
// message. When `line`, starting at `line_start`, ends such a traceback (every line between
// it and the "Traceback" line is the traceback's, all under the same record prefix, e.g.
// vLLM's "(APIServer pid=1) ERROR 08-14 03:02:46 [async_llm.py:707] "): how many lines above
// it the heading line is. 0: no such traceback, or it reaches farther up than `tail`.
std::size_t traceback_header_distance(std::string_view line, std::string_view block, std::size_t line_start,
                                      const std::deque<ContextLine>& tail);

// PyTorch's warnings (TORCH_WARN, and torch_npu's "NPU warning, error code is N" that appends
// CANN's error-manager report) are one record over several lines: "[W... file:N] Warning: "
// then the message, closed by " (function NAME)". The error-manager lines inside
// ("EH9999: Inner Error!", "[Error]: ...", indented details, "TraceBack") are part of the
// warning. When `line` is such a report line and the lines above it lead, through report
// lines only, to a warning header whose record is still open: that header line.
std::optional<std::string_view> torch_warning_header_of(std::string_view line, std::string_view block,
                                                        std::size_t line_start, const std::deque<ContextLine>& tail);

}  // namespace npu_doctor
