#include "scanner.hpp"

#include "chunk_reader.hpp"
#include "lines_above.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "npu_doctor/line_info.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor {
namespace {

constexpr std::size_t kBinaryProbeBytes = 64 * 1024;
// Lines longer than this are confirmed in windows around each match, not whole.
constexpr std::size_t kLongLine = 64 * 1024;
constexpr std::size_t kWindow = 8 * 1024;
// The piece of a block scanned at once (Scanner::scan): it stays in a core's L2 between the
// first stage and the newline count (64 KiB, 256 KiB and 1 MiB measured alike, 4 MiB ~8% more
// user time; bench/README.md, "Mapped input").
constexpr std::size_t kPiece = 256 * 1024;

std::size_t find_newline(std::string_view s, std::size_t from) {
  if (from >= s.size()) return std::string_view::npos;
  const void* p = std::memchr(s.data() + from, '\n', s.size() - from);
  return p == nullptr ? std::string_view::npos : static_cast<std::size_t>(static_cast<const char*>(p) - s.data());
}

// Newlines in s. Byte counters over chunks of 16 let the compiler vectorise the loop
// (tens of GB/s on x86-64 and aarch64, against ~2 GB/s for std::count).
uint64_t count_newlines(std::string_view s) {
  const char* p = s.data();
  std::size_t n = s.size();
  uint64_t total = 0;
  while (n > 0) {
    const std::size_t chunk = std::min<std::size_t>(n, 255 * 16);  // a byte counter never overflows
    unsigned char acc[16] = {};
    std::size_t i = 0;
    for (; i + 16 <= chunk; i += 16) {
      for (std::size_t j = 0; j < 16; ++j) acc[j] = static_cast<unsigned char>(acc[j] + (p[i + j] == '\n'));
    }
    for (unsigned char a : acc) total += a;
    for (; i < chunk; ++i) total += p[i] == '\n' ? 1 : 0;
    p += chunk;
    n -= chunk;
  }
  return total;
}

// The first time stamp among the first lines of an input.
std::optional<Timestamp> first_timestamp(std::string_view block) {
  std::size_t begin = 0;
  for (int n = 0; n < 50 && begin < block.size(); ++n) {
    std::size_t end = block.find('\n', begin);
    if (end == std::string_view::npos) end = block.size();
    if (auto t = find_timestamp(block.substr(begin, std::min<std::size_t>(end - begin, 512)))) return t;
    begin = end + 1;
  }
  return std::nullopt;
}

// A log pasted without its newlines (a web page, a document) holds several records on one
// line, each glued to the end of the one before: "...path....[ERROR] create ... failed". The
// line's level is its first record's; a match after such a glued "[ERROR]" is an error. A
// marker after a space or a colon is part of the message ("[WARNING] [ERROR] ... ERR00007":
// a warning that quotes an error).
LineLevel level_at(std::string_view line, LineLevel line_level, std::size_t match_begin) {
  if (line_level == LineLevel::error || line_level == LineLevel::unknown || match_begin == 0) return line_level;
  constexpr std::string_view kMarker = "[ERROR]";  // the match may start with it
  const std::string_view head = line.substr(0, match_begin + kMarker.size());
  for (std::size_t m = head.find(kMarker, 1); m != std::string_view::npos; m = head.find(kMarker, m + 1)) {
    const char before = head[m - 1];
    if (before != ' ' && before != '\t' && before != ':' && before != '[' && before != '(') return LineLevel::error;
  }
  return line_level;
}

// The part of `line` worth showing for a match at [begin, end): the carriage-return
// segment holding it (progress bars rewrite one line many times), at most `max` bytes.
std::string evidence_text(std::string_view line, std::size_t begin, std::size_t end, std::size_t max) {
  begin = std::min(begin, line.size());
  end = std::clamp(end, begin, line.size());
  std::size_t seg_start = 0;
  if (begin > 0) {
    const auto cr = line.rfind('\r', begin - 1);
    if (cr != std::string_view::npos) seg_start = cr + 1;
  }
  std::size_t seg_end = line.find('\r', end);
  if (seg_end == std::string_view::npos) seg_end = line.size();
  std::string_view seg = line.substr(seg_start, seg_end - seg_start);
  begin -= seg_start;
  if (seg.size() <= max) return sanitize_line(seg);
  // Centre a window of `max` bytes on the match.
  std::size_t from = begin > max / 4 ? begin - max / 4 : 0;
  from = std::min(from, seg.size() - max);
  std::string out = from > 0 ? "…" : "";
  out += sanitize_line(seg.substr(from, max));
  if (from + max < seg.size()) out += "…";
  return out;
}

}  // namespace

