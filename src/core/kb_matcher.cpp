#include "kb_matcher.hpp"

#include "message_format.hpp"
#include "free_memory.hpp"
#include "npu_doctor/catalogue.hpp"
#include "npu_doctor/line_info.hpp"
#include "regex_literals.hpp"
#include "regex_suffix.hpp"
#include "scan_plan.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace npu_doctor {
namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::optional<unsigned long long> parse_hex(std::string_view s) {
  if (s.starts_with("0x") || s.starts_with("0X")) s.remove_prefix(2);
  unsigned long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string hex(unsigned long long v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v, 16);
  return "0x" + std::string(buf, res.ptr);
}

// Applies an extractor's decode step: which namespace and code the raw text means.
bool decode(std::string_view how, std::string& ns, std::string& code) {
  if (how.empty()) return true;
  if (how == "driver_ret") {
    // drvRetCode=6 is a driver drvError_t; drvRetCode=117571606 (0x7020016) a runtime inner code.
    unsigned long long d = 0;
    auto [p, ec] = std::from_chars(code.data(), code.data() + code.size(), d, 10);
    if (ec != std::errc() || p != code.data() + code.size()) return false;
    if (d >= 0x07000000) {
      ns = "inner";
      code = hex(d);
    }
    return true;
  }
  auto v = parse_hex(code);
  if (!v) return false;
  if (how == "hccl_errno") {
    // errNo = (module 5 << 24) | (submodule << 16) | HcclResult
    code = std::to_string(*v & 0xFFFF);
    ns = "hccl";
    return true;
  }
  if (how == "runtime_hex") {
    // retCode=0x7020010 is a runtime inner code; retCode=0x31 a task-scheduler code.
    ns = *v >= 0x07000000 ? "inner" : "ts";
    code = hex(*v);
    return true;
  }
  return false;
}

constexpr int kMaxCodesPerLine = 64;

// A literal as a Vectorscan regex (matched caseless by the caller).
std::string literal_regex(std::string_view lit) {
  std::string re;
  append_literal(re, lit);
  return re;
}

// The literals an ungated pattern is looked for by in the first stage, when every match
// holds one of them and none is short (a short one, like ": " or "nan", would pass many
// lines and cost the second stage more than the regex costs the first); nullptr: its regex
// runs in the first stage.
constexpr std::size_t kMinStage1Literal = 5;
constexpr std::size_t kMaxStage1Literals = 16;
const std::vector<std::string>* stage1_literals(std::string_view regex, RequiredLiterals& storage) {
  storage = required_literals(regex);
  const auto* best = storage.best();
  if (best == nullptr || best->empty() || best->size() > kMaxStage1Literals) return nullptr;
  for (const std::string& l : *best) {
    if (l.size() < kMinStage1Literal || l.find('\n') != std::string::npos) return nullptr;
  }
  return best;
}

}  // namespace

