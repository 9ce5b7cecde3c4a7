#pragma once
// Renderers of the `hccl` reports: text for people, JSON as the versioned contracts of
// docs/json-hccl-v1.md (npu-doctor/hccl-env/v1, hccl-ranktable/v1, hccl-hccn/v1,
// hccl-test-output/v1). They only read the reports.
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "env_check.hpp"
#include "hccl_test_check.hpp"
#include "hccn_check.hpp"
#include "ranktable.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor::hccl {

void render_env_text(const EnvReport& r, const RenderOptions& o, std::ostream& out);
void render_env_json(const EnvReport& r, const RenderOptions& o, std::ostream& out);
void render_ranktable_text(const RankTableReport& r, const RenderOptions& o, std::ostream& out);
void render_ranktable_json(const RankTableReport& r, const RenderOptions& o, std::ostream& out);
void render_hccn_text(const HccnReport& r, const RenderOptions& o, std::ostream& out);
void render_hccn_json(const HccnReport& r, const RenderOptions& o, std::ostream& out);
void render_hccl_test_text(const HcclTestReport& r, const RenderOptions& o, std::ostream& out);
void render_hccl_test_json(const HcclTestReport& r, const RenderOptions& o, std::ostream& out);

// Shared by every JSON report of hccl, net and isolate: the document head, the findings
// in diagnose's shape, and the summary ({"findings", "errors", "warnings", "by_category"}).
nlohmann::ordered_json report_head(std::string_view schema, const std::string& kb_version, Lang lang);
nlohmann::ordered_json findings_json(const std::vector<Finding>& findings, Lang lang);
nlohmann::ordered_json summary_json(const std::vector<Finding>& findings);

}  // namespace npu_doctor::hccl
