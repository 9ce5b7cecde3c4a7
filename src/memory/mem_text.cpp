// The terminal form of the mem report: per device a sparkline of allocated memory with
// peak, capacity, fragmentation and leak; then the out-of-memory messages with their
// classification; then the findings with cause and remedies.
#include <algorithm>
#include <cstdio>

#include "core/byte_size.hpp"
#include "mem_verdict_words.hpp"
#include "sparkline.hpp"
#include "mem_render.hpp"
#include "render/finding_text.hpp"
#include "render/terminal_style.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::mem {
namespace {

using Style = render_detail::TerminalStyle;

std::string confidence(double c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f", c);
  return buf;
}

std::string device_sparkline(const DeviceReport& d) {
  std::vector<double> v;
  for (const auto& p : d.chart) v.push_back(static_cast<double>(p.allocated));
  if (v.empty()) return {};
  const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  double lo = *mn, hi = *mx;
  // A flat series should look flat, not like noise blown up to full height.
  const double min_span = 0.1 * hi;
  if (hi - lo < min_span) {
    const double mid = (hi + lo) / 2;
    lo = mid - min_span / 2;
    hi = mid + min_span / 2;
  }
  return sparkline(v, 40, lo, hi);
}

void print_device(const DeviceReport& d, uint64_t threshold, Lang lang, const Style& st, std::ostream& out) {
  out << "  " << st.bold(ui::text(ui::Key::mem_device, lang) + " " + std::to_string(d.device)) << "  "
      << st.cyan(device_sparkline(d)) << "  " << d.samples << " " << ui::text(ui::Key::mem_samples, lang) << ", "
      << ui::text(ui::Key::mem_steps, lang) << " " << d.first_step << "–" << d.last_step;
  if (d.keep_every > 1) out << st.dim(" (" + ui::text(ui::Key::mem_every_nth, lang) + " " + std::to_string(d.keep_every) + ")");
  out << "\n";
  out << "    " << ui::text(ui::Key::mem_peak, lang) << " " << format_byte_count(d.peak.bytes) << " @" << d.peak.step;
  if (d.peak_reserved) out << " · " << ui::text(ui::Key::mem_reserved, lang) << " " << format_byte_count(d.peak_reserved->bytes);
  out << " · " << ui::text(ui::Key::mem_capacity, lang) << " ";
  if (d.capacity) {
    out << format_byte_count(*d.capacity) << " (" << d.capacity_source << ") · " << ui::text(ui::Key::mem_headroom, lang) << " "
        << format_bytes(static_cast<double>(*d.headroom_bytes));
  } else {
    out << ui::text(ui::Key::mem_unknown, lang);
  }
  out << "\n";
  const Fragmentation& f = d.fragmentation;
  out << "    " << ui::text(ui::Key::mem_fragmentation, lang) << "  ";
  if (f.max_gap_bytes) {
    const std::string line = ui::text(ui::Key::mem_gap, lang) + " " + format_byte_count(*f.max_gap_bytes) + " @" +
                             std::to_string(f.at_step.value_or(0)) + " (" + ui::text(ui::Key::mem_threshold, lang) + " " +
                             format_byte_count(threshold) + ")";
    out << line << "  " << (f.warning ? st.yellow(ui::text(ui::Key::mem_warning, lang)) : ui::text(ui::Key::mem_ok, lang));
  } else {
    out << st.dim(ui::text(ui::Key::mem_unknown, lang) + " (no \"reserved\")");
  }
  out << "\n";
  const LeakVerdict& l = d.leak;
  out << "    " << ui::text(ui::Key::mem_leak, lang) << "  ";
  if (l.detected) {
    std::string s = "+" + format_bytes(l.bytes_per_step) + " " + ui::text(ui::Key::mem_per_step, lang) + ", " +
                    ui::text(ui::Key::mem_confidence, lang) + " " + confidence(l.confidence);
    if (l.projected_oom_step) s += ", " + ui::text(ui::Key::mem_projected_oom, lang) + " " + std::to_string(*l.projected_oom_step);
    out << st.red(s);
  } else {
    out << ui::text(ui::Key::mem_no_leak, lang) << st.dim(" (" + std::string(leak_reason_text(l.reason, lang)) + ")");
  }
  out << "\n";
}

void print_finding(const Finding& f, Lang lang, const Style& st, std::ostream& out) {
  const Entry& e = *f.entry;
  const Severity sev = effective_severity(f);
  const std::string label = std::string(to_string(sev)) + "  " + e.title.get(lang);
  out << "  " << (sev >= Severity::error ? st.red(label) : st.yellow(label)) << "  " << st.cyan("[" + e.id + "]") << "\n";
  for (const auto& ev : f.evidence) {
    out << "    " << ui::text(ui::Key::mem_evidence, lang) << "  " << render_detail::location(ev) << "  " << ev.text << "\n";
  }
  out << "    " << ui::text(ui::Key::mem_cause, lang) << "  " << e.cause_text().get(lang) << "\n";
  out << "    " << ui::text(ui::Key::mem_remedies, lang) << "\n";
  for (std::size_t i = 0; i < e.remedy_texts().size(); ++i) {
    out << "      " << (i + 1) << ". " << e.remedy_texts()[i].get(lang) << "\n";
  }
}

void print_oom(const OomEvent& e, Lang lang, const Style& st, std::ostream& out) {
  out << "  " << e.path << ":" << e.line << "  " << st.cyan(e.rule);
  if (e.device) out << "  " << ui::text(ui::Key::mem_device, lang) << " " << *e.device;
  out << "\n   ";
  auto field = [&](ui::Key t, const std::optional<uint64_t>& v) {
    if (v) out << " " << ui::text(t, lang) << " " << format_byte_count(*v) << ";";
  };
  field(ui::Key::mem_requested, e.requested);
  field(ui::Key::mem_allocated, e.allocated);
  field(ui::Key::mem_reserved, e.reserved);
  field(ui::Key::mem_free, e.free);
  field(ui::Key::mem_capacity, e.total);
  out << " " << phase_text(e.phase, lang) << "\n";
  out << "    " << ui::text(ui::Key::mem_classified_as, lang) << ": ";
  if (e.classification.empty()) out << st.dim(ui::text(ui::Key::mem_unclassified, lang)) << "\n";
  else out << st.bold(e.classification) << st.dim(" (" + e.basis + ")") << "\n";
}

}  // namespace