std::unique_ptr<KbMatcher> KbMatcher::build(const KnowledgeBase& kb, std::vector<KbProblem>& problems,
                                            const std::string& cache_dir, ProgramUse program_use) {
  std::unique_ptr<KbMatcher> m(new KbMatcher(kb));
  if (program_use == ProgramUse::one_pass) m->catalogue_jit_ = Regex::Jit::off;
  // Patterns the knowledge-base compiler did not plan (users' files loaded at run time,
  // knowledge bases built in code) are planned here against the shipped gate.
  std::vector<Entry> unplanned_entries;
  std::vector<Extractor> unplanned_extractors;
  for (const auto& x : kb.extractors()) {
    if (!x.pattern.planned) unplanned_extractors.push_back(x);
  }
  for (const auto& e : kb.entries()) {
    if (std::any_of(e.patterns.begin(), e.patterns.end(), [](const MatchPattern& p) { return !p.planned; })) {
      unplanned_entries.push_back(e);
    }
  }
  plan_patterns(unplanned_entries, unplanned_extractors, kb.gate(), true);
  std::size_t next_entry = 0, next_extractor = 0;
  // The index keys of the hand-written patterns (refs_ 0..n-1), until the index is built; a
  // catalogue pattern's are read from the catalogue then.
  std::vector<std::vector<std::string_view>> own_keys;

  auto add = [&](const Entry* e, const Extractor* x, const MatchPattern& p, const MatchPattern* plan) {
    if (plan != nullptr) {
      m->planned_.push_back(*plan);
      plan = &m->planned_.back();
    }
    const MatchPattern& use = plan != nullptr ? *plan : p;
    PatternRef& ref = m->refs_.emplace_back();
    ref.entry = e;
    ref.extractor = x;
    ref.regex = use.regex;
    ref.ignore_case = use.ignore_case;
    ref.gated = use.gated;
    ref.level = e != nullptr ? e->level : LevelRequirement::any;
    own_keys.emplace_back(use.keys.begin(), use.keys.end());
  };
  for (const auto& x : kb.extractors()) {
    const MatchPattern* plan = nullptr;
    if (!x.pattern.planned) plan = &unplanned_extractors[next_extractor++].pattern;
    add(nullptr, &x, x.pattern, plan);
  }
  for (const auto& e : kb.entries()) {
    const bool replan = std::any_of(e.patterns.begin(), e.patterns.end(), [](const MatchPattern& p) { return !p.planned; });
    const Entry* planned = replan ? &unplanned_entries[next_entry++] : nullptr;
    for (std::size_t i = 0; i < e.patterns.size(); ++i) {
      add(&e, nullptr, e.patterns[i], planned != nullptr ? &planned->patterns[i] : nullptr);
    }
  }
  // The catalogue of a snapshot, read in place: its patterns are read from their records
  // and its entries decoded only when matched.
  if (const Catalogue* c = kb.catalogue()) m->catalogue_size_ = c->size();
  const std::size_t own = m->refs_.size();
  m->own_programs_ = OnceSlots<Program>(m->refs_.size());
  m->catalogue_programs_ = OnceSlots<Program>(m->catalogue_size_);
  m->dead_.assign(m->total_patterns(), false);
  for (std::size_t i = 0; i < m->catalogue_size_; ++i) {
    if (kb.catalogue()->disabled(i)) m->dead_[own + i] = true;
  }
  // The snapshot's image of these tables, when it was made for exactly these patterns (its
  // list of ungated patterns is filtered by dead() below, its index used only when none is).
  m->fingerprint_ = m->fingerprint(own_keys);
  std::optional<Image> image = read_image(kb.matcher_image());
  if (image && image->fingerprint != m->fingerprint_) image.reset();

  // The first stage: the gate, then every pattern the gate does not cover. Ids below
  // kGateIds are the gate's; a pattern's id is kGateIds + its index.
  std::vector<PatternSet::Spec> specs;
  std::vector<std::size_t> owner;  // spec -> pattern index (npos for gate parts)
  std::vector<std::size_t> cut;    // specs that are a pattern's regex cut to a suffix
  for (const auto& lit : kb.gate().literals) {
    specs.push_back({literal_regex(lit), true});
    owner.push_back(std::string::npos);
  }
  if (kb.gate().error_markers) {
    for (auto& re : error_level_marker_regexes()) {
      specs.push_back({re, false});
      owner.push_back(std::string::npos);
    }
  }
  for (const auto& lit : kb.gate().probes) {
    specs.push_back({literal_regex(lit), true});
    owner.push_back(std::string::npos);
  }
  // The patterns outside the gate: the image names the catalogue's, so that start-up does
  // not read every catalogue record.
  std::vector<std::size_t> ungated_ids;
  const std::size_t scan_to = image ? own : m->total_patterns();
  for (std::size_t i = 0; i < scan_to; ++i) {
    if (!m->dead(i) && !m->gated(i)) ungated_ids.push_back(i);
  }
  if (image) {
    for (uint32_t c : image->ungated_catalogue) {
      if (c < m->catalogue_size_ && !m->dead(own + c) && !m->gated(own + c)) ungated_ids.push_back(own + c);
    }
  }
  m->ungated_patterns_ = ungated_ids;
  for (std::size_t i : ungated_ids) {
    const PatternView r = m->view(i);
    ++m->ungated_;
    // The compiler's probe literals cover most of these: nothing more to look for, unless
    // the index cannot offer the pattern (then the first stage must say which it found).
    if (!kb.gate().probes.empty()) {
      const bool indexed = i >= own ? kb.catalogue()->pattern(i - own).key_count > 0 : !own_keys[i].empty();
      if (indexed && probes_cover(kb.gate().probes, required_literals(r.regex))) continue;
    }
    // A pattern whose every match holds one of a few long literals is looked for by them:
    // a literal costs the first stage far less than a regex (docs/scanning.md), and the
    // second stage confirms the pattern on the lines that hold one.
    RequiredLiterals storage;
    if (const auto* lits = stage1_literals(r.regex, storage)) {
      for (const std::string& l : *lits) {
        specs.push_back({literal_regex(l), true});
        owner.push_back(i);
      }
      continue;
    }
    // Its own regex, cut to what its rarest literal needs when that is shorter
    // (regex_suffix.hpp): the same lines are marked, and a few more.
    if (auto suffix = first_stage_suffix(r.regex)) {
      cut.push_back(specs.size());
      specs.push_back({std::move(*suffix), r.ignore_case});
    } else {
      specs.push_back({std::string(r.regex), r.ignore_case});
    }
    owner.push_back(i);
  }
  std::vector<bool> suffix_spec(specs.size(), false);
  for (std::size_t k : cut) suffix_spec[k] = true;
  // A pattern the engine rejects (e.g. a look-ahead) cannot run in the first stage: it is
  // reported and left out.
  for (;;) {
    PatternSet::CompileError error;
    if (auto set = PatternSet::compile(specs, error, cache_dir)) {
      m->gate_ = std::move(*set);
      m->stage1_owner_ = std::move(owner);
      break;
    }
    if (error.index < specs.size() && suffix_spec[error.index]) {
      // A cut the engine rejects: the whole regex instead.
      const PatternView whole = m->view(owner[error.index]);
      specs[error.index] = {std::string(whole.regex), whole.ignore_case};
      suffix_spec[error.index] = false;
      continue;
    }
    if (error.index >= specs.size() || owner[error.index] == std::string::npos) {
      problems.push_back({"", 0, "pattern engine failed: " + error.message, true});
      break;
    }
    const std::size_t bad_owner = owner[error.index];
    const Entry* owner_entry = m->entry_of(bad_owner);
    const Extractor* owner_extractor = bad_owner < own ? m->refs_[bad_owner].extractor : nullptr;
    const SourceRef& where = owner_entry != nullptr ? owner_entry->source : owner_extractor->source;
    const std::string& id = owner_entry != nullptr ? owner_entry->id : owner_extractor->id;
    problems.push_back({where.file, where.line,
                        "'" + id + "': no gate literal covers /" + std::string(m->view(bad_owner).regex) +
                            "/ and the first-stage engine rejects it: " + error.message,
                        true});
    m->dead_[bad_owner] = true;
    for (std::size_t k = specs.size(); k-- > 0;) {
      if (owner[k] != bad_owner) continue;
      specs.erase(specs.begin() + static_cast<std::ptrdiff_t>(k));
      owner.erase(owner.begin() + static_cast<std::ptrdiff_t>(k));
      suffix_spec.erase(suffix_spec.begin() + static_cast<std::ptrdiff_t>(k));
    }
    --m->ungated_;
  }

  // The second stage: every pattern in the index. A pattern without keys that runs in the
  // first stage anyway is a candidate exactly on the lines where the first stage found it.
  // The image's index holds every pattern, so it serves only when none was left out above.
  if (image && std::find(m->dead_.begin(), m->dead_.end(), true) == m->dead_.end() &&
      m->index_.read_image(image->index, m->total_patterns())) {
    for (std::size_t i : image->unindexed_ungated) {
      if (i < m->total_patterns()) m->unindexed_ungated_.push_back(i);
    }
    m->index_from_image_ = true;
    return m;
  }
  std::size_t keys_in_all = 0;
  for (const auto& k : own_keys) keys_in_all += k.size();
  if (const Catalogue* c = kb.catalogue()) keys_in_all += c->size() * Catalogue::kMaxKeys;
  m->index_.reserve(keys_in_all);
  for (std::size_t i = 0; i < m->total_patterns(); ++i) {
    if (m->dead(i)) continue;  // it could never be found: left out entirely
    Catalogue::Pattern from_catalogue;
    if (i >= own) from_catalogue = kb.catalogue()->pattern(i - own);
    const auto keys = i >= own ? std::span<const std::string_view>(from_catalogue.keys.data(), from_catalogue.key_count)
                               : std::span<const std::string_view>(own_keys[i]);
    if (keys.empty() && !m->gated(i)) {
      m->unindexed_ungated_.push_back(i);
      continue;
    }
    m->index_.add(i, keys, m->level(i) == LevelRequirement::error);
  }
  m->index_.finish();

  return m;
}

