#pragma once
// The words of the `check` report itself (step titles, statuses, labels), in English and
// Chinese. What a finding means and how to fix it lives in kb/checks.yaml.
#include <string_view>

#include "checks/check_report.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::ui {

enum class CheckText { summary, all_passed, fix, passed, warnings, failed, skipped, no_steps };

std::string_view get(CheckText t, Lang lang);
std::string_view step_title(checks::StepId id, Lang lang);
// "PASS", "WARN", "FAIL", "SKIP" (the same tokens in both languages: they are grepped).
std::string_view status_label(checks::StepStatus s);
// The step's number in the order (driver 1 ... numa 4), the same whichever steps
// --only/--skip leave, so "3." always means permissions.
inline int step_number(checks::StepId id) { return static_cast<int>(id) + 1; }

}  // namespace npu_doctor::ui
