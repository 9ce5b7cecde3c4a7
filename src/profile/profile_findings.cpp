#include "profile_findings.hpp"
#include "npu_doctor/kb_ids.hpp"

#include <cstdio>

namespace npu_doctor::profile_detail {
namespace {

std::string fixed(double v, int digits = 2) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Evidence of an analysis: which file, and the numbers it rests on as "key=value" text
// (language-neutral; the explanation is the entry's text).
struct EvidenceBuilder {
  Evidence e;
  EvidenceBuilder(std::string path, uint64_t line = 0) {
    e.path = std::move(path);
    e.line = line;
  }
  EvidenceBuilder& add(const std::string& key, const std::string& value) {
    e.text += (e.text.empty() ? "" : " ") + key + "=" + value;
    e.captures.emplace_back(key, value);
    return *this;
  }
};

void raise(std::vector<Finding>& out, const KnowledgeBase& kb, EntryId id, Evidence e) {
  out.push_back(make_finding(kb.entry(id), std::move(e)));
}

std::string first_path(const ProfileReport& r, std::string_view kind) {
  for (const auto& in : r.inputs) {
    if (in.kind == kind) return in.report.path;
  }
  return kind.empty() ? std::string() : std::string(kind);
}

}  // namespace

std::vector<Finding> raise_profile_findings(const ProfileReport& r, const KnowledgeBase& kb) {
  std::vector<Finding> out;
  if (r.communication && r.communication->bottleneck) {
    const CommunicationVerdict& v = *r.communication;
    const RankTime* worst = nullptr;
    for (const auto& x : r.ranks) {
      if (x.rank == v.max_rank) worst = &x;
    }
    const std::string src = v.basis == "wait_ratio" ? first_path(r, "cluster_communication")
                                                    : (worst != nullptr ? worst->path : std::string());
    EvidenceBuilder b(src.empty() ? first_path(r, "cluster_step_trace_time") : src,
                      v.basis == "wait_ratio" || worst == nullptr ? 0 : worst->line);
    b.add("basis", v.basis).add("max_wait_rank", v.max_rank).add("max_wait", fixed(v.max_wait));
    b.add("min_wait_rank", v.min_rank).add("min_wait", fixed(v.min_wait)).add("threshold", fixed(kWaitRatioThreshold));
    if (!v.slow_rank.empty()) {
      b.add("slow_rank", v.slow_rank);
      raise(out, kb, kb_id::profile::slow_rank, std::move(b.e));
    } else {
      raise(out, kb, kb_id::profile::communication_bound, std::move(b.e));
    }
  }
  const double compute = r.compute_us;
  if (r.ai_cpu_us > 0 && compute > 0 && r.ai_cpu_us / compute >= kAiCpuShareThreshold) {
    EvidenceBuilder b(first_path(r, r.ops_source));
    b.add("ai_cpu_us", fixed(r.ai_cpu_us, 1)).add("share_of_compute", fixed(r.ai_cpu_us / compute, 3));
    std::string types;
    int n = 0;
    for (const auto& o : r.ops) {
      if (!o.is_ai_cpu() || n++ >= 8) continue;
      types += (types.empty() ? "" : ",") + o.type;
    }
    b.add("ops", types);
    raise(out, kb, kb_id::profile::aicpu_fallback, std::move(b.e));
  }
  if (r.compile.dynamic_tasks > 0 && r.compile.static_tasks == 0) {
    EvidenceBuilder b(first_path(r, r.ops_source));
    b.add("dynamic_tasks", std::to_string(r.compile.dynamic_tasks)).add("static_tasks", "0");
    raise(out, kb, kb_id::profile::dynamic_shape, std::move(b.e));
  }
  if (r.compile.compile_calls > 0 &&
      (!r.compile.compile_share || *r.compile.compile_share >= kCompileShareThreshold)) {
    EvidenceBuilder b(first_path(r, "api_statistic"));
    b.add("compile_us", fixed(r.compile.compile_us, 1)).add("calls", std::to_string(r.compile.compile_calls));
    if (r.compile.compile_share) b.add("share", fixed(*r.compile.compile_share, 3));
    if (!r.compile.compile_apis.empty()) b.add("api", r.compile.compile_apis.front().first);
    raise(out, kb, kb_id::profile::op_compile_time, std::move(b.e));
  }
  if (r.time_split && r.time_split->free_known && r.time_split->total_us > 0 &&
      r.time_split->free_us / r.time_split->total_us > kFreeShareThreshold) {
    const TimeSplit& ts = *r.time_split;
    EvidenceBuilder b(ts.source == "tasks" ? first_path(r, r.ops_source) : first_path(r, ts.source));
    b.add("source", ts.source).add("free_us", fixed(ts.free_us, 1)).add("free_share", fixed(ts.free_us / ts.total_us, 3));
    raise(out, kb, kb_id::profile::device_idle, std::move(b.e));
  }
  return out;
}

}  // namespace npu_doctor::profile_detail
