#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "finding_collector.hpp"
#include "input_source.hpp"
#include "kb_matcher.hpp"
#include "npu_doctor/diagnosis.hpp"
#include "scanner.hpp"

namespace npu_doctor {

bool DiagnosisReport::any_input_scanned() const {
  return std::any_of(inputs.begin(), inputs.end(), [](const InputReport& r) {
    return r.status == InputStatus::ok || r.status == InputStatus::partial;
  });
}

Diagnoser::Diagnoser(const KnowledgeBase& kb, std::vector<KbProblem>& problems, const std::string& cache_dir)
    : kb_(kb), matcher_(KbMatcher::build(kb, problems, cache_dir)) {
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

// Findings of one stream, indexed by the report's input numbering.
struct StreamFindings {
  std::size_t input = 0;
  std::vector<Finding> findings;
};

struct ItemResult {
  std::vector<InputReport> reports;
  FindingCollector collector;
  std::vector<StreamFindings> kept;  // per stream, for an item that cannot be read twice
};

// The finding that stands for the cluster culprit's error, added when the culprit is a
// verdict no line states (a silent or missing rank). `which`: the incident's inputs.
std::optional<std::size_t> cluster_root(std::vector<Finding>& findings, const std::optional<ClusterDecision>& cluster,
                                        const std::vector<InputReport>& inputs, const std::vector<std::size_t>& which) {
  if (!cluster || !cluster->culprit || cluster->culprit->entry == nullptr) return std::nullopt;
  const ClusterCulprit& c = *cluster->culprit;
  if (c.entry->matches_logs) {
    for (std::size_t i = 0; i < findings.size(); ++i) {
      const Finding& f = findings[i];
      if (f.entry == c.entry && (!f.entry->codes.empty() || f.code == c.code)) return i;
    }
    return std::nullopt;
  }
  Evidence ev;
  ev.input = inputs.size();
  ev.path = "(rank " + std::to_string(c.rank) + ": no logs)";
  uint64_t latest = 0;
  for (std::size_t i : which) {
    const InputReport& in = inputs[i];
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
  findings.push_back(make_finding(*c.entry, std::move(ev)));
  return findings.size() - 1;
}

// Order, cross-rank verdict over `which` inputs only, root cause, and what the
// allocator's numbers on an out-of-memory line say.
void conclude(std::vector<Finding>& findings, std::optional<RootCauseDecision>& root,
              std::optional<ClusterDecision>& cluster, const std::vector<InputReport>& inputs,
              const std::vector<std::size_t>& which, const KnowledgeBase& kb, const ClusterOptions& options) {
  // Presentation order: where each finding first occurs (input, then line).
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::pair(a.first().input, a.first().line) < std::pair(b.first().input, b.first().line);
  });
  cluster = analyze_cluster(inputs, which, kb, options);
  root = choose_root_cause(findings, cluster_root(findings, cluster, inputs, which));
  if (root) settle_relations(findings, *root, inputs, cluster, kb);
}

}  // namespace

