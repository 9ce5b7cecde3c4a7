#include "scan_plan.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

namespace npu_doctor {
namespace {

// `literals` sorted, without duplicates and without any literal that holds another: it adds
// nothing ("fail" makes "failed" redundant). The gate's and the probes' last step.
std::vector<std::string> without_redundant(const std::vector<std::string>& literals) {
  std::vector<std::string> kept;
  for (const auto& g : literals) {
    const bool redundant = std::any_of(literals.begin(), literals.end(), [&](const std::string& h) {
      return h != g && h.size() < g.size() && g.find(h) != std::string::npos;
    });
    if (!redundant) kept.push_back(g);
  }
  std::sort(kept.begin(), kept.end());
  kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  return kept;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

bool contains_any(std::string_view s, const std::vector<std::string>& gate) {
  return std::any_of(gate.begin(), gate.end(), [&](const std::string& g) { return s.find(g) != std::string_view::npos; });
}

// A clause is covered when every string it offers holds a gate literal.
bool clause_covered(const std::vector<std::string>& clause, const std::vector<std::string>& gate) {
  return !clause.empty() && std::all_of(clause.begin(), clause.end(), [&](const std::string& s) { return contains_any(s, gate); });
}

// Lines of `text` (lower-cased) holding `needle`: how many healthy lines a literal would let
// through the gate.
std::size_t lines_holding(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  std::size_t from = 0;
  while ((from = text.find(needle, from)) != std::string_view::npos) {
    ++n;
    const auto eol = text.find('\n', from);
    if (eol == std::string_view::npos) break;
    from = eol + 1;
  }
  return n;
}

}  // namespace

std::vector<std::string> error_level_marker_regexes() {
  // find_level(): "[ERROR]", "ERROR ", "| ERROR", "- ERROR -" all hold ERROR; glog and
  // c10 write the level letter after a bracket: "[E0319 06:28:14", "[E compiler_depend".
  // CANN's error-manager reports all carry "[PID:" (see find_level).
  // Unbracketed glog starts the line: "E0302 10:55:12.313101 ...".
  return {"ERROR", R"(\[[EF][0-9 ])", R"(\[PID:)", R"(^[EF][0-9]{4} [0-9][0-9]:)"};
}

bool gate_covers(const ScanGate& gate, const GatePattern& pattern) {
  if (pattern.error_level_only && gate.error_markers) return true;
  return std::any_of(pattern.literals.clauses.begin(), pattern.literals.clauses.end(),
                     [&](const auto& c) { return clause_covered(c, gate.literals); });
}

GateChoice choose_gate(const std::vector<GatePattern>& patterns, const GateOptions& options) {
  GateChoice out;
  out.gate.error_markers = std::any_of(patterns.begin(), patterns.end(), [](const GatePattern& p) { return p.error_level_only; });
  const std::string background = ascii_lower(options.background);
  const std::string error_text = ascii_lower(options.error_text);
  std::map<std::string, std::size_t> healthy_lines;  // memo: literal -> background lines holding it
  auto healthy = [&](const std::string& g) {
    auto it = healthy_lines.find(g);
    if (it == healthy_lines.end()) it = healthy_lines.emplace(g, lines_holding(background, g)).first;
    return it->second;
  };
  const double healthy_total = static_cast<double>(std::max<std::size_t>(1, lines_holding(background, "\n")));
  const double error_total = static_cast<double>(std::max<std::size_t>(1, lines_holding(error_text, "\n")));
  std::map<std::string, bool> vocabulary;  // memo: literal -> error vocabulary?
  auto error_word = [&](const std::string& g) {
    if (error_text.empty()) return true;
    auto it = vocabulary.find(g);
    if (it == vocabulary.end()) {
      const double err = static_cast<double>(lines_holding(error_text, g)) / error_total;
      const double ok = static_cast<double>(healthy(g) + 1) / healthy_total;
      it = vocabulary.emplace(g, err >= options.min_error_ratio * ok).first;
    }
    return it->second;
  };

  for (const auto& w : options.always) {
    const std::string l = ascii_lower(w);
    if (!l.empty() && std::find(out.gate.literals.begin(), out.gate.literals.end(), l) == out.gate.literals.end()) {
      out.gate.literals.push_back(l);
    }
  }
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (!gate_covers(out.gate, patterns[i])) open.push_back(i);
  }
  while (out.gate.literals.size() < options.max_literals && !open.empty()) {
    // For each open pattern, the literals that would close it together with the gate so far.
    std::map<std::string, std::size_t> gains;
    std::map<std::string, std::set<std::string>> families;
    for (std::size_t i : open) {
      std::set<std::string> closes;
      for (const auto& clause : patterns[i].literals.clauses) {
        for (const auto& s : clause) {
          for (std::size_t b = 0; b < s.size(); ++b) {
            // Gate literals are the beginnings of words ("fail" of "failed", "timeout"), not
            // fragments across words, which would be arbitrary.
            if (b > 0 && is_word(s[b - 1])) continue;
            std::size_t word_end = b;
            while (word_end < s.size() && word_end - b < options.max_literal && is_word(s[word_end])) ++word_end;
            for (std::size_t len = options.min_literal; b + len <= word_end; ++len) {
              std::string g = s.substr(b, len);
              if (closes.count(g) != 0) continue;
              auto with = out.gate.literals;
              with.push_back(g);
              if (clause_covered(clause, with)) closes.insert(std::move(g));
            }
          }
        }
      }
      for (const auto& g : closes) {
        ++gains[g];
        families[g].insert(patterns[i].family);
      }
    }
    // The best literal: the most patterns gated, among those few healthy lines hold (every
    // line a literal lets through costs a look-up in the second stage); ties go to the one
    // fewer healthy lines hold, then to the longer, then alphabetically (deterministic).
    const std::string* best = nullptr;
    std::size_t best_gain = 0, best_healthy = 0;
    for (const auto& [g, n] : gains) {
      if (n < options.min_gain || families[g].size() < options.min_families) continue;
      const std::size_t h = healthy(g);
      if (static_cast<double>(h) > options.max_healthy_share * healthy_total || !error_word(g)) continue;
      if (best == nullptr || n > best_gain || (n == best_gain && (h < best_healthy || (h == best_healthy && g.size() > best->size())))) {
        best = &g;
        best_gain = n;
        best_healthy = h;
      }
    }
    if (best == nullptr) break;
    out.gate.literals.push_back(*best);
    std::erase_if(open, [&](std::size_t i) { return gate_covers(out.gate, patterns[i]); });
  }
  out.gate.literals = without_redundant(out.gate.literals);
  out.ungated = std::move(open);
  return out;
}

namespace {

// A clause the first stage may look for by literals: few strings, none short, none across a
// line end.
bool probe_clause(const std::vector<std::string>& clause, const ProbeOptions& options) {
  return !clause.empty() && clause.size() <= options.max_strings &&
         std::all_of(clause.begin(), clause.end(), [&](const std::string& s) {
           return s.size() >= options.min_literal && s.find('\n') == std::string::npos;
         });
}

// Calls `f` with every piece of `s` of min_literal to max_literal bytes (repeats included).
template <typename F>
void for_each_piece(const std::string& s, const ProbeOptions& options, F&& f) {
  for (std::size_t b = 0; b + options.min_literal <= s.size(); ++b) {
    for (std::size_t len = options.min_literal; len <= options.max_literal && b + len <= s.size(); ++len) {
      f(s.substr(b, len));
    }
  }
}

// How often each pair of bytes occurs in the healthy text. Vectorscan's literal matcher checks
// every place where a literal's last bytes occur, so of two pieces that are equally rare as a
// whole, the one whose last two bytes are rarer costs the first stage less (docs/scanning.md,
// "What makes the first stage slow").
class PairCounts {
 public:
  explicit PairCounts(std::string_view text) : counts_(65536, 0) {
    for (std::size_t i = 1; i < text.size(); ++i) ++counts_[pair(text[i - 1], text[i])];
  }
  // How often the last two bytes of `piece` occur in the text.
  std::size_t ending(std::string_view piece) const {
    return piece.size() < 2 ? SIZE_MAX : counts_[pair(piece[piece.size() - 2], piece.back())];
  }