struct Scanner::BlockState {
  std::size_t input = 0;
  std::string path;
  InputTimeline* timeline = nullptr;
  std::vector<std::string> recorded;  // keys of findings already on the timeline
  uint64_t first_line = 1;             // line number of the block's first byte
  std::deque<ContextLine> tail;        // last lines before this block
  std::vector<Pending> pending;
  std::size_t words_left = WordFallback::kMaxLinesPerInput;  // lines the word fallback may still read
  bool previous_frame = false;  // the last line of the previous block is a traceback's frame
};

Scanner::Scanner(const KbMatcher& matcher, const ScanOptions& options, const WordFallback* words)
    : matcher_(matcher), options_(options), words_(words), scratch_(matcher.gate().make_scratch()) {}

std::string Scanner::context_text(std::string_view raw) const {
  return std::string(utf8_prefix(sanitize_line(raw), options_.max_text));
}

void Scanner::scan(ByteStream& in, std::size_t input_index, InputReport& report, FindingCollector& out,
                   const ScanStart& start) {
  ChunkReader reader(in, options_.block_size, options_.read_ahead);
  bool first = start.whole_input;  // a later part of a file was checked with its first part
  BlockState st;
  st.input = input_index;
  st.path = report.path;
  st.timeline = &report.timeline;
  st.first_line = start.first_line;
  st.tail = start.tail;
  st.previous_frame = start.after_frame;
  uint64_t bytes = 0;
  bool last_byte_newline = true;
  std::string_view carry;

  for (;;) {
    const ChunkReader::Chunk chunk = reader.next(carry);
    const std::string_view view = chunk.view;
    if (first) {
      first = false;
      if (looks_binary(view.substr(0, kBinaryProbeBytes))) {
        report.status = InputStatus::skipped;
        report.note = "binary data, not a text log";
        return;
      }
    }
    if (view.empty()) break;
    std::size_t cut = view.size();
    if (!chunk.eof) {
      // Scan whole lines; the unfinished last line is carried into the next chunk. A chunk
      // without any line end (a huge line) is scanned whole and the line continues next time.
      const void* nl = memrchr(view.data(), '\n', view.size());
      if (nl != nullptr) cut = static_cast<std::size_t>(static_cast<const char*>(nl) - view.data()) + 1;
    }
    const std::string_view block = view.substr(0, cut);
    if (!report.timeline.first_time) report.timeline.first_time = first_timestamp(block);
    // In pieces of whole lines small enough to stay in the core's cache between the first
    // stage and the newline count that follows it (which otherwise reads the block again
    // from memory). A line is never cut here: a piece without a newline runs to the next one.
    for (std::size_t from = 0; from < block.size();) {
      std::size_t to = block.size();
      if (block.size() - from > kPiece) {
        const std::size_t nl = find_newline(block, from + kPiece - 1);
        if (nl != std::string_view::npos) to = nl + 1;
      }
      process_block(block.substr(from, to - from), st, out);
      from = to;
    }
    bytes += cut;
    last_byte_newline = block.back() == '\n';
    carry = view.substr(cut);
    if (chunk.eof) break;
  }
  // Evidence near the end of a part still wants its lines after: read them from what follows.
  if (start.lookahead != nullptr && !st.pending.empty()) read_after_context(*start.lookahead, st, out);
  const std::string& read_error = reader.error();
  report.bytes = bytes;
  report.lines = bytes == 0 ? 0 : st.first_line - start.first_line + (last_byte_newline ? 0 : 1);
  for (auto it = st.tail.rbegin(); it != st.tail.rend() && !report.timeline.last_time; ++it) {
    report.timeline.last_time = find_timestamp(it->text);
  }
  if (!read_error.empty()) {
    report.status = bytes == 0 ? InputStatus::error : InputStatus::partial;
    report.note = "read stopped after " + std::to_string(bytes) + " bytes: " + read_error;
  }
}

