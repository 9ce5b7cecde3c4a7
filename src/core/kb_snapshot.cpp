// A compact binary form of a loaded knowledge base. The build compiles kb/*.yaml into it
// once (npu-doctor-kbc), so the binary starts without parsing YAML; it is only ever read by
// the same build that wrote it, but every read is bounds-checked anyway. The hand-written
// entries are decoded at start-up; the message catalogue is read in place (catalogue.hpp).
#include "kb_snapshot.hpp"

#include <algorithm>

#include "npu_doctor/catalogue.hpp"
#include "snapshot_io.hpp"

namespace npu_doctor {
namespace snapshot_io {

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

void write_entry(Writer& w, const Entry& e) {
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
  w.strs(e.recovers);
  w.i64(e.priority);
  // Flags in one word (bit 0 any_level, bit 1 passes_run, bit 2 fails_run): snapshots written
  // before a bit existed read the same.
  w.u32((e.any_level ? 1u : 0u) | (e.passes_run ? 2u : 0u) | (e.fails_run ? 4u : 0u));
  w.u32(e.matches_logs ? 1 : 0);
  w.u32(static_cast<uint32_t>(e.patterns.size()));
  for (const auto& p : e.patterns) write_pattern(w, p);
  Writer texts;
  texts.text(e.title);
  texts.text(e.cause);
  texts.u32(static_cast<uint32_t>(e.remedies.size()));
  for (const auto& r : e.remedies) texts.text(r);
  texts.strs(e.references);
  texts.strs(e.samples_match);
  texts.strs(e.samples_no_match);
  texts.u32(e.seed ? 1 : 0);
  if (e.seed) {
    texts.str(e.seed->name);
    texts.str(e.seed->range);
    texts.str(e.seed->examples);
    texts.str(e.seed->cause);
    texts.str(e.seed->remedy);
  }
  w.str(texts.take());
  w.str(e.source.file);
  w.u32(static_cast<uint32_t>(e.source.line));
  w.u32(static_cast<uint32_t>(e.origin));
  w.u32(static_cast<uint32_t>(e.level));
  w.str(e.format);
  w.u32(e.python_format ? 1 : 0);
  w.u32(static_cast<uint32_t>(e.context.size()));
  for (const auto& c : e.context) {
    write_pattern(w, c.near);
    w.str(c.means);
  }
  w.u32(static_cast<uint32_t>(e.context_signal.size()));
  for (const auto& p : e.context_signal) write_pattern(w, p);
}

bool read_entry_texts(std::string_view block, Entry& e) {
  Reader r(block);
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
  return r.ok() && r.at_end();
}

Entry read_entry(Reader& r, std::string_view* texts) {
  constexpr uint32_t kCategories = 12, kSeverities = 4, kRoles = 4;
  Entry e;
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
  e.recovers = r.strs();
  e.priority = static_cast<int>(r.i64());
  const uint32_t flags = r.u32();
  e.any_level = (flags & 1u) != 0;
  e.passes_run = (flags & 2u) != 0;
  e.fails_run = (flags & 4u) != 0;
  e.matches_logs = r.u32() != 0;
  e.patterns.resize(r.count());
  for (auto& p : e.patterns) p = read_pattern(r);
  const std::string_view text_block = r.view();
  if (texts != nullptr) *texts = text_block;
  else if (!read_entry_texts(text_block, e)) r.fail();
  e.source.file = r.str();
  e.source.line = static_cast<int>(r.u32());
  e.origin = r.u32() == 1 ? Origin::source : Origin::curated;
  e.level = r.u32() == 1 ? LevelRequirement::error : LevelRequirement::any;
  e.format = r.str();
  e.python_format = r.u32() != 0;
  e.context.resize(r.count());
  for (auto& c : e.context) {
    c.near = read_pattern(r);
    c.means = r.str();
  }
  e.context_signal.resize(r.count());
  for (auto& p : e.context_signal) p = read_pattern(r);
  return e;
}

}  // namespace snapshot_io

namespace {

using snapshot_io::Reader;
using snapshot_io::Writer;

constexpr std::string_view kMagic = "NPUDKB12";
constexpr std::string_view kTrailer = "NPUDKB07-END";  // a cut snapshot lacks it

void write_extractor(Writer& w, const Extractor& x) {
  w.str(x.id);
  w.str(x.code_namespace);
  snapshot_io::write_pattern(w, x.pattern);
  w.str(x.decode);
  w.strs(x.samples_match);
  w.strs(x.samples_no_match);
  w.str(x.source.file);
  w.u32(static_cast<uint32_t>(x.source.line));
}

Extractor read_extractor(Reader& r) {
  Extractor x;
  x.id = r.str();
  x.code_namespace = r.str();
  x.pattern = snapshot_io::read_pattern(r);
  x.decode = r.str();
  x.samples_match = r.strs();
  x.samples_no_match = r.strs();
  x.source.file = r.str();
  x.source.line = static_cast<int>(r.u32());
  return x;
}

}  // namespace

std::string write_kb_snapshot(const KnowledgeBase& kb, std::string_view matcher_image) {
  // The catalogue section: every catalogue entry (of the decoded ones and of a catalogue
  // read from another snapshot) that fits a fixed record, sorted by id.
  std::vector<const Entry*> eager;
  std::vector<const Entry*> catalogue;
  for (const auto& e : kb.entries()) (Catalogue::belongs(e) ? catalogue : eager).push_back(&e);
  if (const Catalogue* c = kb.catalogue()) {
    for (std::size_t i = 0; i < c->size(); ++i) {
      if (!c->disabled(i)) catalogue.push_back(&c->entry(i));
    }
  }
  std::sort(catalogue.begin(), catalogue.end(), [](const Entry* a, const Entry* b) { return a->id < b->id; });
  catalogue.erase(std::unique(catalogue.begin(), catalogue.end(), [](const Entry* a, const Entry* b) { return a->id == b->id; }),
                  catalogue.end());

  Writer w;
  w.str(kMagic);
  w.str(kb.version());
  w.u32(static_cast<uint32_t>(eager.size() + catalogue.size()));
  w.u32(static_cast<uint32_t>(kb.extractors().size()));
  for (const auto& x : kb.extractors()) write_extractor(w, x);
  w.u32(static_cast<uint32_t>(eager.size()));
  for (const Entry* e : eager) snapshot_io::write_entry(w, *e);
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
  w.strs(kb.gate().probes);
  Catalogue::Sections sections;
  Catalogue::write(catalogue, sections);
  w.u32(static_cast<uint32_t>(catalogue.size()));
  w.str(sections.records);
  w.str(sections.ids);
  w.str(sections.regexes);
  w.str(sections.entries);
  w.align_next_str();  // the image's tables are read in place
  w.str(matcher_image);
  w.bytes(kTrailer);
  return w.take();
}

std::optional<KbSnapshotSummary> read_kb_snapshot_summary(std::string_view data) {
  if (!data.ends_with(kTrailer)) return std::nullopt;
  Reader r(data);
  if (r.str() != kMagic) return std::nullopt;
  KbSnapshotSummary s;
  s.version = r.str();
  s.entries = r.u32();
  if (!r.ok()) return std::nullopt;
  return s;
}

std::optional<KnowledgeBase> read_kb_snapshot(std::string_view data, std::shared_ptr<const std::string> owner,
                                              Catalogue::Bytes bytes, EntryTexts texts) {
  if (!data.ends_with(kTrailer)) return std::nullopt;
  data.remove_suffix(kTrailer.size());
  Reader r(data);
  if (r.str() != kMagic) return std::nullopt;
  std::string version = r.str();
  r.u32();  // total entries, for read_kb_snapshot_summary()
  std::vector<Extractor> extractors(r.count());
  for (auto& x : extractors) x = read_extractor(r);
  std::vector<Entry> entries(r.count());
  std::vector<std::string_view> text_blocks(texts == EntryTexts::deferred ? entries.size() : 0);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    entries[i] = snapshot_io::read_entry(r, text_blocks.empty() ? nullptr : &text_blocks[i]);
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
  gate.probes = r.strs();
  const std::size_t count = r.u32();
  Catalogue::SectionViews sections;
  sections.records = r.view();
  sections.ids = r.view();
  sections.regexes = r.view();
  sections.entries = r.view();
  r.skip_alignment();
  const std::string_view matcher_image = r.view();
  if (!r.ok() || !r.at_end()) return std::nullopt;
  std::shared_ptr<Catalogue> catalogue;
  if (count > 0) {
    catalogue = Catalogue::open(sections, count, owner, bytes);
    if (!catalogue) return std::nullopt;
  }
  KnowledgeBase kb(std::move(entries), std::move(extractors), std::move(version), std::move(sources));
  kb.set_gate(std::move(gate));
  kb.set_catalogue(std::move(catalogue));
  kb.set_matcher_image(matcher_image, owner);
  if (!text_blocks.empty()) {
    kb.defer_texts(std::move(text_blocks), owner);
  }
  return kb;
}

std::optional<KnowledgeBase> read_kb_snapshot_copy(std::string data) {
  auto owned = std::make_shared<const std::string>(std::move(data));
  return read_kb_snapshot(*owned, owned);
}

}  // namespace npu_doctor
