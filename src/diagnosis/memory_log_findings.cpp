#include "memory_log_findings.hpp"

#include "diagnosis.hpp"

namespace npu_doctor {

mem::LogFindings memory_log_findings(const KnowledgeBase& kb, std::vector<KbProblem>& problems, std::string cache_dir) {
  return [&kb, &problems, cache_dir = std::move(cache_dir)](const std::vector<std::string>& paths, unsigned jobs) {
    Diagnoser diagnoser(kb, problems, cache_dir);
    DiagnoseOptions options;
    options.paths = paths;
    options.jobs = jobs;
    options.before = 2;  // the context an OOM line's evidence shows
    options.after = 2;
    return diagnoser.run(options).findings;
  };
}

}  // namespace npu_doctor