void Scanner::process_block(std::string_view block, BlockState& st, FindingCollector& out) {
  fill_pending(block, st, out);
  if (!options_.gate) {
    // Every line to the second stage: the reference the gate is checked against.
    uint64_t line_no = st.first_line;
    stage1_found_ = matcher_.unindexed_ungated();  // without the first stage: every line
    for (std::size_t start = 0; start < block.size(); ++line_no) {
      std::size_t end = find_newline(block, start);
      if (end == std::string_view::npos) end = block.size();
      process_line(block, start, line_no, st, out);
      start = end + 1;
    }
    const uint64_t next_first_line = st.first_line + count_newlines(block);
    update_tail(block, next_first_line - 1, st);
    st.first_line = next_first_line;
    return;
  }
  // First stage: the gate marks lines; only they go on. Matches come in order of their end.
  gate_ends_.clear();
  std::string error;
  matcher_.gate().scan(block, scratch_, [&](std::size_t id, std::size_t end) { gate_ends_.push_back({end, id}); }, error);
  std::sort(gate_ends_.begin(), gate_ends_.end());

  // Walk the marked lines in order, counting newlines only up to each one.
  std::size_t cursor = 0;
  std::size_t line_start = 0;
  std::size_t line_end = 0;  // end of the last line processed (exclusive of its newline)
  bool any = false;
  uint64_t line_no = st.first_line;
  for (std::size_t g = 0; g < gate_ends_.size(); ++g) {
    const std::size_t end = gate_ends_[g].first;
    const std::size_t pos = end == 0 ? 0 : end - 1;
    if (any && pos <= line_end) continue;  // the same line again
    if (pos > cursor) {
      const uint64_t newlines = count_newlines(block.substr(cursor, pos - cursor));
      if (newlines > 0) {
        line_no += newlines;
        const void* nl = memrchr(block.data() + cursor, '\n', pos - cursor);
        line_start = static_cast<std::size_t>(static_cast<const char*>(nl) - block.data()) + 1;
      }
      cursor = pos;
    }
    line_end = find_newline(block, line_start);
    if (line_end == std::string_view::npos) line_end = block.size();
    // The patterns the first stage itself found on this line and the index cannot offer.
    stage1_found_.clear();
    for (std::size_t k = g; k < gate_ends_.size() && gate_ends_[k].first - 1 <= line_end; ++k) {
      const std::size_t p = matcher_.stage1_pattern(gate_ends_[k].second);
      if (p != std::string::npos) stage1_found_.push_back(p);
    }
    process_line(block, line_start, line_no, st, out);
    any = true;
  }
  const uint64_t rest = count_newlines(block.substr(cursor));
  const uint64_t next_first_line = line_no + rest;
  update_tail(block, next_first_line - 1, st);
  st.first_line = next_first_line;
}

