#include "live/incremental_scan.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "core/line_assembler.hpp"
#include "diagnosis/context_meaning.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::live {
namespace {

// A segment as the scanner's input.
class MemoryStream final : public ByteStream {
 public:
  explicit MemoryStream(std::string_view data) : data_(data) {}
  long read(char* buf, std::size_t n) override {
    n = std::min(n, data_.size() - pos_);
    std::memcpy(buf, data_.data() + pos_, n);
    pos_ += n;
    return static_cast<long>(n);
  }

 private:
  std::string_view data_;
  std::size_t pos_ = 0;
};

uint64_t count_lines_in(std::string_view s) {
  return static_cast<uint64_t>(std::count(s.begin(), s.end(), '\n'));
}

// What a terminal shows of a line a progress bar rewrote with carriage returns.
std::string_view visible_part(std::string_view line) {
  while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const auto cr = line.rfind('\r');
  return cr == std::string_view::npos ? line : line.substr(cr + 1);
}

}  // namespace

IncrementalScanOptions live_scan_options(std::size_t before, std::size_t after, std::size_t max_evidence) {
  IncrementalScanOptions o;
  o.scan.before = std::max(before, kContextRuleBefore);
  o.scan.after = std::max(after, kContextRuleAfter);
  o.scan.max_evidence = std::max<std::size_t>(1, max_evidence);
  o.scan.block_size = 1u << 20;
  o.scan.read_ahead = false;
  o.shown_before = before;
  o.shown_after = after;
  return o;
}

SourceScan::SourceScan(std::string path, std::string kind, const IncrementalScanOptions& options, uint64_t first_line)
    : options_(options), findings_(options.scan.max_evidence), lines_done_(first_line > 0 ? first_line - 1 : 0) {
  report_.path = std::move(path);
  report_.kind = std::move(kind);
}

void SourceScan::feed(std::string_view bytes, Scanner& scanner) {
  pending_.append(bytes);
  bytes_fed_ += bytes.size();
  if (pending_.size() >= options_.segment_bytes) flush(scanner, false);
}

void SourceScan::flush(Scanner& scanner, bool end_of_stream) {
  if (pending_.empty()) return;
  if (end_of_stream) {
    scan_segment(pending_, scanner);
    pending_.clear();
    return;
  }
  const auto nl = pending_.rfind('\n');
  if (nl != std::string::npos) {
    scan_segment(std::string_view(pending_).substr(0, nl + 1), scanner);
    pending_.erase(0, nl + 1);
  } else if (pending_.size() >= options_.max_pending) {
    // A line longer than we keep (a progress bar that never ends its line): scanned in
    // pieces, like the scanner does with a line longer than its block.
    scan_segment(pending_, scanner);
    pending_.clear();
  }
}

void SourceScan::scan_segment(std::string_view segment, Scanner& scanner) {
  fill_open_after(segment);

  // The scanner numbers the segment's lines from where the source is and takes the
  // context before its first lines from ours; the binary check is the first segment's.
  ScanStart start;
  start.first_line = lines_done_ + 1;
  start.tail = tail_;
  start.whole_input = report_.bytes == 0;
  InputReport r;
  r.path = report_.path;
  FindingCollector seg(options_.scan.max_evidence);
  MemoryStream in(segment);
  scanner.scan(in, 0, r, seg, start);
  const uint64_t newlines = count_lines_in(segment);
  const uint64_t segment_lines = newlines + (segment.back() == '\n' ? 0 : 1);

  if (r.status == InputStatus::skipped) {
    report_.note = "some of it looked like binary data and was not scanned";
  } else {
    std::vector<Finding> found = seg.take();
    const auto& mine = findings_.findings();
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < mine.size(); ++i) index.emplace(finding_key(mine[i]), i);
    std::size_t next_new = mine.size();
    for (const Finding& f : found) {
      std::size_t at = 0;
      std::size_t kept = 0;
      if (auto it = index.find(finding_key(f)); it != index.end()) {
        at = it->second;
        kept = mine[at].evidence.size();
      } else {
        at = next_new++;
      }
      for (std::size_t j = 0; j < f.evidence.size(); ++j) {
        const Evidence& e = f.evidence[j];
        // Its after-context stopped at the segment's end: the next segments' lines, when they come.
        const uint64_t in_segment = e.line - lines_done_;  // 1-based line within the segment
        if (e.after.size() < options_.scan.after && e.after.size() == segment_lines - in_segment &&
            kept + j < options_.scan.max_evidence) {
          open_after_.push_back({{at, kept + j}, options_.scan.after - e.after.size()});
        }
      }
    }
    findings_.merge(std::move(found));

    auto& events = report_.timeline.events;
    for (TimelineEvent& ev : r.timeline.events) {
      if (events.size() >= InputTimeline::kMaxEvents) break;
      const bool known = std::any_of(events.begin(), events.end(), [&](const TimelineEvent& e) {
        return e.entry == ev.entry && e.code == ev.code;
      });
      if (!known) events.push_back(std::move(ev));
    }
    if (!report_.timeline.first_time) report_.timeline.first_time = r.timeline.first_time;
    if (r.timeline.last_time) report_.timeline.last_time = r.timeline.last_time;
  }

  lines_done_ += newlines;
  remember_tail(segment);
  report_.bytes += segment.size();
  report_.lines = lines_done_ + (segment.back() == '\n' ? 0 : 1);
}

