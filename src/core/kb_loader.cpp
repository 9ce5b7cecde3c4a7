// Knowledge-base files (YAML, docs/kb-schema.md) -> Entry / Extractor values.
// Every structural problem becomes a KbProblem with file:line; a broken entry is
// left out and the rest of the file still loads.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "fnv1a.hpp"
#include "npu_doctor/embedded_files.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "kb_snapshot.hpp"
#include "npu_doctor/catalogue.hpp"
#include "message_format.hpp"
#include "regex.hpp"

namespace npu_doctor {
namespace {

constexpr std::string_view kSchema = "npu-doctor/kb/v1";

constexpr std::array kLayers = {
    std::string_view("framework"), std::string_view("torch_npu"), std::string_view("operator"),
    std::string_view("compiler"),  std::string_view("hccl"),      std::string_view("runtime"),
    std::string_view("driver"),    std::string_view("firmware"),  std::string_view("system"),
    std::string_view("install"),
};

constexpr std::array kNamespaces = {
    std::string_view("acl"),   std::string_view("ecode"), std::string_view("pta"),
    std::string_view("hccl"),  std::string_view("ts"),    std::string_view("inner"),
    std::string_view("event"), std::string_view("aicore"), std::string_view("drv"), std::string_view("name"),
};

constexpr std::array kDecoders = {std::string_view(""), std::string_view("hccl_errno"),
                                  std::string_view("runtime_hex"), std::string_view("driver_ret")};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& list, std::string_view v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

template <std::size_t N>
std::string join(const std::array<std::string_view, N>& list) {
  std::string s;
  for (auto v : list) {
    if (v.empty()) continue;
    if (!s.empty()) s += ", ";
    s += v;
  }
  return s;
}

// Reads one YAML document, reporting problems against the file name.
class FileReader {
 public:
  FileReader(std::string_view file, bool user, std::vector<KbProblem>& problems)
      : file_(file), user_(user), problems_(problems) {}

  void error(const YAML::Node& at, const std::string& msg) { report(at, msg, true); }
  void warning(const YAML::Node& at, const std::string& msg) { report(at, msg, false); }

  int line_of(const YAML::Node& n) const { return n.IsDefined() ? n.Mark().line + 1 : 0; }

  // Keys not in `allowed` are errors: they are almost always typos.
  void check_keys(const YAML::Node& map, std::initializer_list<std::string_view> allowed,
                  std::string_view what) {
    for (const auto& kv : map) {
      const auto key = kv.first.as<std::string>();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        error(kv.first, "unknown key '" + key + "' in " + std::string(what));
      }
    }
  }

  std::optional<std::string> scalar(const YAML::Node& n, std::string_view what) {
    if (!n.IsDefined() || n.IsNull()) return std::nullopt;
    if (!n.IsScalar()) {
      error(n, std::string(what) + " must be a single value");
      return std::nullopt;
    }
    return n.as<std::string>();
  }

  std::vector<std::string> string_list(const YAML::Node& n, std::string_view what) {
    std::vector<std::string> out;
    if (!n.IsDefined() || n.IsNull()) return out;
    if (n.IsScalar()) {
      out.push_back(n.as<std::string>());
      return out;
    }
    if (!n.IsSequence()) {
      error(n, std::string(what) + " must be a list");
      return out;
    }
    for (const auto& item : n) {
      if (!item.IsScalar()) {
        error(item, std::string(what) + " items must be single values");
        continue;
      }
      out.push_back(item.as<std::string>());
    }
    return out;
  }

  // {en: ..., zh: ...}; Chinese is required for shipped entries, a warning for users'.
  std::optional<LocalizedText> text(const YAML::Node& n, std::string_view what) {
    if (!n.IsDefined() || n.IsNull()) return std::nullopt;
    LocalizedText t;
    if (n.IsScalar()) {
      t.en = n.as<std::string>();
    } else if (n.IsMap()) {
      check_keys(n, {"en", "zh"}, what);
      t.en = scalar(n["en"], what).value_or("");
      t.zh = scalar(n["zh"], what).value_or("");
    } else {
      error(n, std::string(what) + " must be text or {en:, zh:}");
      return std::nullopt;
    }
    if (t.en.empty()) error(n, std::string(what) + " has no English text (en)");
    if (t.zh.empty()) report(n, std::string(what) + " has no Chinese text (zh)", !user_);
    return t;
  }

