#include "line_index.hpp"

#include <algorithm>

namespace npu_doctor {
namespace {

inline uint8_t lower(uint8_t c) { return c >= 'A' && c <= 'Z' ? static_cast<uint8_t>(c - 'A' + 'a') : c; }

inline uint32_t hash(uint32_t key) { return (key * 2654435761u) >> 7; }

constexpr unsigned kBloomBits = 20;  // 2^20 bits = 128 KiB per table
inline uint32_t bloom_bit(uint32_t key) { return static_cast<uint32_t>((uint64_t{key} * 0x9E3779B97F4A7C15ull) >> (64 - kBloomBits)); }
inline bool bloom_has(const std::vector<uint64_t>& b, uint32_t key) {
  const uint32_t bit = bloom_bit(key);
  return (b[bit >> 6] >> (bit & 63)) & 1;
}

}  // namespace

const LineIndex::Slot* LineIndex::Table::find(uint32_t key) const {
  if (slots.empty()) return nullptr;
  for (uint32_t i = hash(key) & mask;; i = (i + 1) & mask) {
    const Slot& s = slots[i];
    if (s.count == 0) return nullptr;
    if (s.key == key) return &s;
  }
}

void LineIndex::add(std::size_t id, std::span<const std::string_view> keys) {
  patterns_ = std::max(patterns_, id + 1);
  if (keys.empty()) {
    always_.push_back(static_cast<uint32_t>(id));
    return;
  }
  for (const auto& k : keys) {
    if (k.size() < 3 || k.size() > 4) continue;  // scan_plan makes only these
    uint32_t v = 0;
    for (std::size_t i = 0; i < k.size(); ++i) v |= static_cast<uint32_t>(lower(static_cast<uint8_t>(k[i]))) << (8 * i);
    pending_.push_back(pack(k.size(), v, id));
  }
}

void LineIndex::reserve(std::size_t keys) { pending_.reserve(keys); }

void LineIndex::finish() {
  std::sort(pending_.begin(), pending_.end());
  pending_.erase(std::unique(pending_.begin(), pending_.end()), pending_.end());
  bloom3_.assign((std::size_t{1} << kBloomBits) / 64, 0);
  bloom4_.assign((std::size_t{1} << kBloomBits) / 64, 0);
  ids_.reserve(pending_.size());
  auto build = [&](Table& t, uint64_t width) {
    std::vector<uint64_t>& bloom = width == 3 ? bloom3_ : bloom4_;
    std::size_t distinct = 0;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (width_of(pending_[i]) == width && (i == 0 || group_of(pending_[i]) != group_of(pending_[i - 1]))) ++distinct;
    }
    uint32_t cap = 16;
    while (cap < distinct * 2) cap <<= 1;
    t.slots.assign(cap, {});
    t.mask = cap - 1;
    for (std::size_t i = 0; i < pending_.size();) {
      std::size_t j = i;
      while (j < pending_.size() && group_of(pending_[j]) == group_of(pending_[i])) ++j;
      if (width_of(pending_[i]) == width) {
        const uint32_t key = key_of(pending_[i]);
        uint32_t at = hash(key) & t.mask;
        while (t.slots[at].count != 0) at = (at + 1) & t.mask;
        t.slots[at] = {key, static_cast<uint32_t>(ids_.size()), static_cast<uint32_t>(j - i)};
        for (std::size_t k = i; k < j; ++k) ids_.push_back(id_of(pending_[k]));
        const uint32_t bit = bloom_bit(key);
        bloom[bit >> 6] |= uint64_t{1} << (bit & 63);
      }
      i = j;
    }
  };
  build(table3_, 3);
  build(table4_, 4);
  has3_ = std::any_of(table3_.slots.begin(), table3_.slots.end(), [](const Slot& s) { return s.count != 0; });
  pending_.clear();
  pending_.shrink_to_fit();
}

template <typename OnHit>
void LineIndex::scan(std::string_view line, OnHit&& on_hit) const {
  const auto* p = reinterpret_cast<const uint8_t*>(line.data());
  const std::size_t n = line.size();
  if (n < 3) return;
  const bool any3 = has3_;
  // window: the lower-cased bytes i, i+1, i+2 (and i+3) little-endian.
  uint32_t window = static_cast<uint32_t>(lower(p[0])) | (static_cast<uint32_t>(lower(p[1])) << 8) |
                    (static_cast<uint32_t>(lower(p[2])) << 16);
  for (std::size_t i = 0; i + 3 <= n; ++i) {
    const uint32_t k3 = window & 0xFFFFFF;
    if (any3 && bloom_has(bloom3_, k3)) {
      if (const Slot* s = table3_.find(k3)) {
        for (uint32_t k = 0; k < s->count; ++k) on_hit(ids_[s->begin + k], i);
      }
    }
    if (i + 4 <= n) {
      const uint32_t k4 = k3 | (static_cast<uint32_t>(lower(p[i + 3])) << 24);
      if (bloom_has(bloom4_, k4)) {
        if (const Slot* s = table4_.find(k4)) {
          for (uint32_t k = 0; k < s->count; ++k) on_hit(ids_[s->begin + k], i);
        }
      }
      window = k4 >> 8;
    }
  }
}

void LineIndex::candidates(std::string_view line, std::vector<Hit>& out, std::vector<uint32_t>& seen) const {
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
  scan(line, [&](uint32_t id, std::size_t pos) {
    if (seen[id] == 0) {
      seen[id] = 1;
      out.push_back({id, pos});
    }
  });
  for (std::size_t i = first; i < out.size(); ++i) seen[out[i].pattern] = 0;
}

void LineIndex::all_positions(std::string_view line, std::vector<Hit>& out) const {
  for (uint32_t id : always_) out.push_back({id, 0});
  scan(line, [&](uint32_t id, std::size_t pos) { out.push_back({id, pos}); });
}

}  // namespace npu_doctor
