#pragma once
// The words of the mem report itself (headings, labels, evidence sentences) in English
// and Chinese. What a finding means and how to fix it lives in kb/memory.yaml.
#include <string>
#include <string_view>

#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::mem {

enum class MemText {
  heading,            // MEMORY
  device,
  samples,
  steps,
  peak,
  reserved,
  capacity,
  headroom,
  unknown,
  fragmentation,
  leak,
  no_leak,
  confidence,
  per_step,
  projected_oom,
  oom_heading,
  classified_as,
  unclassified,
  findings,
  cause,
  remedies,
  evidence,
  inputs_with_problems,
  nothing_found,
  no_samples,
  gap,
  threshold,
  warning,
  ok,
  allocated,
  trend,
  every_nth,
  requested,
  free_word,
  phase_start,
  phase_part_way,
  phase_inference,
  phase_unknown,
  reason_too_few_samples,
  reason_no_rise,
  reason_inconsistent,
  reason_too_small,
  reason_floor_not_raised,
  not_samples_lines,
  count_,
};

std::string_view mem_text(MemText t, Lang lang);
// The explanation of a LeakVerdict::reason, or the reason itself when unknown.
std::string_view leak_reason_text(std::string_view reason, Lang lang);
std::string_view phase_text(std::string_view phase, Lang lang);

// Evidence sentences.
std::string leak_sentence(int device, double floor_from, int64_t step_from, double floor_to, int64_t step_to,
                          double bytes_per_step, double confidence, const int64_t* projected_oom_step, Lang lang);
std::string fragmentation_sentence(int device, uint64_t gap, int64_t step, bool versus_peak, uint64_t threshold,
                                   Lang lang);

}  // namespace npu_doctor::mem
