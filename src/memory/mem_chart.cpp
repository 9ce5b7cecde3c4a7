#include "mem_chart.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/byte_size.hpp"
#include "mem_verdict_words.hpp"
#include "render/html_escape.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::mem {
namespace {

using json = nlohmann::ordered_json;

std::string esc(std::string_view s) { return render_detail::html_escape(s); }

// JSON inside <script>: '<', '>' and '&' only occur in strings, where \u escapes are valid.
std::string script_json(const json& j) {
  const std::string s = j.dump();
  std::string r;
  r.reserve(s.size());
  for (char c : s) {
    if (c == '<') r += "\\u003c";
    else if (c == '>') r += "\\u003e";
    else if (c == '&') r += "\\u0026";
    else r += c;
  }
  return r;
}

json chart_data(const MemReport& r, Lang lang) {
  json j;
  j["labels"] = {{"allocated", ui::text(ui::Key::mem_allocated, lang)},
                 {"reserved", ui::text(ui::Key::mem_reserved, lang)},
                 {"capacity", ui::text(ui::Key::mem_capacity, lang)},
                 {"trend", ui::text(ui::Key::mem_trend, lang)},
                 {"step", ui::text(ui::Key::mem_steps, lang)},
                 {"projected", ui::text(ui::Key::mem_projected_oom, lang)}};
  json devices = json::array();
  for (const auto& d : r.devices) {
    json points = json::array();
    for (const auto& p : d.chart) {
      points.push_back(json::array({p.step, p.allocated, p.reserved ? json(*p.reserved) : json(nullptr)}));
    }
    json leak = {{"detected", d.leak.detected},
                 {"intercept", d.leak.intercept},
                 {"slope", d.leak.bytes_per_step},
                 {"from", d.leak.from_step},
                 {"to", d.leak.to_step},
                 {"projected", d.leak.projected_oom_step ? json(*d.leak.projected_oom_step) : json(nullptr)}};
    devices.push_back({{"device", d.device},
                       {"points", points},
                       {"capacity", d.capacity ? json(*d.capacity) : json(nullptr)},
                       {"leak", leak}});
  }
  j["devices"] = devices;
  return j;
}

// Draws every chart from #mem-data; sets body[data-rendered] to "ok" or the error, which
// the headless-browser test reads.
constexpr std::string_view kScript = R"js(
(function () {
  "use strict";
  window.onerror = function (msg) { document.body.setAttribute("data-rendered", "error: " + msg); };
  var data = JSON.parse(document.getElementById("mem-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function fmt(b) {
    var u = ["B", "KiB", "MiB", "GiB", "TiB"], i = 0;
    while (Math.abs(b) >= 1024 && i < 4) { b /= 1024; i++; }
    return (i ? b.toFixed(1) : b.toFixed(0)) + " " + u[i];
  }
  data.devices.forEach(function (d) {
    var host = document.getElementById("chart-" + d.device);
    if (!host || d.points.length === 0) return;
    var W = 900, H = 320, L = 78, R = 16, T = 14, B = 34;
    var pts = d.points;
    var x0 = pts[0][0], x1 = pts[pts.length - 1][0];
    if (d.leak.detected && d.leak.projected !== null) x1 = Math.max(x1, Math.min(d.leak.projected, x1 + (x1 - x0)));
    if (x1 <= x0) x1 = x0 + 1;
    var ymax = 0;
    pts.forEach(function (p) { ymax = Math.max(ymax, p[1], p[2] || 0); });
    if (d.capacity !== null) ymax = Math.max(ymax, d.capacity);
    ymax = ymax > 0 ? ymax * 1.06 : 1;
    function X(s) { return L + (s - x0) / (x1 - x0) * (W - L - R); }
    function Y(b) { return T + (1 - b / ymax) * (H - T - B); }
    var svg = el("svg", {"class": "mem-chart", "viewBox": "0 0 " + W + " " + H, "role": "img",
                         "data-device": d.device, "data-points": pts.length}, host);
    el("title", {}, svg).textContent = "device " + d.device;
    for (var i = 0; i <= 4; i++) {
      var v = ymax * i / 4;
      el("line", {"class": "grid", x1: L, x2: W - R, y1: Y(v), y2: Y(v)}, svg);
      el("text", {"class": "tick", x: L - 6, y: Y(v) + 4, "text-anchor": "end"}, svg).textContent = fmt(v);
      var s = x0 + (x1 - x0) * i / 4;
      el("text", {"class": "tick", x: X(s), y: H - B + 16, "text-anchor": "middle"}, svg).textContent = Math.round(s);
    }
    el("text", {"class": "tick", x: W - R, y: H - 4, "text-anchor": "end"}, svg).textContent = data.labels.step;
    function series(idx, cls) {
      var path = "", n = 0;
      pts.forEach(function (p) {
        if (p[idx] === null) return;
        path += (n ? "L" : "M") + X(p[0]).toFixed(1) + " " + Y(p[idx]).toFixed(1);
        n++;
      });
      if (n) el("path", {"class": cls, d: path, "data-points": n}, svg);
    }
    series(2, "reserved");
    series(1, "allocated");
    if (d.capacity !== null) {
      el("line", {"class": "capacity", x1: L, x2: W - R, y1: Y(d.capacity), y2: Y(d.capacity), "data-bytes": d.capacity}, svg);
      el("text", {"class": "tick", x: L + 6, y: Y(d.capacity) - 5, "text-anchor": "start"}, svg).textContent =
          data.labels.capacity + " " + fmt(d.capacity);
    }
    if (d.leak.detected) {
      var a = d.leak.from, b = x1;
      var ya = d.leak.intercept + d.leak.slope * a, yb = d.leak.intercept + d.leak.slope * b;
      el("path", {"class": "trend", d: "M" + X(a).toFixed(1) + " " + Y(ya).toFixed(1) + "L" + X(b).toFixed(1) + " " + Y(yb).toFixed(1),
                  "data-slope": d.leak.slope}, svg);
      if (d.leak.projected !== null && d.leak.projected <= x1) {
        el("line", {"class": "capacity projected", x1: X(d.leak.projected), x2: X(d.leak.projected), y1: T, y2: H - B}, svg);
        el("text", {"class": "tick", x: X(d.leak.projected) - 4, y: T + 12, "text-anchor": "end"}, svg).textContent =
            data.labels.projected + " " + d.leak.projected;
      }
    }
    var cursor = el("line", {"class": "cursor", x1: 0, x2: 0, y1: T, y2: H - B, visibility: "hidden"}, svg);
    var tip = el("text", {"class": "tip", x: L + 8, y: T + 14, visibility: "hidden"}, svg);
    var hit = el("rect", {x: L, y: T, width: W - L - R, height: H - T - B, fill: "transparent"}, svg);
    hit.addEventListener("mousemove", function (ev) {
      var box = svg.getBoundingClientRect();
      var sx = x0 + ((ev.clientX - box.left) * W / box.width - L) / (W - L - R) * (x1 - x0);
      var best = pts[0];
      pts.forEach(function (p) { if (Math.abs(p[0] - sx) < Math.abs(best[0] - sx)) best = p; });
      cursor.setAttribute("x1", X(best[0])); cursor.setAttribute("x2", X(best[0]));
      cursor.setAttribute("visibility", "visible"); tip.setAttribute("visibility", "visible");
      tip.textContent = data.labels.step + " " + best[0] + " · " + data.labels.allocated + " " + fmt(best[1]) +
          (best[2] === null ? "" : " · " + data.labels.reserved + " " + fmt(best[2]));
    });
    hit.addEventListener("mouseleave", function () {
      cursor.setAttribute("visibility", "hidden"); tip.setAttribute("visibility", "hidden");
    });
  });
  document.body.setAttribute("data-rendered", "ok");
})();
)js";

}  // namespace