void Scanner::process_line(std::string_view block, std::size_t start, uint64_t line_no, BlockState& st,
                           FindingCollector& out) {
  std::size_t line_end = find_newline(block, start);
  if (line_end == std::string_view::npos) line_end = block.size();
  const std::string_view line = strip_cr(block.substr(start, line_end - start));
  if (line.empty()) return;
  // Second stage: the patterns whose literals the line holds, confirmed one by one. What
  // the line says of itself (level, module, time) is read only when some pattern may match:
  // most lines the gate lets through are healthy lines holding a common error word.
  hits_.clear();
  candidates_.clear();
  // An error-level-only pattern is confirmed only on an error line (KbMatcher::confirm), so
  // the index leaves it out of other lines' candidates. The confirmations read the same level
  // (parse_line_head below).
  LineLevel line_level = find_level(line);
  const LineLevel own_level = line_level;  // before the reports below re-read it
  // The exception line of a report Python printed as ignored is no failure of the run; nor
  // is CANN's report inside a PyTorch warning whose own code the knowledge base reads as
  // benign (lines_above.hpp).
  if (line_level == LineLevel::unknown && !in_traceback_body(without_process_prefix(line)) &&
      ends_ignored_exception(block, start, st.tail)) {
    line_level = LineLevel::warning;
  } else if (line_level != LineLevel::warning && in_benign_torch_warning(line, block, start, st)) {
    line_level = LineLevel::warning;
  }
  const bool error_line = line_level == LineLevel::error;
  if (line.size() <= kLongLine) {
    matcher_.index().candidates(line, candidates_, seen_, error_line);
  } else {
    matcher_.index().all_positions(line, candidates_, error_line);
  }
  for (std::size_t p : stage1_found_) {
    if (std::find(matcher_.unindexed_ungated().begin(), matcher_.unindexed_ungated().end(), p) !=
        matcher_.unindexed_ungated().end()) {
      candidates_.push_back({p, 0});
    }
  }
  // A line no pattern may match is done, unless the word fallback wants to read it. Not
  // the source line a traceback's frame shows under it: code, not what went wrong (asked
  // last: most lines are no candidate anyway).
  const bool for_words = words_ != nullptr && st.words_left > 0;
  const auto words_read = [&](LineLevel level) {
    return for_words && words_->is_candidate(line, level) && !follows_frame(block, start, st);
  };
  if (candidates_.empty() && !words_read(line_level)) return;
  // What the confirmations read (the level and plog module) now; the rest of what the line
  // says of itself only if something matched: most candidates are turned down.
  const std::string_view info_text = line.substr(0, std::min<std::size_t>(line.size(), 1024));
  LineInfo info = parse_line_head(info_text, line_level);
  if (line.size() <= kLongLine) {
    std::sort(candidates_.begin(), candidates_.end(), [](const auto& a, const auto& b) { return a.pattern < b.pattern; });
    // The line's four-byte pieces, read once, turn most candidates down before PCRE2 (for
    // one or two candidates, reading them costs about what it saves).
    const bool filter = candidates_.size() > 2;
    if (filter) line_grams_.read(line);
    for (const auto& c : candidates_) matcher_.confirm(c.pattern, line, info, hits_, filter ? &line_grams_ : nullptr);
  } else {
    // A huge line (a flattened traceback, a binary blob): confirm in windows around each
    // place a pattern's literal occurs.
    std::sort(candidates_.begin(), candidates_.end(), [](const auto& a, const auto& b) {
      return std::pair(a.pattern, a.position) < std::pair(b.pattern, b.position);
    });
    std::size_t last_window_end = 0;
    std::size_t last_pattern = static_cast<std::size_t>(-1);
    for (const auto& c : candidates_) {
      if (c.pattern == last_pattern && c.position + kWindow / 2 <= last_window_end) continue;
      const std::size_t from = c.position > kWindow ? c.position - kWindow : 0;
      const std::size_t to = std::min(line.size(), c.position + kWindow);
      const std::size_t before = hits_.size();
      matcher_.confirm(c.pattern, line.substr(from, to - from), info, hits_);
      for (std::size_t i = before; i < hits_.size(); ++i) {
        hits_[i].begin += from;
        hits_[i].end += from;
      }
      last_pattern = c.pattern;
      last_window_end = to;
    }
  }
  dedupe_hits(hits_);

  // The word fallback: an error line that no entry claims (or only a wrapper) is
  // classified by its words (word_fallback.hpp, docs/root-cause.md).
  if (WordFallback::unclaimed(hits_) && words_read(info.level)) {
    --st.words_left;
    if (auto hit = words_->classify(line)) hits_.push_back(std::move(*hit));
  }

  if (hits_.empty()) return;
  parse_line_details(info_text, info);
  const bool low_level = info.level == LineLevel::info || info.level == LineLevel::debug || info.level == LineLevel::warning;
  std::optional<uint64_t> traceback_header;  // read once, for the first evidence kept
  for (const LineHit& hit : hits_) {
    const LineLevel level = own_level == info.level ? level_at(line, info.level, hit.begin) : info.level;
    record_on_timeline(hit, line_no, line, info, low_level && level != LineLevel::error, st);
    auto slot = out.record(hit, level);
    if (!slot) continue;
    Evidence& ev = out.evidence(*slot);
    ev.input = st.input;
    ev.path = st.path;
    ev.line = line_no;
    ev.text = evidence_text(line, hit.begin, hit.end, options_.max_text);
    ev.time = info.time;
    ev.rank = info.rank;
    ev.device = info.device;
    ev.pid = info.pid;
    ev.module = info.module;
    ev.captures = hit.captures;
    collect_before(block, start, line_no, st, ev.before);
    if (!traceback_header) {
      const std::size_t above = traceback_header_distance(line, block, start, st.tail);
      traceback_header = above == 0 ? 0 : line_no - above;
    }
    ev.traceback_header_line = *traceback_header;
    const std::size_t got = collect_after(block, line_end, line_no, ev.after);
    if (got < options_.after) st.pending.push_back({*slot, options_.after - got});
  }
}

