#include "npu_doctor/catalogue.hpp"

#include <algorithm>

#include "free_memory.hpp"
#include "snapshot_io.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace {

// Record layout (little-endian, kRecordSize bytes):
//   0 u32 entry offset in the blob    4 u32 entry size
//   8 u32 id offset                  12 u16 id length
//  14 u32 regex offset               18 u16 regex length
//  20 u8  flags (1 ignore case, 2 gated, 4 error level only)
//  21 u8  key count                  22 u8[8] key lengths     30 char[8][4] keys
constexpr std::size_t kEntryOffset = 0, kEntrySize = 4, kIdOffset = 8, kIdLength = 12, kRegexOffset = 14,
                      kRegexLength = 18, kFlags = 20, kKeyCount = 21, kKeyLengths = 22, kKeys = 30;
constexpr unsigned char kIgnoreCaseFlag = 1, kGatedFlag = 2, kErrorLevelFlag = 4;

uint32_t le32(std::string_view s, std::size_t at) {
  uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(s[at + i])) << (8 * i);
  return v;
}
uint16_t le16(std::string_view s, std::size_t at) {
  return static_cast<uint16_t>(static_cast<unsigned char>(s[at]) | (static_cast<unsigned char>(s[at + 1]) << 8));
}
void put32(std::string& s, std::size_t at, uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) s[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
void put16(std::string& s, std::size_t at, uint16_t v) {
  s[at] = static_cast<char>(v & 0xFF);
  s[at + 1] = static_cast<char>(v >> 8);
}

}  // namespace

bool Catalogue::belongs(const Entry& e) {
  return e.origin == Origin::source && e.matches_logs && e.patterns.size() == 1 && e.codes.empty() &&
         e.ranges.empty() && e.prefixes.empty() && e.patterns.front().planned &&
         e.patterns.front().keys.size() <= kMaxKeys &&
         std::all_of(e.patterns.front().keys.begin(), e.patterns.front().keys.end(), [](const std::string& k) { return k.size() <= 4; }) &&
         e.id.size() < 65536 && e.patterns.front().regex.size() < 65536;
}

void Catalogue::write(const std::vector<const Entry*>& entries, Sections& out) {
  out.records.assign(entries.size() * kRecordSize, '\0');
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = *entries[i];
    snapshot_io::Writer w;
    snapshot_io::write_entry(w, e);
    const std::string bytes = w.take();
    const std::size_t at = i * kRecordSize;
    put32(out.records, at + kEntryOffset, static_cast<uint32_t>(out.entries.size()));
    put32(out.records, at + kEntrySize, static_cast<uint32_t>(bytes.size()));
    out.entries += bytes;
    put32(out.records, at + kIdOffset, static_cast<uint32_t>(out.ids.size()));
    put16(out.records, at + kIdLength, static_cast<uint16_t>(e.id.size()));
    out.ids += e.id;
    const MatchPattern& p = e.patterns.front();
    put32(out.records, at + kRegexOffset, static_cast<uint32_t>(out.regexes.size()));
    put16(out.records, at + kRegexLength, static_cast<uint16_t>(p.regex.size()));
    out.regexes += p.regex;
    out.records[at + kFlags] = static_cast<char>((p.ignore_case ? kIgnoreCaseFlag : 0) | (p.gated ? kGatedFlag : 0) |
                                                 (e.level == LevelRequirement::error ? kErrorLevelFlag : 0));
    out.records[at + kKeyCount] = static_cast<char>(p.keys.size());
    for (std::size_t k = 0; k < p.keys.size(); ++k) {
      out.records[at + kKeyLengths + k] = static_cast<char>(p.keys[k].size());
      std::copy(p.keys[k].begin(), p.keys[k].end(), out.records.begin() + static_cast<std::ptrdiff_t>(at + kKeys + 4 * k));
    }
  }
}

std::shared_ptr<Catalogue> Catalogue::open(const SectionViews& in, std::size_t count,
                                           std::shared_ptr<const std::string> owner, Bytes bytes) {
  // Only the size is checked here: start-up must not touch tens of megabytes. Every field is
  // clamped to its section when read, so a damaged record reads as short text, never out of
  // bounds (and a damaged entry decodes as a placeholder, see entry()).
  if (in.records.size() != count * kRecordSize) return nullptr;
  std::shared_ptr<Catalogue> c(new Catalogue());
  c->in_ = in;
  c->count_ = count;
  c->owner_ = std::move(owner);
  c->bytes_ = bytes;
  c->disabled_.assign(count, false);
  c->decoded_ = OnceSlots<Entry>(count);
  return c;
}

