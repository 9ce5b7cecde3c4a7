#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>

#include "core/file_parts.hpp"
#include "core/finding_collector.hpp"
#include "core/free_memory.hpp"
#include "core/input_source.hpp"
#include "core/kb_matcher.hpp"
#include "context_meaning.hpp"
#include "diagnosis.hpp"
#include "expected_errors.hpp"
#include "member_list.hpp"
#include "npu_doctor/embedded_files.hpp"
#include "core/scanner.hpp"
#include "core/word_fallback.hpp"
#include "core/worker_threads.hpp"

namespace npu_doctor {

bool DiagnosisReport::any_input_scanned() const {
  return std::any_of(inputs.begin(), inputs.end(), [](const InputReport& r) {
    return r.status == InputStatus::ok || r.status == InputStatus::partial;
  });
}

namespace {

std::unique_ptr<WordFallback> word_fallback(const KnowledgeBase& kb, std::optional<std::string_view> model) {
  if (model) return model->empty() ? nullptr : WordFallback::create(kb, *model);
  const auto files = embedded_word_model();
  if (files.empty() || files.front().content.empty()) return nullptr;
  return WordFallback::create(kb, files.front().content, true);  // the binary's bytes: read in place
}

}  // namespace

Diagnoser::Diagnoser(const KnowledgeBase& kb, std::vector<KbProblem>& problems, const std::string& cache_dir,
                     std::optional<std::string_view> word_model)
    : kb_(kb),
      words_(word_fallback(kb, word_model)),
      matcher_(KbMatcher::build(kb, problems, cache_dir)) {
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
  bool unrepeatable = false;         // `kept` is what pass 2 uses (stdin, a FIFO)
};

// Lines of a part of a file are numbered from here while it is scanned (the number of its
// first line in the file is known only when the parts before it are done), then shifted.
// Far above any real line number, and far enough above 0 for the context lines before it.
constexpr uint64_t kPartBase = uint64_t{1} << 48;

// The finding that stands for the cluster culprit's error, added when the culprit is a
// verdict no line states (a silent or missing rank). `which`: the incident's inputs.
std::optional<std::size_t> cluster_root(std::vector<Finding>& findings, const std::optional<ClusterDecision>& cluster,
                                        const InputStore& inputs, const MemberList& which) {
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

// Contextual meanings, order, cross-rank verdict over `which` inputs only, root cause,
// and the relations one entry cannot see (what an OOM line's allocator numbers say ...).
void conclude(std::vector<Finding>& findings, std::optional<RootCauseDecision>& root,
              std::optional<ClusterDecision>& cluster, const InputStore& inputs,
              const MemberList& which, const KnowledgeBase& kb, const ClusterOptions& options,
              const ExpectedErrors* expected) {
  std::size_t kept = 1;  // evidence items kept per finding (DiagnoseOptions::max_evidence)
  for (const auto& f : findings) kept = std::max(kept, f.evidence.size());
  apply_context_meanings(findings, kb, kept);
  if (expected != nullptr) expected->mark(findings);  // after: a rule names what the finding is read as
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

// What one worker scans: a whole input, or one part of a large plain file.
struct Unit {
  std::size_t item = 0;
  std::shared_ptr<const SplitFile> file;  // set for a part
  std::size_t part = 0;
};

// The parts of one input, once all are scanned, become one input again: line numbers are
// shifted to the file's, reports and timelines joined in order.
void join_parts(std::vector<ItemResult>& parts, ItemResult& joined) {
  InputReport whole = std::move(parts.front().reports.front());
  uint64_t lines = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    ItemResult& part = parts[k];
    // Lines of part k were numbered from kPartBase; the file's number of its first line is lines + 1.
    const uint64_t shift = lines + 1;
    auto fix = [&](uint64_t& n) { n = n - kPartBase + shift; };
    part.collector.shift_lines(fix);
    InputReport& r = part.reports.front();
    for (auto& ev : r.timeline.events) fix(ev.line);
    if (k > 0) {
      whole.bytes += r.bytes;
      if (r.status != InputStatus::ok && whole.status == InputStatus::ok) {
        whole.status = r.status;
        whole.note = r.note;
      }
      if (!whole.timeline.first_time) whole.timeline.first_time = r.timeline.first_time;
      if (r.timeline.last_time) whole.timeline.last_time = r.timeline.last_time;
      for (auto& ev : r.timeline.events) {
        if (whole.timeline.events.size() >= InputTimeline::kMaxEvents) break;
        const bool seen = std::any_of(whole.timeline.events.begin(), whole.timeline.events.end(), [&](const TimelineEvent& e) {
          return e.entry == ev.entry && e.code == ev.code;
        });
        if (!seen) whole.timeline.events.push_back(std::move(ev));
      }
    } else {
      for (auto& ev : whole.timeline.events) fix(ev.line);
    }
    lines += r.lines;
    joined.collector.merge(std::move(part.collector));
  }
  whole.lines = lines;
  joined.reports.push_back(std::move(whole));
}

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
  run_on_threads(static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(1, items))), worker);
}

