// `npu-doctor mem analyze --html FILE`: one self-contained page (inline CSS, SVG drawn
// by inline JavaScript from data embedded in the page; no network, no external fonts)
// with the memory chart per device (mem_chart.cpp): allocated, reserved, capacity and
// the leak trend.
#include <cmath>
#include <cstdio>

#include "core/byte_size.hpp"
#include "mem_verdict_words.hpp"
#include "mem_chart.hpp"
#include "mem_render.hpp"
#include "npu_doctor/version.hpp"
#include "render/html_escape.hpp"
#include "render/finding_text.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::mem {
namespace {

std::string esc(std::string_view s) { return render_detail::html_escape(s); }

constexpr std::string_view kStyle = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;margin:24px auto;max-width:960px;color:#1f2328;padding:0 12px}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #d0d7de;padding-bottom:4px}
table{border-collapse:collapse;width:100%;font-size:.9em}th,td{border:1px solid #d0d7de;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
ol{margin:4px 0 4px 20px;padding:0}.finding{border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;margin:10px 0}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;padding:6px}
)css";

void ooms(const MemReport& r, Lang lang, std::ostream& out) {
  out << "<table id=\"oom\"><tr><th>" << esc(ui::text(ui::Key::mem_evidence, lang)) << "</th><th>"
      << esc(ui::text(ui::Key::mem_device, lang)) << "</th><th>" << esc(ui::text(ui::Key::mem_requested, lang)) << "</th><th>"
      << esc(ui::text(ui::Key::mem_allocated, lang)) << "</th><th>" << esc(ui::text(ui::Key::mem_reserved, lang)) << "</th><th>"
      << esc(ui::text(ui::Key::mem_free, lang)) << "</th><th>" << esc(ui::text(ui::Key::mem_capacity, lang)) << "</th><th>"
      << esc(ui::text(ui::Key::mem_classified_as, lang)) << "</th></tr>\n";
  auto cell = [&](const std::optional<uint64_t>& v) { out << "<td>" << (v ? esc(format_byte_count(*v)) : "–") << "</td>"; };
  for (const auto& e : r.ooms) {
    out << "<tr><td><code>" << esc(e.path) << ":" << e.line << "</code><br><span class=\"dim\">" << esc(e.rule)
        << "</span></td><td>" << (e.device ? std::to_string(*e.device) : "–") << "</td>";
    cell(e.requested);
    cell(e.allocated);
    cell(e.reserved);
    cell(e.free);
    cell(e.total);
    out << "<td>" << (e.classification.empty() ? esc(ui::text(ui::Key::mem_unclassified, lang)) : "<b>" + esc(e.classification) + "</b>")
        << "<br><span class=\"dim\">" << esc(std::string(phase_text(e.phase, lang))) << "</span></td></tr>\n";
  }
  out << "</table>\n";
}

void findings(const MemReport& r, Lang lang, std::ostream& out) {
  for (const auto& f : r.findings) {
    const Entry& e = *f.entry;
    const Severity sev = effective_severity(f);
    out << "<div class=\"finding\" data-rule=\"" << esc(e.id) << "\"><p><span class=\""
        << (sev >= Severity::error ? "err" : "warn") << "\">" << esc(std::string(to_string(sev))) << "</span> <b>"
        << esc(e.title.get(lang)) << "</b> <code class=\"dim\">" << esc(e.id) << "</code></p>\n";
    for (const auto& ev : f.evidence) {
      out << "<pre>" << esc(render_detail::location(ev)) << "  " << esc(ev.text) << "</pre>\n";
    }
    out << "<p>" << esc(ui::text(ui::Key::mem_cause, lang)) << ": " << esc(e.cause_text().get(lang)) << "</p><ol>";
    for (const auto& rem : e.remedy_texts()) out << "<li>" << esc(rem.get(lang)) << "</li>";
    out << "</ol></div>\n";
  }
}

}  // namespace

void render_mem_html(const MemReport& r, const RenderOptions& o, std::ostream& out) {
  const Lang lang = o.lang;
  out << "<!DOCTYPE html>\n<html lang=\"" << (lang == Lang::zh ? "zh" : "en") << "\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<meta name=\"generator\" content=\"npu-doctor " << esc(std::string(kVersion)) << "\">\n"
      << "<title>npu-doctor mem</title>\n<style>" << kStyle << mem_chart_style() << "</style>\n</head>\n<body data-rendered=\"no\">\n"
      << "<h1>npu-doctor mem</h1>\n<p class=\"dim\">" << r.devices.size() << " " << esc(ui::text(ui::Key::mem_device, lang))
      << " · " << r.ooms.size() << " OOM · " << esc(r.kb_version) << "</p>\n";
  if (!r.devices.empty()) {
    out << "<h2>" << esc(ui::text(ui::Key::mem_heading, lang)) << "</h2>\n";
    mem_device_table(r, lang, out);
    mem_charts(r, lang, out);
  }
  if (!r.ooms.empty()) {
    out << "<h2>" << esc(ui::text(ui::Key::mem_oom_heading, lang)) << "</h2>\n";
    ooms(r, lang, out);
  }
  out << "<h2>" << esc(ui::text(ui::Key::mem_findings, lang)) << "</h2>\n";
  if (r.findings.empty()) out << "<p>" << esc(ui::text(ui::Key::mem_nothing_found, lang)) << "</p>\n";
  findings(r, lang, out);
  mem_chart_script(r, lang, out);
  out << "</body>\n</html>\n";
}

}  // namespace npu_doctor::mem
