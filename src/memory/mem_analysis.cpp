// analyze_memory: samples -> per-device report; logs -> OOM events; both -> findings.
#include <algorithm>
#include <cmath>

#include "mem_report.hpp"
#include "mem_verdict_words.hpp"
#include "oom_classifier.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::mem {
namespace {

std::string shown(const std::string& path, const std::map<std::string, std::string>& display) {
  for (const auto& [from, to] : display) {
    if (path.rfind(from, 0) == 0) return to + path.substr(from.size());
  }
  return path;
}

// Adds `evidence` to the finding for `rule`, creating it. Unlike FindingSet it keeps every
// piece of evidence: each is an OOM or a sample the memory report lists.
void add_finding(MemReport& r, const KnowledgeBase& kb, EntryId rule, Evidence evidence) {
  for (auto& f : r.findings) {
    if (rule == f.entry->id) {
      f.evidence.push_back(std::move(evidence));
      ++f.count;
      return;
    }
  }
  r.findings.push_back(make_finding(kb.entry(rule), std::move(evidence)));
}

Evidence sample_evidence(const MemReport& r, const SamplePoint& at, int device, std::string text,
                         std::vector<std::pair<std::string, std::string>> captures) {
  Evidence e;
  e.input = at.input;
  e.path = at.input < r.inputs.size() ? r.inputs[at.input].path : std::string();
  e.line = at.line;
  e.text = std::move(text);
  e.device = device;
  e.captures = std::move(captures);
  return e;
}

std::size_t known_sizes(const OomEvent& e) {
  std::size_t n = 0;
  for (const auto* v : {&e.requested, &e.total, &e.allocated, &e.reserved, &e.free}) if (v->has_value()) ++n;
  return n;
}

// One event per line: a line that several entries recognise (the torch_npu message and
// a generic "out of memory" wording) keeps the reading with the most numbers.
void add_oom_event(std::vector<OomEvent>& events, OomEvent e) {
  for (auto& x : events) {
    if (x.path == e.path && x.line == e.line) {
      if (known_sizes(e) > known_sizes(x)) x = std::move(e);
      return;
    }
  }
  events.push_back(std::move(e));
}

}  // namespace

bool MemReport::any_input_read() const {
  return std::any_of(inputs.begin(), inputs.end(), [](const SampleInput& in) {
    return in.status == InputStatus::ok || in.status == InputStatus::partial;
  });
}

std::vector<ChartPoint> chart_points(std::span<const MemSample> samples, std::size_t max_points) {
  std::vector<ChartPoint> out;
  auto point = [](const MemSample& s) { return ChartPoint{s.step, s.allocated, s.reserved}; };
  if (samples.size() <= std::max<std::size_t>(max_points, 2)) {
    for (const auto& s : samples) out.push_back(point(s));
    return out;
  }
  // Each bucket keeps its lowest and highest sample, in step order, so spikes and
  // troughs survive the thinning.
  const std::size_t buckets = std::max<std::size_t>(max_points / 2, 1);
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t lo = b * samples.size() / buckets;
    const std::size_t hi = (b + 1) * samples.size() / buckets;
    if (lo >= hi) continue;
    std::size_t mn = lo, mx = lo;
    for (std::size_t i = lo; i < hi; ++i) {
      if (samples[i].allocated < samples[mn].allocated) mn = i;
      if (samples[i].allocated > samples[mx].allocated) mx = i;
    }
    out.push_back(point(samples[std::min(mn, mx)]));
    if (mn != mx) out.push_back(point(samples[std::max(mn, mx)]));
  }
  return out;
}

DeviceReport analyze_device(const DeviceSeries& s, const MemAnalyzeOptions& o, std::optional<uint64_t> capacity,
                            const std::string& capacity_source) {
  DeviceReport d;
  const SeriesTotals& t = s.totals;
  d.device = s.device;
  d.samples = t.count;
  d.kept = s.samples.size();
  d.keep_every = s.keep_every;
  d.first_step = t.first_step;
  d.last_step = t.last_step;
  if (!s.samples.empty()) d.first_allocated = s.samples.front().allocated;
  d.peak = t.peak;
  d.peak_reserved = t.peak_reserved;
  d.capacity = capacity;
  d.capacity_source = capacity ? capacity_source : "";
  if (capacity) {
    const uint64_t high = std::max(t.peak.bytes, t.peak_reserved ? t.peak_reserved->bytes : 0);
    d.headroom_bytes = static_cast<int64_t>(*capacity) - static_cast<int64_t>(high);
  }
  if (t.max_gap) {
    d.fragmentation.basis = t.gap_uses_max_allocated ? "reserved_minus_max_allocated" : "reserved_minus_allocated";
    // Without max_allocated in every sample the raw gap is the only measure there is.
    const SamplePoint& g = t.gap_uses_max_allocated ? *t.max_gap : *t.max_raw_gap;
    d.fragmentation.max_gap_bytes = g.bytes;
    d.fragmentation.at_step = g.step;
    d.fragmentation.warning = g.bytes > o.fragmentation_threshold;
    d.fragmentation.max_reserved_minus_allocated_bytes = t.max_raw_gap->bytes;
  }
  LeakOptions lo = o.leak;
  lo.capacity = capacity;
  d.leak = detect_leak(s.samples, lo);
  d.inference = t.inference;
  d.out_of_order = t.out_of_order;
  d.duplicate_steps = t.duplicate_steps;
  d.chart = chart_points(s.samples, o.chart_points);
  return d;
}

