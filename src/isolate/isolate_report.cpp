#include "isolate/isolate_report.hpp"

#include <algorithm>
#include <cstdio>

#include "core/finding_set.hpp"
#include "hccl/findings_text.hpp"
#include "hccl/hccl_render.hpp"
#include "npu_doctor/kb_ids.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::isolate {
namespace {

using json = nlohmann::ordered_json;
using Captures = std::vector<std::pair<std::string, std::string>>;

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

const IsolateRun* find_run(const IsolateResult& r, const std::vector<int>& devices) {
  for (const auto& run : r.runs) {
    if (run.devices == devices) return &run;
  }
  return nullptr;
}

Evidence run_evidence(const IsolateRun& run, Captures caps) {
  const RunOutcome& o = run.outcome;
  caps.emplace_back("ASCEND_RT_VISIBLE_DEVICES", device_list(run.devices));
  caps.emplace_back("result", o.describe);
  caps.emplace_back("seconds", seconds(o.seconds));
  if (!o.log_path.empty()) caps.emplace_back("log", o.log_path);
  if (o.diagnosis != nullptr) caps.emplace_back("diagnosis", o.diagnosis->id + (o.diagnosis_code.empty() ? "" : " (" + o.diagnosis_code + ")"));
  // The evidence line: the last line the command printed, or how it ended.
  std::string last = o.tail;
  while (!last.empty() && last.back() == '\n') last.pop_back();
  if (const auto nl = last.rfind('\n'); nl != std::string::npos) last = last.substr(nl + 1);
  Evidence e = evidence_at(o.log_path.empty() ? "ASCEND_RT_VISIBLE_DEVICES=" + device_list(run.devices) : o.log_path,
                                 0, last.empty() ? o.describe : last, std::move(caps));
  return e;
}

std::string status_word(const RunOutcome& o, Lang lang) {
  if (o.passed) return std::string(ui::word(ui::Key::isolate_pass, lang));
  if (o.timed_out) return std::string(ui::word(ui::Key::isolate_timed_out, lang));
  return std::string(ui::word(ui::Key::isolate_fail, lang));
}

}  // namespace

void add_findings(IsolateReport& report, const KnowledgeBase& kb) {
  FindingSet set(kb);
  const IsolateResult& r = report.result;
  if (r.all_fail) {
    if (!r.runs.empty()) set.add(kb_id::isolate::all_fail, run_evidence(r.runs.front(), {{"cards", std::to_string(r.devices.size())}}));
  } else {
    for (int d : r.bad_cards) {
      if (const IsolateRun* run = find_run(r, {d})) set.add(kb_id::isolate::card_fails_alone, run_evidence(*run, {{"device", std::to_string(d)}}));
    }
  }
  for (const auto& [a, b] : r.bad_pairs) {
    if (const IsolateRun* run = find_run(r, {a, b})) {
      set.add(kb_id::isolate::pair_fails, run_evidence(*run, {{"devices", std::to_string(a) + "," + std::to_string(b)}}));
    }
  }
  if (!r.failing_set.empty()) {
    if (const IsolateRun* run = find_run(r, r.failing_set)) {
      set.add(kb_id::isolate::set_fails, run_evidence(*run, {{"devices", device_list(r.failing_set)},
                                                       {"cards", std::to_string(r.failing_set.size())}}));
    }
  }
  report.findings = set.take();
}