KbMatcher::~KbMatcher() = default;

std::size_t KbMatcher::pattern_count() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < total_patterns(); ++i) if (!dead(i)) ++n;
  return n;
}

KbMatcher::PatternView KbMatcher::view(std::size_t id) const {
  if (!is_catalogue(id)) return {refs_[id].regex, refs_[id].ignore_case};
  const Catalogue::Pattern p = kb_.catalogue()->pattern(id - refs_.size());
  return {p.regex, p.ignore_case};
}

bool KbMatcher::gated(std::size_t id) const {
  return is_catalogue(id) ? kb_.catalogue()->gated(id - refs_.size()) : refs_[id].gated;
}

LevelRequirement KbMatcher::level(std::size_t id) const {
  return is_catalogue(id) ? kb_.catalogue()->level(id - refs_.size()) : refs_[id].level;
}

const KbMatcher::Program* KbMatcher::program_of(std::size_t id) const {
  const auto compile = [&]() -> std::unique_ptr<Program> {
    const PatternView p = view(id);
    std::string err;
    auto compiled = Regex::compile(p.regex, p.ignore_case, err, Regex::Jit::off);
    if (!compiled) return nullptr;
    return std::make_unique<Program>(std::move(*compiled), one_pass(id) ? GramFilter() : GramFilter(required_literals(p.regex)));
  };
  return is_catalogue(id) ? catalogue_programs_.get(id - refs_.size(), compile) : own_programs_.get(id, compile);
}

