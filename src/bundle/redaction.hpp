#pragma once
// Redaction for `npu-doctor bundle`: secrets removed from everything before it is
// written (rules are data: data/redaction.yaml, embedded at build time), and with
// --anonymize this host's identifiers (host name, user names, IP and MAC addresses)
// replaced by pseudonyms derived only from the identifier itself, so every node maps
// the same address to the same pseudonym.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/regex.hpp"

namespace npu_doctor::bundle {

struct RedactionRules {
  std::vector<Regex> secret_names;  // variable names whose values are secret
  struct TextPattern {
    std::string name;
    Regex regex;
  };
  std::vector<TextPattern> text_patterns;

  // The rules shipped in the binary (data/redaction.yaml).
  static const RedactionRules& builtin();
  // Parses rules from YAML text; nullopt and `error` when a rule is malformed.
  static std::optional<RedactionRules> parse(std::string_view yaml, std::string& error);
};

enum class IdentifierKind { host, user, ipv4, mac };

// The pseudonym of an identifier: a hash of kind and value only (no per-host salt), so
// it is the same on every node: host-1a2b3c4d, user-1a2b3c4d, 198.18.x.y, 02:00:xx:xx:xx:xx.
std::string pseudonym(IdentifierKind kind, std::string_view value);

class Redactor {
 public:
  explicit Redactor(const RedactionRules& rules = RedactionRules::builtin()) : rules_(rules) {}

  // --anonymize: replace this identifier (as a whole word) everywhere.
  void add_identifier(IdentifierKind kind, const std::string& value);
  bool anonymizing() const { return !identifiers_.empty(); }

  bool is_secret_name(std::string_view name) const;
  // Secrets (and identifiers) removed from text.
  std::string redact(std::string_view text) const;
  // A variable's value as it may be written: <redacted> for secret names, else redact(value).
  std::string redact_variable(std::string_view name, std::string_view value) const;

  // Replacements made so far, per rule name ("url-credentials", "variable", "host" ...).
  const std::map<std::string, std::size_t>& counts() const { return counts_; }

 private:
  std::string anonymize(std::string text) const;
  const RedactionRules& rules_;
  std::vector<std::pair<std::string, std::string>> identifiers_;  // value -> pseudonym, longest first
  std::vector<std::string> identifier_kinds_;
  mutable std::map<std::string, std::size_t> counts_;
};

}  // namespace npu_doctor::bundle
