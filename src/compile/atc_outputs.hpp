#pragma once
// What `atc` reads besides the knowledge-base scan: the ATC command line and the
// outcome line in console logs, check_result.json, op_not_support.log.
#include <string>
#include <vector>

#include "atc.hpp"

namespace npu_doctor::atc_detail {

struct AtcFiles {
  std::optional<AtcCommand> command;     // the first ATC invocation seen
  bool run_failed = false;               // "ATC run failed"
  bool run_succeeded = false;            // "ATC run success"
  std::optional<AtcCheckReport> check_report;
  std::vector<AtcOperator> operators;    // failed operators of the pre-check, op_not_support.log lines
  std::vector<std::string> problems;
};

// Streams every input once (files, directories, archives).
AtcFiles read_atc_files(const std::vector<std::string>& paths);

// check_result.json text -> report and its failed operators (for tests and the reader).
bool parse_check_result(const std::string& text, const std::string& path, AtcCheckReport& report,
                        std::vector<AtcOperator>& failed, std::string& error);

}  // namespace npu_doctor::atc_detail
