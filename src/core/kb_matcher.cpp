#include "kb_matcher.hpp"

#include "npu_doctor/line_info.hpp"

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

}  // namespace

std::unique_ptr<KbMatcher> KbMatcher::build(const KnowledgeBase& kb, std::vector<KbProblem>& problems,
                                            const std::string& cache_dir, const std::vector<MatchPattern>& gates) {
  std::unique_ptr<KbMatcher> m(new KbMatcher(kb));
  auto add = [&](const Entry* e, const Extractor* x, const MatchPattern& p, const SourceRef& where) {
    std::string err;
    auto re = Regex::compile(p.regex, p.ignore_case, err);
    if (!re) {
      problems.push_back({where.file, where.line, "regex does not compile: " + err, true});
      return;
    }
    m->refs_.push_back({e, x, p, std::move(*re)});
  };
  for (const auto& x : kb.extractors()) add(nullptr, &x, x.pattern, x.source);
  for (const auto& e : kb.entries()) {
    for (const auto& p : e.patterns) add(&e, nullptr, p, e.source);
  }
  for (const auto& g : gates) add(nullptr, nullptr, g, SourceRef{"(word fallback gate)", 0});
  // Compile; a pattern the engine rejects (e.g. a look-ahead) is reported and dropped.
  for (;;) {
    std::vector<PatternSet::Spec> specs;
    specs.reserve(m->refs_.size());
    for (const auto& r : m->refs_) specs.push_back({r.pattern.regex, r.pattern.ignore_case});
    PatternSet::CompileError error;
    if (auto set = PatternSet::compile(specs, error, cache_dir)) {
      m->set_ = std::move(*set);
      break;
    }
    if (error.index >= m->refs_.size()) {
      problems.push_back({"", 0, "pattern engine failed: " + error.message, true});
      m->refs_.clear();
      continue;
    }
    const auto& bad = m->refs_[error.index];
    const SourceRef gate{"(word fallback gate)", 0};
    const SourceRef& where = bad.entry != nullptr       ? bad.entry->source
                             : bad.extractor != nullptr ? bad.extractor->source
                                                        : gate;
    const std::string owner = bad.entry != nullptr       ? bad.entry->id
                              : bad.extractor != nullptr ? bad.extractor->id
                                                         : "gate";
    problems.push_back({where.file, where.line,
                        "'" + owner + "': the multi-pattern engine rejects /" + bad.pattern.regex +
                            "/: " + error.message,
                        true});
    m->refs_.erase(m->refs_.begin() + static_cast<std::ptrdiff_t>(error.index));
  }
  return m;
}

void KbMatcher::confirm(std::size_t pattern, std::string_view line, std::string_view component,
                        std::vector<LineHit>& out) const {
  if (pattern >= refs_.size()) return;
  const PatternRef& ref = refs_[pattern];
  if (ref.entry != nullptr) confirm_entry(ref, line, out);
  else if (ref.extractor != nullptr) confirm_extractor(ref, line, component, out);
}

void KbMatcher::confirm_entry(const PatternRef& ref, std::string_view line, std::vector<LineHit>& out) const {
  auto m = ref.regex.search(line);
  if (!m) return;
  LineHit hit;
  hit.entry = ref.entry;
  hit.specificity = Specificity::message;
  hit.begin = m->begin;
  hit.end = m->end;
  for (auto& [name, value] : m->named) {
    if (name == "code") hit.code = value;
    else hit.captures.emplace_back(name, value);
  }
  if (hit.code.empty() && !ref.entry->codes.empty()) hit.code = ref.entry->codes.front();
  out.push_back(std::move(hit));
}

void KbMatcher::confirm_extractor(const PatternRef& ref, std::string_view line, std::string_view component,
                                  std::vector<LineHit>& out) const {
  std::size_t pos = 0;
  for (int n = 0; n < kMaxCodesPerLine && pos <= line.size(); ++n) {
    auto m = ref.regex.search(line, pos);
    if (!m) return;
    pos = m->end > m->begin ? m->end : m->begin + 1;
    std::string ns = ref.extractor->code_namespace;
    std::string code(m->group("code"));
    if (!decode(ref.extractor->decode, ns, code)) continue;
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
  std::vector<std::size_t> candidates;
  auto scratch = set_.make_scratch();
  std::string error;
  set_.scan(line, scratch, [&](std::size_t id, std::size_t) { candidates.push_back(id); }, error);
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::vector<LineHit> hits;
  const std::string component = parse_line_info(line).module;
  for (std::size_t id : candidates) confirm(id, line, component, hits);
  dedupe_hits(hits);
  return hits;
}

std::vector<LineHit> KbMatcher::match_line_reference(std::string_view line) const {
  std::vector<LineHit> hits;
  const std::string component = parse_line_info(line).module;
  for (std::size_t id = 0; id < refs_.size(); ++id) confirm(id, line, component, hits);
  dedupe_hits(hits);
  return hits;
}

std::size_t KbMatcher::engine_self_test(std::string* first_miss) const {
  std::vector<const std::string*> samples;
  for (const auto& x : kb_.extractors()) {
    for (const auto& s : x.samples_match) samples.push_back(&s);
  }
  for (const auto& e : kb_.entries()) {
    for (const auto& s : e.samples_match) samples.push_back(&s);
  }
  // Each sample between filler lines of varying length, all in one buffer.
  std::string buffer;
  std::vector<std::pair<std::size_t, std::size_t>> spans;  // [begin, end) of each sample
  uint32_t rng = 12345;
  for (const std::string* s : samples) {
    rng = rng * 1103515245u + 12345u;
    buffer.append("[INFO] GE(1,python):2024-01-01-00:00:00.000.000 filler ");
    buffer.append((rng >> 16) % 97, 'f');
    buffer += '\n';
    spans.emplace_back(buffer.size(), buffer.size() + s->size());
    buffer += *s;
    buffer += '\n';
  }
  auto scratch = set_.make_scratch();
  std::string error;
  std::vector<std::pair<std::size_t, std::size_t>> in_buffer;  // (end, pattern)
  set_.scan(buffer, scratch, [&](std::size_t id, std::size_t end) { in_buffer.emplace_back(end, id); }, error);
  std::sort(in_buffer.begin(), in_buffer.end());
  std::size_t misses = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::vector<std::size_t> alone;
    set_.scan(*samples[i], scratch, [&](std::size_t id, std::size_t) { alone.push_back(id); }, error);
    for (std::size_t id : alone) {
      const bool found = std::any_of(std::lower_bound(in_buffer.begin(), in_buffer.end(), std::pair(spans[i].first, std::size_t{0})),
                                     std::upper_bound(in_buffer.begin(), in_buffer.end(), std::pair(spans[i].second, refs_.size())),
                                     [&](const auto& m) { return m.second == id; });
      if (!found) {
        if (misses == 0 && first_miss != nullptr) *first_miss = *samples[i];
        ++misses;
        break;
      }
    }
  }
  return misses;
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
  hits = std::move(kept);
}

}  // namespace npu_doctor
