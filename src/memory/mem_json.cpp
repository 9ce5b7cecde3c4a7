// `npu-doctor mem analyze --format json`: the npu-doctor/mem/v1 contract
// (docs/json-mem-v1.md). Every size is a number of bytes.
#include <cmath>

#include <nlohmann/json.hpp>

#include "render/finding_json.hpp"
#include "mem_render.hpp"
#include "npu_doctor/version.hpp"

namespace npu_doctor::mem {
namespace {

using json = nlohmann::ordered_json;

template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

std::string_view workload_name(Workload w) {
  switch (w) {
    case Workload::training: return "training";
    case Workload::inference: return "inference";
    case Workload::auto_detect: break;
  }
  return "auto";
}

json device_json(const DeviceReport& d) {
  json j;
  j["device"] = d.device;
  j["samples"] = d.samples;
  j["analysed_samples"] = d.kept;
  j["first_step"] = d.first_step;
  j["last_step"] = d.last_step;
  j["peak"] = d.peak.bytes;
  j["peak_step"] = d.peak.step;
  j["peak_reserved"] = d.peak_reserved ? json(d.peak_reserved->bytes) : json(nullptr);
  j["capacity"] = opt(d.capacity);
  j["capacity_source"] = d.capacity ? json(d.capacity_source) : json(nullptr);
  j["headroom"] = opt(d.headroom_bytes);
  const Fragmentation& f = d.fragmentation;
  j["fragmentation"] = {{"max_gap_bytes", opt(f.max_gap_bytes)},
                        {"warning", f.warning},
                        {"at_step", opt(f.at_step)},
                        {"basis", f.basis.empty() ? json(nullptr) : json(f.basis)},
                        {"max_reserved_minus_allocated_bytes", opt(f.max_reserved_minus_allocated_bytes)}};
  const LeakVerdict& l = d.leak;
  json leak;
  leak["detected"] = l.detected;
  leak["bytes_per_step"] = std::llround(l.bytes_per_step);
  leak["confidence"] = std::round(l.confidence * 100.0) / 100.0;
  leak["projected_oom_step"] = opt(l.projected_oom_step);
  leak["reason"] = l.reason;
  leak["from_step"] = l.from_step;
  leak["to_step"] = l.to_step;
  leak["growth_bytes"] = std::llround(l.growth_bytes);
  leak["trend"] = {{"intercept_bytes", std::llround(l.intercept)}, {"slope_bytes_per_step", l.bytes_per_step}};
  j["leak"] = leak;
  j["phase"] = d.inference ? "inference" : "training";
  return j;
}

json oom_json(const OomEvent& e) {
  return {{"rule", e.rule},
          {"path", e.path},
          {"line", e.line},
          {"device", opt(e.device)},
          {"requested_bytes", opt(e.requested)},
          {"total_bytes", opt(e.total)},
          {"allocated_bytes", opt(e.allocated)},
          {"reserved_bytes", opt(e.reserved)},
          {"free_bytes", opt(e.free)},
          {"classification", e.classification.empty() ? json(nullptr) : json(e.classification)},
          {"phase", e.phase},
          {"basis", e.basis},
          {"text", e.text}};
}

}  // namespace

void render_mem_json(const MemReport& r, const RenderOptions& o, std::ostream& out) {
  json j;
  j["schema"] = "npu-doctor/mem/v1";
  j["tool"] = {{"name", "npu-doctor"}, {"version", std::string(kVersion)}, {"kb_version", r.kb_version}};
  j["lang"] = to_string(o.lang);
  json inputs = json::array();
  for (const auto& in : r.inputs) {
    json i = {{"path", in.path}, {"status", to_string(in.status)}, {"bytes", in.bytes}, {"lines", in.lines},
              {"samples", in.samples}, {"invalid_lines", in.invalid}};
    if (!in.note.empty()) i["note"] = in.note;
    if (!in.problems.empty()) i["problems"] = in.problems;
    inputs.push_back(i);
  }
  j["inputs"] = inputs;
  const auto& s = r.settings;
  j["settings"] = {{"warmup_steps", opt(s.leak.warmup_steps)},
                   {"warmup_fraction", s.leak.warmup_fraction},
                   {"fragmentation_threshold_bytes", s.fragmentation_threshold},
                   {"capacity_bytes", opt(s.capacity)},
                   {"workload", workload_name(s.workload)},
                   {"min_leak_confidence", s.leak.min_confidence}};
  json devices = json::array();
  for (const auto& d : r.devices) devices.push_back(device_json(d));
  j["devices"] = devices;
  json ooms = json::array();
  for (const auto& e : r.ooms) ooms.push_back(oom_json(e));
  j["oom"] = ooms;
  json findings = json::array();
  for (const auto& f : r.findings) findings.push_back(render_detail::finding_json(f, o.lang));
  j["findings"] = findings;
  j["notes"] = r.notes;
  out << j.dump(2) << "\n";
}

}  // namespace npu_doctor::mem
