#pragma once
// Runs the analyses attached to an incident report (`--attach KIND=PATH`): memory samples
// or logs (`mem`, as `mem analyze`), profiler output (`profile`, as `profile`), and a
// saved `check -f json` report (`check`). Problems go to `err`; false means the
// attachment list itself is wrong (unknown kind, unreadable or foreign check report).
#include <ostream>
#include <string>
#include <vector>

#include "incident_page/html_report.hpp"
#include "fleet/node_summary.hpp"

namespace npu_doctor {

inline constexpr std::string_view kAttachKinds = "mem, profile, check";

bool load_html_attachments(const std::vector<std::string>& specs, const KnowledgeBase& kb, const std::string& cache_dir,
                           Lang lang, HtmlAttachments& out, std::ostream& err);

// Reads a check report (npu-doctor/check/v1); false with `error` for anything else.
bool parse_check_view(const std::string& json_text, CheckView& out, std::string& error);

// The facts of every node that ran `cluster --check` (nodes without facts left out).
std::vector<NodeFacts> node_facts_of(const std::vector<NodeSummary>& nodes);

}  // namespace npu_doctor