void render_isolate_text(const IsolateReport& r, const RenderOptions& o, std::ostream& out) {
  const hccl::TextStyle st{o.color};
  const Lang lang = o.lang;
  std::string cmd;
  for (const auto& a : r.command) cmd += (cmd.empty() ? "" : " ") + a;
  out << st.dim("npu-doctor isolate: " + std::to_string(r.result.devices.size()) + " devices (" + r.device_source +
                "), strategy " + std::string(to_string(r.strategy)) + ", timeout " +
                std::to_string(r.timeout_ms / 1000) + " s, " + r.kb_version)
      << "\n"
      << ui::word(ui::Key::isolate_command, lang) << ": " << cmd << "\n";
  for (std::size_t i = 0; i < r.device_names.size() && i < r.result.devices.size(); ++i) {
    if (!r.device_names[i].empty()) out << "  " << st.dim(std::to_string(r.result.devices[i]) + " = " + r.device_names[i]) << "\n";
  }
  out << "\n" << st.bold(std::string(ui::word(ui::Key::isolate_runs, lang))) << "\n";
  std::size_t n = 0;
  std::size_t list_width = 0;  // columns aligned without tabs
  for (const auto& run : r.result.runs) list_width = std::max(list_width, device_list(run.devices).size());
  for (const auto& run : r.result.runs) {
    const std::string status = status_word(run.outcome, lang);
    char num[16];
    std::snprintf(num, sizeof num, "%3zu", ++n);
    std::string phase(to_string(run.phase));
    phase.resize(std::max<std::size_t>(phase.size(), 7), ' ');
    std::string list = device_list(run.devices);
    list.resize(list_width + 2, ' ');
    std::string line = std::string(num) + "  " + phase + "ASCEND_RT_VISIBLE_DEVICES=" + list;
    out << "  " << line << (run.outcome.passed ? st.green(status) : st.red(status)) << "  "
        << st.dim(seconds(run.outcome.seconds) + (run.outcome.passed ? "" : ", " + run.outcome.describe)) << "\n";
    if (!run.outcome.passed) {
      if (run.outcome.diagnosis != nullptr) {
        out << "       " << ui::word(ui::Key::isolate_likely_cause, lang) << ": " << st.bold(run.outcome.diagnosis->title.get(lang)) << " "
            << st.dim("(" + run.outcome.diagnosis->id + ")") << "\n";
      }
      if (!run.outcome.log_path.empty()) out << "       " << ui::word(ui::Key::isolate_saved_output, lang) << ": " << run.outcome.log_path << "\n";
    }
  }
  // The output of the first failure, where the reason usually is.
  for (const auto& run : r.result.runs) {
    if (run.outcome.passed || run.outcome.tail.empty()) continue;
    out << "\n" << st.bold(std::string(ui::word(ui::Key::isolate_output_tail, lang))) << " (ASCEND_RT_VISIBLE_DEVICES="
        << device_list(run.devices) << "):\n";
    std::size_t start = 0;
    const std::string& t = run.outcome.tail;
    while (start < t.size()) {
      const std::size_t end = std::min(t.find('\n', start), t.size());
      out << "    " << st.dim(t.substr(start, end - start)) << "\n";
      start = end + 1;
    }
    break;
  }
  if (r.result.stopped_early) {
    out << "\n" << st.yellow(ui::word(ui::Key::isolate_stopped_early, lang)) << "\n";
  }
  hccl::print_findings_text(r.findings, o, out);
}

void render_isolate_json(const IsolateReport& r, const RenderOptions& o, std::ostream& out) {
  json doc = hccl::report_head("npu-doctor/isolate/v1", r.kb_version, o.lang);
  doc["command"] = r.command;
  doc["devices"] = r.result.devices;
  doc["device_source"] = r.device_source;
  json names = json::array();
  for (const auto& n : r.device_names) names.push_back(n.empty() ? json(nullptr) : json(n));
  doc["device_names"] = names;
  doc["strategy"] = to_string(r.strategy);
  doc["timeout_ms"] = r.timeout_ms;
  doc["log_dir"] = r.log_dir.empty() ? json(nullptr) : json(r.log_dir);
  json runs = json::array();
  for (const auto& run : r.result.runs) {
    const RunOutcome& x = run.outcome;
    json d = nullptr;
    if (x.diagnosis != nullptr) {
      d = {{"rule", x.diagnosis->id},
           {"code", x.diagnosis_code.empty() ? json(nullptr) : json(x.diagnosis_code)},
           {"category", to_string(x.diagnosis->category)},
           {"title", x.diagnosis->title.get(o.lang)}};
    }
    runs.push_back({{"phase", to_string(run.phase)},
                    {"devices", run.devices},
                    {"passed", x.passed},
                    {"timed_out", x.timed_out},
                    {"exit_code", x.started && !x.timed_out && x.signal == 0 ? json(x.exit_code) : json(nullptr)},
                    {"signal", x.signal != 0 ? json(x.signal) : json(nullptr)},
                    {"seconds", x.seconds},
                    {"result", x.describe},
                    {"log", x.log_path.empty() ? json(nullptr) : json(x.log_path)},
                    {"tail", x.tail},
                    {"diagnosis", d}});
  }
  doc["runs"] = runs;
  json pairs = json::array();
  for (const auto& [a, b] : r.result.bad_pairs) pairs.push_back({a, b});
  doc["verdict"] = {{"bad_cards", r.result.all_fail ? std::vector<int>() : r.result.bad_cards},
                    {"bad_pairs", pairs},
                    {"failing_set", r.result.failing_set.empty() ? json(nullptr) : json(r.result.failing_set)},
                    {"all_fail", r.result.all_fail},
                    {"stopped_early", r.result.stopped_early}};
  doc["findings"] = hccl::findings_json(r.findings, o.lang);
  doc["summary"] = hccl::summary_json(r.findings);
  out << doc.dump(2) << "\n";
}

}  // namespace npu_doctor::isolate
