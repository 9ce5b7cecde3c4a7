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

std::optional<RedactionRules> RedactionRules::parse(std::string_view yaml, std::string& error) {
  RedactionRules rules;
  try {
    const YAML::Node doc = YAML::Load(std::string(yaml));
    for (const auto& n : doc["secret_variable_names"]) {
      auto re = Regex::compile(n.as<std::string>(), true, error);
      if (!re) return std::nullopt;
      rules.secret_names.push_back(std::move(*re));
    }
    for (const auto& n : doc["text_patterns"]) {
      const auto name = n["name"].as<std::string>();
      auto re = Regex::compile(n["regex"].as<std::string>(), false, error);
      if (!re) {
        error = name + ": " + error;
        return std::nullopt;
      }
      rules.text_patterns.push_back({name, std::move(*re)});
    }
  } catch (const std::exception& e) {
    error = e.what();
    return std::nullopt;
  }
  if (rules.secret_names.empty() || rules.text_patterns.empty()) {
    error = "no secret_variable_names or text_patterns";
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
  for (const auto& [v, p] : identifiers_) {
    if (v == value) return;
  }
  identifiers_.emplace_back(value, pseudonym(kind, value));
  static const char* const kKinds[] = {"host", "user", "ipv4", "mac"};
  identifier_kinds_.emplace_back(kKinds[static_cast<int>(kind)]);
  // Longest first, so "node1.example.com" is replaced before "node1".
  std::vector<std::size_t> order(identifiers_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return identifiers_[a].first.size() > identifiers_[b].first.size(); });
  std::vector<std::pair<std::string, std::string>> ids;
  std::vector<std::string> kinds;
  for (auto i : order) {
    ids.push_back(identifiers_[i]);
    kinds.push_back(identifier_kinds_[i]);
  }
  identifiers_ = std::move(ids);
  identifier_kinds_ = std::move(kinds);
}

bool Redactor::is_secret_name(std::string_view name) const {
  return std::any_of(rules_.secret_names.begin(), rules_.secret_names.end(),
                     [&](const Regex& re) { return re.search(name).has_value(); });
}

namespace {

bool word_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

}  // namespace

std::string Redactor::anonymize(std::string text) const {
  for (std::size_t k = 0; k < identifiers_.size(); ++k) {
    const auto& [value, alias] = identifiers_[k];
    std::string out;
    std::size_t from = 0;
    std::size_t hits = 0;
    for (std::size_t pos = text.find(value); pos != std::string::npos; pos = text.find(value, pos + 1)) {
      if (pos < from) continue;
      const std::size_t end = pos + value.size();
      // Whole words only; for addresses a neighbouring digit or '.'+digit means a longer address.
      const bool left_ok = pos == 0 || !word_char(text[pos - 1]);
      const bool right_ok = end == text.size() || !word_char(text[end]);
      auto digit = [&](std::size_t i) { return text[i] >= '0' && text[i] <= '9'; };
      const bool dotted = value.find('.') != std::string::npos;
      const bool longer_ip = dotted && ((end + 1 < text.size() && text[end] == '.' && digit(end + 1)) ||
                                        (pos >= 2 && text[pos - 1] == '.' && digit(pos - 2)));
      if (!left_ok || !right_ok || longer_ip) continue;
      out.append(text, from, pos - from);
      out += alias;
      from = end;
      ++hits;
    }
    if (hits == 0) continue;
    out.append(text, from, std::string::npos);
    text = std::move(out);
    counts_[identifier_kinds_[k]] += hits;
  }
  return text;
}

std::string Redactor::redact(std::string_view input) const {
  std::string text(input);
  for (const auto& rule : rules_.text_patterns) {
    std::string out;
    std::size_t from = 0;
    std::size_t pos = 0;
    std::size_t hits = 0;
    const std::string replacement = "<redacted:" + rule.name + ">";
    while (pos <= text.size()) {
      auto m = rule.regex.search(text, pos);
      if (!m) break;
      if (m->end <= m->begin) {  // empty match: step over it
        pos = m->end + 1;
        continue;
      }
      out.append(text, from, m->begin - from);
      out += replacement;
      from = m->end;
      pos = m->end;
      ++hits;
    }
    if (hits == 0) continue;
    out.append(text, from, std::string::npos);
    text = std::move(out);
    counts_[rule.name] += hits;
  }
  return identifiers_.empty() ? text : anonymize(std::move(text));
}

std::string Redactor::redact_variable(std::string_view name, std::string_view value) const {
  if (is_secret_name(name)) {
    ++counts_["variable"];
    return "<redacted>";
  }
  return redact(value);
}

}  // namespace npu_doctor::bundle