const Regex& KbMatcher::regex_for_use(std::size_t id, const Program& program) const {
  if (const Regex* hot = program.hot.load(std::memory_order_acquire)) return *hot;
  if (one_pass(id)) return program.regex;
  if (program.uses.fetch_add(1, std::memory_order_relaxed) + 1 < kJitAfter) return program.regex;
  std::call_once(program.jit_once, [&] {
    const PatternView p = view(id);
    std::string err;
    if (auto compiled = Regex::compile(p.regex, p.ignore_case, err, Regex::Jit::on)) {
      program.jit = std::make_unique<Regex>(std::move(*compiled));
      program.hot.store(program.jit.get(), std::memory_order_release);
    }
  });
  const Regex* hot = program.hot.load(std::memory_order_acquire);
  return hot != nullptr ? *hot : program.regex;
}

void KbMatcher::forget_made() const {
  catalogue_programs_.forget_all();  // the hand-written patterns' few thousand stay: most lines meet them
  if (const Catalogue* c = kb_.catalogue()) {
    c->forget_decoded();
    c->release_pages();  // the snapshot bytes the decoded entries were read from
  }
  return_free_heap();  // glibc would keep what was freed, resident
}

const Entry* KbMatcher::entry_of(std::size_t id) const {
  if (!is_catalogue(id)) return refs_[id].entry;
  return &kb_.catalogue()->entry(id - refs_.size());
}

