#pragma once
// Renderers read a finished report and write text, JSON or Markdown. They never
// look at inputs or the knowledge base files themselves.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "npu_doctor/diagnosis.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor {

struct RenderOptions {
  Lang lang = Lang::en;
  bool color = false;          // ANSI colours (text only)
  std::size_t width = 80;      // text: wrap at this many columns (0: never)
  bool all_incidents = false;  // text, markdown: every incident in full, not the shown one and a table
};

void render_diagnosis_text(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
// `diagnose -q`: one line per incident, tab-separated, for scripts (docs/incidents.md).
void render_incident_summary(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
void render_diagnosis_json(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
void render_diagnosis_markdown(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
// A self-contained page (inline CSS, no scripts): docs/cli.md.
void render_diagnosis_html(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);

// Why the root cause was chosen, in plain words.
std::string root_cause_reason(const DiagnosisReport& report, Lang lang);
std::string root_cause_reason(const IncidentReport& incident, Lang lang);

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