void Catalogue::release_pages() const {
  if (bytes_ != Bytes::read_only_mapping) return;
  for (const std::string_view section : {in_.records, in_.ids, in_.regexes, in_.entries}) release_mapped_pages(section);
}

namespace {
std::string_view clamp(std::string_view section, uint64_t off, uint64_t len) {
  if (off > section.size()) return {};
  return section.substr(static_cast<std::size_t>(off), static_cast<std::size_t>(std::min<uint64_t>(len, section.size() - off)));
}
}  // namespace

std::string_view Catalogue::id(std::size_t i) const {
  const std::size_t at = i * kRecordSize;
  return clamp(in_.ids, le32(in_.records, at + kIdOffset), le16(in_.records, at + kIdLength));
}

Catalogue::Pattern Catalogue::pattern(std::size_t i) const {
  Pattern p;
  const std::size_t at = i * kRecordSize;
  p.regex = clamp(in_.regexes, le32(in_.records, at + kRegexOffset), le16(in_.records, at + kRegexLength));
  p.ignore_case = (flags(i) & kIgnoreCaseFlag) != 0;
  p.gated = gated(i);
  p.level = level(i);
  p.key_count = std::min<std::size_t>(kMaxKeys, static_cast<unsigned char>(in_.records[at + kKeyCount]));
  for (std::size_t k = 0; k < p.key_count; ++k) {
    const auto len = std::min<std::size_t>(4, static_cast<unsigned char>(in_.records[at + kKeyLengths + k]));
    p.keys[k] = in_.records.substr(at + kKeys + 4 * k, len);
  }
  return p;
}

unsigned char Catalogue::flags(std::size_t i) const { return static_cast<unsigned char>(in_.records[i * kRecordSize + kFlags]); }

bool Catalogue::gated(std::size_t i) const { return (flags(i) & kGatedFlag) != 0; }

LevelRequirement Catalogue::level(std::size_t i) const {
  return (flags(i) & kErrorLevelFlag) != 0 ? LevelRequirement::error : LevelRequirement::any;
}

const Entry& Catalogue::entry(std::size_t i) const {
  return *decoded_.get(i, [&] {
    const std::size_t at = i * kRecordSize;
    snapshot_io::Reader r(clamp(in_.entries, le32(in_.records, at + kEntryOffset), le32(in_.records, at + kEntrySize)));
    auto e = std::make_unique<Entry>(snapshot_io::read_entry(r));
    if (!r.ok()) {
      // Bounds-checked: a damaged record decodes as a plain "other" entry, never a crash.
      e = std::make_unique<Entry>();
      e->id = std::string(id(i));
      e->title = {std::string(ui::word(ui::Key::kb_damaged_entry, Lang::en)), std::string(ui::word(ui::Key::kb_damaged_entry, Lang::zh))};
      e->origin = Origin::source;
    }
    std::lock_guard lock(texts_mutex_);
    const Entry* texts = category_texts_[static_cast<std::size_t>(e->category)];
    if (texts != nullptr && (e->cause.en.empty() || e->remedies.empty())) e->texts_from = texts;
    return e;
  });
}

std::optional<std::size_t> Catalogue::find(std::string_view wanted) const {
  std::size_t lo = 0, hi = count_;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (id(mid) < wanted) lo = mid + 1;
    else hi = mid;
  }
  if (lo < count_ && id(lo) == wanted) return lo;
  return std::nullopt;
}

void Catalogue::disable(std::size_t i) {
  if (i < disabled_.size()) disabled_[i] = true;
}

void Catalogue::set_category_texts(const std::array<const Entry*, 12>& by_category) {
  std::lock_guard lock(texts_mutex_);
  category_texts_ = by_category;
  decoded_.for_each_made([&](Entry& e) {
    const Entry* texts = category_texts_[static_cast<std::size_t>(e.category)];
    e.texts_from = texts != nullptr && (e.cause.en.empty() || e.remedies.empty()) ? texts : nullptr;
  });
}

}  // namespace npu_doctor
