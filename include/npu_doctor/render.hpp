#pragma once
// Renderers read a finished report and write text, JSON or Markdown. They never
// look at inputs or the knowledge base files themselves.
#include <ostream>
#include <string>
#include <vector>

#include "npu_doctor/diagnosis.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor {

struct RenderOptions {
  Lang lang = Lang::en;
  bool color = false;  // ANSI colours (text only)
};

void render_diagnosis_text(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
void render_diagnosis_json(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
void render_diagnosis_markdown(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
// A self-contained page (inline CSS, no scripts): docs/cli.md.
void render_diagnosis_html(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);

// Why the root cause was chosen, in plain words.
std::string root_cause_reason(const DiagnosisReport& report, Lang lang);

// `explain`: every entry that matches a query, first the best.
struct ExplainResult {
  std::string query;
  std::vector<CodeResolution> matches;   // entries for the code or id
  std::vector<std::string> suggestions;  // near matches when nothing matched
};
ExplainResult explain_query(const KnowledgeBase& kb, const std::string& query);
void render_explain_text(const ExplainResult& result, const RenderOptions& options, std::ostream& out);
void render_explain_json(const ExplainResult& result, const RenderOptions& options, std::ostream& out);

}  // namespace npu_doctor
