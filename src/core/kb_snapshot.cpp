// A compact binary form of a loaded knowledge base. The build compiles kb/*.yaml into it
// once (tools/kbc), so the binary starts without parsing YAML; it is only ever read by
// the same build that wrote it, but every read is bounds-checked anyway.
#include "kb_snapshot.hpp"

#include <cstring>

namespace npu_doctor {
namespace {

constexpr std::string_view kMagic = "NPUDKB05";

class Writer {
 public:
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xFF);
  }
  void i64(int64_t v) {
    const auto u = static_cast<uint64_t>(v);
    for (int i = 0; i < 8; ++i) out_ += static_cast<char>((u >> (8 * i)) & 0xFF);
  }
  void str(std::string_view s) {
    u32(static_cast<uint32_t>(s.size()));
    out_.append(s);
  }
  void strs(const std::vector<std::string>& v) {
    u32(static_cast<uint32_t>(v.size()));
    for (const auto& s : v) str(s);
  }
  void text(const LocalizedText& t) {
    str(t.en);
    str(t.zh);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  uint32_t u32() {
    if (!need(4)) return 0;
    uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    pos_ += 4;
    return v;
  }
  int64_t i64() {
    if (!need(8)) return 0;
    uint64_t v = 0;
    for (std::size_t i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return static_cast<int64_t>(v);
  }
  std::string str() {
    const uint32_t n = u32();
    if (!need(n)) return {};
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> v(count());
    for (auto& s : v) s = str();
    return v;
  }
  LocalizedText text() {
    LocalizedText t;
    t.en = str();
    t.zh = str();
    return t;
  }
  // A element count, refused when it cannot fit in what is left (a corrupt snapshot).
  std::size_t count() {
    const uint32_t n = u32();
    if (n > in_.size() - pos_) {
      ok_ = false;
      return 0;
    }
    return n;
  }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  bool need(std::size_t n) {
    if (!ok_ || n > in_.size() - pos_) {
      ok_ = false;
      return false;
    }
    return true;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

void write_pattern(Writer& w, const MatchPattern& p) {
  w.str(p.regex);
  w.u32((p.ignore_case ? 1u : 0u) | (p.gated ? 2u : 0u) | (p.planned ? 4u : 0u));
  w.strs(p.keys);
}

MatchPattern read_pattern(Reader& r) {
  MatchPattern p;
  p.regex = r.str();
  const uint32_t flags = r.u32();
  p.ignore_case = (flags & 1) != 0;
  p.gated = (flags & 2) != 0;
  p.planned = (flags & 4) != 0;
  p.keys = r.strs();
  return p;
}

}  // namespace

std::string write_kb_snapshot(const KnowledgeBase& kb) {
  Writer w;
  w.str(kMagic);
  w.str(kb.version());
  w.u32(static_cast<uint32_t>(kb.extractors().size()));
  for (const auto& x : kb.extractors()) {
    w.str(x.id);
    w.str(x.code_namespace);
    write_pattern(w, x.pattern);
    w.str(x.decode);
    w.strs(x.samples_match);
    w.strs(x.samples_no_match);
    w.str(x.source.file);
    w.u32(static_cast<uint32_t>(x.source.line));
  }
  w.u32(static_cast<uint32_t>(kb.entries().size()));
  for (const auto& e : kb.entries()) {
    w.str(e.id);
    w.str(e.family);
    w.str(e.code_namespace);
    w.strs(e.codes);
    w.u32(static_cast<uint32_t>(e.ranges.size()));
    for (const auto& r : e.ranges) {
      w.i64(r.lo);
      w.i64(r.hi);
    }
    w.strs(e.prefixes);
    w.strs(e.components);
    w.str(e.name);
    w.u32(static_cast<uint32_t>(e.category));
    w.str(e.layer);
    w.u32(static_cast<uint32_t>(e.severity));
    w.u32(static_cast<uint32_t>(e.role));
    w.u32(static_cast<uint32_t>(e.symptom_of.size()));
    for (auto c : e.symptom_of) w.u32(static_cast<uint32_t>(c));
    w.strs(e.explains);
    w.i64(e.priority);
    w.u32(e.any_level ? 1 : 0);
    w.u32(e.matches_logs ? 1 : 0);
    w.u32(static_cast<uint32_t>(e.patterns.size()));
    for (const auto& p : e.patterns) write_pattern(w, p);
    w.text(e.title);
    w.text(e.cause);
    w.u32(static_cast<uint32_t>(e.remedies.size()));
    for (const auto& r : e.remedies) w.text(r);
    w.strs(e.references);
    w.strs(e.samples_match);
    w.strs(e.samples_no_match);
    w.u32(e.seed ? 1 : 0);
    if (e.seed) {
      w.str(e.seed->name);
      w.str(e.seed->range);
      w.str(e.seed->examples);
      w.str(e.seed->cause);
      w.str(e.seed->remedy);
    }
    w.str(e.source.file);
    w.u32(static_cast<uint32_t>(e.source.line));
    w.u32(static_cast<uint32_t>(e.origin));
    w.u32(static_cast<uint32_t>(e.level));
    w.str(e.format);
  }
  w.u32(static_cast<uint32_t>(kb.sources().size()));
  for (const auto& s : kb.sources()) {
    w.str(s.family);
    w.str(s.file);
    w.str(s.component);
    w.str(s.repo);
    w.str(s.commit);
    w.i64(s.formats_found);
    w.u32(static_cast<uint32_t>(s.skipped.size()));
    for (const auto& [reason, n] : s.skipped) {
      w.str(reason);
      w.i64(n);
    }
  }
  w.strs(kb.gate().literals);
  w.u32(kb.gate().error_markers ? 1 : 0);
  return w.take();
}

std::optional<KbSnapshotSummary> read_kb_snapshot_summary(std::string_view data) {
  // The extractors (a few dozen) come before the entry count: read past them.
  Reader r(data);
  if (r.str() != kMagic) return std::nullopt;
  KbSnapshotSummary s;
  s.version = r.str();
  for (std::size_t n = r.count(), i = 0; i < n && r.ok(); ++i) {
    r.str();  // id
    r.str();  // namespace
    read_pattern(r);
    r.str();   // decode
    r.strs();  // samples
    r.strs();
    r.str();  // source file and line
    r.u32();
  }
  s.entries = r.count();
  if (!r.ok()) return std::nullopt;
  return s;
}

std::optional<KnowledgeBase> read_kb_snapshot(std::string_view data) {
  Reader r(data);
  if (r.str() != kMagic) return std::nullopt;
  std::string version = r.str();
  std::vector<Extractor> extractors(r.count());
  for (auto& x : extractors) {
    x.id = r.str();
    x.code_namespace = r.str();
    x.pattern = read_pattern(r);
    x.decode = r.str();
    x.samples_match = r.strs();
    x.samples_no_match = r.strs();
    x.source.file = r.str();
    x.source.line = static_cast<int>(r.u32());
  }
  std::vector<Entry> entries(r.count());
  constexpr uint32_t kCategories = 12, kSeverities = 4, kRoles = 4;
  for (auto& e : entries) {
    e.id = r.str();
    e.family = r.str();
    e.code_namespace = r.str();
    e.codes = r.strs();
    e.ranges.resize(r.count());
    for (auto& rg : e.ranges) {
      rg.lo = r.i64();
      rg.hi = r.i64();
    }
    e.prefixes = r.strs();
    e.components = r.strs();
    e.name = r.str();
    e.category = static_cast<Category>(r.u32() % kCategories);
    e.layer = r.str();
    e.severity = static_cast<Severity>(r.u32() % kSeverities);
    e.role = static_cast<Role>(r.u32() % kRoles);
    e.symptom_of.resize(r.count());
    for (auto& c : e.symptom_of) c = static_cast<Category>(r.u32() % kCategories);
    e.explains = r.strs();
    e.priority = static_cast<int>(r.i64());
    e.any_level = r.u32() != 0;
    e.matches_logs = r.u32() != 0;
    e.patterns.resize(r.count());
    for (auto& p : e.patterns) p = read_pattern(r);
    e.title = r.text();
    e.cause = r.text();
    e.remedies.resize(r.count());
    for (auto& t : e.remedies) t = r.text();
    e.references = r.strs();
    e.samples_match = r.strs();
    e.samples_no_match = r.strs();
    if (r.u32() != 0) {
      SeedRow s;
      s.name = r.str();
      s.range = r.str();
      s.examples = r.str();
      s.cause = r.str();
      s.remedy = r.str();
      e.seed = s;
    }
    e.source.file = r.str();
    e.source.line = static_cast<int>(r.u32());
    e.origin = r.u32() == 1 ? Origin::source : Origin::curated;
    e.level = r.u32() == 1 ? LevelRequirement::error : LevelRequirement::any;
    e.format = r.str();
  }
  std::vector<KbSource> sources(r.count());
  for (auto& s : sources) {
    s.family = r.str();
    s.file = r.str();
    s.component = r.str();
    s.repo = r.str();
    s.commit = r.str();
    s.formats_found = r.i64();
    s.skipped.resize(r.count());
    for (auto& [reason, n] : s.skipped) {
      reason = r.str();
      n = r.i64();
    }
  }
  ScanGate gate;
  gate.literals = r.strs();
  gate.error_markers = r.u32() != 0;
  if (!r.ok() || !r.at_end()) return std::nullopt;
  KnowledgeBase kb(std::move(entries), std::move(extractors), std::move(version), std::move(sources));
  kb.set_gate(std::move(gate));
  return kb;
}

}  // namespace npu_doctor
