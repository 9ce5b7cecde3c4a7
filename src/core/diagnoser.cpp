#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "finding_collector.hpp"
#include "input_source.hpp"
#include "kb_matcher.hpp"
#include "npu_doctor/diagnosis.hpp"
#include "npu_doctor/embedded_files.hpp"
#include "scanner.hpp"
#include "word_fallback.hpp"

namespace npu_doctor {

bool DiagnosisReport::any_input_scanned() const {
  return std::any_of(inputs.begin(), inputs.end(), [](const InputReport& r) {
    return r.status == InputStatus::ok || r.status == InputStatus::partial;
  });
}

namespace {

std::unique_ptr<WordFallback> word_fallback(const KnowledgeBase& kb, std::optional<std::string_view> model) {
  if (!model) {
    const auto files = embedded_word_model();
    if (files.empty()) return nullptr;
    model = files.front().content;
  }
  return model->empty() ? nullptr : WordFallback::create(kb, *model);
}

}  // namespace

Diagnoser::Diagnoser(const KnowledgeBase& kb, std::vector<KbProblem>& problems, const std::string& cache_dir,
                     std::optional<std::string_view> word_model)
    : kb_(kb),
      words_(word_fallback(kb, word_model)),
      matcher_(KbMatcher::build(kb, problems, cache_dir, words_ ? words_->gate_patterns() : std::vector<MatchPattern>{})) {
  std::string miss;
  if (const std::size_t misses = matcher_->engine_self_test(&miss); misses > 0) {
    problems.push_back({"", 0,
                        "the pattern engine failed its self-test (" + std::to_string(misses) +
                            " sample lines missed, e.g. \"" + miss.substr(0, 80) +
                            "\"); results may be incomplete. Rebuild against Intel Hyperscan "
                            "(libhyperscan-dev) or a fixed Vectorscan; see docs/platform.md",
                        true});
  }
}

Diagnoser::~Diagnoser() = default;

namespace {

struct ItemResult {
  std::vector<InputReport> reports;
  FindingCollector collector;
};

// The finding that stands for the cluster culprit's error, added when the culprit is a
// verdict no line states (a silent or missing rank).
std::optional<std::size_t> cluster_root(DiagnosisReport& report) {
  if (!report.cluster || !report.cluster->culprit || report.cluster->culprit->entry == nullptr) return std::nullopt;
  const ClusterCulprit& c = *report.cluster->culprit;
  if (c.entry->matches_logs) {
    for (std::size_t i = 0; i < report.findings.size(); ++i) {
      const Finding& f = report.findings[i];
      if (f.entry == c.entry && (!f.entry->codes.empty() || f.code == c.code)) return i;
    }
    return std::nullopt;
  }
  Evidence ev;
  ev.input = report.inputs.size();
  ev.path = "(rank " + std::to_string(c.rank) + ": no logs)";
  uint64_t latest = 0;
  for (std::size_t i = 0; i < report.inputs.size(); ++i) {
    const InputReport& in = report.inputs[i];
    if (!in.rank || *in.rank != c.rank) continue;
    const auto& t = in.timeline.last_time;
    const uint64_t when = t ? static_cast<uint64_t>(t->micros) : 1;
    if (when >= latest) {
      latest = when;
      ev.input = i;
      ev.path = in.path;
      ev.line = in.lines;
      ev.time = t;
      ev.text = "(the log ends here)";
    }
  }
  ev.rank = c.rank;
  report.findings.push_back(make_finding(*c.entry, std::move(ev)));
  return report.findings.size() - 1;
}

}  // namespace

DiagnosisReport Diagnoser::run(const DiagnoseOptions& options) const {
  DiagnosisReport report;
  report.kb_version = kb_.version();
  report.kb_entries = kb_.entries().size();
  Enumeration inputs = enumerate_inputs(options.paths);

  ScanOptions scan;
  scan.before = options.before;
  scan.after = options.after;
  scan.max_evidence = std::max<std::size_t>(1, options.max_evidence);

  // Items are scanned in parallel and merged strictly in input order, as soon as the
  // next one is done, so results are deterministic and memory stays bounded.
  FindingCollector all(scan.max_evidence);
  std::mutex mu;
  std::map<std::size_t, ItemResult> done;
  std::size_t next_to_merge = 0;
  auto merge_ready = [&] {
    for (auto it = done.find(next_to_merge); it != done.end(); it = done.find(next_to_merge)) {
      it->second.collector.offset_inputs(report.inputs.size());
      all.merge(std::move(it->second.collector));
      for (auto& r : it->second.reports) report.inputs.push_back(std::move(r));
      done.erase(it);
      ++next_to_merge;
    }
  };

  std::atomic<std::size_t> next_item{0};
  auto worker = [&] {
    Scanner scanner(*matcher_, scan, words_.get());
    for (std::size_t i; (i = next_item.fetch_add(1)) < inputs.items.size();) {
      ItemResult result{{}, FindingCollector(scan.max_evidence)};
      visit_streams(
          inputs.items[i],
          [&](ByteStream& stream, InputReport& r) {
            scanner.scan(stream, result.reports.size(), r, result.collector);
          },
          result.reports);
      std::lock_guard lock(mu);
      done.emplace(i, std::move(result));
      merge_ready();
    }
  };
  unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(1, inputs.items.size())));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  for (auto& p : inputs.problems) report.inputs.push_back(std::move(p));
  report.findings = all.take();
  report.warnings = attribute_ranks(report.inputs, options.rank_patterns);
  conclude_diagnosis(report, kb_, options.cluster);
  return report;
}

void conclude_diagnosis(DiagnosisReport& report, const KnowledgeBase& kb, const ClusterOptions& cluster) {
  // Presentation order: where each finding first occurs (input, then line).
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    return std::pair(a.first().input, a.first().line) < std::pair(b.first().input, b.first().line);
  });
  report.cluster = analyze_cluster(report.inputs, kb, cluster);
  report.root = choose_root_cause(report.findings, cluster_root(report));
}

}  // namespace npu_doctor