namespace {

// Scans the items on `jobs` threads (`make_scan` gives each thread its scan function, with
// its own scanner) and hands each result to `merge` in item order, as soon as the next one
// is done: deterministic whatever the threads do, and only the items finished out of
// order wait in memory.
template <typename Result>
void scan_in_order(std::size_t items, unsigned jobs,
                   const std::function<std::function<Result(std::size_t)>()>& make_scan,
                   const std::function<void(std::size_t, Result&&)>& merge) {
  std::mutex mu;
  std::map<std::size_t, Result> done;
  std::size_t next_to_merge = 0;
  std::atomic<std::size_t> next_item{0};
  auto worker = [&] {
    const auto scan_item = make_scan();
    for (std::size_t i; (i = next_item.fetch_add(1)) < items;) {
      Result result = scan_item(i);
      std::lock_guard lock(mu);
      done.emplace(i, std::move(result));
      for (auto it = done.find(next_to_merge); it != done.end(); it = done.find(next_to_merge)) {
        merge(next_to_merge, std::move(it->second));
        done.erase(it);
        ++next_to_merge;
      }
    }
  };
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(1, items)));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
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
  const unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());

  // Pass 1: every input, findings merged in input order.
  FindingCollector all(scan.max_evidence);
  std::vector<std::size_t> item_base(inputs.items.size(), 0);  // index of the item's first input
  // Stdin and FIFOs cannot be read twice: for the incident split, their findings are kept
  // per stream from this reading.
  std::map<std::size_t, std::vector<StreamFindings>> unrepeatable;
  auto keep_streams = [&](std::size_t i) {
    std::error_code ec;
    return options.split_incidents &&
           (inputs.items[i].is_stdin || !std::filesystem::is_regular_file(inputs.items[i].path, ec));
  };
  scan_in_order<ItemResult>(
      inputs.items.size(), jobs,
      [&] {
        return [&, scanner = std::make_shared<Scanner>(*matcher_, scan)](std::size_t i) {
          ItemResult result{{}, FindingCollector(scan.max_evidence), {}};
          const bool keep = keep_streams(i);
          visit_streams(
              inputs.items[i],
              [&](ByteStream& stream, InputReport& r) {
                if (!keep) {
                  scanner->scan(stream, result.reports.size(), r, result.collector);
                  return;
                }
                FindingCollector one(scan.max_evidence);
                scanner->scan(stream, result.reports.size(), r, one);
                result.kept.push_back({result.reports.size(), one.findings()});
                result.collector.merge(std::move(one));
              },
              result.reports);
          return result;
        };
      },
      [&](std::size_t i, ItemResult&& item) {
        const std::size_t base = report.inputs.size();
        item_base[i] = base;
        item.collector.offset_inputs(base);
        if (keep_streams(i)) {
          for (auto& s : item.kept) {
            s.input += base;
            for (auto& f : s.findings) {
              for (auto& e : f.evidence) e.input += base;
            }
          }
          unrepeatable[i] = std::move(item.kept);
        }
        all.merge(std::move(item.collector));
        for (auto& r : item.reports) report.inputs.push_back(std::move(r));
      });

  const std::size_t streams = report.inputs.size();
  for (auto& p : inputs.problems) report.inputs.push_back(std::move(p));
  report.findings = all.take();
  report.warnings = attribute_ranks(report.inputs, options.rank_patterns);
  if (!options.split_incidents) {
    conclude_diagnosis(report, kb_, options.cluster);
    return report;
  }
  std::vector<Incident> split = split_incidents(report.inputs, options.incidents);
  if (split.size() <= 1) {
    conclude_diagnosis(report, kb_, options.cluster);
    IncidentReport one;
    if (!split.empty()) one.incident = std::move(split.front());
    one.findings = report.findings;
    one.root = report.root;
    one.cluster = report.cluster;
    if (!one.incident.inputs.empty()) report.incidents.push_back(std::move(one));
    return report;
  }

  // Pass 2, only when the inputs hold several runs: each incident's findings of its own
  // inputs (memory stays one collector per incident, not one per input).
  std::vector<std::size_t> incident_of(streams, split.size() - 1);
  for (std::size_t k = 0; k < split.size(); ++k) {
    for (std::size_t i : split[k].inputs) {
      if (i < streams) incident_of[i] = k;
    }
  }
  std::vector<FindingCollector> per_incident(split.size(), FindingCollector(scan.max_evidence));
  scan_in_order<std::vector<StreamFindings>>(
      inputs.items.size(), jobs,
      [&] {
        return [&, scanner = std::make_shared<Scanner>(*matcher_, scan)](std::size_t i) {
          std::vector<StreamFindings> out;
          if (unrepeatable.count(i)) return out;
          std::vector<InputReport> reports;
          visit_streams(
              inputs.items[i],
              [&](ByteStream& stream, InputReport& r) {
                const std::size_t index = item_base[i] + reports.size();
                FindingCollector c(scan.max_evidence);
                scanner->scan(stream, index, r, c);
                out.push_back({index, c.take()});
              },
              reports);
          return out;
        };
      },
      [&](std::size_t i, std::vector<StreamFindings>&& found) {
        if (auto it = unrepeatable.find(i); it != unrepeatable.end()) found = std::move(it->second);
        for (auto& s : found) {
          // A file that changed since the first pass may have more streams: the latest run.
          const std::size_t k = s.input < streams ? incident_of[s.input] : split.size() - 1;
          per_incident[k].merge(std::move(s.findings));
        }
      });

  for (std::size_t k = 0; k < split.size(); ++k) {
    IncidentReport ir;
    ir.number = k + 1;
    ir.incident = std::move(split[k]);
    ir.findings = per_incident[k].take();
    conclude_incident(ir, report.inputs, kb_, options.cluster);
    report.incidents.push_back(std::move(ir));
  }
  std::size_t shown = report.incidents.size() - 1;
  for (std::size_t k = report.incidents.size(); k-- > 0;) {
    if (report.incidents[k].root) {
      shown = k;
      break;
    }
  }
  show_incident(report, shown);
  return report;
}

void show_incident(DiagnosisReport& report, std::size_t index) {
  if (index >= report.incidents.size()) return;
  const IncidentReport& ir = report.incidents[index];
  report.shown = index;
  report.findings = ir.findings;
  report.root = ir.root;
  report.cluster = ir.cluster;
}

void conclude_diagnosis(DiagnosisReport& report, const KnowledgeBase& kb, const ClusterOptions& cluster) {
  std::vector<std::size_t> all(report.inputs.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  conclude(report.findings, report.root, report.cluster, report.inputs, all, kb, cluster);
}

void conclude_incident(IncidentReport& incident, const std::vector<InputReport>& inputs, const KnowledgeBase& kb,
                       const ClusterOptions& cluster) {
  conclude(incident.findings, incident.root, incident.cluster, inputs, incident.incident.inputs, kb, cluster);
}

}  // namespace npu_doctor
