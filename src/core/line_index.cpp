#include "line_index.hpp"

#include "regex_literals.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace npu_doctor {
namespace {

inline uint32_t hash(uint32_t key) { return (key * 2654435761u) >> 7; }

constexpr unsigned kBloomBits = 20;  // 2^20 bits = 128 KiB per table
inline uint32_t bloom_bit(uint32_t key) { return static_cast<uint32_t>((uint64_t{key} * 0x9E3779B97F4A7C15ull) >> (64 - kBloomBits)); }
constexpr std::size_t kBloomWords = (std::size_t{1} << kBloomBits) / 64;
inline bool bloom_has(std::span<const uint64_t> b, uint32_t key) {
  const uint32_t bit = bloom_bit(key);
  return (b[bit >> 6] >> (bit & 63)) & 1;
}

}  // namespace

const LineIndex::Slot* LineIndex::Table::find(uint32_t key) const {
  // At most one round: a damaged image may have no empty slot.
  uint32_t i = hash(key) & mask;
  for (std::size_t tried = 0; tried < slots.size(); ++tried, i = (i + 1) & mask) {
    const Slot& s = slots[i];
    if (s.count == 0) return nullptr;
    if (s.key == key) return &s;
  }
  return nullptr;
}

void LineIndex::add(std::size_t id, std::span<const std::string_view> keys, bool error_level_only) {
  if (id >= kMaxPatterns) throw std::length_error("LineIndex: a pattern id beyond the index's id bits");
  patterns_ = std::max(patterns_, id + 1);
  if (keys.empty()) {
    always_.push_back(static_cast<uint32_t>(id));
    return;
  }
  for (const auto& k : keys) {
    if (k.size() < 3 || k.size() > 4) continue;  // scan_plan makes only these
    uint32_t v = 0;
    for (std::size_t i = 0; i < k.size(); ++i) v |= static_cast<uint32_t>(ascii_lower_byte(static_cast<uint8_t>(k[i]))) << (8 * i);
    pending_.push_back(pack(k.size(), v, id, error_level_only));
  }
}

void LineIndex::reserve(std::size_t keys) { pending_.reserve(keys); }

void LineIndex::finish() {
  std::sort(pending_.begin(), pending_.end());
  pending_.erase(std::unique(pending_.begin(), pending_.end()), pending_.end());
  owned_.bloom3.assign(kBloomWords, 0);
  owned_.bloom4.assign(kBloomWords, 0);
  std::vector<uint32_t>& ids = owned_.ids;
  ids.reserve(pending_.size());
  auto build = [&](std::vector<Slot>& slots, uint64_t width) {
    std::vector<uint64_t>& bloom = width == 3 ? owned_.bloom3 : owned_.bloom4;
    std::size_t distinct = 0;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (width_of(pending_[i]) == width && (i == 0 || group_of(pending_[i]) != group_of(pending_[i - 1]))) ++distinct;
    }
    uint32_t cap = 16;
    while (cap < distinct * 2) cap <<= 1;
    slots.assign(cap, {});
    const uint32_t mask = cap - 1;
    for (std::size_t i = 0; i < pending_.size();) {
      std::size_t j = i;
      while (j < pending_.size() && group_of(pending_[j]) == group_of(pending_[i])) ++j;
      if (width_of(pending_[i]) == width) {
        const uint32_t key = key_of(pending_[i]);
        uint32_t at = hash(key) & mask;
        while (slots[at].count != 0) at = (at + 1) & mask;
        slots[at] = {key, static_cast<uint32_t>(ids.size()), static_cast<uint32_t>(j - i)};
        for (std::size_t k = i; k < j; ++k) ids.push_back(slot_id_of(pending_[k]));
        const uint32_t bit = bloom_bit(key);
        bloom[bit >> 6] |= uint64_t{1} << (bit & 63);
      }
      i = j;
    }
  };
  build(owned_.slots3, 3);
  build(owned_.slots4, 4);
  has3_ = std::any_of(owned_.slots3.begin(), owned_.slots3.end(), [](const Slot& s) { return s.count != 0; });
  pending_.clear();
  pending_.shrink_to_fit();
  ids_ = owned_.ids;
  table3_ = {owned_.slots3, static_cast<uint32_t>(owned_.slots3.size() - 1)};
  table4_ = {owned_.slots4, static_cast<uint32_t>(owned_.slots4.size() - 1)};
  bloom3_ = owned_.bloom3;
  bloom4_ = owned_.bloom4;
}