  std::vector<MatchPattern> patterns(const YAML::Node& n, bool default_ignore_case) {
    std::vector<MatchPattern> out;
    if (!n.IsDefined() || n.IsNull()) return out;
    auto one = [&](const YAML::Node& item) {
      MatchPattern p;
      p.ignore_case = default_ignore_case;
      if (item.IsScalar()) {
        p.regex = item.as<std::string>();
      } else if (item.IsMap()) {
        check_keys(item, {"regex", "ignore_case"}, "a match pattern");
        p.regex = scalar(item["regex"], "regex").value_or("");
        if (item["ignore_case"].IsDefined()) p.ignore_case = item["ignore_case"].as<bool>(false);
      } else {
        error(item, "a match pattern must be a regex or {regex:, ignore_case:}");
        return;
      }
      std::string err;
      if (p.regex.empty()) {
        error(item, "empty regex");
      } else if (!Regex::compile(p.regex, p.ignore_case, err)) {
        error(item, "regex does not compile: " + err);
      } else {
        out.push_back(std::move(p));
      }
    };
    if (n.IsSequence()) {
      for (const auto& item : n) one(item);
    } else {
      one(n);
    }
    return out;
  }

  void samples(const YAML::Node& n, std::vector<std::string>& match, std::vector<std::string>& no_match) {
    if (!n.IsDefined() || n.IsNull()) return;
    if (!n.IsMap()) {
      error(n, "samples must be {match: [...], no_match: [...]}");
      return;
    }
    check_keys(n, {"match", "no_match"}, "samples");
    match = string_list(n["match"], "samples.match");
    no_match = string_list(n["no_match"], "samples.no_match");
  }

  std::optional<CodeRange> range(const YAML::Node& n) {
    if (!n.IsSequence() || n.size() != 2) {
      error(n, "a range must be [low, high]");
      return std::nullopt;
    }
    try {
      CodeRange r{n[0].as<long long>(), n[1].as<long long>()};
      if (r.lo > r.hi) {
        error(n, "range low is above high");
        return std::nullopt;
      }
      return r;
    } catch (const YAML::Exception&) {
      error(n, "range bounds must be whole numbers");
      return std::nullopt;
    }
  }

  const std::string& file() const { return file_; }
  bool user() const { return user_; }

