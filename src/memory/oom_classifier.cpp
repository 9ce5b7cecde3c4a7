#include "oom_classifier.hpp"

#include <algorithm>

#include "core/byte_size.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::mem {
namespace {

std::optional<uint64_t> capture_bytes(const Evidence& e, std::string_view name) {
  for (const auto& [k, v] : e.captures) {
    if (k == name) return parse_byte_size(v);
  }
  return std::nullopt;
}

std::optional<int> capture_int(const Evidence& e, std::string_view name) {
  for (const auto& [k, v] : e.captures) {
    if (k != name || v.empty() || v.size() > 6) continue;
    if (std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::stoi(v);
  }
  return std::nullopt;
}

// When in the run it happened, from the samples of the device.
std::string phase_of(const DeviceReport* d, bool inference, const MemAnalyzeOptions& o, std::string& basis) {
  if (inference) return "inference";
  if (d == nullptr) return "unknown";
  const bool died_early = d->kept <= 2 || (o.leak.warmup_steps && d->last_step < d->first_step + *o.leak.warmup_steps);
  if (died_early) {
    basis = "died_in_warmup";
    return "start";
  }
  if (d->capacity && static_cast<double>(d->first_allocated) >= 0.9 * static_cast<double>(*d->capacity)) {
    basis = "static_footprint";
    return "start";
  }
  basis = "ran_past_warmup";
  return "part_way";
}

}  // namespace

OomEvent oom_event_from(const Finding& f, const Evidence& e) {
  OomEvent o;
  o.rule = f.entry->id;
  o.path = e.path;
  o.line = e.line;
  o.text = e.text;
  o.device = capture_int(e, "device");
  if (!o.device) o.device = e.device;
  o.requested = capture_bytes(e, "requested");
  o.total = capture_bytes(e, "total");
  o.allocated = capture_bytes(e, "allocated");
  o.reserved = capture_bytes(e, "reserved");
  o.free = capture_bytes(e, "free");
  return o;
}

OomVerdict classify_oom(const OomEvent& e, const DeviceReport* d, const MemAnalyzeOptions& o) {
  const uint64_t threshold = o.fragmentation_threshold;
  const bool inference = o.workload == Workload::inference ||
                         (o.workload == Workload::auto_detect && d != nullptr && d->inference);
  std::string phase_basis;
  const std::string phase = phase_of(d, inference, o, phase_basis);
  // 1. Memory that is neither the allocator's nor free belongs to someone else.
  if (e.total && e.reserved && e.free && *e.total > *e.reserved + *e.free) {
    const uint64_t elsewhere = *e.total - *e.reserved - *e.free;
    if (elsewhere >= std::max<uint64_t>(threshold, *e.total / 10)) {
      return {kb_id::mem::memory_outside_allocator, phase, "held_elsewhere"};
    }
  }
  // 2. Reserved but unallocated memory large enough for the request: it was there, in pieces.
  if (e.reserved && e.allocated && e.requested && *e.reserved > *e.allocated) {
    const uint64_t gap = *e.reserved - *e.allocated;
    if (gap >= *e.requested && gap >= threshold) return {kb_id::mem::fragmentation, phase, "cache_gap_fits_request"};
  }
  // 3. The samples saw a fragmented cache while live tensors stayed below 90% of the card
  //    (fragmentation builds up over a run: not at the start).
  if (d != nullptr && d->fragmentation.warning && phase != "start") {
    const bool not_full = !d->capacity || static_cast<double>(d->peak.bytes) < 0.9 * static_cast<double>(*d->capacity);
    if (not_full) return {kb_id::mem::fragmentation, phase, "fragmented_cache"};
  }
  // 4. A leak explains running out part-way.
  if (d != nullptr && d->leak.detected) return {kb_id::mem::leak, phase, "leak"};
  // 5. Inference: the KV cache is what grows with the load.
  if (inference) return {kb_id::mem::kv_cache_too_large, phase, "inference"};
  // 6. Right at the start: the static footprint. 7. Part-way: activations.
  if (phase == "start") return {kb_id::mem::initial_footprint_too_large, phase, phase_basis};
  if (phase == "part_way") return {kb_id::mem::activation_growth, phase, phase_basis};
  return {std::nullopt, phase, "no_samples"};
}

}  // namespace npu_doctor::mem