void Scanner::record_on_timeline(const LineHit& hit, uint64_t line_no, std::string_view text, const LineInfo& info,
                                 bool low_level, BlockState& st) const {
  if (st.timeline == nullptr || st.timeline->events.size() >= InputTimeline::kMaxEvents) return;
  if (hit.words) return;  // a guess from words is no event for the cross-rank analysis
  std::string key = hit.entry->id + "#" + hit.code;
  if (std::find(st.recorded.begin(), st.recorded.end(), key) != st.recorded.end()) return;
  st.recorded.push_back(std::move(key));
  TimelineEvent ev;
  ev.entry = hit.entry;
  ev.code = hit.code;
  ev.line = line_no;
  ev.time = info.time;
  ev.rank = info.rank;
  ev.low_level = low_level;
  ev.specificity = hit.specificity;
  ev.captures = hit.captures;
  // Memory stays small for thousands of ranks: only error-level events keep their text.
  if (hit.entry->severity >= Severity::error) ev.text = std::string(utf8_prefix(sanitize_line(text), 300));
  st.timeline->events.push_back(std::move(ev));
}

void Scanner::collect_before(std::string_view block, std::size_t line_start, uint64_t line_no,
                             const BlockState& st, std::vector<ContextLine>& before) const {
  std::vector<ContextLine> rev;
  std::size_t p = line_start;
  uint64_t n = line_no;
  while (rev.size() < options_.before && p > 0) {
    // block[p - 1] is the newline ending the previous line.
    const std::size_t end = p - 1;
    const std::size_t begin = start_of_line_ending_at(block, end);
    rev.push_back({--n, context_text(block.substr(begin, end - begin))});
    p = begin;
  }
  // Not enough lines in this block: the previous blocks' last lines.
  for (auto it = st.tail.rbegin(); rev.size() < options_.before && it != st.tail.rend(); ++it) {
    if (p == 0 && it->line < n) rev.push_back(*it);
  }
  before.assign(rev.rbegin(), rev.rend());
}

std::size_t Scanner::collect_after(std::string_view block, std::size_t line_end, uint64_t line_no,
                                   std::vector<ContextLine>& after) const {
  std::size_t p = line_end;
  uint64_t n = line_no;
  while (after.size() < options_.after && p < block.size()) {
    const std::size_t begin = p + 1;
    if (begin >= block.size()) break;
    std::size_t end = find_newline(block, begin);
    if (end == std::string_view::npos) end = block.size();
    after.push_back({++n, context_text(block.substr(begin, end - begin))});
    p = end;
  }
  return after.size();
}