 private:
  void report(const YAML::Node& at, const std::string& msg, bool is_error) {
    problems_.push_back({file_, line_of(at), msg, is_error});
  }
  std::string file_;
  bool user_;
  std::vector<KbProblem>& problems_;
};

struct Defaults {
  std::string ns;
  std::string layer;
  std::optional<Category> category;
  Severity severity = Severity::error;
  Role role = Role::cause;
  bool ignore_case = false;
  bool matches_logs = true;
  Origin origin = Origin::curated;
  LevelRequirement level = LevelRequirement::any;
};

std::optional<Origin> parse_origin(std::string_view s) {
  if (s == "curated") return Origin::curated;
  if (s == "source") return Origin::source;
  return std::nullopt;
}

std::optional<LevelRequirement> parse_level(std::string_view s) {
  if (s == "any") return LevelRequirement::any;
  if (s == "error") return LevelRequirement::error;
  return std::nullopt;
}

// A reference pinned to a commit: ".../blob/<40 hex digits>/...".
bool pinned_reference(std::string_view url) {
  const auto at = url.find("/blob/");
  if (at == std::string_view::npos || url.size() < at + 6 + 40) return false;
  const std::string_view sha = url.substr(at + 6, 40);
  return std::all_of(sha.begin(), sha.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

// The pattern of a catalogue entry: its format, behind the exception class names it is
// raised as ("ValueError: ..."), as the traceback's last line prints it. A ValueError or an
// AssertionError raised in a pydantic validator (vLLM's and vLLM-Ascend's configuration
// classes) reaches the log inside pydantic's ValidationError as "  Value error, <message>
// [type=value_error, ...]" or "  Assertion failed, <message> [type=assertion_error, ...]".
std::optional<MatchPattern> pattern_from_format(FileReader& r, const YAML::Node& n, const std::string& format,
                                                FormatStyle style, const std::vector<std::string>& raised_as) {
  std::string err;
  auto fp = format_to_pattern(format, style, err);
  if (!fp) {
    r.error(n["format"], "format '" + format + "': " + err);
    return std::nullopt;
  }
  MatchPattern p;
  if (!raised_as.empty()) {
    p.regex = "\\b(?:";
    for (std::size_t i = 0; i < raised_as.size(); ++i) {
      if (i > 0) p.regex += '|';
      for (char c : raised_as[i]) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') {
          r.error(n["raised_as"], "raised_as names an exception class: '" + raised_as[i] + "'");
          return std::nullopt;
        }
        if (c == '.') p.regex += '\\';
        p.regex += c;
      }
      p.regex += ": ";
      if (raised_as[i] == "ValueError") p.regex += "|Value error, ";
      if (raised_as[i] == "AssertionError") p.regex += "|Assertion failed, ";
    }
    p.regex += ")";
    if (fp->leading_placeholder) p.regex += ".*?";
  }
  p.regex += fp->regex;
  if (!Regex::compile(p.regex, false, err)) {
    r.error(n["format"], "the pattern generated from format '" + format + "' does not compile: " + err);
    return std::nullopt;
  }
  return p;
}

std::optional<Entry> parse_entry(FileReader& r, const YAML::Node& n, const Defaults& d,
                                 const std::string& family) {
  if (!n.IsMap()) {
    r.error(n, "an entry must be a mapping");
    return std::nullopt;
  }
  r.check_keys(n,
               {"id", "code", "codes", "range", "ranges", "prefixes", "components", "namespace", "name",
                "category", "layer", "severity", "role", "symptom_of", "explains", "recovers", "passes_run", "fails_run", "priority", "any_level", "matches_logs", "match",
                "ignore_case", "title", "cause", "remedies", "references", "samples", "seed", "origin", "format",
                "format_style", "level", "raised_as", "context", "context_signal"},
               "an entry");
  bool ok = true;
  auto fail = [&](const YAML::Node& at, const std::string& msg) {
    r.error(at, msg);
    ok = false;
  };

  Entry e;
  e.family = family;
  e.user_defined = r.user();
  e.source = {r.file(), r.line_of(n)};
  e.id = r.scalar(n["id"], "id").value_or("");
  if (e.id.empty()) fail(n, "entry without an id");

  e.code_namespace = r.scalar(n["namespace"], "namespace").value_or(d.ns);
  for (auto& c : r.string_list(n["code"], "code")) e.codes.push_back(c);
  for (auto& c : r.string_list(n["codes"], "codes")) e.codes.push_back(c);
  if (n["range"].IsDefined()) {
    if (auto rg = r.range(n["range"])) e.ranges.push_back(*rg); else ok = false;
  }
  if (n["ranges"].IsDefined()) {
    if (!n["ranges"].IsSequence()) fail(n["ranges"], "ranges must be a list of [low, high]");
    else for (const auto& item : n["ranges"]) {
      if (auto rg = r.range(item)) e.ranges.push_back(*rg); else ok = false;
    }
  }
  e.prefixes = r.string_list(n["prefixes"], "prefixes");
  e.components = r.string_list(n["components"], "components");
  e.name = r.scalar(n["name"], "name").value_or("");

  const bool has_codes = !e.codes.empty() || !e.ranges.empty() || !e.prefixes.empty();
  if (has_codes && !one_of(kNamespaces, e.code_namespace)) {
    fail(n, "entry has codes but namespace '" + e.code_namespace + "' is not one of: " + join(kNamespaces));
  }

  if (auto c = r.scalar(n["category"], "category")) {
    if (auto cat = parse_category(*c)) e.category = *cat;
    else fail(n["category"], "unknown category '" + *c + "'");
  } else if (d.category) {
    e.category = *d.category;
  } else {
    fail(n, "entry '" + e.id + "' has no category");
  }
  e.layer = r.scalar(n["layer"], "layer").value_or(d.layer);
  if (!one_of(kLayers, e.layer)) fail(n, "layer '" + e.layer + "' is not one of: " + join(kLayers));
  e.severity = d.severity;
  if (auto s = r.scalar(n["severity"], "severity")) {
    if (auto sev = parse_severity(*s)) e.severity = *sev;
    else fail(n["severity"], "unknown severity '" + *s + "' (info, warning, error, critical)");
  }
  e.role = d.role;
  if (auto s = r.scalar(n["role"], "role")) {
    if (auto role = parse_role(*s)) e.role = *role;
    else fail(n["role"], "unknown role '" + *s + "' (cause, symptom, wrapper, hint)");
  }
  for (const auto& s : r.string_list(n["symptom_of"], "symptom_of")) {
    if (s == "any") {
      for (auto c : categories_in_priority_order()) e.symptom_of.push_back(c);
    } else if (auto c = parse_category(s)) {
      e.symptom_of.push_back(*c);
    } else {
      fail(n["symptom_of"], "unknown category '" + s + "' in symptom_of");
    }
  }
  e.explains = r.string_list(n["explains"], "explains");
  e.recovers = r.string_list(n["recovers"], "recovers");
  if (const YAML::Node ctx = n["context"]; ctx.IsDefined()) {
    if (!ctx.IsSequence()) {
      fail(ctx, "context must be a list of {near: regex, means: entry id}");
    } else {
      for (const auto& rule : ctx) {
        if (!rule.IsMap()) {
          fail(rule, "a context rule is {near: regex, means: entry id}");
          continue;
        }
        r.check_keys(rule, {"near", "means", "ignore_case"}, "a context rule");
        ContextRule c;
        c.means = r.scalar(rule["means"], "means").value_or("");
        // Without `near` the rule takes the meant entry's context_signal (resolved once every
        // file is read: the entry may be in another file).
        auto near = r.patterns(rule["near"], rule["ignore_case"].as<bool>(false));
        if (near.size() > 1 || c.means.empty() || (near.empty() && rule["near"].IsDefined())) {
          fail(rule, "a context rule needs at most one regex in near and an entry id in means");
          continue;
        }
        if (!near.empty()) c.near = std::move(near.front());
        e.context.push_back(std::move(c));
      }
    }
  }
  e.context_signal = r.patterns(n["context_signal"], false);
  if (e.context_signal.size() > 1) fail(n["context_signal"], "context_signal is one regex");
  if (n["priority"].IsDefined()) {
    try {
      e.priority = n["priority"].as<int>();
    } catch (const YAML::Exception&) {
      fail(n["priority"], "priority must be a whole number");
    }
  }
  if (n["any_level"].IsDefined()) e.any_level = n["any_level"].as<bool>(false);
  if (n["passes_run"].IsDefined()) e.passes_run = n["passes_run"].as<bool>(false);
  if (n["fails_run"].IsDefined()) e.fails_run = n["fails_run"].as<bool>(false);
  e.matches_logs = d.matches_logs;
  if (n["matches_logs"].IsDefined()) e.matches_logs = n["matches_logs"].as<bool>(true);
  bool ignore_case = d.ignore_case;
  if (n["ignore_case"].IsDefined()) ignore_case = n["ignore_case"].as<bool>(false);
  e.patterns = r.patterns(n["match"], ignore_case);
  if (n["match"].IsDefined() && e.patterns.empty()) ok = false;

  e.origin = d.origin;
  if (auto s = r.scalar(n["origin"], "origin")) {
    if (auto o = parse_origin(*s)) e.origin = *o;
    else fail(n["origin"], "unknown origin '" + *s + "' (curated, source)");
  }
  e.level = d.level;
  if (auto s = r.scalar(n["level"], "level")) {
    if (auto l = parse_level(*s)) e.level = *l;
    else fail(n["level"], "unknown level '" + *s + "' (any, error)");
  }
  const auto raised_as = r.string_list(n["raised_as"], "raised_as");
  if (auto f = r.scalar(n["format"], "format")) {
    e.format = *f;
    FormatStyle style = FormatStyle::printf;
    if (auto s = r.scalar(n["format_style"], "format_style")) {
      if (auto st = parse_format_style(*s)) style = *st;
      else fail(n["format_style"], "unknown format_style '" + *s + "' (printf, python)");
    }
    e.python_format = style == FormatStyle::python;
    if (!e.patterns.empty()) fail(n["format"], "entry '" + e.id + "' gives both format and match: give one");
    if (auto p = pattern_from_format(r, n, e.format, style, raised_as)) e.patterns.push_back(std::move(*p));
    else ok = false;
  } else if (n["format_style"].IsDefined() || !raised_as.empty()) {
    fail(n, "entry '" + e.id + "': format_style and raised_as go with a format");
  }
  if (!has_codes && e.patterns.empty() && ok && e.matches_logs) {
    fail(n, "entry '" + e.id + "' matches nothing: give codes, ranges, prefixes or match patterns "
            "(or matches_logs: false for a finding an analysis raises by id)");
  }
  if (!e.matches_logs && (has_codes || !e.patterns.empty())) {
    fail(n, "entry '" + e.id + "' has matches_logs: false but codes or match patterns");
  }

  // Catalogue entries may leave cause and remedies to their category (docs/kb-messages.md).
  const bool texts_required = e.origin == Origin::curated;
  if (auto t = r.text(n["title"], "title")) e.title = *t; else fail(n, "entry '" + e.id + "' has no title");
  if (auto t = r.text(n["cause"], "cause")) e.cause = *t;
  else if (texts_required) fail(n, "entry '" + e.id + "' has no cause");
  const YAML::Node rem = n["remedies"];
  if (rem.IsDefined() && rem.IsSequence()) {
    for (const auto& item : rem) {
      if (auto t = r.text(item, "a remedy")) e.remedies.push_back(*t);
    }
  } else if (rem.IsDefined()) {
    fail(rem, "remedies must be a list");
  }
  if (e.remedies.empty() && texts_required) fail(n, "entry '" + e.id + "' has no remedies");
  e.references = r.string_list(n["references"], "references");
  if (e.origin == Origin::source && !r.user()) {
    if (e.format.empty() && e.patterns.empty()) fail(n, "catalogue entry '" + e.id + "' has no format");
    if (std::none_of(e.references.begin(), e.references.end(), [](const std::string& u) { return pinned_reference(u); })) {
      fail(n, "catalogue entry '" + e.id + "' needs a reference pinned to a commit (.../blob/<40-hex commit>/path#Lnn)");
    }
  }
  r.samples(n["samples"], e.samples_match, e.samples_no_match);
  if (!e.patterns.empty() && e.samples_match.empty()) {
    fail(n, "entry '" + e.id + "' has match patterns but no samples.match lines");
  }
  if (const YAML::Node seed = n["seed"]; seed.IsDefined()) {
    r.check_keys(seed, {"name", "range", "examples", "cause", "remedy"}, "seed");
    SeedRow row;
    row.name = r.scalar(seed["name"], "seed.name").value_or("");
    row.range = r.scalar(seed["range"], "seed.range").value_or("");
    row.examples = r.scalar(seed["examples"], "seed.examples").value_or("");
    row.cause = r.scalar(seed["cause"], "seed.cause").value_or("");
    row.remedy = r.scalar(seed["remedy"], "seed.remedy").value_or("");
    e.seed = row;
  }
  if (!ok) return std::nullopt;
  return e;
}

std::optional<Extractor> parse_extractor(FileReader& r, const YAML::Node& n, const Defaults& d) {
  if (!n.IsMap()) {
    r.error(n, "an extractor must be a mapping");
    return std::nullopt;
  }
  r.check_keys(n, {"id", "namespace", "regex", "ignore_case", "decode", "samples"}, "an extractor");
  Extractor x;
  x.source = {r.file(), r.line_of(n)};
  x.user_defined = r.user();
  x.id = r.scalar(n["id"], "id").value_or("");
  x.code_namespace = r.scalar(n["namespace"], "namespace").value_or(d.ns);
  x.decode = r.scalar(n["decode"], "decode").value_or("");
  bool ok = !x.id.empty();
  if (!ok) r.error(n, "extractor without an id");
  if (!one_of(kNamespaces, x.code_namespace)) {
    r.error(n, "extractor namespace '" + x.code_namespace + "' is not one of: " + join(kNamespaces));
    ok = false;
  }
  if (!one_of(kDecoders, x.decode)) {
    r.error(n["decode"], "unknown decode '" + x.decode + "' (" + join(kDecoders) + ")");
    ok = false;
  }
  auto pats = r.patterns(n["regex"], n["ignore_case"].as<bool>(false));
  if (pats.size() != 1) {
    if (ok) r.error(n, "extractor '" + x.id + "' needs exactly one regex");
    return std::nullopt;
  }
  x.pattern = pats.front();
  std::string err;
  auto re = Regex::compile(x.pattern.regex, x.pattern.ignore_case, err);
  const auto& names = re->group_names();
  if (std::find(names.begin(), names.end(), "code") == names.end()) {
    r.error(n["regex"], "extractor regex has no named group (?<code>...)");
    ok = false;
  }
  r.samples(n["samples"], x.samples_match, x.samples_no_match);
  if (x.samples_match.empty()) {
    r.error(n, "extractor '" + x.id + "' has no samples.match lines");
    ok = false;
  }
  if (!ok) return std::nullopt;
  return x;
}

// A catalogue file's provenance block (docs/kb-messages.md).
std::optional<KbSource> parse_source(FileReader& r, const YAML::Node& n, const std::string& family) {
  if (!n.IsMap()) {
    r.error(n, "source must be a mapping {component, repo, commit, formats_found, skipped}");
    return std::nullopt;
  }
  r.check_keys(n, {"component", "repo", "commit", "formats_found", "skipped"}, "source");
  KbSource s;
  s.family = family;
  s.file = r.file();
  s.component = r.scalar(n["component"], "source.component").value_or("");
  s.repo = r.scalar(n["repo"], "source.repo").value_or("");
  s.commit = r.scalar(n["commit"], "source.commit").value_or("");
  if (s.component.empty() || s.repo.empty()) r.error(n, "source needs component and repo");
  if (s.commit.size() != 40 || !std::all_of(s.commit.begin(), s.commit.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; })) {
    r.error(n["commit"].IsDefined() ? n["commit"] : n, "source.commit must be the full 40-hex commit that was read");
  }
  try {
    s.formats_found = n["formats_found"].IsDefined() ? n["formats_found"].as<long long>() : 0;
    if (const YAML::Node sk = n["skipped"]; sk.IsDefined()) {
      if (!sk.IsMap()) r.error(sk, "source.skipped must map a reason to a count");
      else for (const auto& kv : sk) s.skipped.emplace_back(kv.first.as<std::string>(), kv.second.as<long long>());
    }
  } catch (const YAML::Exception&) {
    r.error(n, "source.formats_found and source.skipped counts must be whole numbers");
  }
  return s;
}

}  // namespace