void KbMatcher::confirm(std::size_t pattern, std::string_view line, const LineInfo& info,
                        std::vector<LineHit>& out, const LineGrams* grams) const {
  if (pattern >= total_patterns()) return;
  if (level(pattern) == LevelRequirement::error && info.level != LineLevel::error) return;
  const Program* program = program_of(pattern);
  if (program == nullptr) return;
  if (grams != nullptr && !program->filter.may_match(*grams)) return;
  const Extractor* extractor = is_catalogue(pattern) ? nullptr : refs_[pattern].extractor;
  const Regex& regex = regex_for_use(pattern, *program);
  if (extractor == nullptr) confirm_entry(pattern, regex, line, out);
  else confirm_extractor(*extractor, regex, line, info.module, out);
}

bool KbMatcher::may_match(std::size_t pattern, const LineGrams& grams) const {
  const Program* program = pattern < total_patterns() ? program_of(pattern) : nullptr;
  return program != nullptr && program->filter.may_match(grams);
}

void KbMatcher::confirm_entry(std::size_t pattern, const Regex& re, std::string_view line, std::vector<LineHit>& out) const {
  auto m = re.search(line);
  if (!m) return;
  // A catalogue entry is decoded here, the first time it matches: most candidates do not.
  const Entry& entry = *entry_of(pattern);
  LineHit hit;
  hit.entry = &entry;
  hit.specificity = entry.origin == Origin::source ? Specificity::source_message : Specificity::message;
  hit.begin = m->begin;
  hit.end = m->end;
  for (auto& [name, value] : m->named) {
    if (name == "code") hit.code = value;
    else hit.captures.emplace_back(name, value);
  }
  if (hit.code.empty() && !entry.codes.empty()) hit.code = entry.codes.front();
  out.push_back(std::move(hit));
}

void KbMatcher::confirm_extractor(const Extractor& extractor, const Regex& re, std::string_view line,
                                  std::string_view component, std::vector<LineHit>& out) const {
  std::size_t pos = 0;
  for (int n = 0; n < kMaxCodesPerLine && pos <= line.size(); ++n) {
    auto m = re.search(line, pos);
    if (!m) return;
    pos = m->end > m->begin ? m->end : m->begin + 1;
    std::string ns = extractor.code_namespace;
    std::string code(m->group("code"));
    if (!decode(extractor.decode, ns, code)) continue;
    std::string_view comp = m->group("component");
    const std::string comp_upper = upper(comp.empty() ? component : comp);
    auto res = kb_.resolve_code(ns, code, comp_upper);
    if (!res) continue;
    LineHit hit;
    hit.entry = res->entry;
    // A symbolic name stands for the entry's own code (ACL_ERROR_RT_MEMORY_ALLOCATION -> 207001).
    hit.code = ns == "name" && !res->entry->codes.empty() ? res->entry->codes.front() : normalize_code(code);
    hit.specificity = res->specificity;
    hit.begin = m->begin;
    hit.end = m->end;
    out.push_back(std::move(hit));
  }
}

std::vector<LineHit> KbMatcher::match_line(std::string_view line) const {
  std::vector<LineIndex::Hit> candidates;
  std::vector<uint32_t> seen;
  const LineInfo info = parse_line_info(line);
  index_.candidates(line, candidates, seen, info.level == LineLevel::error);
  for (std::size_t id : unindexed_ungated_) candidates.push_back({id, 0});
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) { return a.pattern < b.pattern; });
  std::vector<LineHit> hits;
  for (const auto& c : candidates) confirm(c.pattern, line, info, hits);
  dedupe_hits(hits);
  return hits;
}

