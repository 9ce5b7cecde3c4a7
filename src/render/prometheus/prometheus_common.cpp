#include "render/prometheus/prometheus_common.hpp"

#include <array>
#include <chrono>
#include <map>

#include "npu_doctor/version.hpp"

namespace npu_doctor::prometheus {

double now_seconds() {
  using namespace std::chrono;
  const auto ms = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  return static_cast<double>(ms) / 1000.0;
}

void write_run_families(Writer& w, const RunInfo& run, std::string_view kb_version) {
  w.family("npu_doctor_info", MetricType::gauge,
           "Versions of the npu-doctor that wrote this file and of its knowledge base (always 1).");
  w.sample({{"command", run.command}, {"version", std::string(kVersion)}, {"kb_version", std::string(kb_version)}}, 1);
  w.family("npu_doctor_last_run_timestamp_seconds", MetricType::gauge,
           "Unix time at which npu-doctor wrote this report.");
  w.sample({{"command", run.command}}, run.timestamp_seconds);
}

void write_findings_family(Writer& w, const RunInfo& run, std::span<const Finding* const> findings) {
  constexpr std::array severities = {Severity::info, Severity::warning, Severity::error, Severity::critical};
  std::map<std::pair<Category, Severity>, int> counts;
  for (const Finding* f : findings) {
    if (f->entry != nullptr) ++counts[{f->entry->category, effective_severity(*f)}];
  }
  w.family("npu_doctor_findings", MetricType::gauge,
           "Distinct findings (one per knowledge-base entry and code) of the last run, by category and severity.");
  for (Category c : categories_in_priority_order()) {
    for (Severity s : severities) {
      const auto it = counts.find({c, s});
      w.sample({{"command", run.command}, {"category", std::string(to_string(c))}, {"severity", std::string(to_string(s))}},
               it == counts.end() ? 0 : it->second);
    }
  }
}

void write_state_set(Writer& w, Labels labels, std::string_view label, std::span<const std::string_view> states,
                     std::string_view current) {
  labels.emplace_back(std::string(label), std::string());
  for (std::string_view s : states) {
    labels.back().second = s;
    w.sample(labels, s == current ? 1 : 0);
  }
}

}  // namespace npu_doctor::prometheus