KbFile parse_kb_file(std::string_view file_name, std::string_view content, bool user_defined,
                     std::vector<KbProblem>& problems) {
  KbFile out;
  FileReader r(file_name, user_defined, problems);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(content));
  } catch (const YAML::Exception& ex) {
    problems.push_back({std::string(file_name), ex.mark.line + 1, "not valid YAML: " + ex.msg, true});
    return out;
  }
  if (!root.IsMap()) {
    problems.push_back({std::string(file_name), 1, "a knowledge-base file must be a YAML mapping", true});
    return out;
  }
  try {
    r.check_keys(root, {"schema", "family", "description", "source", "defaults", "entries", "extractors"}, "the file");
    const auto schema = r.scalar(root["schema"], "schema").value_or("");
    if (schema != kSchema) {
      r.error(root["schema"].IsDefined() ? root["schema"] : root,
              "schema must be '" + std::string(kSchema) + "' (found '" + schema + "')");
      return out;
    }
    const auto family = r.scalar(root["family"], "family").value_or("");
    if (family.empty()) r.error(root, "missing 'family'");

    Defaults d;
    if (const YAML::Node dn = root["defaults"]; dn.IsDefined()) {
      r.check_keys(dn, {"namespace", "layer", "category", "severity", "role", "ignore_case", "matches_logs", "origin", "level"},
                   "defaults");
      d.ns = r.scalar(dn["namespace"], "defaults.namespace").value_or("");
      d.layer = r.scalar(dn["layer"], "defaults.layer").value_or("");
      if (auto c = r.scalar(dn["category"], "defaults.category")) {
        d.category = parse_category(*c);
        if (!d.category) r.error(dn["category"], "unknown category '" + *c + "'");
      }
      if (auto s = r.scalar(dn["severity"], "defaults.severity")) {
        d.severity = parse_severity(*s).value_or(Severity::error);
      }
      if (auto s = r.scalar(dn["role"], "defaults.role")) d.role = parse_role(*s).value_or(Role::cause);
      d.ignore_case = dn["ignore_case"].as<bool>(false);
      d.matches_logs = dn["matches_logs"].as<bool>(true);
      if (auto s = r.scalar(dn["origin"], "defaults.origin")) {
        if (auto o = parse_origin(*s)) d.origin = *o;
        else r.error(dn["origin"], "unknown origin '" + *s + "' (curated, source)");
      }
      if (auto s = r.scalar(dn["level"], "defaults.level")) {
        if (auto l = parse_level(*s)) d.level = *l;
        else r.error(dn["level"], "unknown level '" + *s + "' (any, error)");
      }
    }
    if (const YAML::Node sn = root["source"]; sn.IsDefined()) out.source = parse_source(r, sn, family);
    if (const YAML::Node xs = root["extractors"]; xs.IsDefined()) {
      if (!xs.IsSequence()) r.error(xs, "extractors must be a list");
      else for (const auto& x : xs) {
        if (auto ex = parse_extractor(r, x, d)) out.extractors.push_back(std::move(*ex));
      }
    }
    if (const YAML::Node es = root["entries"]; es.IsDefined()) {
      if (!es.IsSequence()) r.error(es, "entries must be a list");
      else for (const auto& item : es) {
        if (auto e = parse_entry(r, item, d, family)) out.entries.push_back(std::move(*e));
      }
    }
  } catch (const YAML::Exception& ex) {
    problems.push_back({std::string(file_name), ex.mark.line + 1, "unexpected value: " + ex.msg, true});
  }
  return out;
}

