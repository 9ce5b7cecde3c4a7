#pragma once
// The words of the hccl, net and isolate reports themselves (headings, labels, verdicts)
// in English and Chinese. Knowledge (titles, causes, remedies) lives in kb/hccl_config.yaml.
#include <string_view>

#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::hccl {

enum class Word {
  files, file_count, variables, agree, differ, unset, default_word, ranks, missing, duplicates, no_problems, problems,
  findings, errors, warnings, notes, unreadable, devices, node, device, link, health, ip, tls, link_downs,
  rows, data_size, avg_time, bandwidth, check, peak, expected, rank_table, servers, version, status,
  links, from, to, connect, rtt, up, down, this_host, hosts, host_problem, runs, command, result, pass,
  fail, timed_out, devices_set, output_tail, likely_cause, verdict, not_measured, summary, fix, detail,
  lost, seconds, not_run, plan, saved_output,
};

std::string_view word(Word w, Lang lang);

}  // namespace npu_doctor::hccl
