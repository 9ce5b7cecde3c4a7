#pragma once
// How `run` writes the diagnosis of a run: the report formats of diagnose, the JSON with
// a `job` object added (the command, how it ended, the plog files read), and the line
// that says how the job ended.
#include <ostream>
#include <string>
#include <vector>

#include "live/job_run.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor::live {

// "`python3 train.py` exited with status 1 after 12.3 s" / "was killed by SIGKILL ..." /
// "looked hung and was ended ...".
std::string describe_ending(const std::vector<std::string>& command, const RunOutcome& outcome);

// The report in `format` (text, json, markdown, html). JSON is npu-doctor/diagnosis/v1
// plus `job`: {command, exit_code, signal, hung, killed_on_hang, seconds, plog_files}.
void render_run_report(const std::vector<std::string>& command, const RunOutcome& outcome, const std::string& format,
                       const RenderOptions& options, std::ostream& out);

// The command as a shell would show it (arguments with spaces quoted), for messages.
std::string shell_words(const std::vector<std::string>& argv);

}  // namespace npu_doctor::live