namespace {

// A whole file mapped read-only until the process ends (empty on any failure).
std::string_view map_file_forever(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  void* p = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  ::close(fd);
  if (p == MAP_FAILED) return {};
  return {static_cast<const char*>(p), static_cast<std::size_t>(st.st_size)};
}

void read_user_path(const std::filesystem::path& p, std::vector<std::pair<std::string, std::string>>& files,
                    std::vector<KbProblem>& problems) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    std::vector<fs::path> found;
    for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
      const auto ext = it->path().extension();
      if (ext == ".yaml" || ext == ".yml") found.push_back(it->path());
    }
    if (ec) problems.push_back({p.string(), 0, "cannot list directory: " + ec.message(), true});
    std::sort(found.begin(), found.end());
    for (const auto& f : found) read_user_path(f, files, problems);
    return;
  }
  // Only regular files of a sane size: a FIFO would block and /dev/zero never ends.
  constexpr std::uintmax_t kMaxKbFileBytes = 64u << 20;
  if (!fs::is_regular_file(p, ec)) {
    problems.push_back({p.string(), 0,
                        ec ? "cannot read knowledge-base file: " + ec.message()
                           : "not a regular file; a knowledge-base path is a .yaml file or a directory",
                        true});
    return;
  }
  if (const auto size = fs::file_size(p, ec); !ec && size > kMaxKbFileBytes) {
    problems.push_back({p.string(), 0, "larger than 64 MiB: not a knowledge-base file", true});
    return;
  }
  errno = 0;
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    problems.push_back({p.string(), 0, std::string("cannot read knowledge-base file: ") + std::strerror(errno ? errno : EIO), true});
    return;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  files.emplace_back(p.string(), ss.str());
}

}  // namespace

