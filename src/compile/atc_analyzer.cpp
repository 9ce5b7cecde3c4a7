// analyze_atc: the knowledge-base scan of the logs, the ATC files, then the operators,
// the phase, the case and the concrete next step (a rewritten command line).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "atc_command.hpp"
#include "core/temp_files.hpp"
#include "atc_operators.hpp"
#include "atc_outputs.hpp"
#include "atc.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor {

std::string_view to_string(AtcPhase p) {
  switch (p) {
    case AtcPhase::unknown: return "unknown";
    case AtcPhase::options: return "options";
    case AtcPhase::parse: return "parse";
    case AtcPhase::infershape: return "infershape";
    case AtcPhase::fusion: return "fusion";
    case AtcPhase::op_compile: return "op_compile";
    case AtcPhase::build: return "build";
  }
  return "unknown";
}

const std::string* AtcCommand::find(std::string_view name) const {
  for (const auto& [k, v] : options) {
    if (k == name) return &v;
  }
  return nullptr;
}

bool AtcReport::any_input_read() const { return diagnosis.any_input_scanned() || check_report.has_value(); }

namespace {

using namespace atc_detail;

constexpr const char* kStdinName = "<stdin>";

// stdin can be read once; both passes need it, so it goes to a temporary file first.
std::string copy_stdin(std::vector<std::string>& problems) {
  std::string templ = temporary_directory() + "/npu-doctor-atc-XXXXXX";
  const int fd = ::mkstemp(templ.data());
  if (fd < 0) {
    problems.push_back(std::string("cannot buffer stdin: ") + std::strerror(errno));
    return {};
  }
  char buf[65536];
  for (ssize_t r; (r = ::read(STDIN_FILENO, buf, sizeof buf)) > 0;) {
    if (::write(fd, buf, static_cast<std::size_t>(r)) != r) {
      problems.push_back(std::string("cannot buffer stdin: ") + std::strerror(errno));
      break;
    }
  }
  ::close(fd);
  return templ;
}

void rename_path(std::string& p, const std::string& from) {
  if (!from.empty() && p == from) p = kStdinName;
}

int order(AtcPhase p) { return static_cast<int>(p); }

AtcPhase failing_phase(const AtcReport& r) {
  AtcPhase best = AtcPhase::unknown, wrapped = AtcPhase::unknown;
  for (const auto& f : r.diagnosis.findings) {
    if (effective_severity(f) < Severity::error) continue;
    const AtcPhase ph = phase_of(f);
    if (ph == AtcPhase::unknown) continue;
    AtcPhase& slot = f.entry->role == Role::wrapper ? wrapped : best;
    if (slot == AtcPhase::unknown || order(ph) < order(slot)) slot = ph;
  }
  if (best == AtcPhase::unknown) best = wrapped;
  if (best == AtcPhase::unknown && r.check_report && r.check_report->result == "failed") best = AtcPhase::parse;
  if (best == AtcPhase::unknown && !r.operators.empty()) best = r.operators.front().phase;
  return best;
}

std::optional<Category> case_category(const AtcReport& r) {
  const Finding* wrapper_root = r.diagnosis.root_finding();
  if (wrapper_root != nullptr && wrapper_root->entry->role == Role::wrapper && r.phase == AtcPhase::unknown &&
      r.operators.empty()) {
    return std::nullopt;  // only "ATC run failed": nothing says which case it is
  }
  if (const Finding* root = r.diagnosis.root_finding()) {
    const Category c = root->entry->category;
    if (c == Category::compile_op_unsupported || c == Category::compile_shape) return c;
  }
  switch (r.phase) {
    case AtcPhase::parse:
    case AtcPhase::fusion:
    case AtcPhase::op_compile: return Category::compile_op_unsupported;
    case AtcPhase::infershape: return Category::compile_shape;
    default: break;
  }
  if (const Finding* root = r.diagnosis.root_finding()) return root->entry->category;
  return std::nullopt;
}

// --input_shape="a:-1,3,224,224;b:1,-1": the number of -1 axes, whether all are axis 0
// (a batch), and whether all are the height and width of 4-D NCHW inputs (an image size).
void dynamic_axes(const std::string& shapes, int& count, bool& batch_only, bool& hw_only) {
  count = 0;
  batch_only = true;
  hw_only = true;
  std::size_t start = 0;
  while (start <= shapes.size()) {
    const auto end = std::min(shapes.find(';', start), shapes.size());
    const std::string seg = shapes.substr(start, end - start);
    const auto colon = seg.rfind(':');
    const std::string dims = colon == std::string::npos ? seg : seg.substr(colon + 1);
    std::size_t axis = 0, p = 0;
    std::vector<std::size_t> dynamic;
    while (p <= dims.size()) {
      const auto q = std::min(dims.find(',', p), dims.size());
      if (dims.substr(p, q - p) == "-1") {
        ++count;
        dynamic.push_back(axis);
        if (axis != 0) batch_only = false;
      }
      ++axis;
      p = q + 1;
    }
    if (!dynamic.empty() && (axis != 4 || dynamic != std::vector<std::size_t>{2, 3})) hw_only = false;
    start = end + 1;
  }
}

void rewrite(AtcReport& r, EntryId case_id) {
  const bool have_cmd = r.command.has_value();
  if (case_id == kb_id::atc::fusion_pass_failed && !r.fusion_passes.empty()) {
    std::string cfg;
    for (const auto& p : r.fusion_passes) cfg += p + ":off\n";
    const std::string* existing = have_cmd ? r.command->find("--fusion_switch_file") : nullptr;
    const std::string file = existing != nullptr && !existing->empty() ? *existing : "fusion_switch.cfg";
    r.fusion_switch_file = std::make_pair(file, cfg);
    if (have_cmd) r.rewritten_command = format_atc_command(*r.command, {{"--fusion_switch_file", file}});
    return;
  }
  if (!have_cmd) return;
  const AtcCommand& cmd = *r.command;
  if (case_id == kb_id::atc::unsupported_operator && !r.check_report) {
    // Pre-check: lists every operator the installed CANN cannot handle in check_result.json.
    r.rewritten_command = format_atc_command(cmd, {{"--mode", "3"}});
    return;
  }
  if (case_id != kb_id::atc::shape_options) return;
  const std::string* shapes = cmd.find("--input_shape");
  if (shapes == nullptr || shapes->empty()) {
    r.rewritten_command = format_atc_command(cmd, {{"--input_shape", "<input_name>:<n,c,h,w>"}});
    return;
  }
  int count = 0;
  bool batch_only = true, hw_only = true;
  dynamic_axes(*shapes, count, batch_only, hw_only);
  if (count == 0) return;  // fixed shapes that are wrong: only the user knows the right ones
  const bool has_batch = cmd.find("--dynamic_batch_size") != nullptr;
  const bool has_dims = cmd.find("--dynamic_dims") != nullptr || cmd.find("--dynamic_image_size") != nullptr ||
                        cmd.find("--input_shape_range") != nullptr;
  const std::string profile = "<" + std::to_string(count) + " value" + (count > 1 ? "s" : "") + ">";
  const std::string dims = profile + ";" + profile + ";" + profile;
  if (!has_batch && !has_dims) {
    const std::string image = "<height>,<width>;<height>,<width>;<height>,<width>";
    r.rewritten_command = batch_only ? format_atc_command(cmd, {{"--dynamic_batch_size", "1,2,4,8"}})
                          : hw_only  ? format_atc_command(cmd, {{"--dynamic_image_size", image}})
                                     : format_atc_command(cmd, {{"--dynamic_dims", dims}, {"--input_format", "ND"}});
  } else if (has_batch && !batch_only) {
    // --dynamic_batch_size allows -1 on the batch axis only (E10018): other axes need --dynamic_dims.
    r.rewritten_command =
        format_atc_command(cmd, {{"--dynamic_dims", dims}, {"--input_format", "ND"}}, {"--dynamic_batch_size"});
  }
}

void raise_case(AtcReport& r, const KnowledgeBase& kb) {
  std::optional<EntryId> id;
  if (r.phase == AtcPhase::fusion && !r.fusion_passes.empty()) id = kb_id::atc::fusion_pass_failed;
  else if (r.category == Category::compile_shape) id = kb_id::atc::shape_options;
  else if (r.phase == AtcPhase::op_compile) id = kb_id::atc::op_compile_failed;
  else if (r.category == Category::compile_op_unsupported || !r.operators.empty()) id = kb_id::atc::unsupported_operator;
  if (!id || !r.category) return;
  const Entry& entry = kb.entry(*id);
  Evidence ev;
  if (const Finding* root = r.diagnosis.root_finding()) {
    ev.input = root->first().input;
    ev.path = root->first().path;
    ev.line = root->first().line;
    ev.text = root->first().text;
  } else if (!r.operators.empty()) {
    ev.path = r.operators.front().source.path;
    ev.line = r.operators.front().source.line;
    ev.text = r.operators.front().reason;
  }
  ev.captures.emplace_back("phase", std::string(to_string(r.phase)));
  std::string ops;
  for (std::size_t i = 0; i < r.operators.size() && i < 10; ++i) {
    const auto& o = r.operators[i];
    ops += (ops.empty() ? "" : ",") + (o.type.empty() ? o.name : o.type) + (o.opset.empty() ? "" : "@" + o.opset);
  }
  if (!ops.empty()) ev.captures.emplace_back("operators", ops);
  std::string passes;
  for (const auto& p : r.fusion_passes) passes += (passes.empty() ? "" : ",") + p;
  if (!passes.empty()) ev.captures.emplace_back("passes", passes);
  rewrite(r, *id);
  r.findings.push_back(make_finding(entry, std::move(ev)));
}

}  // namespace

