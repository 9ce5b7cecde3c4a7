// `npu-doctor explain CODE|RULE_ID`: look up and print whole knowledge-base entries.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <set>

#include "npu_doctor/render.hpp"
#include "npu_doctor/version.hpp"
#include "ui_text.hpp"

namespace npu_doctor {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

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

ExplainResult explain_query(const KnowledgeBase& kb, const std::string& query) {
  ExplainResult r;
  r.query = query;
  std::set<const Entry*> seen;
  auto add = [&](const Entry* e, Specificity s) {
    if (seen.insert(e).second) r.matches.push_back({e, s});
  };
  if (const Entry* e = kb.find_id(query)) add(e, Specificity::message);
  for (const auto& m : kb.lookup_code(query)) {
    if (m.specificity == Specificity::exact_code) add(m.entry, m.specificity);
  }
  const std::string q = lower(query);
  for (const auto& e : kb.entries()) {
    if (!e.name.empty() && lower(e.name) == q) add(&e, Specificity::exact_code);
  }
  for (const auto& m : kb.lookup_code(query)) add(m.entry, m.specificity);
  if (!r.matches.empty()) return r;

  // Nothing: suggest ids, codes and names within a small edit distance, or containing the query.
  std::vector<std::pair<std::size_t, std::string>> near;
  auto consider = [&](const std::string& candidate) {
    const std::string c = lower(candidate);
    const std::size_t d = edit_distance(q, c);
    if (d <= std::max<std::size_t>(1, q.size() / 4)) near.emplace_back(d, candidate);
    else if (q.size() >= 3 && c.find(q) != std::string::npos) near.emplace_back(10 + c.size() - q.size(), candidate);
  };
  for (const auto& e : kb.entries()) {
    consider(e.id);
    for (const auto& c : e.codes) consider(c);
    if (!e.name.empty()) consider(e.name);
  }
  std::sort(near.begin(), near.end());
  for (const auto& [d, s] : near) {
    if (std::find(r.suggestions.begin(), r.suggestions.end(), s) == r.suggestions.end()) r.suggestions.push_back(s);
    if (r.suggestions.size() == 8) break;
  }
  return r;
}

void render_explain_text(const ExplainResult& result, const RenderOptions& o, std::ostream& out) {
  const Lang lang = o.lang;
  auto bold = [&](const std::string& s) { return o.color ? "\x1b[1m" + s + "\x1b[0m" : s; };
  if (result.matches.empty()) {
    out << "npu-doctor: '" << result.query << "' is not in the knowledge base.\n";
    if (!result.suggestions.empty()) out << "Did you mean: " << join(result.suggestions, ", ") << "?\n";
    return;
  }
  const bool has_exact = std::any_of(result.matches.begin(), result.matches.end(),
                                     [](const CodeResolution& m) { return m.specificity != Specificity::code_family; });
  bool first = true;
  for (const auto& m : result.matches) {
    const Entry& e = *m.entry;
    if (!first) out << "\n";
    first = false;
    out << bold(e.id + " — " + e.title.get(lang)) << (e.name.empty() ? "" : "  (" + e.name + ")") << "\n";
    if (m.specificity == Specificity::code_family) {
      out << (has_exact ? "  note        '" + result.query + "' also falls in this code family (used only for codes without an entry)\n"
                        : "  note        '" + result.query + "' has no entry of its own; this is its code family (fallback)\n");
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
    out << "  " << ui::get(ui::Text::cause, lang) << "       " << e.cause_text().get(lang) << "\n";
    out << "  " << ui::get(ui::Text::remedies, lang) << "\n";
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
    for (const auto& ref : e.references) out << "  " << ui::get(ui::Text::references, lang) << "  " << ref << "\n";
    out << "  defined in  " << e.source.file << ":" << e.source.line << (e.user_defined ? " (user)" : "") << "\n";
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
  doc["suggestions"] = result.suggestions;
  out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace npu_doctor
