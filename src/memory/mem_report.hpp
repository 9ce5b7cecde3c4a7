#pragma once
// The model of `npu-doctor mem analyze`: per device peak, fragmentation and leak, the
// out-of-memory messages found in logs with their classification, and findings whose
// texts come from the knowledge base (kb/memory.yaml). Renderers only read this.
#include <cstdint>
#include <map>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "leak_detector.hpp"
#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "sample_reader.hpp"
#include "sample_set.hpp"

namespace npu_doctor::mem {

enum class Workload { auto_detect, training, inference };

struct MemAnalyzeOptions {
  std::vector<std::string> paths;              // sample files and logs, "-" is not allowed here
  std::map<std::string, std::string> display;  // path prefix -> name shown (spooled stdin)
  LeakOptions leak;                            // capacity is filled in per device
  std::optional<uint64_t> capacity;            // --capacity: overrides what samples and logs say
  uint64_t fragmentation_threshold = 1ull << 30;
  Workload workload = Workload::auto_detect;
  bool scan_logs = true;                       // look for OOM messages with the knowledge base
  unsigned jobs = 0;
  std::size_t chart_points = 400;              // per device, for the HTML chart and sparklines
  std::size_t max_kept_samples = 1u << 16;     // of all devices together, before their series are thinned
  Lang lang = Lang::en;                        // for evidence sentences
};

struct ChartPoint {
  int64_t step = 0;
  uint64_t allocated = 0;
  std::optional<uint64_t> reserved;
};

struct Fragmentation {
  std::optional<uint64_t> max_gap_bytes;  // nullopt: no sample had "reserved"
  bool warning = false;
  std::optional<int64_t> at_step;
  std::string basis;                      // reserved_minus_max_allocated | reserved_minus_allocated
  std::optional<uint64_t> max_reserved_minus_allocated_bytes;
};

struct DeviceReport {
  int device = 0;
  uint64_t samples = 0;        // read
  uint64_t kept = 0;           // analysed (after thinning and removing repeated steps)
  uint64_t keep_every = 1;
  int64_t first_step = 0;
  int64_t last_step = 0;
  uint64_t first_allocated = 0;  // at the first step: the static footprint
  SamplePoint peak;              // max of allocated and max_allocated
  std::optional<SamplePoint> peak_reserved;
  std::optional<uint64_t> capacity;
  std::string capacity_source;  // option | samples | oom_message | "" (unknown)
  std::optional<int64_t> headroom_bytes;  // capacity - the highest of peak and peak reserved
  Fragmentation fragmentation;
  LeakVerdict leak;
  bool inference = false;
  bool out_of_order = false;
  uint64_t duplicate_steps = 0;
  std::vector<ChartPoint> chart;
};

struct OomEvent {
  std::string rule;  // the knowledge-base entry that recognised the message
  std::string path;
  uint64_t line = 0;
  std::string text;
  std::optional<int> device;
  std::optional<uint64_t> requested, total, allocated, reserved, free;
  std::string classification;  // mem.* entry id, or "" when the evidence does not decide
  std::string phase;           // start, part_way, inference, unknown
  std::string basis;           // which rule of docs/mem.md decided
};

struct MemReport {
  std::vector<SampleInput> inputs;
  std::vector<DeviceReport> devices;
  std::vector<OomEvent> ooms;
  std::vector<Finding> findings;  // mem.* findings, then the memory findings of the logs
  MemAnalyzeOptions settings;
  std::string kb_version;
  std::vector<std::string> notes;  // what the analysis could not do (no samples, unreadable input ...)

  bool any_input_read() const;
  bool anything_found() const { return !findings.empty() || !ooms.empty(); }
};

// The findings of a diagnosis of `paths` on `jobs` threads: how analyze_memory reads the
// logs among its inputs (the knowledge base recognises the OOM messages). The caller runs
// it (diagnosis::memory_log_findings): memory sits below the diagnosis, which classifies
// OOM lines with it.
using LogFindings = std::function<std::vector<Finding>(const std::vector<std::string>& paths, unsigned jobs)>;

// Reads samples and the logs' findings, analyses each device and classifies each
// out-of-memory event.
MemReport analyze_memory(const MemAnalyzeOptions& options, const KnowledgeBase& kb, const LogFindings& log_findings);

// Parts of analyze_memory, for tests.
DeviceReport analyze_device(const DeviceSeries& series, const MemAnalyzeOptions& options,
                            std::optional<uint64_t> capacity, const std::string& capacity_source);
std::vector<ChartPoint> chart_points(std::span<const MemSample> samples, std::size_t max_points);
// An OOM event from one piece of evidence of a memory finding (captures parsed to bytes).
OomEvent oom_event_from(const Finding& f, const Evidence& e);

}  // namespace npu_doctor::mem