// The index of each item's first report: item i's is i plus the reports beyond one that the
// items before it gave (an archive gives one a member, an unreadable item may give none).
// Only items whose count is not one are kept, so memory goes with archives, not inputs.
class ItemBases {
 public:
  // Items in order: `item` gave `reports` reports.
  void add(std::size_t item, std::size_t reports) {
    if (reports == 1) return;
    extra_ += static_cast<int64_t>(reports) - 1;
    changes_.push_back({item, extra_});
  }
  std::size_t base(std::size_t item) const {
    const auto after = std::lower_bound(changes_.begin(), changes_.end(), item,
                                        [](const Change& c, std::size_t i) { return c.item < i; });
    const int64_t extra = after == changes_.begin() ? 0 : std::prev(after)->extra;
    return static_cast<std::size_t>(static_cast<int64_t>(item) + extra);
  }

 private:
  struct Change {
    std::size_t item;
    int64_t extra;  // for the items after `item`
  };
  std::vector<Change> changes_;
  int64_t extra_ = 0;
};

// The report as -B/-A asked to show it: the scan kept at least the context the rules read.
DiagnosisReport shown_context(DiagnosisReport report, const DiagnoseOptions& options) {
  trim_context(report.findings, options.before, options.after);
  for (auto& ir : report.incidents) trim_context(ir.findings, options.before, options.after);
  return report;
}

}  // namespace