std::vector<EmbeddedFile> kb_snapshots_in_use() {
  if (const char* path = std::getenv("NPU_DOCTOR_KB_SNAPSHOT"); path != nullptr && *path != '\0') {
    static const std::string_view mapped = map_file_forever(path);
    return {EmbeddedFile{path, mapped}};
  }
  return {embedded_knowledge_base().begin(), embedded_knowledge_base().end()};
}

KnowledgeBase load_knowledge_base(const KbLoadOptions& options, std::vector<KbProblem>& problems) {
  std::vector<Entry> entries;
  std::vector<Extractor> extractors;
  std::vector<KbSource> sources;
  ScanGate gate;  // the shipped base's; patterns of files layered on top are planned against it
  std::shared_ptr<Catalogue> catalogue;  // the shipped base's catalogue, read in place
  std::string base_version;

  // NPU_DOCTOR_KB_SNAPSHOT replaces the built-in snapshot with one npu-doctor-kbc wrote
  // (bench/kb_growth.sh measures knowledge bases of other sizes with it).
  // The replacement is mapped for the life of the process, like the built-in snapshot, and
  // like it is read in place (pages are read only when touched).
  const std::vector<EmbeddedFile> snapshot_files = kb_snapshots_in_use();
  if (options.embedded && snapshot_files.size() == 1 && snapshot_files.front().content.empty()) {
    problems.push_back({std::string(snapshot_files.front().name), 0, "NPU_DOCTOR_KB_SNAPSHOT: cannot map this snapshot", true});
  }
  if (options.embedded) {
    for (const auto& f : snapshot_files) {
      // Both homes of a snapshot are read-only file mappings (.rodata, or map_file_forever).
      auto snapshot = read_kb_snapshot(f.content, nullptr, Catalogue::Bytes::read_only_mapping,
                                       options.defer_texts ? EntryTexts::deferred : EntryTexts::decoded);
      if (!snapshot) {
        problems.push_back({std::string(f.name), 0, "the built-in knowledge base is damaged; rebuild npu-doctor", true});
        continue;
      }
      // The usual case: nothing layered on top, and the snapshot was linted at build time.
      if (options.builtin_paths.empty() && options.user_paths.empty()) return std::move(*snapshot);
      base_version = snapshot->version();
      auto parts = std::move(*snapshot).release();
      entries = std::move(parts.entries);
      extractors = std::move(parts.extractors);
      sources = std::move(parts.sources);
      gate = std::move(parts.gate);
      catalogue = std::move(parts.catalogue);
    }
  }
  std::map<std::string, std::size_t> entry_index;
  std::map<std::string, std::size_t> extractor_index;
  for (std::size_t i = 0; i < entries.size(); ++i) entry_index.emplace(entries[i].id, i);
  for (std::size_t i = 0; i < extractors.size(); ++i) extractor_index.emplace(extractors[i].id, i);

  auto add = [&](std::string_view name, std::string_view content, bool user) {
    KbFile f = parse_kb_file(name, content, user, problems);
    if (f.source) sources.push_back(std::move(*f.source));
    for (auto& x : f.extractors) {
      if (auto it = extractor_index.find(x.id); it != extractor_index.end()) {
        if (!user) problems.push_back({x.source.file, x.source.line, "duplicate extractor id '" + x.id + "'", true});
        extractors[it->second] = std::move(x);
      } else {
        extractor_index.emplace(x.id, extractors.size());
        extractors.push_back(std::move(x));
      }
    }
    for (auto& e : f.entries) {
      if (auto it = entry_index.find(e.id); it != entry_index.end()) {
        if (!user) {
          const auto& prev = entries[it->second].source;
          problems.push_back({e.source.file, e.source.line,
                              "duplicate entry id '" + e.id + "' (first at " + prev.file + ":" +
                                  std::to_string(prev.line) + ")",
                              true});
        }
        entries[it->second] = std::move(e);  // a user's entry overrides the shipped one
      } else {
        entry_index.emplace(e.id, entries.size());
        entries.push_back(std::move(e));
      }
    }
  };

  // Not FNV's offset basis (a digit short), but kept: it names every knowledge base so far.
  uint64_t hash = 1469598103934665603ULL;
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& p : options.builtin_paths) read_user_path(p, files, problems);
  for (auto& [name, content] : files) {
    hash = fnv1a(hash, content);
    // Shipped files are named as in the source tree: "kb/seed.yaml", "kb/messages/hccl.yaml".
    const auto at = name.rfind("/kb/");
    add(at == std::string::npos ? "kb/" + std::filesystem::path(name).filename().string() : name.substr(at + 1),
        content, false);
  }
  const std::size_t builtin_files = files.size();
  files.clear();
  for (const auto& p : options.user_paths) read_user_path(p, files, problems);
  for (const auto& [name, content] : files) {
    hash = fnv1a(hash, content);
    add(name, content, true);
  }

  // Cross-entry checks: one meaning per exact code, explains point at real ids.
  std::map<std::string, const Entry*> code_owner;
  for (const auto& e : entries) {
    for (const auto& c : e.codes) {
      const auto key = e.code_namespace + ":" + normalize_code(c);
      auto [it, inserted] = code_owner.emplace(key, &e);
      if (!inserted) {
        problems.push_back({e.source.file, e.source.line,
                            "code " + c + " (" + e.code_namespace + ") is already defined by '" +
                                it->second->id + "' at " + it->second->source.file + ":" +
                                std::to_string(it->second->source.line),
                            true});
      }
    }
  }
  for (const auto& e : entries) {
    const auto known_ids = [&](const std::vector<std::string>& ids, const char* field) {
      for (const auto& id : ids) {
        if (entry_index.find(id) == entry_index.end()) {
          problems.push_back({e.source.file, e.source.line, std::string(field) + " unknown entry id '" + id + "'", true});
        }
      }
    };
    known_ids(e.explains, "explains");
    known_ids(e.recovers, "recovers");
    // The failures it recovers, or the ones before a passing run's summary, are read as it: it
    // must never be a root cause itself.
    const bool benign_hint = e.role == Role::hint && e.severity < Severity::error;
    if (!e.recovers.empty() && !benign_hint) {
      problems.push_back({e.source.file, e.source.line, "an entry that recovers others must be a hint of severity info or warning", true});
    }
    if (e.passes_run && !benign_hint) {
      problems.push_back({e.source.file, e.source.line, "an entry that passes_run must be a hint of severity info or warning", true});
    }
    if (e.fails_run && (e.passes_run || e.severity < Severity::error)) {
      problems.push_back({e.source.file, e.source.line, "an entry that fails_run must be of severity error, and not also passes_run", true});
    }
  }
  for (auto& e : entries) {
    for (auto& rule : e.context) {
      const auto it = entry_index.find(rule.means);
      if (it == entry_index.end()) {
        problems.push_back({e.source.file, e.source.line, "context means unknown entry id '" + rule.means + "'", true});
      } else if (rule.near.regex.empty()) {
        const Entry& meant = entries[it->second];
        if (meant.context_signal.empty()) {
          problems.push_back({e.source.file, e.source.line,
                              "context rule without near: '" + rule.means + "' has no context_signal", true});
        } else {
          rule.near = meant.context_signal.front();
        }
      }
    }
  }
  std::string version = base_version;
  if (builtin_files + files.size() > 0) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
    version = (base_version.empty() ? "kb-" : base_version + "+") + std::string(buf, 8);
  }
  KnowledgeBase kb(std::move(entries), std::move(extractors), std::move(version), std::move(sources));
  kb.set_gate(std::move(gate));
  kb.set_catalogue(std::move(catalogue));
  return kb;
}

}  // namespace npu_doctor