namespace {

// The image: a header of 32-bit words, then each array, 8-byte aligned from the image's
// start (which its reader requires to be 8-byte aligned).
// '2': a slot's ids carry kErrorOnlyBit, those of any level first.
constexpr char kImageMagic[8] = {'N', 'P', 'U', 'D', 'L', 'I', 'X', '2'};
constexpr uint32_t kByteOrderMark = 0x01020304;  // written natively: a foreign order reads wrong
enum Header : std::size_t { kOrder, kPatterns, kHas3, kAlways, kIds, kSlots3, kSlots4, kBloomWordsField, kHeaderWords };

std::size_t padding(std::size_t at) { return (8 - at % 8) % 8; }

template <typename T>
void append_array(std::string& out, const T* data, std::size_t n) {
  out.append(padding(out.size()), '\0');
  out.append(static_cast<const char*>(static_cast<const void*>(data)), n * sizeof(T));
}

// The next array of `n` elements of `T` in place, or false when it does not fit or align.
template <typename T>
bool take_array(std::string_view image, std::size_t& at, std::size_t n, std::span<const T>& out) {
  at += padding(at);
  if (at > image.size() || n > (image.size() - at) / sizeof(T)) return false;
  const void* p = image.data() + at;
  if (reinterpret_cast<std::uintptr_t>(p) % alignof(T) != 0) return false;
  out = std::span<const T>(static_cast<const T*>(p), n);
  at += n * sizeof(T);
  return true;
}

}  // namespace

std::string LineIndex::write_image() const {
  std::string out(kImageMagic, sizeof kImageMagic);
  const uint32_t header[kHeaderWords] = {kByteOrderMark,
                                         static_cast<uint32_t>(patterns_),
                                         has3_ ? 1u : 0u,
                                         static_cast<uint32_t>(always_.size()),
                                         static_cast<uint32_t>(ids_.size()),
                                         static_cast<uint32_t>(table3_.slots.size()),
                                         static_cast<uint32_t>(table4_.slots.size()),
                                         static_cast<uint32_t>(bloom3_.size())};
  out.append(static_cast<const char*>(static_cast<const void*>(header)), sizeof header);
  append_array(out, always_.data(), always_.size());
  append_array(out, ids_.data(), ids_.size());
  append_array(out, table3_.slots.data(), table3_.slots.size());
  append_array(out, table4_.slots.data(), table4_.slots.size());
  append_array(out, bloom3_.data(), bloom3_.size());
  append_array(out, bloom4_.data(), bloom4_.size());
  return out;
}

bool LineIndex::read_image(std::string_view image, std::size_t max_patterns) {
  static_assert(sizeof(Slot) == 12 && alignof(Slot) == 4, "the image holds slots as they lie in memory");
  if (reinterpret_cast<std::uintptr_t>(image.data()) % 8 != 0 || image.size() < sizeof kImageMagic + kHeaderWords * 4 || std::memcmp(image.data(), kImageMagic, sizeof kImageMagic) != 0) {
    return false;
  }
  uint32_t header[kHeaderWords];
  std::memcpy(header, image.data() + sizeof kImageMagic, sizeof header);
  if (header[kOrder] != kByteOrderMark || header[kBloomWordsField] != kBloomWords || header[kPatterns] > max_patterns) {
    return false;
  }
  const auto power_of_two = [](uint32_t n) { return n == 0 || std::has_single_bit(n); };
  if (!power_of_two(header[kSlots3]) || !power_of_two(header[kSlots4])) return false;
  std::size_t at = sizeof kImageMagic + sizeof header;
  std::span<const uint32_t> always, ids;
  std::span<const Slot> slots3, slots4;
  std::span<const uint64_t> bloom3, bloom4;
  if (!take_array(image, at, header[kAlways], always) || !take_array(image, at, header[kIds], ids) ||
      !take_array(image, at, header[kSlots3], slots3) || !take_array(image, at, header[kSlots4], slots4) ||
      !take_array(image, at, kBloomWords, bloom3) || !take_array(image, at, kBloomWords, bloom4) || at != image.size()) {
    return false;
  }
  if (std::any_of(always.begin(), always.end(), [&](uint32_t id) { return id >= header[kPatterns]; })) return false;
  patterns_ = header[kPatterns];
  always_.assign(always.begin(), always.end());
  has3_ = header[kHas3] != 0;
  owned_ = {};
  pending_.clear();
  ids_ = ids;
  table3_ = {slots3, slots3.empty() ? 0u : static_cast<uint32_t>(slots3.size() - 1)};
  table4_ = {slots4, slots4.empty() ? 0u : static_cast<uint32_t>(slots4.size() - 1)};
  bloom3_ = bloom3;
  bloom4_ = bloom4;
  return true;
}

