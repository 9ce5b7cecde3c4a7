#pragma once
// How `mem analyze` (and the incident page's memory attachment) reads the logs among its
// inputs: a diagnosis of them, whose memory findings carry the OOM messages' sizes. Memory
// sits below the diagnosis (which classifies OOM lines with memory's classifier), so the
// caller hands this to mem::analyze_memory.
#include <string>
#include <vector>

#include "memory/mem_report.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {

// `kb` and `problems` must outlive the returned function.
mem::LogFindings memory_log_findings(const KnowledgeBase& kb, std::vector<KbProblem>& problems, std::string cache_dir);

}  // namespace npu_doctor
