#pragma once
// The guide's out-of-memory table as rules, first match wins (docs/mem.md):
//   1. much of the card held neither by the allocator nor free  -> mem.memory-outside-allocator
//   2. the cache's unused part could have held the request      -> mem.fragmentation
//   3. part-way, the samples show a fragmented cache, live memory
//      not full                                                -> mem.fragmentation
//   4. the samples show a leak                                  -> mem.leak
//   5. inference                                                -> mem.kv-cache-too-large
//   6. the run never got past its first steps, or the first
//      step alone filled 90% of the card                        -> mem.initial-footprint-too-large
//   7. the run had been going for a while                       -> mem.activation-growth
//   otherwise unclassified (a log without samples).
#include <cstdint>
#include <optional>

#include "npu_doctor/entry_id.hpp"

#include "memory/mem_report.hpp"

namespace npu_doctor::mem {

struct OomVerdict {
  std::optional<EntryId> rule;  // the mem.* entry, or none
  std::string phase;  // start, part_way, inference, unknown
  std::string basis;  // held_elsewhere, cache_gap_fits_request, fragmented_cache, leak, inference,
                      // died_in_warmup, static_footprint, ran_past_warmup, no_samples
};

// `device`: the samples of the OOM's device, or nullptr when there are none.
OomVerdict classify_oom(const OomEvent& event, const DeviceReport* device, const MemAnalyzeOptions& options);

}  // namespace npu_doctor::mem
