// `-f prometheus` for mem analyze (docs/prometheus.md).
#include <map>
#include <string>
#include <vector>

#include "render/prometheus/prometheus_common.hpp"
#include "memory/mem_prometheus.hpp"

namespace npu_doctor::prometheus {
namespace {

Labels device_label(const mem::DeviceReport& d) { return {{"device", std::to_string(d.device)}}; }

// One family with a sample per device that has the value.
template <typename Get>
void per_device(Writer& w, const mem::MemReport& report, std::string_view name, std::string_view help, Get get) {
  w.family(name, MetricType::gauge, help);
  for (const auto& d : report.devices) {
    if (const std::optional<double> v = get(d)) w.sample(device_label(d), *v);
  }
}

template <typename T>
std::optional<double> as_double(const std::optional<T>& v) {
  return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}

}  // namespace

void render_mem(const mem::MemReport& report, const RunInfo& run, std::ostream& out) {
  Writer w(out);
  write_run_families(w, run, report.kb_version);

  per_device(w, report, "npu_doctor_mem_samples", "Memory samples read per device.",
             [](const mem::DeviceReport& d) { return std::optional<double>(static_cast<double>(d.samples)); });
  per_device(w, report, "npu_doctor_mem_peak_bytes", "Peak allocated device memory (the highest of allocated and max_allocated).",
             [](const mem::DeviceReport& d) { return std::optional<double>(static_cast<double>(d.peak.bytes)); });
  per_device(w, report, "npu_doctor_mem_peak_reserved_bytes", "Peak memory reserved by the caching allocator.",
             [](const mem::DeviceReport& d) {
               return d.peak_reserved ? std::optional<double>(static_cast<double>(d.peak_reserved->bytes)) : std::nullopt;
             });
  per_device(w, report, "npu_doctor_mem_capacity_bytes", "Device memory capacity (option, samples or OOM message).",
             [](const mem::DeviceReport& d) { return as_double(d.capacity); });
  per_device(w, report, "npu_doctor_mem_headroom_bytes",
             "Capacity minus the highest peak (allocated or reserved); negative when over.",
             [](const mem::DeviceReport& d) { return as_double(d.headroom_bytes); });
  per_device(w, report, "npu_doctor_mem_fragmentation_gap_bytes",
             "Largest memory held by the cache beyond what was allocated.",
             [](const mem::DeviceReport& d) { return as_double(d.fragmentation.max_gap_bytes); });
  per_device(w, report, "npu_doctor_mem_leak_detected", "1 when a steady rise of the memory floor (a leak) was found, else 0.",
             [](const mem::DeviceReport& d) { return std::optional<double>(d.leak.detected ? 1 : 0); });
  per_device(w, report, "npu_doctor_mem_leak_growth_bytes_per_step", "Growth of the memory floor per step, when a leak was found.",
             [](const mem::DeviceReport& d) {
               return d.leak.detected ? std::optional<double>(d.leak.bytes_per_step) : std::nullopt;
             });
  per_device(w, report, "npu_doctor_mem_leak_projected_oom_step",
             "The step at which the leak would exhaust the device, when it can be projected.",
             [](const mem::DeviceReport& d) { return d.leak.detected ? as_double(d.leak.projected_oom_step) : std::nullopt; });

  w.family("npu_doctor_mem_oom_events", MetricType::gauge,
           "Out-of-memory messages found in the logs, by classification (a mem.* rule, or unclassified).");
  std::map<std::string, int> ooms;
  for (const auto& e : report.ooms) ++ooms[e.classification.empty() ? "unclassified" : e.classification];
  for (const auto& [classification, n] : ooms) w.sample({{"classification", classification}}, n);

  std::vector<const Finding*> findings;
  for (const auto& f : report.findings) findings.push_back(&f);
  write_findings_family(w, run, findings);
}

}  // namespace npu_doctor::prometheus
