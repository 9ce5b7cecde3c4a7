// Why the root cause was chosen, as a sentence in English or Chinese. It says how the
// root cause was chosen and how many findings follow from it; which ones, is said once,
// by each finding's relation (the report's lists, the JSON's findings[].relation). The
// sentences are data/ui.yaml's report.reason.*, whole, with named placeholders.
#include <string>

#include "core/byte_size.hpp"
#include "render.hpp"
#include "npu_doctor/ui_words.hpp"
#include "report_text.hpp"
#include "root_cause_reason.hpp"

namespace npu_doctor {
namespace {

using render_detail::short_label;

std::string_view capture(const Evidence& e, std::string_view name) {
  for (const auto& [k, v] : e.captures) {
    if (k == name) return v;
  }
  return {};
}

std::string bytes(const Evidence& e, std::string_view name) {
  const auto b = mem::parse_byte_size(capture(e, name));
  return b ? mem::format_bytes(static_cast<double>(*b)) : std::string(capture(e, name));
}

// What the allocator's numbers say, in the words of `mem analyze`'s rules (docs/mem.md).
std::string oom_sentence(const Evidence& e, const std::string& loc, Lang lang) {
  const auto total = mem::parse_byte_size(capture(e, "total"));
  const auto reserved = mem::parse_byte_size(capture(e, "reserved"));
  const auto free_b = mem::parse_byte_size(capture(e, "free"));
  if (capture(e, "classified_by") == "held_elsewhere" && total && reserved && free_b && *total > *reserved + *free_b) {
    return ui::text(ui::Key::report_reason_oom_held_elsewhere, lang, fmt::arg("loc", loc), fmt::arg("total", bytes(e, "total")),
                    fmt::arg("reserved", bytes(e, "reserved")), fmt::arg("free", bytes(e, "free")),
                    fmt::arg("elsewhere", mem::format_bytes(static_cast<double>(*total - *reserved - *free_b))));
  }
  return ui::text(ui::Key::report_reason_oom_cache, lang, fmt::arg("loc", loc), fmt::arg("reserved", bytes(e, "reserved")),
                  fmt::arg("allocated", bytes(e, "allocated")), fmt::arg("requested", bytes(e, "requested")));
}

// "2 errors follow from it; 1 generic wrapper ranks below it" (English has a singular).
std::string consequences(std::size_t symptoms, std::size_t wrappers, std::size_t independent, Lang lang) {
  using ui::Key;
  std::string parts;
  auto add = [&](std::size_t n, Key one, Key many) {
    if (n == 0) return;
    if (!parts.empty()) parts += ui::word(Key::report_reason_separator, lang);
    parts += ui::text(n == 1 ? one : many, lang, fmt::arg("n", n));
  };
  add(symptoms, Key::report_reason_symptoms_one, Key::report_reason_symptoms);
  add(wrappers, Key::report_reason_wrappers_one, Key::report_reason_wrappers);
  add(independent, Key::report_reason_independent_one, Key::report_reason_independent);
  return ui::text(Key::report_reason_listed_below, lang, fmt::arg("parts", parts));
}

}  // namespace

namespace render_detail {

std::string reason_text(const std::vector<Finding>& findings, const std::optional<RootCauseDecision>& root,
                        const std::optional<ClusterDecision>& cluster, Lang lang, const PathNames* names) {
  if (!root) return {};
  const auto& d = *root;
  auto loc_of = [&](const Evidence& e) { return names ? names->location(e) : location(e); };
  const Finding& f = findings[d.finding];
  const std::string loc = loc_of(f.first());
  std::string s;
  using B = RootCauseDecision::Basis;
  using ui::Key;
  switch (d.basis) {
    case B::sole_error:
      s = ui::text(Key::report_reason_sole_error, lang, fmt::arg("loc", loc));
      break;
    case B::earliest_decisive:
      s = ui::text(Key::report_reason_earliest_decisive, lang, fmt::arg("loc", loc));
      break;
    case B::most_specific:
      s = ui::text(Key::report_reason_most_specific, lang, fmt::arg("loc", loc), fmt::arg("n", d.block_size));
      break;
    case B::words:
      s = ui::text(Key::report_reason_words, lang, fmt::arg("loc", loc), fmt::arg("category", to_string(f.entry->category)),
                   fmt::arg("p", f.words ? f.words->probability : 0.0), fmt::arg("threshold", f.words ? f.words->root_threshold : 0.0));
      break;
    case B::cluster_culprit:
      s = cluster ? cluster_reason(*cluster, lang) : std::string();
      break;
    case B::explained_by_hint: {
      const Finding& x = findings[*d.explained];
      s = ui::text(Key::report_reason_explained_by_hint, lang, fmt::arg("title", f.entry->title.get(lang)), fmt::arg("loc", loc),
                   fmt::arg("error", short_label(x, lang)), fmt::arg("error_loc", loc_of(x.first())));
      break;
    }
    case B::oom_classified:
      s = oom_sentence(f.first(), loc, lang);
      break;
  }
  std::size_t symptoms = 0, wrappers = 0;
  for (std::size_t i : d.consequences) {
    if (d.explained && i == *d.explained) continue;
    ++(findings[i].entry->role == Role::wrapper ? wrappers : symptoms);
  }
  const std::size_t independent = d.independent.size();
  if (symptoms + wrappers + independent == 0) return s;
  return s + " " + consequences(symptoms, wrappers, independent, lang);
}

}  // namespace render_detail

std::string root_cause_reason(const DiagnosisReport& r, Lang lang) {
  return render_detail::reason_text(r.findings, r.root, r.cluster, lang, nullptr);
}

std::string root_cause_reason(const IncidentReport& r, Lang lang) {
  return render_detail::reason_text(r.findings, r.root, r.cluster, lang, nullptr);
}

}  // namespace npu_doctor
