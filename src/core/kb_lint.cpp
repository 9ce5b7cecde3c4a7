#include "npu_doctor/kb_lint.hpp"

#include <algorithm>
#include <set>

#include "kb_matcher.hpp"
#include "npu_doctor/line_info.hpp"

namespace npu_doctor {
namespace {

bool recognises(const std::vector<LineHit>& hits, const Entry& e) {
  return std::any_of(hits.begin(), hits.end(), [&](const LineHit& h) { return h.entry == &e; });
}

std::string short_line(const std::string& s) { return s.size() > 80 ? s.substr(0, 77) + "..." : s; }

// A catalogue entry whose sample another entry takes by precedence (docs/kb-messages.md)
// is still right when its own pattern recognises the sample: a hand-written entry claims
// the line, or another catalogue message with as much literal text (the same format in
// two components: shared code) stands for it.
bool stands_aside(const Entry& e, const std::string& sample, const std::vector<LineHit>& hits) {
  if (e.origin != Origin::source || e.patterns.empty()) return false;
  if (e.level == LevelRequirement::error && find_level(sample) != LineLevel::error) return false;
  std::string err;
  const auto re = Regex::compile(e.patterns.front().regex, e.patterns.front().ignore_case, err, Regex::Jit::off);
  if (!re || !re->search(sample)) return false;
  const std::size_t own = literal_weight(e);
  return std::any_of(hits.begin(), hits.end(), [&](const LineHit& h) {
    if (h.entry->origin == Origin::curated) return h.entry->role != Role::wrapper && h.specificity >= Specificity::exact_code;
    return literal_weight(*h.entry) >= own;
  });
}

// Patterns that end in an unbounded wildcard report a match at every following byte.
bool ends_with_wildcard(const std::string& re) {
  return re.ends_with(".*") || re.ends_with(".+") || re.ends_with("\\S*") || re.ends_with("\\S+");
}

}  // namespace

std::vector<KbProblem> lint_knowledge_base(const KnowledgeBase& kb, const LintOptions& options) {
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(kb, problems, options.cache_dir, KbMatcher::ProgramUse::one_pass);
  const bool only_user = options.only_user_defined;
  std::string miss;
  if (const std::size_t misses = matcher->engine_self_test(&miss, true, only_user); misses > 0) {
    problems.push_back({"", 0,
                        "the scan gate does not pass " + std::to_string(misses) +
                            " recognised sample line(s) (alone or inside a large buffer), e.g. \"" +
                            miss.substr(0, 80) + "\"",
                        true});
  }

  // Checking every entry's samples compiles most patterns and decodes most of the catalogue:
  // what was made is let go every few hundred entries, so lint's memory stays near that of
  // a diagnose instead of growing to every pattern's program (no pointer to an entry or a
  // program is kept from one entry to the next).
  std::size_t visited = 0;
  const auto check_entry = [&](const Entry& e) {
    if (only_user && !e.user_defined) return;
    auto where = [&](std::string msg) { problems.push_back({e.source.file, e.source.line, "'" + e.id + "': " + msg, true}); };
    for (const auto& s : e.samples_match) {
      auto hits = matcher->match_line(s);
      if (!recognises(hits, e) && !stands_aside(e, s, hits)) {
        std::string got;
        for (const auto& h : hits) got += (got.empty() ? "" : ", ") + h.entry->id;
        where("sample is not recognised: \"" + short_line(s) + "\"" + (got.empty() ? "" : " (recognised as " + got + ")"));
      }
    }
    for (const auto& s : e.samples_no_match) {
      if (recognises(matcher->match_line(s), e)) where("no_match sample is recognised: \"" + short_line(s) + "\"");
    }
    for (const auto& p : e.patterns) {
      if (ends_with_wildcard(p.regex)) {
        problems.push_back({e.source.file, e.source.line,
                            "'" + e.id + "': pattern ends in an unbounded wildcard (slow, and adds nothing): /" +
                                p.regex + "/",
                            false});
      }
    }
  };
  kb.for_each_entry([&](const Entry& e) {
    check_entry(e);
    if (++visited % KbMatcher::kEntriesBetweenForgets == 0) matcher->forget_made();  // after `e`'s last use: it may be a decoded one
  });

  std::set<std::string> extracted;
  for (const auto& x : kb.extractors()) {
    extracted.insert(x.code_namespace);
    if (x.code_namespace == "name") continue;  // names resolve to entries of any namespace
    if (x.decode == "hccl_errno") extracted.insert("hccl");
    if (x.decode == "driver_ret") extracted.insert("inner");
    if (x.decode == "runtime_hex") {
      extracted.insert("ts");
      extracted.insert("inner");
    }
    if (only_user && !x.user_defined) continue;  // its namespaces count; its samples were checked with the base
    std::string err;
    auto re = Regex::compile(x.pattern.regex, x.pattern.ignore_case, err);
    if (!re) continue;  // reported by the loader
    for (const auto& s : x.samples_match) {
      auto m = re->search(s);
      if (!m || m->group("code").empty()) {
        problems.push_back({x.source.file, x.source.line,
                            "extractor '" + x.id + "' finds no code in sample \"" + short_line(s) + "\"", true});
      }
    }
    for (const auto& s : x.samples_no_match) {
      if (re->search(s)) {
        problems.push_back({x.source.file, x.source.line,
                            "extractor '" + x.id + "' matches no_match sample \"" + short_line(s) + "\"", true});
      }
    }
  }
  std::set<std::string> reported;
  for (const auto& e : kb.entries()) {
    if (only_user && !e.user_defined) continue;
    const bool has_codes = !e.codes.empty() || !e.ranges.empty() || !e.prefixes.empty();
    if (has_codes && e.patterns.empty() && !extracted.count(e.code_namespace) && reported.insert(e.code_namespace).second) {
      problems.push_back({e.source.file, e.source.line,
                          "no extractor finds codes of namespace '" + e.code_namespace + "', so '" + e.id +
                              "' can never match a log line",
                          true});
    }
  }
  return problems;
}

}  // namespace npu_doctor
