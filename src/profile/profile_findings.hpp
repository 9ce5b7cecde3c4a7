#pragma once
// The thresholds of docs/profile.md turned into findings (kb/compile_profile.yaml, profile.*).
#include <vector>

#include "profile.hpp"

namespace npu_doctor::profile_detail {

std::vector<Finding> raise_profile_findings(const ProfileReport& r, const KnowledgeBase& kb);

}  // namespace npu_doctor::profile_detail
