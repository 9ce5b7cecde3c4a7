#include "live/live_sources.hpp"

#include <algorithm>

#include "diagnosis/context_meaning.hpp"
#include "diagnosis/expected_errors.hpp"

namespace npu_doctor::live {

LiveSources::LiveSources(const KbMatcher& matcher, IncrementalScanOptions options)
    : options_(options), scanner_(matcher, options.scan) {}

std::size_t LiveSources::add_stream(std::string name, std::string kind) {
  Source src;
  src.scan = std::make_unique<SourceScan>(std::move(name), std::move(kind), options_);
  sources_.push_back(std::move(src));
  return sources_.size() - 1;
}

void LiveSources::feed(std::size_t index, std::string_view bytes) { sources_[index].scan->feed(bytes, scanner_); }

void LiveSources::end(std::size_t index) {
  Source& s = sources_[index];
  if (s.ended) return;
  s.scan->flush(scanner_, true);
  s.ended = true;
}

void LiveSources::flush_all(bool end_of_streams) {
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    if (end_of_streams) {
      end(i);
    } else if (!sources_[i].ended) {
      sources_[i].scan->flush(scanner_, false);
    }
  }
}

void LiveSources::opened(std::size_t id, const std::string& path, uint64_t first_line) {
  Source src;
  src.scan = std::make_unique<SourceScan>(path, "file", options_, first_line);
  src.follow_id = id;
  sources_.push_back(std::move(src));
  by_id_[id] = sources_.size() - 1;
  ++files_opened_;
}

void LiveSources::data(std::size_t id, std::string_view bytes) {
  if (auto it = by_id_.find(id); it != by_id_.end()) feed(it->second, bytes);
}

void LiveSources::closed(std::size_t id) {
  if (auto it = by_id_.find(id); it != by_id_.end()) {
    end(it->second);
    by_id_.erase(it);
  }
}

DiagnosisReport LiveSources::report(const KnowledgeBase& kb, const ClusterOptions& cluster, std::vector<Finding> extra,
                                    bool only_with_findings) const {
  DiagnosisReport r;
  r.kb_version = kb.version();
  r.kb_entries = kb.entries().size();
  FindingCollector all(options_.scan.max_evidence);
  for (const Source& s : sources_) {
    if (only_with_findings && s.scan->findings().findings().empty()) continue;
    FindingCollector mine = s.scan->findings();
    mine.offset_inputs(r.inputs.size());
    all.merge(std::move(mine));
    r.inputs.push_back(s.scan->report());
  }
  r.findings = all.take();
  for (Finding& f : extra) r.findings.push_back(std::move(f));
  r.warnings = attribute_ranks(r.inputs, {});
  conclude_diagnosis(r, kb, cluster, expected_.get());
  trim_context(r.findings, options_.shown_before, options_.shown_after);
  return r;
}

std::vector<std::string> LiveSources::new_error_keys() {
  std::vector<std::string> keys;
  for (Source& s : sources_) {
    for (const Finding& f : s.scan->findings().findings()) {
      if (effective_severity(f) < Severity::error) continue;
      if (expected_ != nullptr && expected_->match(f) != nullptr) continue;
      const std::string key = finding_key(f);
      uint64_t& seen = s.seen[key];
      if (f.count > seen) {
        seen = f.count;
        keys.push_back(key);
      }
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

void LiveSources::reset_findings() {
  std::erase_if(sources_, [](const Source& s) { return s.ended; });
  for (Source& s : sources_) {
    s.scan->reset_findings();
    s.seen.clear();
  }
  reindex();
}

void LiveSources::prune_ended() {
  const auto before = sources_.size();
  std::erase_if(sources_, [](const Source& s) { return s.ended && s.scan->findings().findings().empty(); });
  if (sources_.size() != before) reindex();
}

void LiveSources::reindex() {
  by_id_.clear();
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    if (sources_[i].follow_id != static_cast<std::size_t>(-1)) by_id_[sources_[i].follow_id] = i;
  }
}

}  // namespace npu_doctor::live