 private:
  static std::size_t pair(char a, char b) {
    return static_cast<std::size_t>(static_cast<unsigned char>(a)) << 8 | static_cast<unsigned char>(b);
  }
  std::vector<std::size_t> counts_;
};

// Of `serves` (a piece -> how many patterns or strings it serves), the piece that serves the
// most, two at least, among those at most max_healthy_share of the healthy lines hold; among
// equals the one fewest healthy lines hold, then the one whose ending is rarest, then the
// longest, then the first alphabetically. Only the leaders are counted against the
// background. Empty: none.
template <typename Healthy>
std::string best_shared_piece(const std::map<std::string, std::size_t>& serves, const ProbeOptions& options,
                              Healthy& healthy, double healthy_total, const PairCounts& pairs) {
  std::vector<std::pair<std::string, std::size_t>> ranked(serves.begin(), serves.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string best;
  std::size_t best_serves = 0, best_healthy = 0, best_ending = 0;
  for (const auto& [g, n] : ranked) {
    if (n < 2 || (!best.empty() && n < best_serves)) break;
    const std::size_t h = healthy(g);
    if (static_cast<double>(h) > options.max_healthy_share * healthy_total) continue;
    const std::size_t e = pairs.ending(g);
    if (best.empty() || h < best_healthy || (h == best_healthy && (e < best_ending || (e == best_ending && g.size() > best.size())))) {
      best = g;
      best_serves = n;
      best_healthy = h;
      best_ending = e;
    }
  }
  return best;
}

// The literal that looks for `s` alone: `s` itself, or a piece of it that no more healthy
// lines hold and whose ending is rarer ("training process is running" ends in the common
// "ng"; "training proc" passes the same lines and checks fewer places). At most `kTries`
// pieces are counted against the background, rarest ending first.
template <typename Healthy>
std::string own_literal(const std::string& s, const ProbeOptions& options, Healthy& healthy, const PairCounts& pairs) {
  constexpr std::size_t kTries = 24;
  std::vector<std::string> pieces;
  for_each_piece(s, options, [&](std::string g) { pieces.push_back(std::move(g)); });
  std::stable_sort(pieces.begin(), pieces.end(), [&](const std::string& a, const std::string& b) {
    const std::size_t ea = pairs.ending(a), eb = pairs.ending(b);
    return ea != eb ? ea < eb : a.size() > b.size();
  });
  const std::size_t whole_ending = pairs.ending(s);
  const std::size_t whole_healthy = healthy(s);
  for (std::size_t i = 0; i < pieces.size() && i < kTries; ++i) {
    if (pairs.ending(pieces[i]) >= whole_ending) break;  // no rarer ending than the string's own
    if (healthy(pieces[i]) <= whole_healthy) return pieces[i];
  }
  return s;
}

}  // namespace

bool probes_cover(const std::vector<std::string>& probes, const RequiredLiterals& literals) {
  return std::any_of(literals.clauses.begin(), literals.clauses.end(),
                     [&](const auto& c) { return clause_covered(c, probes); });
}

std::vector<std::string> choose_probes(const std::vector<const RequiredLiterals*>& patterns, const ProbeOptions& options) {
  std::vector<std::string> chosen;
  const std::string background = ascii_lower(options.background);
  const double healthy_total = static_cast<double>(std::max<std::size_t>(1, lines_holding(background, "\n")));
  const PairCounts pairs(background);
  std::map<std::string, std::size_t> healthy_lines;
  auto healthy = [&](const std::string& g) {
    auto it = healthy_lines.find(g);
    if (it == healthy_lines.end()) it = healthy_lines.emplace(g, lines_holding(background, g)).first;
    return it->second;
  };
  std::vector<const RequiredLiterals*> open;
  for (const auto* p : patterns) {
    if (std::any_of(p->clauses.begin(), p->clauses.end(), [&](const auto& c) { return probe_clause(c, options); })) {
      open.push_back(p);
    }
  }
  auto covered = [&](const RequiredLiterals& p) {
    return std::any_of(p.clauses.begin(), p.clauses.end(),
                       [&](const auto& c) { return probe_clause(c, options) && clause_covered(c, chosen); });
  };
  // Shared literals first.
  for (;;) {
    std::map<std::string, std::size_t> gains;
    for (const auto* p : open) {
      std::set<std::string> closes;
      for (const auto& clause : p->clauses) {
        if (!probe_clause(clause, options)) continue;
        // The literal must be in every string the literals so far leave uncovered.
        std::vector<const std::string*> left;
        for (const auto& s : clause) {
          if (!contains_any(s, chosen)) left.push_back(&s);
        }
        if (left.empty()) continue;
        for_each_piece(*left.front(), options, [&](std::string g) {
          if (closes.count(g) != 0) return;
          if (std::all_of(left.begin() + 1, left.end(), [&](const std::string* o) { return o->find(g) != std::string::npos; })) {
            closes.insert(std::move(g));
          }
        });
      }
      for (const auto& g : closes) ++gains[g];
    }
    const std::string best = best_shared_piece(gains, options, healthy, healthy_total, pairs);
    if (best.empty()) break;
    chosen.push_back(best);
    std::erase_if(open, [&](const RequiredLiterals* p) { return covered(*p); });
  }
  // Then each pattern left by its own strings: of its clauses, the one whose new strings
  // fewest healthy lines hold ("hccl_" of "HCCL_[A-Z_]+ set by default to [" would pass
  // every HCCL trace line; " set by default to [" passes none), then the one needing the
  // fewest new literals.
  for (const auto* p : open) {
    if (covered(*p)) continue;
    const std::vector<std::string>* best = nullptr;
    std::pair<std::size_t, std::size_t> best_cost{SIZE_MAX, SIZE_MAX};
    for (const auto& clause : p->clauses) {
      if (!probe_clause(clause, options)) continue;
      std::pair<std::size_t, std::size_t> cost{0, 0};
      for (const auto& s : clause) {
        if (contains_any(s, chosen)) continue;
        cost.first += healthy(s);
        ++cost.second;
      }
      if (cost < best_cost) {
        best = &clause;
        best_cost = cost;
      }
    }
    if (best == nullptr) continue;
    // The clause's new strings, as few literals as they allow: a piece several of them hold
    // (the spellings of one message: "world size", "world_size") serves them all when
    // few healthy lines hold it; a string no such piece serves is its own literal.
    std::vector<const std::string*> left;
    for (const auto& s : *best) {
      if (!contains_any(s, chosen)) left.push_back(&s);
    }
    while (!left.empty()) {
      std::map<std::string, std::size_t> holders;  // a piece -> how many of `left` hold it
      for (const std::string* str : left) {
        std::set<std::string> pieces;
        for_each_piece(*str, options, [&](std::string g) { pieces.insert(std::move(g)); });
        for (const auto& g : pieces) ++holders[g];
      }
      std::string literal = best_shared_piece(holders, options, healthy, healthy_total, pairs);
      if (literal.empty()) literal = own_literal(*left.front(), options, healthy, pairs);
      if (std::find(chosen.begin(), chosen.end(), literal) == chosen.end()) chosen.push_back(literal);
      std::erase_if(left, [&](const std::string* s) { return s->find(literal) != std::string::npos; });
    }
  }
  return without_redundant(chosen);
}

std::vector<std::string> index_keys(const RequiredLiterals& literals,
                                    const std::unordered_map<std::string, std::size_t>* key_frequency) {
  const auto* clause = literals.best();
  if (clause == nullptr) return {};
  std::vector<std::string> keys;
  for (const auto& s : *clause) {
    if (s.size() < 3) return {};  // one string too short to index: the pattern is not indexable
    const std::size_t len = std::min<std::size_t>(4, s.size());
    std::string best;
    std::size_t best_count = SIZE_MAX;
    for (std::size_t b = 0; b + len <= s.size(); ++b) {
      std::string k = s.substr(b, len);
      std::size_t count = 0;
      if (key_frequency != nullptr) {
        auto it = key_frequency->find(k);
        count = it == key_frequency->end() ? 0 : it->second;
      }
      if (count < best_count) {
        best = std::move(k);
        best_count = count;
      }
    }
    if (std::find(keys.begin(), keys.end(), best) == keys.end()) keys.push_back(std::move(best));
  }
  return keys;
}

void plan_patterns(std::vector<Entry>& entries, std::vector<Extractor>& extractors, const ScanGate& gate,
                   bool only_unplanned) {
  struct Item {
    MatchPattern* pattern;
    bool error_level_only;
    RequiredLiterals literals;
  };
  std::vector<Item> items;
  for (auto& e : entries) {
    for (auto& p : e.patterns) {
      if (!only_unplanned || !p.planned) items.push_back({&p, e.level == LevelRequirement::error, {}});
    }
  }
  for (auto& x : extractors) {
    if (!only_unplanned || !x.pattern.planned) items.push_back({&x.pattern, false, {}});
  }
  // How many patterns each 3-4 byte piece appears in: keys are chosen rare, so a line
  // wakes up few patterns.
  std::unordered_map<std::string, std::size_t> frequency;
  for (auto& it : items) {
    it.literals = required_literals(it.pattern->regex);
    std::set<std::string> seen;
    for (const auto& clause : it.literals.clauses) {
      for (const auto& s : clause) {
        for (std::size_t len = 3; len <= 4; ++len) {
          for (std::size_t b = 0; b + len <= s.size(); ++b) seen.insert(s.substr(b, len));
        }
      }
    }
    for (const auto& k : seen) ++frequency[k];
  }
  for (auto& it : items) {
    it.pattern->keys = index_keys(it.literals, &frequency);
    it.pattern->gated = gate_covers(gate, {it.literals, it.error_level_only, {}});
    it.pattern->planned = true;
  }
}

}  // namespace npu_doctor
