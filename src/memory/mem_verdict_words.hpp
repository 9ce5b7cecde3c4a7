#pragma once
// The mem report's words that depend on a verdict: a leak verdict's reason, an out-of-memory
// message's phase, and the evidence sentences of a leak and of fragmentation. The texts are
// in data/ui.yaml (mem.*); what a finding means and how to fix it lives in kb/memory.yaml.
#include <cstdint>
#include <string>
#include <string_view>

#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::mem {

// The explanation of a LeakVerdict::reason, or the reason itself when unknown.
std::string_view leak_reason_text(std::string_view reason, Lang lang);
std::string_view phase_text(std::string_view phase, Lang lang);

// Evidence sentences.
std::string leak_sentence(int device, double floor_from, int64_t step_from, double floor_to, int64_t step_to,
                          double bytes_per_step, double confidence, const int64_t* projected_oom_step, Lang lang);
std::string fragmentation_sentence(int device, uint64_t gap, int64_t step, bool versus_peak, uint64_t threshold,
                                   Lang lang);

}  // namespace npu_doctor::mem
