// analyze_profile: plan the files, stream each into the accumulator, then rank the
// operators, split the time, judge the ranks and raise findings.
#include <algorithm>
#include <cstring>
#include <map>

#include "profile.hpp"
#include "profile_accumulator.hpp"
#include "profile_findings.hpp"
#include "profile_inputs.hpp"

namespace npu_doctor {
namespace {

using namespace profile_detail;

// Serves a prefix that was read to recognise a file, then the rest of the stream.
class PrefixStream final : public ByteStream {
 public:
  PrefixStream(std::string prefix, ByteStream& rest) : prefix_(std::move(prefix)), rest_(rest) {}
  long read(char* buf, std::size_t n) override {
    if (pos_ < prefix_.size()) {
      const std::size_t k = std::min(n, prefix_.size() - pos_);
      std::memcpy(buf, prefix_.data() + pos_, k);
      pos_ += k;
      return static_cast<long>(k);
    }
    return rest_.read(buf, n);
  }
  std::string error() const override { return rest_.error(); }

 private:
  std::string prefix_;
  ByteStream& rest_;
  std::size_t pos_ = 0;
};

// Up to the first line end (at most 64 KiB), for kind_from_header.
std::string read_first_line(ByteStream& in, bool& failed) {
  std::string head;
  char buf[4096];
  while (head.size() < (64u << 10) && head.find('\n') == std::string::npos) {
    const long r = in.read(buf, sizeof buf);
    if (r <= 0) {
      failed = r < 0;
      break;
    }
    head.append(buf, static_cast<std::size_t>(r));
  }
  return head;
}

void read_kind(const std::string& kind, ByteStream& in, const std::string& path, Accumulator& acc,
               ProfileInput& input) {
  if (kind == "op_summary" || kind == "kernel_details") read_op_rows(in, path, kind, acc, input);
  else if (kind == "op_statistic") read_op_statistic(in, path, acc, input);
  else if (kind == "step_trace_time") read_step_trace(in, path, acc, input);
  else if (kind == "cluster_step_trace_time") read_cluster_step_trace(in, path, acc, input);
  else if (kind == "cluster_communication") read_cluster_communication(in, path, acc, input);
  else if (kind == "api_statistic") read_api_statistic(in, path, acc, input);
}

void read_planned(const PlannedInput& planned, Accumulator& acc, ProfileReport& r, uint64_t& ignored) {
  std::vector<InputReport> reports;
  visit_streams(
      planned.item,
      [&](ByteStream& stream, InputReport& rep) {
        std::string kind = planned.kind.empty() ? kind_from_name(rep.path) : planned.kind;
        if (kind.empty() && rep.kind == "archive member") {
          rep.status = InputStatus::skipped;  // not a table we read: leave it unopened
          rep.note = "ignored";
          return;
        }
        ProfileInput input;
        input.report = rep;
        if (kind.empty()) {
          bool failed = false;
          std::string head = read_first_line(stream, failed);
          kind = kind_from_header(head);
          if (kind.empty()) {
            rep.status = failed ? InputStatus::error : InputStatus::skipped;
            rep.note = failed ? "read error: " + stream.error()
                              : head.empty() ? "empty file"
                                             : "not a profiling table npu-doctor reads (name and header not recognised)";
            return;
          }
          PrefixStream whole(std::move(head), stream);
          input.kind = kind;
          read_kind(kind, whole, rep.path, acc, input);
        } else {
          input.kind = kind;
          read_kind(kind, stream, rep.path, acc, input);
        }
        rep = input.report;
        rep.note = rep.note.empty() ? "read as " + kind : rep.note;
        r.inputs.push_back(std::move(input));
      },
      reports);
  for (auto& rep : reports) {
    if (rep.note == "ignored") {
      ++ignored;
      continue;
    }
    if (rep.note.rfind("read as ", 0) == 0) continue;  // recorded in r.inputs
    const bool is_input = std::any_of(r.inputs.begin(), r.inputs.end(),
                                      [&](const ProfileInput& in) { return in.report.path == rep.path; });
    if (!is_input) r.skipped.push_back(std::move(rep));
  }
}

void build_rankings(Accumulator& acc, ProfileReport& r) {
  for (const char* kind : {"op_summary", "kernel_details", "op_statistic"}) {
    auto it = acc.tables.find(kind);
    if (it == acc.tables.end() || it->second.by_type.empty()) continue;
    const OpTable& t = it->second;
    r.ops_source = kind;
    for (const auto& [key, s] : t.by_type) r.ops.push_back(s);
    r.compute_us = t.compute_us;
    r.communication_us = t.communication_us;
    r.total_task_us = t.compute_us + t.communication_us;
    for (auto& s : r.ops) {
      s.share = r.total_task_us > 0 ? s.total_us / r.total_task_us : 0;
      if (s.is_ai_cpu()) r.ai_cpu_us += s.total_us;
    }
    std::stable_sort(r.ops.begin(), r.ops.end(), [](const OpStat& a, const OpStat& b) { return a.total_us > b.total_us; });
    r.compile.dynamic_tasks = t.dynamic_tasks;
    r.compile.static_tasks = t.static_tasks;
    // Time split from the tasks themselves, used when no step trace is given.
    if (!t.spans.empty()) {
      TimeSplit ts;
      ts.source = "tasks";
      ts.compute_us = t.compute_us;
      ts.communication_us = t.communication_us;
      double span = 0;
      for (const auto& [k, s] : t.spans) {
        span += s.max_end - s.min_start;
        if (s.ordered) ts.free_us += s.gaps;
        else ts.free_known = false;
      }
      if (!ts.free_known) ts.free_us = std::max(0.0, span - t.compute_us - t.communication_us);
      ts.total_us = ts.compute_us + ts.communication_us + ts.free_us;
      r.time_split = ts;
    }
    return;
  }
}

void build_time_split(Accumulator& acc, ProfileReport& r) {
  if (acc.step_trace && acc.step_trace->steps > 0) {
    const StepTotals& s = *acc.step_trace;
    TimeSplit ts;
    ts.source = "step_trace_time";
    ts.compute_us = s.computing;
    ts.communication_us = s.communication;
    ts.overlapped_us = s.overlapped;
    ts.free_us = s.free;
    ts.total_us = s.computing + s.communication + s.free;
    r.time_split = ts;
  } else if (!acc.ranks.empty()) {
    TimeSplit ts;
    ts.source = "cluster_step_trace_time";
    const double n = static_cast<double>(acc.ranks.size());
    for (const auto& [id, rt] : acc.ranks) {
      ts.compute_us += rt.computing_us / n;
      ts.communication_us += rt.communication_us / n;
      ts.free_us += rt.free_us / n;
    }
    ts.total_us = ts.compute_us + ts.communication_us + ts.free_us;
    r.time_split = ts;
  }
}

void build_ranks(Accumulator& acc, ProfileReport& r) {
  const auto& comm = acc.comm_total_op.empty() ? acc.comm_ops : acc.comm_total_op;
  for (const auto& [id, c] : comm) acc.ranks.try_emplace(id).first->second.rank = id;
  for (auto& [id, rt] : acc.ranks) {
    rt.step_us = rt.computing_us + rt.communication_us + rt.free_us;
    rt.exposed_share = rt.step_us > 0 ? rt.communication_us / rt.step_us : 0;
    if (auto it = comm.find(id); it != comm.end()) {
      const CommTotals& c = it->second;
      if (c.wait_ms + c.transit_ms > 0) rt.wait_ratio = c.wait_ms / (c.wait_ms + c.transit_ms);
      if (c.sync_ms + c.transit_ms > 0) rt.sync_ratio = c.sync_ms / (c.sync_ms + c.transit_ms);
    }
    r.ranks.push_back(rt);
  }
  // Numeric rank order ("10" after "9").
  std::stable_sort(r.ranks.begin(), r.ranks.end(), [](const RankTime& a, const RankTime& b) {
    return a.rank.size() != b.rank.size() ? a.rank.size() < b.rank.size() : a.rank < b.rank;
  });
  const bool by_wait = std::any_of(r.ranks.begin(), r.ranks.end(), [](const RankTime& x) { return x.wait_ratio.has_value(); });
  std::vector<const RankTime*> judged;
  for (const auto& x : r.ranks) {
    if (by_wait ? x.wait_ratio.has_value() : x.step_us > 0) judged.push_back(&x);
  }
  if (judged.empty()) return;
  CommunicationVerdict v;
  v.basis = by_wait ? "wait_ratio" : "exposed_share";
  auto hi = std::max_element(judged.begin(), judged.end(), [](auto a, auto b) { return a->wait() < b->wait(); });
  auto lo = std::min_element(judged.begin(), judged.end(), [](auto a, auto b) { return a->wait() < b->wait(); });
  v.max_rank = (*hi)->rank;
  v.max_wait = (*hi)->wait();
  v.min_rank = (*lo)->rank;
  v.min_wait = (*lo)->wait();
  v.bottleneck = v.max_wait > kWaitRatioThreshold;
  if (v.bottleneck) {
    // msprof's rule: ranks that wait while synchronising wait for a rank that computes
    // longer (the one that waits least); otherwise the links themselves are slow.
    const bool ranks_unsynchronised = by_wait ? (*hi)->sync_ratio.value_or(0) > kWaitRatioThreshold
                                              : v.max_wait - v.min_wait > kSlowRankSpread;
    if (judged.size() >= 2 && ranks_unsynchronised) v.slow_rank = v.min_rank;
    else v.slow_link = true;
  }
  r.communication = v;
}

void build_compile(Accumulator& acc, ProfileReport& r) {
  CompileSigns c = acc.compile;
  c.dynamic_tasks = r.compile.dynamic_tasks;
  c.static_tasks = r.compile.static_tasks;
  if (c.compile_us > 0) {
    const double ref = r.time_split && r.time_split->total_us > 0 ? r.time_split->total_us : r.total_task_us;
    if (ref > 0) c.compile_share = c.compile_us / ref;
  }
  std::stable_sort(c.compile_apis.begin(), c.compile_apis.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  r.compile = std::move(c);
}

}  // namespace

ProfileReport analyze_profile(const ProfileOptions& options, const KnowledgeBase& kb) {
  ProfileReport r;
  r.top = options.top == 0 ? 1 : options.top;
  r.kb_version = kb.version();
  const Enumeration en = enumerate_inputs(options.paths);
  for (const auto& p : en.problems) {
    if (p.status == InputStatus::error) r.skipped.push_back(p);  // missing paths, unreadable directories
  }
  uint64_t ignored = 0;
  const auto plan = plan_inputs(en, options.paths, r.skipped, ignored);
  Accumulator acc;
  for (const auto& planned : plan) read_planned(planned, acc, r, ignored);
  if (ignored > 0) {
    r.skipped.push_back(make_input_report(std::to_string(ignored) + " other file(s)", "path", InputStatus::skipped,
                                          "not profiling tables npu-doctor reads (raw data, timelines, other summaries)"));
  }
  r.column_problems = std::move(acc.column_problems);
  build_rankings(acc, r);
  build_time_split(acc, r);
  build_ranks(acc, r);
  build_compile(acc, r);
  r.findings = raise_profile_findings(r, kb);
  return r;
}

}  // namespace npu_doctor
