#pragma once
// The sections of the incident report (html_renderer.cpp puts them on the page). Each
// writes escaped HTML; none needs a script.
#include <ostream>
#include <string_view>

#include "html_report.hpp"

namespace npu_doctor::html {

// html_verdict.cpp: the root cause card (why, evidence, cause, remedies) and the cluster
// decision (culprit, basis, confidence, symptom/silent/missing ranks).
void root_cause_card(const DiagnosisReport& r, Lang lang, std::ostream& out);
void cluster_summary(const DiagnosisReport& r, Lang lang, std::ostream& out);

// html_timeline.cpp: one row per rank (per node, with drill-down, above kMaxRankRows).
inline constexpr std::size_t kMaxRankRows = 64;
void timeline(const DiagnosisReport& r, Lang lang, std::ostream& out);
std::string_view timeline_style();

// html_evidence.cpp: evidence lines with their context, collapsible.
void evidence_block(const Evidence& e, std::ostream& out);
void evidence_list(const Finding& f, std::ostream& out);
void remedies(const Finding& f, Lang lang, std::ostream& out);  // its captures filled in
void other_findings(const DiagnosisReport& r, Lang lang, std::ostream& out);
void input_problems(const DiagnosisReport& r, Lang lang, std::ostream& out);

// html_attachments.cpp: check steps, per-node environment facts, memory and profile charts.
void check_section(const HtmlAttachments& a, Lang lang, std::ostream& out);
void mem_section(const HtmlAttachments& a, Lang lang, std::ostream& out);
void profile_section(const HtmlAttachments& a, Lang lang, std::ostream& out);
std::string_view attachments_style(const HtmlAttachments& a);
// The memory chart's script (with its data) when memory is attached, else nothing.
void attachments_script(const HtmlAttachments& a, Lang lang, std::ostream& out);

}  // namespace npu_doctor::html
