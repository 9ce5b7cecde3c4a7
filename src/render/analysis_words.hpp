#pragma once
// Headings and labels of the `atc` and `profile` reports, in English and Chinese.
// Knowledge (titles, causes, remedies) stays in kb/compile_profile.yaml.
#include <string_view>

#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::words {

enum class W {
  profile_title, top_by_total, top_by_avg, op_type, task_type, calls, total, average, share,
  ai_cpu_flag, time_split, compute, communication, overlapped, free_time, ranks, rank, wait,
  exposed, sync, verdict_slow_rank, verdict_slow_link, verdict_ok, compile_signs, dynamic_tasks,
  static_tasks, compile_time, findings, no_findings, inputs, skipped, column_problems, source,
  no_data, approximate,
  atc_title, outcome, failed, succeeded, unknown, phase, case_, operators, op_name, opset,
  fusion_passes, command, rewritten_command, fusion_cfg, next_steps, check_report, unsupported_list,
  evidence, remedies, none,
  count_,
};

std::string_view get(W w, Lang lang);

}  // namespace npu_doctor::words