std::vector<LineHit> KbMatcher::match_line_reference(std::string_view line) const {
  std::vector<LineHit> hits;
  const LineInfo info = parse_line_info(line);
  for (std::size_t id = 0; id < total_patterns(); ++id) {
    if (!dead(id)) confirm(id, line, info, hits);
  }
  dedupe_hits(hits);
  return hits;
}

namespace {
// Vectorscan checks the whole database (a CRC of it) each time a scratch is made: the
// self-test makes one for all its lines, not one per line (that was 16% of start-up).
bool any_match(const PatternSet& set, std::string_view line, PatternSet::Scratch& scratch) {
  bool hit = false;
  std::string error;
  set.scan(line, scratch, [&](std::size_t, std::size_t) { hit = true; }, error);
  return hit;
}
}  // namespace

bool KbMatcher::passes_gate(std::string_view line) const {
  auto scratch = gate_.make_scratch();
  return any_match(gate_, line, scratch);
}

namespace {
// Each line between filler lines of varying length, in buffers of about 4 MiB (large, as a
// scan's blocks are): a line must pass the gate inside its buffer and alone. Lines are
// tested buffer by buffer as they come, so the thorough test never holds every sample.
class GateBufferTest {
 public:
  GateBufferTest(const PatternSet& gate, std::string* first_miss)
      : gate_(gate), scratch_(gate.make_scratch()), first_miss_(first_miss) {}

  void add(std::string_view line) {
    rng_ = rng_ * 1103515245u + 12345u;
    buffer_.append("[INFO] GE(1,python):2024-01-01-00:00:00.000.000 filler ");
    buffer_.append((rng_ >> 16) % 97, 'f');
    buffer_ += '\n';
    spans_.emplace_back(buffer_.size(), buffer_.size() + line.size());
    buffer_ += line;
    buffer_ += '\n';
    if (buffer_.size() >= kBufferBytes) test_buffer();
  }

  // The number of lines that missed.
  std::size_t finish() {
    test_buffer();
    return misses_;
  }

 private:
  static constexpr std::size_t kBufferBytes = std::size_t{4} << 20;

  void test_buffer() {
    std::string error;
    std::vector<std::size_t> ends;
    gate_.scan(buffer_, scratch_, [&](std::size_t, std::size_t end) { ends.push_back(end); }, error);
    std::sort(ends.begin(), ends.end());
    for (const auto& [begin, end] : spans_) {
      const auto it = std::lower_bound(ends.begin(), ends.end(), begin + 1);
      const bool in_buffer = it != ends.end() && *it <= end;
      const std::string_view line = std::string_view(buffer_).substr(begin, end - begin);
      if (!in_buffer || !any_match(gate_, line, scratch_)) {
        if (misses_ == 0 && first_miss_ != nullptr) *first_miss_ = std::string(line);
        ++misses_;
      }
    }
    buffer_.clear();
    spans_.clear();
  }

  const PatternSet& gate_;
  PatternSet::Scratch scratch_;
  std::string* first_miss_;
  std::string buffer_;
  std::vector<std::pair<std::size_t, std::size_t>> spans_;  // [begin, end) of each line
  uint32_t rng_ = 12345;
  std::size_t misses_ = 0;
};
}  // namespace

