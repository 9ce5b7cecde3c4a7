// `npu-doctor explain CODE|RULE_ID`: look up and print whole knowledge-base entries.
#include <nlohmann/json.hpp>

#include <algorithm>

#include "explain.hpp"
#include "npu_doctor/version.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace {

std::string ranges_text(const Entry& e) {
  std::string s;
  for (const auto& r : e.ranges) {
    if (!s.empty()) s += ", ";
    s += std::to_string(r.lo) + "-" + std::to_string(r.hi);
  }
  for (const auto& p : e.prefixes) {
    if (!s.empty()) s += ", ";
    s += p + "*";
  }
  return s;
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string s;
  for (const auto& x : v) {
    if (!s.empty()) s += sep;
    s += x;
  }
  return s;
}

}  // namespace

void render_explain_text(const ExplainResult& result, const RenderOptions& o, std::ostream& out) {
  const Lang lang = o.lang;
  auto bold = [&](const std::string& s) { return o.color ? "\x1b[1m" + s + "\x1b[0m" : s; };
  if (result.matches.empty()) {
    out << "npu-doctor: '" << result.query << "' is not in the knowledge base.\n";
    if (!result.suggestions.empty()) out << "Did you mean: " << join(result.suggestions, ", ") << "?\n";
    return;
  }
  if (!result.read_as.empty()) out << "'" << result.query << "' reads as " << join(result.read_as, ", ") << "\n\n";
  if (!result.suggestions.empty()) {
    out << "'" << result.query << "' has no entry of its own. Did you mean: " << join(result.suggestions, ", ") << "?\n\n";
  }
  bool first = true;
  for (const auto& m : result.matches) {
    const Entry& e = *m.entry;
    if (!first) out << "\n";
    first = false;
    out << bold(e.id + " — " + e.title.get(lang)) << (e.name.empty() ? "" : "  (" + e.name + ")") << "\n";
    if (m.specificity == Specificity::code_family) {
      out << "  note        '" + result.query + "' has no entry of its own; this is its code family (fallback)\n";
    }
    if (!e.codes.empty()) out << "  code        " << join(e.codes, ", ") << " (" << e.code_namespace << ")\n";
    if (!e.ranges.empty() || !e.prefixes.empty()) {
      out << "  covers      " << ranges_text(e) << " (" << e.code_namespace << ")";
      if (!e.components.empty()) out << " when the line names " << join(e.components, "/");
      out << "\n";
    }
    out << "  category    " << to_string(e.category) << "\n";
    out << "  layer       " << e.layer << " · severity " << to_string(e.severity) << " · role " << to_string(e.role)
        << "\n";
    out << "  " << ui::word(ui::Key::report_cause, lang) << "       " << e.cause_text().get(lang) << "\n";
    out << "  " << ui::word(ui::Key::report_remedies, lang) << "\n";
    for (std::size_t i = 0; i < e.remedy_texts().size(); ++i) out << "    " << (i + 1) << ". " << e.remedy_texts()[i].get(lang) << "\n";
    if (!e.symptom_of.empty()) {
      std::vector<std::string> cats;
      for (auto c : e.symptom_of) cats.emplace_back(to_string(c));
      out << "  symptom of  " << join(cats, ", ") << " (demoted when such a cause is present)\n";
    }
    if (!e.explains.empty()) out << "  explains    " << join(e.explains, ", ") << "\n";
    for (const auto& p : e.patterns) out << "  matches     /" << p.regex << "/" << (p.ignore_case ? "i" : "") << "\n";
    for (const auto& s : e.samples_match) out << "  example     " << s << "\n";
    if (e.seed) {
      out << "  seed table  " << e.seed->name << " | " << e.seed->range << " | " << e.seed->examples << " | "
          << e.seed->cause << " | " << e.seed->remedy << "\n";
    }
    for (const auto& ref : e.references) out << "  " << ui::word(ui::Key::report_references, lang) << "  " << ref << "\n";
    out << "  defined in  " << e.source.file << ":" << e.source.line << (e.user_defined ? " (user)" : "") << "\n";
  }
  if (!result.families.empty()) {
    // Only named: their causes and remedies are for codes without an entry of their own.
    out << "\ncode family (its remedies apply only to codes without an entry of their own)\n";
    for (const auto& m : result.families) {
      const Entry& e = *m.entry;
      out << "  " << e.id << " — " << e.title.get(lang);
      if (!e.ranges.empty() || !e.prefixes.empty()) out << "  (" << ranges_text(e) << ")";
      out << "\n";
    }
  }
}
void render_explain_json(const ExplainResult& result, const RenderOptions& o, std::ostream& out) {
  nlohmann::ordered_json doc;
  doc["schema"] = "npu-doctor/explain/v1";
  doc["tool"] = {{"name", "npu-doctor"}, {"version", kVersion}};
  doc["query"] = result.query;
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const auto& m : result.matches) {
    const Entry& e = *m.entry;
    nlohmann::ordered_json j;
    j["id"] = e.id;
    j["match"] = m.specificity == Specificity::code_family ? "code_family" : "exact";
    j["namespace"] = e.code_namespace;
    j["codes"] = e.codes;
    nlohmann::ordered_json ranges = nlohmann::ordered_json::array();
    for (const auto& r : e.ranges) ranges.push_back({r.lo, r.hi});
    j["ranges"] = ranges;
    j["prefixes"] = e.prefixes;
    if (!e.name.empty()) j["name"] = e.name;
    j["category"] = to_string(e.category);
    j["layer"] = e.layer;
    j["severity"] = to_string(e.severity);
    j["role"] = to_string(e.role);
    j["title"] = e.title.get(o.lang);
    j["cause"] = e.cause_text().get(o.lang);
    nlohmann::ordered_json rem = nlohmann::ordered_json::array();
    for (const auto& r : e.remedy_texts()) rem.push_back(r.get(o.lang));
    j["remedies"] = rem;
    j["references"] = e.references;
    nlohmann::ordered_json pats = nlohmann::ordered_json::array();
    for (const auto& p : e.patterns) pats.push_back(p.regex);
    j["patterns"] = pats;
    if (e.seed) {
      j["seed"] = {{"name", e.seed->name}, {"range", e.seed->range}, {"examples", e.seed->examples},
                   {"cause", e.seed->cause}, {"remedy", e.seed->remedy}};
    }
    j["source"] = e.source.file + ":" + std::to_string(e.source.line);
    entries.push_back(j);
  }
  doc["entries"] = entries;
  nlohmann::ordered_json families = nlohmann::ordered_json::array();
  for (const auto& m : result.families) {
    const Entry& e = *m.entry;
    nlohmann::ordered_json ranges = nlohmann::ordered_json::array();
    for (const auto& r : e.ranges) ranges.push_back({r.lo, r.hi});
    families.push_back({{"id", e.id}, {"title", e.title.get(o.lang)}, {"namespace", e.code_namespace},
                        {"ranges", ranges}, {"prefixes", e.prefixes}});
  }
  doc["families"] = families;
  doc["read_as"] = result.read_as;
  doc["suggestions"] = result.suggestions;
  out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace npu_doctor
