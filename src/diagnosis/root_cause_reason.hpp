#pragma once
// The sentence behind root_cause_reason, with paths shown as the text report shows them.
#include <optional>
#include <string>
#include <vector>

#include "diagnosis.hpp"
#include "report_text.hpp"

namespace npu_doctor::render_detail {

std::string reason_text(const std::vector<Finding>& findings, const std::optional<RootCauseDecision>& root,
                        const std::optional<ClusterDecision>& cluster, Lang lang, const PathNames* names);

}  // namespace npu_doctor::render_detail