std::string_view mem_chart_style() {
  return R"css(
.warn{color:#9a6700;font-weight:600}.err{color:#cf222e;font-weight:600}.dim{color:#656d76}
.chart{margin:8px 0 20px}.chart h3{font-size:1em;margin:0 0 4px}
svg.mem-chart{width:100%;height:auto;background:#fff;border:1px solid #d0d7de}
svg .grid{stroke:#eaeef2;stroke-width:1}svg .tick{font-size:11px;fill:#656d76}
svg .allocated{fill:none;stroke:#0969da;stroke-width:1.6}svg .reserved{fill:none;stroke:#8250df;stroke-width:1.2;stroke-dasharray:4 2}
svg .capacity{stroke:#cf222e;stroke-width:1.4;stroke-dasharray:6 4}svg .trend{stroke:#bf8700;stroke-width:2;stroke-dasharray:8 4;fill:none}
svg .cursor{stroke:#656d76;stroke-width:1}svg .tip{font-size:12px;fill:#1f2328}
.legend span{display:inline-block;margin-right:14px;font-size:.85em}.legend i{display:inline-block;width:18px;height:3px;vertical-align:middle;margin-right:4px}
)css";
}

void mem_device_table(const MemReport& r, Lang lang, std::ostream& out) {
  out << "<table id=\"devices\"><tr><th>" << esc(ui::text(ui::Key::mem_device, lang)) << "</th><th>"
      << esc(ui::text(ui::Key::mem_samples, lang)) << "</th><th>" << esc(ui::text(ui::Key::mem_steps, lang)) << "</th><th>"
      << esc(ui::text(ui::Key::mem_peak, lang)) << "</th><th>" << esc(ui::text(ui::Key::mem_reserved, lang)) << "</th><th>"
      << esc(ui::text(ui::Key::mem_capacity, lang)) << "</th><th>" << esc(ui::text(ui::Key::mem_headroom, lang)) << "</th><th>"
      << esc(ui::text(ui::Key::mem_fragmentation, lang)) << "</th><th>" << esc(ui::text(ui::Key::mem_leak, lang)) << "</th></tr>\n";
  for (const auto& d : r.devices) {
    out << "<tr data-device=\"" << d.device << "\"><td>" << d.device << "</td><td>" << d.samples << "</td><td>"
        << d.first_step << "–" << d.last_step << "</td><td>" << esc(format_byte_count(d.peak.bytes)) << "</td><td>"
        << (d.peak_reserved ? esc(format_byte_count(d.peak_reserved->bytes)) : "–") << "</td><td>"
        << (d.capacity ? esc(format_byte_count(*d.capacity)) : esc(ui::text(ui::Key::mem_unknown, lang))) << "</td><td>"
        << (d.headroom_bytes ? esc(format_bytes(static_cast<double>(*d.headroom_bytes))) : "–") << "</td><td>";
    if (d.fragmentation.max_gap_bytes) {
      out << "<span class=\"" << (d.fragmentation.warning ? "warn" : "dim") << "\">"
          << esc(format_byte_count(*d.fragmentation.max_gap_bytes)) << "</span>";
    } else {
      out << "–";
    }
    out << "</td><td class=\"leak\" data-detected=\"" << (d.leak.detected ? "true" : "false") << "\">";
    if (d.leak.detected) {
      char conf[16];
      std::snprintf(conf, sizeof conf, "%.2f", d.leak.confidence);
      out << "<span class=\"err\">+" << esc(format_bytes(d.leak.bytes_per_step)) << " "
          << esc(ui::text(ui::Key::mem_per_step, lang)) << "</span>, " << esc(ui::text(ui::Key::mem_confidence, lang)) << " " << conf;
      if (d.leak.projected_oom_step) {
        out << ", " << esc(ui::text(ui::Key::mem_projected_oom, lang)) << " " << *d.leak.projected_oom_step;
      }
    } else {
      out << esc(ui::text(ui::Key::mem_no_leak, lang)) << " <span class=\"dim\">("
          << esc(std::string(leak_reason_text(d.leak.reason, lang))) << ")</span>";
    }
    out << "</td></tr>\n";
  }
  out << "</table>\n";
}

void mem_charts(const MemReport& r, Lang lang, std::ostream& out) {
  out << "<div class=\"legend\"><span><i style=\"background:#0969da\"></i>" << esc(ui::text(ui::Key::mem_allocated, lang))
      << "</span><span><i style=\"background:#8250df\"></i>" << esc(ui::text(ui::Key::mem_reserved, lang))
      << "</span><span><i style=\"background:#cf222e\"></i>" << esc(ui::text(ui::Key::mem_capacity, lang))
      << "</span><span><i style=\"background:#bf8700\"></i>" << esc(ui::text(ui::Key::mem_trend, lang)) << "</span></div>\n";
  for (const auto& d : r.devices) {
    out << "<div class=\"chart\" id=\"chart-" << d.device << "\"><h3>" << esc(ui::text(ui::Key::mem_device, lang)) << " "
        << d.device << "</h3></div>\n";
  }
  out << "<noscript><p class=\"warn\">The charts need JavaScript.</p></noscript>\n";
}

void mem_chart_script(const MemReport& r, Lang lang, std::ostream& out) {
  out << "<script type=\"application/json\" id=\"mem-data\">" << script_json(chart_data(r, lang)) << "</script>\n"
      << "<script>" << kScript << "</script>\n";
}

}  // namespace npu_doctor::mem
