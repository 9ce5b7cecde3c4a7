#include "incident_text.hpp"

#include "render/terminal_style.hpp"
#include "render/text_layout.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace render_detail {
namespace {

using ui::Key;

std::string root_label(const IncidentReport& ir, Lang lang) {
  const Finding* f = ir.root_finding();
  if (f == nullptr) return std::string(ui::word(Key::incident_no_error_finding, lang));
  return std::string(to_string(f->entry->category)) + ": " + short_label(*f, lang);
}

std::string inputs_text(std::size_t n, Lang lang) {
  return std::to_string(n) + " " + std::string(n == 1 && lang == Lang::en ? "input" : ui::word(Key::report_unit_inputs, lang));
}

}  // namespace

std::string incident_time_range(const Incident& incident, Lang lang, bool seconds) {
  if (!dated(incident.first_time)) return std::string(ui::word(Key::incident_time_unknown, lang));
  const std::size_t len = seconds ? 19 : 16;
  const std::string from = format_time(*incident.first_time).substr(0, len);
  if (!dated(incident.last_time)) return from;
  std::string to = format_time(*incident.last_time).substr(0, len);
  if (to.compare(0, 10, from, 0, 10) == 0) to = to.substr(11);
  return from + " – " + to;
}

std::string incident_heading(const DiagnosisReport& r, std::size_t index, Lang lang) {
  const IncidentReport& ir = r.incidents[index];
  std::string s = ui::text(Key::incident_n_of, lang, fmt::arg("n", ir.number), fmt::arg("total", r.incidents.size()));
  s += " · " + incident_time_range(ir.incident, lang, true) + " · " + inputs_text(ir.incident.inputs.size(), lang);
  const auto& pids = ir.incident.pids;
  if (!pids.empty()) {
    s += pids.size() == 1 ? " · pid " : " · pids ";
    for (std::size_t i = 0; i < pids.size() && i < 4; ++i) s += (i ? ", " : "") + std::to_string(pids[i]);
    if (pids.size() > 4) s += ", …";
  }
  if (!ir.incident.job.empty()) s += " · " + ir.incident.job;
  return s;
}

void print_incident_table(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  const TerminalStyle st{o.color};
  const Lang lang = o.lang;
  out << "\n" << st.bold(wrap_text(ui::word(Key::incident_others, lang), o.width, 0, 2)) << "\n";
  for (std::size_t k = 0; k < r.incidents.size(); ++k) {
    if (k == r.shown) continue;
    const IncidentReport& ir = r.incidents[k];
    std::string num = std::to_string(ir.number);
    std::string line = "  " + std::string(num.size() < 3 ? 3 - num.size() : 0, ' ') + num + "  " +
                       incident_time_range(ir.incident, lang, false) + "  " + inputs_text(ir.incident.inputs.size(), lang) +
                       "  ";
    const std::size_t used = display_width(line);
    out << line << wrap_text(root_label(ir, lang), o.width, used, 7) << "\n";
  }
}

}  // namespace render_detail

void render_incident_summary(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  auto time = [](const std::optional<Timestamp>& t) {
    if (!t || !t->has_year) return std::string("-");
    std::string s = format_time(*t);
    s[10] = 'T';
    return s;
  };
  auto line = [&](std::size_t number, const Incident* inc, std::size_t inputs, const Finding* f) {
    out << number << '\t' << (inc ? time(inc->first_time) : "-") << '\t' << (inc ? time(inc->last_time) : "-") << '\t'
        << inputs << '\t';
    if (f == nullptr) {
      out << "none\t-\t-\t-\t" << ui::word(ui::Key::incident_no_error_finding, o.lang) << "\n";
      return;
    }
    out << to_string(f->entry->category) << '\t' << f->entry->id << '\t' << (f->code.empty() ? "-" : f->code) << '\t'
        << render_detail::location(f->first()) << '\t' << finding_title(*f, o.lang) << "\n";
  };
  if (r.incidents.empty()) {
    std::size_t scanned = 0;
    for (const auto& in : r.inputs) scanned += in.status == InputStatus::ok || in.status == InputStatus::partial;
    line(1, nullptr, scanned, r.root_finding());
    return;
  }
  for (const auto& ir : r.incidents) line(ir.number, &ir.incident, ir.incident.inputs.size(), ir.root_finding());
}

}  // namespace npu_doctor
