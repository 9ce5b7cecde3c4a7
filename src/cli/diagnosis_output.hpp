#pragma once
// What diagnose, cluster and merge do once they have a report: say which inputs failed,
// write the report in the chosen format, and pick the exit code.
#include <string>

#include "common.hpp"
#include "npu_doctor/diagnosis.hpp"

namespace npu_doctor::cli {

// The --format values every diagnosis report can be written in.
inline const std::vector<std::string> kDiagnosisFormats = {"text", "json", "markdown", "html"};

// Prints input problems and warnings to stderr, writes the report to `output` ("-" =
// stdout), and returns the exit code: 2 when it cannot be written or nothing was
// scanned, 1 with a root cause, else 0.
int write_diagnosis(const GlobalOptions& g, const DiagnosisReport& report, const std::string& format,
                    const std::string& output);

}  // namespace npu_doctor::cli
