#pragma once
// Redaction for `npu-doctor bundle`: secrets removed from everything before it is
// written or derived (rules are data: data/redaction.yaml, embedded at build time), and
// with --anonymize this host's identifiers (host name, user names, IP and MAC addresses)
// replaced by pseudonyms derived only from the identifier itself, so every node maps the
// same address to the same pseudonym. Large texts go through StreamRedactor, block by
// block, in bounded memory.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/regex.hpp"

namespace npu_doctor::bundle {

struct RedactionRules {
  struct Rule {
    std::string name;
    Regex regex;
    bool has_name = false;  // the pattern names the secret in a group `name`
  };
  // Priority order (the label of overlapping matches): token shapes, HTTP headers, tool
  // flags, then the forms built from secret names.
  std::vector<Rule> rules;
  std::optional<Regex> secret_variable;   // a whole variable name that says secret
  std::optional<Regex> not_secret_name;   // whole name (leading dashes removed)
  std::optional<Regex> not_secret_value;  // whole value

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
  // Secrets (and identifiers) removed from text held in memory (small texts: larger ones
  // go through StreamRedactor).
  std::string redact(std::string_view text) const;
  // A variable's value as it may be written: <redacted> for secret names, else redact(value).
  std::string redact_variable(std::string_view name, std::string_view value) const;
  // A command line, element by element, where `--password` `VALUE` are two elements.
  std::vector<std::string> redact_argv(const std::vector<std::string>& argv) const;

  // Replacements made so far, per rule name ("url-credentials", "variable", "host" ...).
  const std::map<std::string, std::size_t>& counts() const { return counts_; }

  // What is replaced in a text: sorted, not overlapping. `context` is where the match
  // began (the name before a value): a stream cut must not fall between it and `end`.
  struct Span {
    std::size_t context = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
    int label = 0;  // >= 0: a rule; < 0: identifier -label-1
  };
  std::vector<Span> find(std::string_view text) const;
  // Appends text[0, upto) with every span that begins before `upto` replaced (and counted).
  void apply(std::string_view text, const std::vector<Span>& spans, std::size_t upto, std::string& out) const;

 private:
  bool excepted(const RegexMatch& m, std::string_view text, bool has_name) const;
  const RedactionRules& rules_;
  struct Identifier {
    std::string value;
    std::string alias;
    std::string kind;
  };
  std::vector<Identifier> identifiers_;  // longest first
  mutable std::map<std::string, std::size_t> counts_;
};

// Redacts a stream of any length in bounded memory: text is written in pieces of any
// size and comes out redacted, in order, through `sink`. It is cut into blocks at line
// ends; a line longer than a block is cut with an overlap that is searched twice, and a
// cut never falls inside a match, between a secret and the name before it, or before a
// match near the end that more text could change, so a secret split across pieces or
// blocks is caught as if the text were whole.
class StreamRedactor {
 public:
  using Sink = std::function<void(std::string_view)>;
  struct Limits {
    std::size_t block = 1u << 20;    // text searched at once (more when a match needs it)
    // Searched twice: where a long line is cut, and the end of every block, where a match
    // may still change with more text. At least the farthest any rule looks ahead (a key
    // block's END: 20,000 bytes).
    std::size_t overlap = 64u << 10;
    std::size_t max_block = 8u << 20;  // the most held for one match before it is cut anyway
  };
  StreamRedactor(const Redactor& redactor, Sink sink) : StreamRedactor(redactor, std::move(sink), Limits{}) {}
  StreamRedactor(const Redactor& redactor, Sink sink, Limits limits);
  void write(std::string_view data);
  // Flushes what is held; the stream ends.
  void finish();

 private:
  void process(bool final);
  const Redactor& redactor_;
  Sink sink_;
  Limits limits_;
  std::string pending_;
  std::string out_;
  std::size_t wanted_;             // process when pending_ holds this much
  bool inside_secret_ = false;      // a forced cut fell inside a secret: its rest goes too
};

}  // namespace npu_doctor::bundle
