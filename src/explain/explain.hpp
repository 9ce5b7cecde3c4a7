#pragma once
// `npu-doctor explain`: a knowledge-base search by code, id, name or a pasted log line, and
// its renderers.
#include <ostream>
#include <string>
#include <vector>

#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor {

// `explain`: every entry that matches a query, first the best.
struct ExplainResult {
  std::string query;
  std::vector<CodeResolution> matches;    // entries for the code or id; the code families when it has none
  std::vector<CodeResolution> families;   // the code families of an exact match, named only as families
  std::vector<std::string> read_as;       // what a pasted line was read as (codes, ids), the scanner's way
  std::vector<std::string> suggestions;   // near codes and ids when nothing (or only a family) matched
};
struct ExplainOptions {
  bool read_lines = true;  // read a query that is no bare code as a log line (builds the matcher)
  std::string cache_dir;   // where the matcher's compiled database is kept (Diagnoser's)
};
// An empty (or all blank) query matches nothing.
ExplainResult explain_query(const KnowledgeBase& kb, const std::string& query, const ExplainOptions& options = {});
void render_explain_text(const ExplainResult& result, const RenderOptions& options, std::ostream& out);
void render_explain_json(const ExplainResult& result, const RenderOptions& options, std::ostream& out);

}  // namespace npu_doctor