DiagnosisReport Diagnoser::run(const DiagnoseOptions& options) const {
  DiagnosisReport report;
  report.kb_version = kb_.version();
  report.kb_entries = kb_.entry_count();
  Enumeration inputs = enumerate_inputs(options.paths);

  ScanOptions scan;
  // The context rules read their lines whatever -B/-A asked; the report is cut to the
  // request at the end (shown_context).
  scan.before = std::max(options.before, kContextRuleBefore);
  scan.after = std::max(options.after, kContextRuleAfter);
  scan.max_evidence = std::max<std::size_t>(1, options.max_evidence);
  unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());

  // Work units: every input, except that a large plain file is cut into parts when there
  // are threads to spare for it. Without such a file (many small inputs) unit u is item u
  // and no list of units is kept.
  std::vector<Unit> units;
  std::map<std::size_t, std::size_t> split_parts;  // item -> its parts, for the files cut
  auto parts_of = [&](std::size_t i) {
    const auto it = split_parts.find(i);
    return it == split_parts.end() ? std::size_t{1} : it->second;
  };
  for (std::size_t i = 0; i < inputs.items.size(); ++i) {
    std::shared_ptr<const SplitFile> file;
    if (jobs > 1) file = SplitFile::open(inputs.items[i], jobs, options.split_min_part);
    if (!file) {
      if (!units.empty()) units.push_back({i, nullptr, 0});
      continue;
    }
    if (units.empty()) {
      units.reserve(i);
      for (std::size_t k = 0; k < i; ++k) units.push_back({k, nullptr, 0});
    }
    split_parts[i] = file->parts.size();
    for (std::size_t k = 0; k < file->parts.size(); ++k) units.push_back({i, file, k});
  }
  const std::size_t unit_count = units.empty() ? inputs.items.size() : units.size();
  auto unit_at = [&](std::size_t u) { return units.empty() ? Unit{u, nullptr, 0} : units[u]; };

  // Stdin and FIFOs cannot be read twice: for the incident split, their findings are kept
  // per stream from this reading.
  std::map<std::size_t, std::vector<StreamFindings>> unrepeatable;
  auto keep_streams = [&](const InputItem& item) {
    std::error_code ec;
    return options.split_incidents && (item.is_stdin || !std::filesystem::is_regular_file(item.display, ec));
  };
  // The index of each item's first input, for pass 2.
  ItemBases item_base;

  // Units are scanned in parallel and merged strictly in input order, as soon as the next
  // input is complete, so results are deterministic and memory stays bounded.
  FindingCollector all(scan.max_evidence);
  std::mutex mu;
  std::map<std::size_t, std::vector<std::optional<ItemResult>>> done;  // item -> its parts
  std::size_t next_to_merge = 0;
  auto merge_ready = [&] {
    for (auto it = done.find(next_to_merge); it != done.end(); it = done.find(next_to_merge)) {
      auto& parts = it->second;
      if (std::any_of(parts.begin(), parts.end(), [](const auto& p) { return !p.has_value(); })) break;
      ItemResult result{{}, FindingCollector(scan.max_evidence), {}, false};
      if (parts.size() == 1) {
        result = std::move(*parts.front());
      } else {
        std::vector<ItemResult> ready;
        for (auto& p : parts) ready.push_back(std::move(*p));
        join_parts(ready, result);
      }
      const std::size_t base = report.inputs.size();
      item_base.add(next_to_merge, result.reports.size());
      result.collector.offset_inputs(base);
      if (result.unrepeatable) {
        for (auto& k : result.kept) {
          k.input += base;
          for (auto& f : k.findings) {
            for (auto& e : f.evidence) e.input += base;
          }
        }
        unrepeatable[next_to_merge] = std::move(result.kept);
      }
      all.merge(std::move(result.collector));
      for (auto& r : result.reports) report.inputs.push_back(std::move(r));
      done.erase(it);
      ++next_to_merge;
    }
  };

  // One report per item at least (archives add more): reserved, the vector does not
  // double past what 100,000 inputs need.
  report.inputs.reserve(inputs.items.size() + inputs.problems.size());
  std::atomic<std::size_t> next_unit{0};
  auto worker = [&] {
    Scanner scanner(*matcher_, scan, words_.get());
    for (std::size_t u; (u = next_unit.fetch_add(1)) < unit_count;) {
      const Unit unit = unit_at(u);
      ItemResult result{{}, FindingCollector(scan.max_evidence), {}, false};
      if (!unit.file) {
        const InputItem item = inputs.items[unit.item];
        const bool keep = keep_streams(item);
        result.unrepeatable = keep;
        visit_streams(
            item,
            [&](ByteStream& stream, InputReport& r) {
              if (!keep) {
                scanner.scan(stream, result.reports.size(), r, result.collector);
                return;
              }
              FindingCollector one(scan.max_evidence);
              scanner.scan(stream, result.reports.size(), r, one);
              result.kept.push_back({result.reports.size(), one.findings()});
              result.collector.merge(std::move(one));
            },
            result.reports);
      } else {
        const FilePart range = unit.file->parts[unit.part];
        FileRangeStream stream(unit.file->fd, range.begin, range.end, unit.file->mapping);
        FileRangeStream after(unit.file->fd, range.end, unit.file->size);
        ScanStart start;
        start.first_line = kPartBase;
        start.whole_input = unit.part == 0;
        start.lookahead = &after;
        if (unit.part > 0) {
          start.tail = lines_before(unit.file->fd, range.begin, scan.before, kPartBase - 1, scan.max_text);
          // As one thread sees it across the cut (the frame's whole line, not its context text).
          const auto before_cut = lines_before(unit.file->fd, range.begin, 1, kPartBase - 1, std::size_t{64} << 10);
          start.after_frame = !before_cut.empty() && is_traceback_frame(before_cut.back().text);
        }
        InputReport r = input_report(inputs.items[unit.item].display, "file");
        scanner.scan(stream, 0, r, result.collector, start);
        result.reports.push_back(std::move(r));
      }
      std::lock_guard lock(mu);
      auto& slots = done[unit.item];
      slots.resize(parts_of(unit.item));
      slots[unit.file ? unit.part : 0] = std::move(result);
      merge_ready();
    }
  };
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(1, unit_count)));
  run_on_threads(jobs, worker);

  const std::size_t streams = report.inputs.size();
  for (auto& p : inputs.problems) report.inputs.push_back(std::move(p));
  // Pass 2 reads the items again (packed records in the spool).
  const std::size_t item_count = inputs.items.size();
  return_free_heap();  // what the scan threads freed, before the analyses and the report
  report.findings = all.take();
  report.warnings = attribute_ranks(report.inputs, options.rank_patterns);
  if (!options.split_incidents) {
    conclude_diagnosis(report, kb_, options.cluster, options.expected.get());
    return shown_context(std::move(report), options);
  }
  std::vector<Incident> split = split_incidents(report.inputs, options.incidents);
  if (split.size() <= 1) {
    conclude_diagnosis(report, kb_, options.cluster, options.expected.get());
    IncidentReport one;
    if (!split.empty()) one.incident = std::move(split.front());
    one.findings = report.findings;
    one.root = report.root;
    one.cluster = report.cluster;
    if (!one.incident.inputs.empty()) report.incidents.push_back(std::move(one));
    return shown_context(std::move(report), options);
  }

  // Pass 2, only when the inputs hold several runs: each incident's findings of its own
  // inputs (memory stays one collector per incident, not one per input).
  // Findings come back in input order: a cursor over the member lists says whose they are.
  // Inputs in no incident (not scanned) and streams a changed file added since the first
  // pass go with the latest run.
  std::vector<const MemberList*> member_lists;
  for (const Incident& inc : split) member_lists.push_back(&inc.inputs);
  IncidentCursor incident_of(member_lists);
  std::vector<FindingCollector> per_incident(split.size(), FindingCollector(scan.max_evidence));
  scan_in_order<std::vector<StreamFindings>>(
      item_count, jobs,
      [&] {
        return [&, scanner = std::make_shared<Scanner>(*matcher_, scan)](std::size_t i) {
          std::vector<StreamFindings> out;
          if (unrepeatable.count(i)) return out;
          std::vector<InputReport> reports;
          const InputItem item = inputs.items[i];
          visit_streams(
              item,
              [&](ByteStream& stream, InputReport& r) {
                const std::size_t index = item_base.base(i) + reports.size();
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
          const auto listed = s.input < streams ? incident_of.list_of(static_cast<uint32_t>(s.input)) : std::nullopt;
          const std::size_t k = listed.value_or(split.size() - 1);
          per_incident[k].merge(std::move(s.findings));
        }
      });

  for (std::size_t k = 0; k < split.size(); ++k) {
    IncidentReport ir;
    ir.number = k + 1;
    ir.incident = std::move(split[k]);
    ir.findings = per_incident[k].take();
    conclude_incident(ir, report.inputs, kb_, options.cluster, options.expected.get());
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
  return shown_context(std::move(report), options);
}

void show_incident(DiagnosisReport& report, std::size_t index) {
  if (index >= report.incidents.size()) return;
  const IncidentReport& ir = report.incidents[index];
  report.shown = index;
  report.findings = ir.findings;
  report.root = ir.root;
  report.cluster = ir.cluster;
}

void conclude_diagnosis(DiagnosisReport& report, const KnowledgeBase& kb, const ClusterOptions& cluster,
                        const ExpectedErrors* expected) {
  conclude(report.findings, report.root, report.cluster, report.inputs, MemberList::first(report.inputs.size()), kb,
           cluster, expected);
}

void conclude_incident(IncidentReport& incident, const InputStore& inputs, const KnowledgeBase& kb,
                       const ClusterOptions& cluster, const ExpectedErrors* expected) {
  conclude(incident.findings, incident.root, incident.cluster, inputs, incident.incident.inputs, kb, cluster, expected);
}

}  // namespace npu_doctor
