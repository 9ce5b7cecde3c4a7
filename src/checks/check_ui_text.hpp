#pragma once
// The labels of the `check` report that come from its model: step titles (words in
// data/ui.yaml, check.step.*), statuses and step numbers. The report's other words are in
// data/ui.yaml (check.*); what a finding means and how to fix it lives in kb/checks.yaml.
#include <string_view>

#include "check_report.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::ui {

std::string_view step_title(checks::StepId id, Lang lang);
// "PASS", "WARN", "FAIL", "SKIP" (the same tokens in both languages: they are grepped).
std::string_view status_label(checks::StepStatus s);
// The step's number in the order (driver 1 ... numa 4), the same whichever steps
// --only/--skip leave, so "3." always means permissions.
inline int step_number(checks::StepId id) { return static_cast<int>(id) + 1; }

}  // namespace npu_doctor::ui