template <typename OnHit>
void LineIndex::hits_of(const Slot& s, std::size_t position, bool error_line, OnHit& on_hit) const {
  // An image's slot or id out of range (a damaged file) is skipped, never followed.
  if (s.begin > ids_.size() || s.count > ids_.size() - s.begin) return;
  for (uint32_t id : ids_.subspan(s.begin, s.count)) {
    if ((id & kErrorOnlyBit) != 0) {
      if (!error_line) return;  // the rest of the slot is error-level-only too
      id &= ~kErrorOnlyBit;
    }
    if (id < patterns_) on_hit(id, position);
  }
}

template <typename OnHit>
void LineIndex::scan(std::string_view line, bool error_line, OnHit&& on_hit) const {
  const auto* p = reinterpret_cast<const uint8_t*>(line.data());
  const std::size_t n = line.size();
  if (n < 3) return;
  const bool any3 = has3_;
  // window: the lower-cased bytes i, i+1, i+2 (and i+3) little-endian.
  uint32_t window = static_cast<uint32_t>(ascii_lower_byte(p[0])) | (static_cast<uint32_t>(ascii_lower_byte(p[1])) << 8) |
                    (static_cast<uint32_t>(ascii_lower_byte(p[2])) << 16);
  for (std::size_t i = 0; i + 3 <= n; ++i) {
    const uint32_t k3 = window & 0xFFFFFF;
    if (any3 && bloom_has(bloom3_, k3)) {
      if (const Slot* s = table3_.find(k3)) hits_of(*s, i, error_line, on_hit);
    }
    if (i + 4 <= n) {
      const uint32_t k4 = k3 | (static_cast<uint32_t>(ascii_lower_byte(p[i + 3])) << 24);
      if (bloom_has(bloom4_, k4)) {
        if (const Slot* s = table4_.find(k4)) hits_of(*s, i, error_line, on_hit);
      }
      window = k4 >> 8;
    }
  }
}

void LineIndex::candidates(std::string_view line, std::vector<Hit>& out, std::vector<uint32_t>& seen,
                           bool error_line) const {
  // `seen` holds, per pattern, 1 + the index in `out` of its hit from this call (0: none):
  // reset only the entries this call set, so the cost follows the line, not the base.
  if (seen.size() < patterns_) seen.assign(patterns_, 0);
  const std::size_t first = out.size();
  for (uint32_t id : always_) {
    if (seen[id] == 0) {
      seen[id] = 1;
      out.push_back({id, 0});
    }
  }
  scan(line, error_line, [&](uint32_t id, std::size_t pos) {
    if (seen[id] == 0) {
      seen[id] = 1;
      out.push_back({id, pos});
    }
  });
  for (std::size_t i = first; i < out.size(); ++i) seen[out[i].pattern] = 0;
}

void LineIndex::all_positions(std::string_view line, std::vector<Hit>& out, bool error_line) const {
  for (uint32_t id : always_) out.push_back({id, 0});
  scan(line, error_line, [&](uint32_t id, std::size_t pos) { out.push_back({id, pos}); });
}

}  // namespace npu_doctor