std::size_t KbMatcher::engine_self_test(std::string* first_miss, bool thorough, bool only_user_defined) const {
  GateBufferTest test(gate_, first_miss);
  if (thorough) {
    // Only samples the second stage recognises must pass (a sample of a pattern that failed
    // to compile is reported elsewhere). Recognising every sample decodes most of the
    // catalogue and compiles most patterns: what was made is let go every few hundred
    // entries (the thorough test is `kb lint`'s, on one thread), or it would all stay
    // (hundreds of MiB of programs).
    const auto add_recognised = [&](const std::vector<std::string>& samples) {
      for (const auto& l : samples) {
        if (!match_line(l).empty()) test.add(l);
      }
    };
    for (const auto& x : kb_.extractors()) {
      if (!only_user_defined || x.user_defined) add_recognised(x.samples_match);
    }
    std::size_t made = 0;
    kb_.for_each_entry([&](const Entry& e) {
      if (!only_user_defined || e.user_defined) add_recognised(e.samples_match);
      if (++made % kEntriesBetweenForgets == 0) forget_made();  // `e` is not used after
    });
    forget_made();
    return test.finish();
  }
  std::vector<std::string> literals = kb_.gate().literals;
  literals.insert(literals.end(), kb_.gate().probes.begin(), kb_.gate().probes.end());
  for (const auto& lit : literals) {
    test.add("x " + lit + " y");
    std::string up = lit;
    for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    test.add("x " + up + " y");
  }
  if (kb_.gate().error_markers) {
    for (const char* l : {"[ERROR] RUNTIME(1,python):x", "ERROR 03-19 x", "[rank0]:[E0319 06:28:14.1 x.cpp:1] x",
                          "EZ9999[PID: 1] 2025-03-02-10:55:12.313.101 (EZ9999): x"}) {
      test.add(l);
    }
  }
  for (std::size_t id : ungated_patterns_) {
    if (dead(id)) continue;
    const Entry* e = entry_of(id);
    for (const auto& l : e != nullptr ? e->samples_match : refs_[id].extractor->samples_match) test.add(l);
  }
  return test.finish();
}

void dedupe_hits(std::vector<LineHit>& hits) {
  std::stable_sort(hits.begin(), hits.end(), [](const LineHit& a, const LineHit& b) {
    return a.specificity > b.specificity;
  });
  std::vector<LineHit> kept;
  for (auto& h : hits) {
    bool seen = std::any_of(kept.begin(), kept.end(), [&](const LineHit& k) {
      return k.entry == h.entry && k.code == h.code;
    });
    if (!seen) kept.push_back(std::move(h));
  }
  // The catalogue never overrides hand-written knowledge of the same line, and one line is
  // one message: the catalogue hit with the most literal text stands for it.
  // A generic wrapper (a bare Python exception, "Inner Error") says nothing of the message.
  const bool claimed = std::any_of(kept.begin(), kept.end(), [](const LineHit& h) {
    return h.entry->origin == Origin::curated && h.specificity >= Specificity::exact_code && h.entry->role != Role::wrapper;
  });
  const LineHit* best_source = nullptr;
  std::size_t best_weight = 0;
  for (const LineHit& h : kept) {
    if (h.specificity != Specificity::source_message) continue;
    const std::size_t w = literal_weight(*h.entry);
    if (best_source == nullptr || w > best_weight) {
      best_source = &h;
      best_weight = w;
    }
  }
  if (best_source != nullptr) {
    const Entry* keep = claimed ? nullptr : best_source->entry;
    std::erase_if(kept, [&](const LineHit& h) { return h.specificity == Specificity::source_message && h.entry != keep; });
  }
  hits = std::move(kept);
}

std::size_t literal_weight(const Entry& e) {
  if (e.format.empty()) return e.patterns.empty() ? 0 : e.patterns.front().regex.size();
  std::string error;
  // Read in the format's own style: a Python "{}" is a placeholder, not two literal characters.
  const auto p = format_to_pattern(e.format, e.python_format ? FormatStyle::python : FormatStyle::printf, error);
  // Blanks around a placeholder say nothing of the message; without them the weight is the one
  // the catalogue scripts compare (catalog_lib.literal_runs strips each run).
  std::size_t n = 0;
  if (p) {
    for (std::string_view l : p->literals) {
      const auto first = l.find_first_not_of(" \t");
      if (first != std::string_view::npos) n += l.find_last_not_of(" \t") - first + 1;
    }
  }
  return n;
}

}  // namespace npu_doctor
