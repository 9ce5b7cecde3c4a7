#pragma once
// Scanning a stream that is still being written (a job's stdout, a growing plog): bytes
// are fed as they come and scanned in segments of whole lines with the ordinary
// Scanner, so the result is the one a scan of the whole stream gives (differential
// test: tests/live/incremental_scan_test.cpp): line numbers continue from segment to
// segment, context lines before an evidence line come from the previous segments, those
// after it from the next, and the time line is merged.
//
// Each segment is one Scanner::scan over a memory stream with a ScanStart (where the
// source is: its line number and the lines before); what the scanner cannot know yet, the
// lines after an evidence line at a segment's end, is filled in here as they arrive.
// Memory: the unscanned bytes (at most `max_pending`), a few context lines and the
// bounded findings of the source.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding_collector.hpp"
#include "core/scanner.hpp"
#include "npu_doctor/input_report.hpp"

namespace npu_doctor::live {

struct IncrementalScanOptions {
  ScanOptions scan;                       // context lines, evidence per finding, block size
  std::size_t segment_bytes = 256u << 10;  // feed() scans once this many bytes wait
  std::size_t max_pending = 4u << 20;      // a line longer than this is scanned in pieces
  std::size_t tail_lines = 10;             // last lines kept for a hang report
  // The context lines a report shows (-B/-A); `scan` keeps at least the context rules' lines.
  std::size_t shown_before = 8;
  std::size_t shown_after = 4;
};

// The options live scanning uses: blocks of 1 MiB, no read-ahead thread, `before`/`after`
// context lines shown (kept: at least the context rules' own, kContextRuleBefore/After).
IncrementalScanOptions live_scan_options(std::size_t before, std::size_t after, std::size_t max_evidence);

class SourceScan {
 public:
  // `first_line`: the line number of the first byte fed (a file followed from its middle).
  SourceScan(std::string path, std::string kind, const IncrementalScanOptions& options, uint64_t first_line = 1);

  // Appends bytes; scans the whole lines waiting once there are enough of them.
  void feed(std::string_view bytes, Scanner& scanner);
  // Scans every whole line waiting; with `end_of_stream` also an unfinished last line.
  void flush(Scanner& scanner, bool end_of_stream = false);

  const std::string& path() const { return report_.path; }
  // Bytes, lines, status and time line of what was scanned so far.
  const InputReport& report() const { return report_; }
  const FindingCollector& findings() const { return findings_; }
  uint64_t bytes_fed() const { return bytes_fed_; }
  // The last lines (at most tail_lines) as a terminal showed them, numbered: the
  // complete lines scanned, then those waiting, the unfinished one last.
  std::vector<ContextLine> last_lines() const;

  // Forgets the findings and the time-line events so far (`watch`, after an incident is
  // reported); line numbers, context and the time span carry on.
  void reset_findings();

 private:
  struct OpenAfter {  // evidence still waiting for lines after it
    FindingCollector::Slot slot;
    std::size_t remaining = 0;
  };

  void scan_segment(std::string_view segment, Scanner& scanner);
  void fill_open_after(std::string_view segment);
  void remember_tail(std::string_view segment);

  IncrementalScanOptions options_;
  InputReport report_;
  FindingCollector findings_;
  std::string pending_;         // fed, not yet scanned
  uint64_t lines_done_ = 0;  // newlines scanned so far (plus first_line - 1)
  uint64_t bytes_fed_ = 0;
  std::deque<ContextLine> tail_;        // last complete lines, as context lines
  std::deque<std::string> shown_tail_;  // the same lines as a terminal showed them (after the last CR)
  std::vector<OpenAfter> open_after_;
};

}  // namespace npu_doctor::live