AtcReport analyze_atc(const AtcOptions& options, const KnowledgeBase& kb, const Diagnoser& diagnoser) {
  AtcReport r;
  std::vector<std::string> paths = options.paths;
  std::string stdin_tmp;
  for (auto& p : paths) {
    if (p != "-") continue;
    if (stdin_tmp.empty()) stdin_tmp = copy_stdin(r.problems);
    p = stdin_tmp.empty() ? "-" : stdin_tmp;
  }
  DiagnoseOptions d;
  d.paths = paths;
  d.before = 2;
  d.after = 2;
  d.max_evidence = options.max_evidence;
  d.jobs = options.jobs;
  r.diagnosis = diagnoser.run(d);
  AtcFiles files = read_atc_files(paths);
  if (!stdin_tmp.empty()) {
    ::unlink(stdin_tmp.c_str());
    r.diagnosis.inputs.rewrite_paths([&](std::string& path) { rename_path(path, stdin_tmp); });
    for (auto& f : r.diagnosis.findings) {
      for (auto& e : f.evidence) rename_path(e.path, stdin_tmp);
    }
    if (files.command) rename_path(files.command->source.path, stdin_tmp);
    for (auto& o : files.operators) rename_path(o.source.path, stdin_tmp);
  }
  r.command = std::move(files.command);
  r.check_report = std::move(files.check_report);
  r.problems.insert(r.problems.end(), files.problems.begin(), files.problems.end());

  r.operators = operators_from_findings(r.diagnosis.findings);
  for (auto& o : files.operators) add_operator(r.operators, std::move(o));
  for (const auto& f : r.diagnosis.findings) {
    if (phase_of(f) != AtcPhase::fusion) continue;
    for (const auto& e : f.evidence) {
      std::string pass;
      for (const auto& [k, v] : e.captures) {
        if (k == "pass") pass = v;
      }
      if (pass.empty()) pass = fusion_pass_from_text(e.text);
      if (!pass.empty() && std::find(r.fusion_passes.begin(), r.fusion_passes.end(), pass) == r.fusion_passes.end()) {
        r.fusion_passes.push_back(pass);
      }
    }
  }
  const bool error_found = r.diagnosis.root.has_value();
  const bool precheck_failed = r.check_report && r.check_report->result == "failed";
  if (files.run_failed || precheck_failed || (error_found && !files.run_succeeded)) r.outcome = "failed";
  else if (files.run_succeeded) r.outcome = "succeeded";
  r.phase = failing_phase(r);
  if (r.outcome == "failed") {
    r.category = case_category(r);
    raise_case(r, kb);
  }
  return r;
}

}  // namespace npu_doctor