void SourceScan::fill_open_after(std::string_view segment) {
  if (open_after_.empty()) return;
  uint64_t n = lines_done_;
  for_each_line(segment, [&](std::string_view line) {
    if (open_after_.empty()) return;
    ++n;
    const std::string text(utf8_prefix(sanitize_line(line), options_.scan.max_text));
    for (auto& o : open_after_) {
      findings_.evidence(o.slot).after.push_back({n, text});
      --o.remaining;
    }
    std::erase_if(open_after_, [](const OpenAfter& o) { return o.remaining == 0; });
  });
}

void SourceScan::remember_tail(std::string_view segment) {
  const std::size_t keep = std::max(options_.scan.before, options_.tail_lines);
  if (keep == 0) return;
  // Only the segment's last `keep` complete lines matter; lines_done_ already counts them.
  std::size_t end = segment.rfind('\n');
  if (end == std::string_view::npos) return;
  uint64_t n = lines_done_;
  std::vector<std::pair<ContextLine, std::string>> fresh;
  while (fresh.size() < keep) {
    std::size_t from = 0;
    if (end > 0) {
      const std::size_t nl = segment.rfind('\n', end - 1);
      from = nl == std::string_view::npos ? 0 : nl + 1;
    }
    const std::string_view line = segment.substr(from, end - from);
    fresh.push_back({{n--, std::string(utf8_prefix(sanitize_line(line), options_.scan.max_text))},
                     std::string(utf8_prefix(sanitize_line(visible_part(line)), options_.scan.max_text))});
    if (from == 0) break;
    end = from - 1;
  }
  for (auto it = fresh.rbegin(); it != fresh.rend(); ++it) {
    tail_.push_back(std::move(it->first));
    shown_tail_.push_back(std::move(it->second));
  }
  while (tail_.size() > keep) {
    tail_.pop_front();
    shown_tail_.pop_front();
  }
}

std::vector<ContextLine> SourceScan::last_lines() const {
  std::vector<ContextLine> lines;
  for (std::size_t i = 0; i < tail_.size(); ++i) lines.push_back({tail_[i].line, shown_tail_[i]});
  uint64_t n = lines_done_;
  for_each_line(pending_, [&](std::string_view line) {
    ++n;
    const std::string_view shown = visible_part(line);
    if (!shown.empty()) lines.push_back({n, std::string(utf8_prefix(sanitize_line(shown), options_.scan.max_text))});
  });
  if (lines.size() > options_.tail_lines) lines.erase(lines.begin(), lines.end() - static_cast<long>(options_.tail_lines));
  return lines;
}

void SourceScan::reset_findings() {
  findings_ = FindingCollector(options_.scan.max_evidence);
  open_after_.clear();
  report_.timeline.events.clear();
  report_.timeline.first_time.reset();
}

}  // namespace npu_doctor::live