MemReport analyze_memory(const MemAnalyzeOptions& o, const KnowledgeBase& kb, const LogFindings& scan_logs) {
  MemReport r;
  r.settings = o;
  r.kb_version = kb.version();
  SampleSet set(o.max_kept_samples);
  r.inputs = read_sample_inputs(o.paths, o.display, set);
  set.finish();

  // Out-of-memory messages: the knowledge base recognises them (torch-npu.npu-oom,
  // device.hal-mem-alloc-failed, acl.207001 ...); their captures carry the sizes.
  std::vector<Finding> log_findings;
  if (o.scan_logs && r.any_input_read() && scan_logs) {
    for (auto& f : scan_logs(o.paths, o.jobs)) {
      if (f.entry->category != Category::memory || effective_severity(f) < Severity::warning) continue;
      for (auto& e : f.evidence) e.path = shown(e.path, o.display);
      if (effective_severity(f) >= Severity::error && f.entry->role != Role::hint) {
        for (const auto& e : f.evidence) add_oom_event(r.ooms, oom_event_from(f, e));
      }
      log_findings.push_back(std::move(f));
    }
  }

  // Capacity per device: --capacity, else what the samples say, else an OOM message's total.
  for (const auto& s : set.devices()) {
    std::optional<uint64_t> cap = o.capacity;
    std::string source = "option";
    if (!cap && s.totals.capacity) {
      cap = s.totals.capacity;
      source = "samples";
    }
    if (!cap) {
      for (const auto& e : r.ooms) {
        const bool same = e.device ? *e.device == s.device : set.devices().size() == 1;
        if (same && e.total) {
          cap = e.total;
          source = "oom_message";
          break;
        }
      }
    }
    r.devices.push_back(analyze_device(s, o, cap, source));
  }

  auto device_of = [&](const OomEvent& e) -> const DeviceReport* {
    for (const auto& d : r.devices) {
      if (e.device ? d.device == *e.device : r.devices.size() == 1) return &d;
    }
    return nullptr;
  };
  for (auto& e : r.ooms) {
    const OomVerdict v = classify_oom(e, device_of(e), o);
    e.classification = v.rule ? v.rule->string() : std::string();
    e.phase = v.phase;
    e.basis = v.basis;
    if (!v.rule) continue;
    Evidence ev;
    ev.path = e.path;
    ev.line = e.line;
    ev.text = e.text;
    ev.device = e.device;
    ev.captures = {{"classified_by", v.basis}, {"phase", v.phase}, {"oom_rule", e.rule}};
    add_finding(r, kb, *v.rule, std::move(ev));
  }

  for (const auto& d : r.devices) {
    if (d.leak.detected) {
      const auto& fl = d.leak.floors;
      const int64_t* projected = d.leak.projected_oom_step ? &*d.leak.projected_oom_step : nullptr;
      std::vector<std::pair<std::string, std::string>> caps = {
          {"bytes_per_step", std::to_string(std::llround(d.leak.bytes_per_step))},
          {"confidence", std::to_string(d.leak.confidence).substr(0, 4)}};
      if (projected != nullptr) caps.emplace_back("projected_oom_step", std::to_string(*projected));
      // The evidence points at the last sample of the device (the end of the rise).
      const auto& series = set.devices()[static_cast<std::size_t>(&d - r.devices.data())].samples;
      const SamplePoint last{series.back().allocated, series.back().step, series.back().input, series.back().line};
      add_finding(r, kb, kb_id::mem::leak,
                  sample_evidence(r, last, d.device,
                                  leak_sentence(d.device, fl.front().y, static_cast<int64_t>(fl.front().x), fl.back().y,
                                                static_cast<int64_t>(fl.back().x), d.leak.bytes_per_step,
                                                d.leak.confidence, projected, o.lang),
                                  std::move(caps)));
    }
  }
  for (std::size_t i = 0; i < r.devices.size(); ++i) {
    const auto& d = r.devices[i];
    if (!d.fragmentation.warning) continue;
    const SeriesTotals& t = set.devices()[i].totals;
    const bool vs_peak = d.fragmentation.basis == "reserved_minus_max_allocated";
    const SamplePoint& at = vs_peak ? *t.max_gap : *t.max_raw_gap;
    add_finding(r, kb, kb_id::mem::fragmentation,
                sample_evidence(r, at, d.device,
                                fragmentation_sentence(d.device, at.bytes, at.step, vs_peak, o.fragmentation_threshold,
                                                       o.lang),
                                {{"gap_bytes", std::to_string(at.bytes)}, {"basis", d.fragmentation.basis}}));
  }
  // Errors first, then warnings; the log's own findings after the analysis.
  std::stable_sort(r.findings.begin(), r.findings.end(), [](const Finding& a, const Finding& b) {
    return effective_severity(a) > effective_severity(b);
  });
  for (auto& f : log_findings) r.findings.push_back(std::move(f));
  return r;
}

}  // namespace npu_doctor::mem
