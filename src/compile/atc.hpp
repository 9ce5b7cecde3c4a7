#pragma once
// `atc` as a library call: ATC console output, plogs and the ATC output directory
// (check_result.json, op_not_support.log) -> the failing operators (name, type, opset),
// the phase, the case and the next step, with the ATC command line rewritten when the
// log shows it. Log knowledge comes from the knowledge base (Diagnoser); the JSON form is
// docs/json-atc-v1.md.
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "diagnosis/diagnosis.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor {

struct AtcOptions {
  std::vector<std::string> paths;  // console logs, plog directories, ATC output directories, archives, "-"
  std::size_t max_evidence = 50;   // occurrences kept per finding (each may name an operator)
  unsigned jobs = 0;
  std::string cache_dir;           // compiled pattern cache (as for diagnose)
};

// Pipeline order: options < parse < infershape < fusion < op_compile < build.
enum class AtcPhase { unknown, options, parse, infershape, fusion, op_compile, build };
std::string_view to_string(AtcPhase p);

struct SourceLine {
  std::string path;
  uint64_t line = 0;
};

struct AtcOperator {
  std::string name;    // node name in the model (may be empty when only the type is known)
  std::string type;    // operator type without domain and opset ("grid_sampler")
  std::string domain;  // ONNX domain ("ai.onnx") when the message gives domain::opset::type
  std::string opset;   // ONNX opset ("11")
  AtcPhase phase = AtcPhase::unknown;
  std::string rule;    // knowledge-base entry (or "check_result.json", "op_not_support.log")
  std::string reason;  // the message (or the pre-check cause)
  SourceLine source;
};

struct AtcCommand {
  SourceLine source;
  std::string text;                                         // as read (continuation lines joined)
  std::string program;                                      // "atc" or its path
  std::vector<std::pair<std::string, std::string>> options;  // "--model" -> "./m.onnx", in order
  const std::string* find(std::string_view name) const;
};

struct AtcCheckReport {  // check_result.json (atc --mode=3 or a failed parse)
  std::string path;
  std::string model;
  std::string result;
  long long total = 0, pass = 0, fail = 0;
};

struct AtcReport {
  DiagnosisReport diagnosis;       // the knowledge-base findings in the logs, root cause
  std::string outcome = "unknown";  // "failed", "succeeded", "unknown"
  AtcPhase phase = AtcPhase::unknown;
  std::optional<Category> category;  // the case: compile_op_unsupported, compile_shape, ...
  std::vector<AtcOperator> operators;
  std::vector<std::string> fusion_passes;
  std::optional<AtcCommand> command;
  std::optional<std::string> rewritten_command;
  std::optional<std::pair<std::string, std::string>> fusion_switch_file;  // file name, content
  std::optional<AtcCheckReport> check_report;
  std::vector<std::string> problems;  // ATC output files that could not be read
  std::vector<Finding> findings;      // the case, raised from atc.* entries, with the next steps

  bool any_input_read() const;
};

AtcReport analyze_atc(const AtcOptions& options, const KnowledgeBase& kb, const Diagnoser& diagnoser);

void render_atc_text(const AtcReport& report, const RenderOptions& options, std::ostream& out);
void render_atc_json(const AtcReport& report, const RenderOptions& options, std::ostream& out);

}  // namespace npu_doctor