void render_mem_text(const MemReport& r, const RenderOptions& o, std::ostream& out) {
  const Style st{o.color};
  const Lang lang = o.lang;
  uint64_t samples = 0;
  for (const auto& d : r.devices) samples += d.samples;
  out << st.dim("npu-doctor mem: " + std::to_string(r.inputs.size()) + " input(s), " + std::to_string(r.devices.size()) +
                " device(s), " + std::to_string(samples) + " sample(s), " + std::to_string(r.ooms.size()) +
                " out-of-memory message(s) (" + r.kb_version + ")")
      << "\n\n";
  if (!r.devices.empty()) {
    out << st.bold(ui::text(ui::Key::mem_heading, lang)) << "\n";
    for (const auto& d : r.devices) print_device(d, r.settings.fragmentation_threshold, lang, st, out);
    out << "\n";
  }
  if (!r.ooms.empty()) {
    out << st.bold(ui::text(ui::Key::mem_oom_heading, lang)) << "\n";
    for (const auto& e : r.ooms) print_oom(e, lang, st, out);
    out << "\n";
  }
  if (!r.findings.empty()) {
    out << st.bold(ui::text(ui::Key::mem_findings, lang)) << "\n";
    for (const auto& f : r.findings) print_finding(f, lang, st, out);
    out << "\n";
  } else if (r.devices.empty() && r.ooms.empty()) {
    out << ui::text(ui::Key::mem_no_samples, lang) << "\n";
  } else {
    out << ui::text(ui::Key::mem_nothing_found, lang) << "\n";
  }
  bool header = false;
  for (const auto& in : r.inputs) {
    if (in.status == InputStatus::ok && in.invalid == 0) continue;
    if (!header) {
      out << st.bold(ui::text(ui::Key::mem_inputs_with_problems, lang)) << "\n";
      header = true;
    }
    out << "  " << st.yellow(std::string(to_string(in.status))) << "  " << in.path;
    if (!in.note.empty()) out << ": " << in.note;
    if (in.invalid > 0) {
      out << ": " << in.invalid << " " << ui::text(ui::Key::mem_not_samples_lines, lang);
      for (const auto& p : in.problems) out << "\n      " << p;
    }
    out << "\n";
  }
  for (const auto& n : r.notes) out << st.dim("note: " + n) << "\n";
}

}  // namespace npu_doctor::mem