void Scanner::fill_pending(std::string_view block, BlockState& st, FindingCollector& out) {
  if (st.pending.empty()) return;
  std::size_t begin = 0;
  uint64_t n = st.first_line;
  while (!st.pending.empty() && begin < block.size()) {
    std::size_t end = find_newline(block, begin);
    if (end == std::string_view::npos) end = block.size();
    const std::string text = context_text(block.substr(begin, end - begin));
    for (auto& p : st.pending) {
      out.evidence(p.slot).after.push_back({n, text});
      --p.remaining;
    }
    std::erase_if(st.pending, [](const Pending& p) { return p.remaining == 0; });
    begin = end + 1;
    ++n;
  }
}

void Scanner::read_after_context(ByteStream& in, BlockState& st, FindingCollector& out) {
  // fill_pending() numbers lines from st.first_line: advance it over what is read here,
  // then restore it (the part's own line count must not include these lines).
  const uint64_t first_line = st.first_line;
  std::string buf(64 * 1024, '\0');
  std::string lines;
  while (!st.pending.empty()) {
    const long n = in.read(buf.data(), buf.size());
    if (n <= 0) break;
    lines.append(buf.data(), static_cast<std::size_t>(n));
    const auto last_nl = lines.rfind('\n');
    if (last_nl == std::string::npos) continue;
    const std::string_view complete = std::string_view(lines).substr(0, last_nl + 1);
    fill_pending(complete, st, out);
    st.first_line += count_newlines(complete);
    lines.erase(0, last_nl + 1);
  }
  if (!st.pending.empty() && !lines.empty()) fill_pending(lines, st, out);
  st.first_line = first_line;
}

bool Scanner::follows_frame(std::string_view block, std::size_t line_start, const BlockState& st) const {
  if (line_start == 0) return st.previous_frame;
  // block[line_start - 1] is the newline ending the previous line.
  const std::size_t end = line_start - 1;
  const std::size_t begin = start_of_line_ending_at(block, end);
  return is_traceback_frame(block.substr(begin, end - begin));
}

// The header's own hits decide: all below error (torch_npu's "NPU warning, error code is
// 100037" for a second aclFinalize) make the report a warning; an error code (507035) or a
// header no entry reads keeps the report's lines as they are.
bool Scanner::in_benign_torch_warning(std::string_view line, std::string_view block, std::size_t line_start,
                                      const BlockState& st) const {
  const auto header = torch_warning_header_of(line, block, line_start, st.tail);
  if (!header) return false;
  const std::vector<LineHit> hits = matcher_.match_line(*header);
  return !hits.empty() && std::all_of(hits.begin(), hits.end(), [](const LineHit& h) {
    return h.entry != nullptr && h.entry->severity < Severity::error;
  });
}

void Scanner::update_tail(std::string_view block, uint64_t last_complete_line, BlockState& st) const {
  // The last `before` complete lines of the block, numbered, for the next block's context.
  const void* last_nl = memrchr(block.data(), '\n', block.size());
  if (last_nl == nullptr) {  // a piece of one long line: keep the old tail
    st.previous_frame = false;
    return;
  }
  std::size_t end = static_cast<std::size_t>(static_cast<const char*>(last_nl) - block.data());
  st.previous_frame = follows_frame(block, end + 1, st);
  uint64_t n = last_complete_line;
  std::deque<ContextLine> fresh;
  while (fresh.size() < options_.before) {
    const std::size_t begin = start_of_line_ending_at(block, end);
    fresh.push_front({n--, context_text(block.substr(begin, end - begin))});
    if (begin == 0) break;
    end = begin - 1;
  }
  while (fresh.size() < options_.before && !st.tail.empty()) {
    fresh.push_front(st.tail.back());
    st.tail.pop_back();
  }
  st.tail = std::move(fresh);
}

}  // namespace npu_doctor
