#pragma once
// The scanner: reads a stream in large blocks and scans each in two stages
// (docs/scanning.md): the gate (one Vectorscan pass over the block) marks the few lines
// that may hold an error; only those are looked up in the knowledge base's index and
// confirmed with PCRE2. It counts line numbers only up to marked lines and takes the
// context lines before and after. Memory is one block plus a few context lines, whatever
// the input size.
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
  bool gate = true;                // false: every line to the second stage (the reference the gate is tested against)
};

// Where a stream starts, when it is one part of a larger input (a large file shared among
// threads, see file_parts.hpp): its first line's number, the lines before it (for the
// context of its first evidence), and the bytes after it (for the context of its last).
struct ScanStart {
  uint64_t first_line = 1;
  std::deque<ContextLine> tail;
  ByteStream* lookahead = nullptr;
  bool whole_input = true;  // false: a later part (the binary check was the first part's)
  bool after_frame = false;  // the line before the first is a traceback's frame (word_fallback.hpp)
};

class Scanner {
 public:
  // `words` (optional) classifies error-level lines that passed the gate and that no entry
  // claims (word_fallback.hpp).
  Scanner(const KbMatcher& matcher, const ScanOptions& options, const WordFallback* words = nullptr);

  // Scans one stream. Fills `report` (bytes, lines, status) and adds hits to `out`.
  void scan(ByteStream& in, std::size_t input_index, InputReport& report, FindingCollector& out,
            const ScanStart& start = {});

 private:
  struct Pending {  // an evidence line still waiting for its after-context
    FindingCollector::Slot slot;
    std::size_t remaining = 0;
  };
  struct BlockState;

  void process_block(std::string_view block, BlockState& st, FindingCollector& out);
  // The line starting at `line_start` comes right after a traceback's frame line.
  bool follows_frame(std::string_view block, std::size_t line_start, const BlockState& st) const;
  // `line` is CANN's report inside a PyTorch warning whose header reads as benign.
  bool in_benign_torch_warning(std::string_view line, std::string_view block, std::size_t line_start,
                               const BlockState& st) const;
  void process_line(std::string_view block, std::size_t start, uint64_t line_no, BlockState& st, FindingCollector& out);
  void fill_pending(std::string_view block, BlockState& st, FindingCollector& out);
  void read_after_context(ByteStream& in, BlockState& st, FindingCollector& out);
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
  std::vector<std::pair<std::size_t, std::size_t>> gate_ends_;  // first-stage (match end, id) in the block
  std::vector<std::size_t> stage1_found_;       // patterns the first stage found on the current line
  std::vector<LineIndex::Hit> candidates_;      // second-stage candidates of a line
  std::vector<uint32_t> seen_;                  // LineIndex working memory
  LineGrams line_grams_;                        // the four-byte pieces of the line being confirmed
  std::vector<LineHit> hits_;
};

}  // namespace npu_doctor
