#include "live/run_findings.hpp"

#include <cstdio>

#include "live/job_run.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::live {
namespace {

// The last line of a stream as evidence, the lines before it as its context.
std::optional<Evidence> last_words(const LiveSources& sources, std::size_t index) {
  auto lines = sources.source(index).last_lines();
  if (lines.empty()) return std::nullopt;
  Evidence ev;
  ev.input = index;
  ev.path = sources.source(index).path();
  ev.line = lines.back().line;
  ev.text = lines.back().text;
  lines.pop_back();
  ev.before = std::move(lines);
  return ev;
}

Evidence no_output() {
  Evidence ev;
  ev.path = "(job)";
  ev.text = "(no output)";
  return ev;
}

}  // namespace

std::string human_duration(std::chrono::milliseconds d) {
  long long s = d.count() / 1000;
  if (d.count() < 10000 && d.count() % 1000 != 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1fs", static_cast<double>(d.count()) / 1000.0);
    return buf;
  }
  std::string out;
  if (s >= 3600) out += std::to_string(s / 3600) + "h";
  if (s % 3600 >= 60) out += std::to_string(s % 3600 / 60) + "m";
  if (s % 60 != 0 || out.empty()) out += std::to_string(s % 60) + "s";
  return out;
}

std::optional<Finding> hang_finding(const KnowledgeBase& kb, const LiveSources& sources, std::size_t streams,
                                    std::chrono::milliseconds silent_for) {
  const Entry& entry = kb.entry(kb_id::live::job_hung);
  std::optional<Finding> f;
  for (std::size_t i = 0; i < streams && i < sources.size(); ++i) {
    auto ev = last_words(sources, i);
    if (!ev) continue;
    ev->captures = {{"silent_for", human_duration(silent_for)}};
    if (!f) {
      f = make_finding(entry, std::move(*ev));
    } else {
      f->evidence.push_back(std::move(*ev));
      ++f->count;
    }
  }
  if (!f) {
    Evidence ev = no_output();
    ev.input = sources.size();
    ev.captures = {{"silent_for", human_duration(silent_for)}};
    f = make_finding(entry, std::move(ev));
  }
  return f;
}

std::optional<Finding> killed_finding(const KnowledgeBase& kb, const LiveSources& sources, std::size_t streams,
                                      int signal, double seconds) {
  const Entry& entry = kb.entry(kb_id::live::job_killed);
  std::optional<Evidence> ev;
  // Its last words: on stderr if it wrote there, else on stdout.
  for (std::size_t i = streams; i-- > 0 && !ev;) {
    if (i < sources.size()) ev = last_words(sources, i);
  }
  if (!ev) {
    ev = no_output();
    ev->input = sources.size();
  }
  ev->captures = {{"signal", signal_name(signal) + " (" + std::to_string(signal) + ")"},
                  {"after", human_duration(std::chrono::milliseconds(static_cast<long long>(seconds * 1000)))}};
  return make_finding(entry, std::move(*ev));
}

}  // namespace npu_doctor::live
