#pragma once
// Renderers of the `check` report: text (colour on a terminal), JSON
// (npu-doctor/check/v1, docs/json-check-v1.md) and Markdown. They read only the report.
#include <ostream>

#include "check_report.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor::checks {

void render_check_text(const CheckReport& report, const RenderOptions& options, std::ostream& out);
void render_check_json(const CheckReport& report, const RenderOptions& options, std::ostream& out);
void render_check_markdown(const CheckReport& report, const RenderOptions& options, std::ostream& out);

}  // namespace npu_doctor::checks
