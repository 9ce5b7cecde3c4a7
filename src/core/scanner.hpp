#pragma once
// The one-pass scanner: reads a stream in large blocks, runs every knowledge-base
// pattern over each block at once (Vectorscan), then, only for lines that matched,
// confirms with PCRE2, counts line numbers and takes the context lines before and
// after. Memory is one block plus a few context lines, whatever the input size.
#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "finding_collector.hpp"
#include "input_source.hpp"
#include "kb_matcher.hpp"
#include "npu_doctor/input_report.hpp"
#include "npu_doctor/line_info.hpp"
#include "word_fallback.hpp"

namespace npu_doctor {

struct ScanOptions {
  std::size_t before = 8;          // context lines kept before an evidence line
  std::size_t after = 4;           // and after it
  std::size_t max_evidence = 3;    // evidence occurrences kept per finding
  std::size_t block_size = 4u << 20;
  bool read_ahead = true;          // read the next block on a second thread (inputs over one block)
  std::size_t max_text = 2048;     // bytes of an evidence or context line shown
};

class Scanner {
 public:
  // `words` (optional) classifies error lines no entry claims; the matcher must then have
  // been built with its gate patterns.
  Scanner(const KbMatcher& matcher, const ScanOptions& options, const WordFallback* words = nullptr);

  // Scans one stream. Fills `report` (bytes, lines, status) and adds hits to `out`.
  void scan(ByteStream& in, std::size_t input_index, InputReport& report, FindingCollector& out);

 private:
  struct Pending {  // an evidence line still waiting for its after-context
    FindingCollector::Slot slot;
    std::size_t remaining = 0;
  };
  struct Match {
    std::size_t end = 0;
    std::size_t pattern = 0;
  };
  struct BlockState;

  void process_block(std::string_view block, BlockState& st, FindingCollector& out);
  void process_line(std::string_view block, std::size_t start, uint64_t line_no,
                    const std::vector<Match>& matches, BlockState& st, FindingCollector& out);
  void fill_pending(std::string_view block, BlockState& st, FindingCollector& out);
  void record_on_timeline(const LineHit& hit, uint64_t line_no, std::string_view text, const LineInfo& info,
                          bool low_level, BlockState& st) const;
  void collect_before(std::string_view block, std::size_t line_start, uint64_t line_no,
                      const BlockState& st, std::vector<ContextLine>& before) const;
  std::size_t collect_after(std::string_view block, std::size_t line_end, uint64_t line_no,
                            std::vector<ContextLine>& after) const;
  void update_tail(std::string_view block, uint64_t last_complete_line, BlockState& st) const;
  std::string context_text(std::string_view raw) const;

  const KbMatcher& matcher_;
  ScanOptions options_;
  const WordFallback* words_ = nullptr;
  PatternSet::Scratch scratch_;
  std::vector<Match> matches_;
  std::vector<LineHit> hits_;
};

}  // namespace npu_doctor
