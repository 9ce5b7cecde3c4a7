// The terminal form of the mem report: per device a sparkline of allocated memory with
// peak, capacity, fragmentation and leak; then the out-of-memory messages with their
// classification; then the findings with cause and remedies.
#include <algorithm>
#include <cstdio>

#include "analyzers/memory/byte_size.hpp"
#include "analyzers/memory/mem_ui_text.hpp"
#include "mem_words.hpp"
#include "analyzers/memory/sparkline.hpp"
#include "mem_render.hpp"
#include "report_text.hpp"
#include "terminal_style.hpp"

namespace npu_doctor::mem {
namespace {

using Style = render_detail::TerminalStyle;

using render_words::bytes;

using render_words::word;

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
  out << "  " << st.bold(word(MemText::device, lang) + " " + std::to_string(d.device)) << "  "
      << st.cyan(device_sparkline(d)) << "  " << d.samples << " " << word(MemText::samples, lang) << ", "
      << word(MemText::steps, lang) << " " << d.first_step << "–" << d.last_step;
  if (d.keep_every > 1) out << st.dim(" (" + word(MemText::every_nth, lang) + " " + std::to_string(d.keep_every) + ")");
  out << "\n";
  out << "    " << word(MemText::peak, lang) << " " << bytes(d.peak.bytes) << " @" << d.peak.step;
  if (d.peak_reserved) out << " · " << word(MemText::reserved, lang) << " " << bytes(d.peak_reserved->bytes);
  out << " · " << word(MemText::capacity, lang) << " ";
  if (d.capacity) {
    out << bytes(*d.capacity) << " (" << d.capacity_source << ") · " << word(MemText::headroom, lang) << " "
        << format_bytes(static_cast<double>(*d.headroom_bytes));
  } else {
    out << word(MemText::unknown, lang);
  }
  out << "\n";
  const Fragmentation& f = d.fragmentation;
  out << "    " << word(MemText::fragmentation, lang) << "  ";
  if (f.max_gap_bytes) {
    const std::string line = word(MemText::gap, lang) + " " + bytes(*f.max_gap_bytes) + " @" +
                             std::to_string(f.at_step.value_or(0)) + " (" + word(MemText::threshold, lang) + " " +
                             bytes(threshold) + ")";
    out << line << "  " << (f.warning ? st.yellow(word(MemText::warning, lang)) : word(MemText::ok, lang));
  } else {
    out << st.dim(word(MemText::unknown, lang) + " (no \"reserved\")");
  }
  out << "\n";
  const LeakVerdict& l = d.leak;
  out << "    " << word(MemText::leak, lang) << "  ";
  if (l.detected) {
    std::string s = "+" + format_bytes(l.bytes_per_step) + " " + word(MemText::per_step, lang) + ", " +
                    word(MemText::confidence, lang) + " " + confidence(l.confidence);
    if (l.projected_oom_step) s += ", " + word(MemText::projected_oom, lang) + " " + std::to_string(*l.projected_oom_step);
    out << st.red(s);
  } else {
    out << word(MemText::no_leak, lang) << st.dim(" (" + std::string(leak_reason_text(l.reason, lang)) + ")");
  }
  out << "\n";
}

void print_finding(const Finding& f, Lang lang, const Style& st, std::ostream& out) {
  const Entry& e = *f.entry;
  const Severity sev = effective_severity(f);
  const std::string label = std::string(to_string(sev)) + "  " + e.title.get(lang);
  out << "  " << (sev >= Severity::error ? st.red(label) : st.yellow(label)) << "  " << st.cyan("[" + e.id + "]") << "\n";
  for (const auto& ev : f.evidence) {
    out << "    " << word(MemText::evidence, lang) << "  " << render_detail::location(ev) << "  " << ev.text << "\n";
  }
  out << "    " << word(MemText::cause, lang) << "  " << e.cause_text().get(lang) << "\n";
  out << "    " << word(MemText::remedies, lang) << "\n";
  for (std::size_t i = 0; i < e.remedy_texts().size(); ++i) {
    out << "      " << (i + 1) << ". " << e.remedy_texts()[i].get(lang) << "\n";
  }
}

void print_oom(const OomEvent& e, Lang lang, const Style& st, std::ostream& out) {
  out << "  " << e.path << ":" << e.line << "  " << st.cyan(e.rule);
  if (e.device) out << "  " << word(MemText::device, lang) << " " << *e.device;
  out << "\n   ";
  auto field = [&](MemText t, const std::optional<uint64_t>& v) {
    if (v) out << " " << word(t, lang) << " " << bytes(*v) << ";";
  };
  field(MemText::requested, e.requested);
  field(MemText::allocated, e.allocated);
  field(MemText::reserved, e.reserved);
  field(MemText::free_word, e.free);
  field(MemText::capacity, e.total);
  out << " " << phase_text(e.phase, lang) << "\n";
  out << "    " << word(MemText::classified_as, lang) << ": ";
  if (e.classification.empty()) out << st.dim(word(MemText::unclassified, lang)) << "\n";
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
    out << st.bold(word(MemText::heading, lang)) << "\n";
    for (const auto& d : r.devices) print_device(d, r.settings.fragmentation_threshold, lang, st, out);
    out << "\n";
  }
  if (!r.ooms.empty()) {
    out << st.bold(word(MemText::oom_heading, lang)) << "\n";
    for (const auto& e : r.ooms) print_oom(e, lang, st, out);
    out << "\n";
  }
  if (!r.findings.empty()) {
    out << st.bold(word(MemText::findings, lang)) << "\n";
    for (const auto& f : r.findings) print_finding(f, lang, st, out);
    out << "\n";
  } else if (r.devices.empty() && r.ooms.empty()) {
    out << word(MemText::no_samples, lang) << "\n";
  } else {
    out << word(MemText::nothing_found, lang) << "\n";
  }
  bool header = false;
  for (const auto& in : r.inputs) {
    if (in.status == InputStatus::ok && in.invalid == 0) continue;
    if (!header) {
      out << st.bold(word(MemText::inputs_with_problems, lang)) << "\n";
      header = true;
    }
    out << "  " << st.yellow(std::string(to_string(in.status))) << "  " << in.path;
    if (!in.note.empty()) out << ": " << in.note;
    if (in.invalid > 0) {
      out << ": " << in.invalid << " " << word(MemText::not_samples_lines, lang);
      for (const auto& p : in.problems) out << "\n      " << p;
    }
    out << "\n";
  }
  for (const auto& n : r.notes) out << st.dim("note: " + n) << "\n";
}

}  // namespace npu_doctor::mem
