#include "bundle/redaction.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "bundle/sha256.hpp"
#include "npu_doctor/embedded_files.hpp"

namespace npu_doctor {
std::span<const EmbeddedFile> embedded_bundle_data();
}

namespace npu_doctor::bundle {

// --- the rules ---------------------------------------------------------------------------

namespace {

std::string alternation(const std::vector<std::string>& parts) {
  std::string s = "(?:";
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? "|" : "") + parts[i];
  return s + ")";
}

std::vector<std::string> strings(const YAML::Node& list) {
  std::vector<std::string> out;
  for (const auto& n : list) out.push_back(n.as<std::string>());
  return out;
}

// A literal inside a pattern; spaces between words match any run of blanks or NULs (a
// NUL separates the words of /proc/*/cmdline).
std::string literal(std::string_view text) {
  std::string s;
  bool blank = false;
  for (char c : text) {
    if (c == ' ') {
      if (!blank) s += "[ \\t\\x00]+";
      blank = true;
      continue;
    }
    blank = false;
    if (std::string_view("\\^$.|?*+()[]{}-/").find(c) != std::string_view::npos) s += '\\';
    s += c;
  }
  return s;
}

// A secret name in the group `name`: anything name-like that ends in one of `words`,
// where the word is the last word of the name.
std::string name_group(const std::vector<std::string>& words) {
  return "(?<name>[A-Za-z0-9_.-]*?" + alternation(words) + ")(?![A-Za-z0-9_]|[-.][A-Za-z0-9])";
}

void replace_all(std::string& s, std::string_view from, const std::string& to) {
  for (auto p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

// `-p`, `-u user:` ...: a value after a tool's flag, quoted or not, from `after` on.
std::string tool_flag_pattern(const YAML::Node& n) {
  std::vector<std::string> tools;
  for (const auto& t : strings(n["tools"])) tools.push_back(literal(t));
  auto flags = strings(n["flags"]);
  // Longer flags first: -passin before -pass.
  std::stable_sort(flags.begin(), flags.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (auto& f : flags) f = literal(f);
  const std::string value = n["value"].as<std::string>();
  if (value != "attached" && value != "attached-or-separate") {
    throw std::runtime_error("value must be attached or attached-or-separate, not " + value);
  }
  const std::string after = n["after"] ? literal(n["after"].as<std::string>()) : "";
  std::string p = "(?<![A-Za-z0-9_.-])" + alternation(tools) + "(?![A-Za-z0-9_.-])[^\\n|;&]*?(?<=[ \\t\\x00])" +
                  alternation(flags) + (value == "attached" ? "(?![ \\t\\x00])" : "[ \\t\\x00]*");
  // (Never from inside an earlier <redacted:...>: redacting twice changes nothing.)
  auto pre = [&](const char* chars) { return after.empty() ? std::string() : "[^<" + std::string(chars) + "]*?" + after; };
  p += "(?:\"" + pre("\"\\n\\x00") + "\\K[^\"\\n\\x00]+|'" + pre("'\\n\\x00") + "\\K[^'\\n\\x00]+|" +
       pre("\\s\\x00\"'") + "\\K[^\\s\\x00\"'<>]+)";
  return p;
}

std::string header_pattern(const std::vector<std::string>& headers) {
  std::vector<std::string> names;
  for (const auto& h : headers) names.push_back(literal(h));
  return "(?i)(?<![A-Za-z0-9-])" + alternation(names) +
         "\\\\?[\"']?[ \\t]*:(?![:/])[ \\t]*(?:\\\\?\"\\K(?:[^\"\\\\\\n\\x00]|\\\\[^\"\\n\\x00])+|'\\K[^'\\n\\x00]+|"
         "\\K(?!\\\\?[\"'])[^\\r\\n\\x00\"'\\\\]+)";
}

bool compile_into(std::optional<Regex>& out, const std::string& pattern, bool ignore_case, const std::string& what,
                  std::string& error) {
  auto re = Regex::compile(pattern, ignore_case, error);
  if (!re) {
    error = what + ": " + error;
    return false;
  }
  out = std::move(*re);
  return true;
}

bool add_rule(RedactionRules& rules, const std::string& name, const std::string& pattern, std::string& error) {
  std::optional<Regex> re;
  if (!compile_into(re, pattern, false, name, error)) return false;
  rules.rules.push_back({name, std::move(*re), pattern.find("(?<name>") != std::string::npos});
  return true;
}

}  // namespace

std::optional<RedactionRules> RedactionRules::parse(std::string_view yaml, std::string& error) {
  RedactionRules rules;
  try {
    const YAML::Node doc = YAML::Load(std::string(yaml));
    const auto words = strings(doc["secret_words"]);
    const auto weak = strings(doc["weak_secret_words"]);
    if (words.empty() || !doc["forms"] || !doc["text_patterns"]) {
      error = "no secret_words, forms or text_patterns";
      return std::nullopt;
    }
    for (const auto& n : doc["text_patterns"]) {
      if (!add_rule(rules, n["name"].as<std::string>(), n["regex"].as<std::string>(), error)) return std::nullopt;
    }
    if (const auto headers = strings(doc["http_headers"]); !headers.empty()) {
      if (!add_rule(rules, "http-header", header_pattern(headers), error)) return std::nullopt;
    }
    for (const auto& n : doc["tool_flags"]) {
      if (!add_rule(rules, n["name"].as<std::string>(), tool_flag_pattern(n), error)) return std::nullopt;
    }
    for (const auto& n : doc["forms"]) {
      std::string pattern = n["regex"].as<std::string>();
      replace_all(pattern, "{name}", name_group(words));
      replace_all(pattern, "{weak_name}", name_group(weak));
      if (!add_rule(rules, n["name"].as<std::string>(), pattern, error)) return std::nullopt;
    }
    std::vector<std::string> all = words;
    all.insert(all.end(), weak.begin(), weak.end());
    if (!compile_into(rules.secret_variable, "^[A-Za-z0-9_.-]*?" + alternation(all) + "\\z", true,
                      "secret_words", error) ||
        !compile_into(rules.not_secret_name, "^" + alternation(strings(doc["not_secret_names"])) + "\\z", true,
                      "not_secret_names", error) ||
        !compile_into(rules.not_secret_value, "^" + alternation(strings(doc["not_secret_values"])) + "\\z", true,
                      "not_secret_values", error)) {
      return std::nullopt;
    }
  } catch (const std::exception& e) {
    error = e.what();
    return std::nullopt;
  }
  return rules;
}

const RedactionRules& RedactionRules::builtin() {
  static const RedactionRules rules = [] {
    for (const auto& f : embedded_bundle_data()) {
      if (f.name != "redaction.yaml") continue;
      std::string error;
      if (auto r = parse(f.content, error)) return std::move(*r);
      // The file is part of the build and tested: reaching this is a bug of the build.
      throw std::runtime_error("embedded data/redaction.yaml: " + error);
    }
    throw std::runtime_error("data/redaction.yaml is not embedded");
  }();
  return rules;
}

// --- pseudonyms ----------------------------------------------------------------------------

std::string pseudonym(IdentifierKind kind, std::string_view value) {
  static const char* const kKinds[] = {"host", "user", "ipv4", "mac"};
  const auto d = sha256(std::string(kKinds[static_cast<int>(kind)]) + ":" + std::string(value));
  char buf[64];
  switch (kind) {
    case IdentifierKind::host:
    case IdentifierKind::user:
      std::snprintf(buf, sizeof buf, "%s-%02x%02x%02x%02x", kKinds[static_cast<int>(kind)], d[0], d[1], d[2], d[3]);
      break;
    case IdentifierKind::ipv4:  // 198.18.0.0/15: reserved for benchmarks, never a real peer
      std::snprintf(buf, sizeof buf, "198.%d.%d.%d", 18 + (d[0] & 1), d[1], d[2]);
      break;
    case IdentifierKind::mac:  // locally administered
      std::snprintf(buf, sizeof buf, "02:00:%02x:%02x:%02x:%02x", d[0], d[1], d[2], d[3]);
      break;
  }
  return buf;
}

void Redactor::add_identifier(IdentifierKind kind, const std::string& value) {
  // Short names would hit ordinary words; loopback and unspecified addresses say nothing.
  if (value.size() < 3 || value == "127.0.0.1" || value == "0.0.0.0" || value == "localhost" ||
      value == "00:00:00:00:00:00") {
    return;
  }
  for (const auto& id : identifiers_) {
    if (id.value == value) return;
  }
  static const char* const kKinds[] = {"host", "user", "ipv4", "mac"};
  identifiers_.push_back({value, pseudonym(kind, value), kKinds[static_cast<int>(kind)]});
  // Longest first, so "node1.example.com" is replaced before "node1".
  std::stable_sort(identifiers_.begin(), identifiers_.end(),
                   [](const Identifier& a, const Identifier& b) { return a.value.size() > b.value.size(); });
}

// --- finding and replacing ---------------------------------------------------------------

namespace {

bool whole_match(const std::optional<Regex>& re, std::string_view text) {
  return re && re->search(text).has_value();
}

bool word_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool Redactor::is_secret_name(std::string_view name) const {
  while (name.starts_with('-')) name.remove_prefix(1);
  return whole_match(rules_.secret_variable, name) && !whole_match(rules_.not_secret_name, name);
}

bool Redactor::excepted(const RegexMatch& m, std::string_view text, bool has_name) const {
  if (has_name) {
    std::string_view name = m.group("name");
    while (name.starts_with('-')) name.remove_prefix(1);
    if (whole_match(rules_.not_secret_name, name)) return true;
  }
  return whole_match(rules_.not_secret_value, text.substr(m.begin, m.end - m.begin));
}

std::vector<Redactor::Span> Redactor::find(std::string_view text) const {
  std::vector<Span> spans;
  for (std::size_t i = 0; i < rules_.rules.size(); ++i) {
    const auto& rule = rules_.rules[i];
    for (std::size_t pos = 0; pos <= text.size();) {
      auto m = rule.regex.search(text, pos);
      if (!m) break;
      if (m->end <= m->begin) {  // empty match: step over it
        pos = std::max(m->begin, m->end) + 1;
        continue;
      }
      pos = m->end;
      if (!excepted(*m, text, rule.has_name)) spans.push_back({m->start, m->begin, m->end, static_cast<int>(i)});
    }
  }
  // Identifiers as whole words; for addresses a neighbouring digit or '.'+digit means a
  // longer address.
  std::vector<Span> ids;
  for (std::size_t k = 0; k < identifiers_.size(); ++k) {
    const std::string& value = identifiers_[k].value;
    const bool dotted = value.find('.') != std::string::npos;
    for (std::size_t pos = text.find(value); pos != std::string_view::npos; pos = text.find(value, pos + 1)) {
      const std::size_t end = pos + value.size();
      const bool left_ok = pos == 0 || !word_char(text[pos - 1]);
      const bool right_ok = end == text.size() || !word_char(text[end]);
      const bool longer_ip = dotted && ((end + 1 < text.size() && text[end] == '.' && digit(text[end + 1])) ||
                                        (pos >= 2 && text[pos - 1] == '.' && digit(text[pos - 2])));
      if (left_ok && right_ok && !longer_ip) ids.push_back({pos, pos, end, -static_cast<int>(k) - 1});
    }
  }
  // Of identifiers at the same place the longest wins, and they never overlap.
  std::sort(ids.begin(), ids.end(), [](const Span& a, const Span& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  std::size_t claimed = 0;
  for (const auto& s : ids) {
    if (s.begin < claimed) continue;
    spans.push_back(s);
    claimed = s.end;
  }
  // Overlapping matches become one replacement, named after the first (rules before
  // identifiers, earlier rules first).
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    const bool ra = a.label >= 0, rb = b.label >= 0;
    if (ra != rb) return ra;
    return ra ? a.label < b.label : a.end > b.end;
  });
  std::vector<Span> merged;
  for (const auto& s : spans) {
    if (!merged.empty() && s.begin < merged.back().end) {
      Span& g = merged.back();
      g.end = std::max(g.end, s.end);
      g.context = std::min(g.context, s.context);
      if (g.label < 0 && s.label >= 0) g.label = s.label;  // a secret is never shown as a pseudonym
      continue;
    }
    merged.push_back(s);
  }
  return merged;
}

void Redactor::apply(std::string_view text, const std::vector<Span>& spans, std::size_t upto, std::string& out) const {
  std::size_t from = 0;
  for (const auto& s : spans) {
    if (s.begin >= upto) break;
    out.append(text.substr(from, s.begin - from));
    if (s.label >= 0) {
      const std::string& name = rules_.rules[static_cast<std::size_t>(s.label)].name;
      out += "<redacted:" + name + ">";
      ++counts_[name];
    } else {
      const Identifier& id = identifiers_[static_cast<std::size_t>(-s.label - 1)];
      out += id.alias;
      ++counts_[id.kind];
    }
    from = std::max(from, s.end);
  }
  if (from < upto) out.append(text.substr(from, upto - from));
}

std::string Redactor::redact(std::string_view text) const {
  std::string out;
  out.reserve(text.size());
  apply(text, find(text), text.size(), out);
  return out;
}

std::string Redactor::redact_variable(std::string_view name, std::string_view value) const {
  if (is_secret_name(name)) {
    ++counts_["variable"];
    return "<redacted>";
  }
  return redact(value);
}

std::vector<std::string> Redactor::redact_argv(const std::vector<std::string>& argv) const {
  // As /proc/*/cmdline has it: the rules read a NUL as a blank between words.
  std::string joined;
  for (const auto& a : argv) joined += a + '\0';
  const std::string redacted = redact(joined);
  std::vector<std::string> out;
  std::size_t from = 0;
  for (auto nul = redacted.find('\0'); nul != std::string::npos; nul = redacted.find('\0', from)) {
    out.push_back(redacted.substr(from, nul - from));
    from = nul + 1;
  }
  if (out.size() == argv.size() && from == redacted.size()) return out;
  // A match swallowed a NUL (a private key block): element by element then, each alone.
  out.clear();
  for (const auto& a : argv) out.push_back(redact(a));
  return out;
}

// --- streams ---------------------------------------------------------------------------------

StreamRedactor::StreamRedactor(const Redactor& redactor, Sink sink, Limits limits)
    : redactor_(redactor), sink_(std::move(sink)), limits_(limits), wanted_(limits.block + limits.overlap) {}

void StreamRedactor::write(std::string_view data) {
  while (!data.empty()) {
    // Take in at most what the next block needs, so a large write is not copied whole.
    const std::size_t room = wanted_ > pending_.size() ? wanted_ - pending_.size() : 0;
    const std::size_t n = std::min(data.size(), std::max<std::size_t>(room, 1));
    pending_.append(data.substr(0, n));
    data.remove_prefix(n);
    while (pending_.size() >= wanted_) {
      const std::size_t before = pending_.size();
      process(false);
      if (pending_.size() == before) break;  // waiting for more text
    }
  }
}

void StreamRedactor::finish() {
  process(true);
  pending_.clear();
  pending_.shrink_to_fit();
}

void StreamRedactor::process(bool final) {
  if (inside_secret_) {
    // The rest of the secret a forced cut fell into: up to a blank, quote or line end.
    const auto stop = pending_.find_first_of(" \t\r\n\"'<>,;&", 0);
    const std::size_t n = stop == std::string::npos ? pending_.size() : stop;
    pending_.erase(0, n);
    if (stop == std::string::npos && !final) return;
    inside_secret_ = false;
  }
  const std::string_view text(pending_);
  const std::vector<Redactor::Span> spans = redactor_.find(text);
  out_.clear();
  if (final) {
    redactor_.apply(text, spans, text.size(), out_);
    pending_.clear();
    if (!out_.empty()) sink_(out_);
    return;
  }
  // Cut after the last line end, or, in a line longer than the overlap, `overlap` before
  // the end; then earlier, until no match crosses the cut or may go on past the text.
  const auto nl = text.rfind('\n');
  std::size_t cut = nl == std::string_view::npos ? 0 : nl + 1;
  if (text.size() > limits_.overlap) cut = std::max(cut, text.size() - limits_.overlap);
  // A match that ends in the last `overlap` bytes may be another match once more text is
  // there (a key block whose END is not read yet ends early): it is searched again too.
  const std::size_t settled = text.size() > limits_.overlap ? text.size() - limits_.overlap : 0;
  for (bool moved = true; moved;) {
    moved = false;
    for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
      if (it->context < cut && (it->end > cut || it->end >= settled)) {
        cut = it->context;
        moved = true;
      }
    }
  }
  if (cut == 0) {
    if (text.size() < limits_.max_block) {
      wanted_ = std::min(limits_.max_block, text.size() * 2);  // one match needs more text
      return;
    }
    // One match longer than max_block: cut anyway, and treat what follows as its rest.
    cut = text.size();
    inside_secret_ = !spans.empty() && spans.back().end == text.size();
  }
  redactor_.apply(text, spans, cut, out_);
  pending_.erase(0, cut);
  wanted_ = limits_.block + limits_.overlap;
  if (!out_.empty()) sink_(out_);
}

}  // namespace npu_doctor::bundle
