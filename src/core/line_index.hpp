#pragma once
// The second stage's index: which knowledge-base patterns a line may match, from the keys
// each pattern needs (3- or 4-byte lower-case pieces of its literals, scan_plan.hpp). One
// pass over a line looks every position up in a small open-addressing table, so a line is
// confirmed only against the few patterns whose literals it holds, however many thousand
// patterns the knowledge base has.
//
// The built-in knowledge base's index is built once, by npu-doctor-kbc, and travels in the
// snapshot as an image (write_image); a run reads its tables in place (read_image) instead
// of sorting and hashing some 350,000 keys at every start.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor {

class LineIndex {
 public:
  LineIndex() = default;
  // Moved, never copied: the tables' views point into its own vectors (or an image).
  LineIndex(const LineIndex&) = delete;
  LineIndex& operator=(const LineIndex&) = delete;
  LineIndex(LineIndex&&) = default;
  LineIndex& operator=(LineIndex&&) = default;

  // Registers pattern `id` (dense, from 0, below kMaxPatterns) with its keys; no keys: a
  // candidate on every line. `error_level_only`: the pattern is confirmed only on error-level
  // lines (LevelRequirement::error), so a line of another level need not list it.
  void add(std::size_t id, std::span<const std::string_view> keys, bool error_level_only = false);
  static constexpr std::size_t kMaxPatterns = std::size_t{1} << 30;
  // Room for `keys` keys in all before finish() (avoids regrowing; optional).
  void reserve(std::size_t keys);
  // Builds the tables; call once after every add().
  void finish();

  // A candidate and where its key starts on the line.
  struct Hit {
    std::size_t pattern = 0;
    std::size_t position = 0;
  };
  // Appends the candidates for `line`: every pattern with a key on it (first position of
  // each pattern only) and every pattern without keys (position 0). When `error_line` is
  // false, patterns added as error-level-only are left out: on a healthy log most lines the
  // gate lets through are INFO or WARNING lines holding keys of thousands of the message
  // catalogue's error-level patterns. `seen` is working memory the caller keeps between calls.
  void candidates(std::string_view line, std::vector<Hit>& out, std::vector<uint32_t>& seen,
                  bool error_line = true) const;
  // As candidates(), but every position of every key (to confirm around each on long lines).
  void all_positions(std::string_view line, std::vector<Hit>& out, bool error_line = true) const;

  std::size_t size() const { return patterns_; }

  // The finished index as bytes for read_image(): native byte order, each table 8-byte
  // aligned from the image's start.
  std::string write_image() const;
  // Uses an image's tables in place; `image` must outlive this index and start 8-byte
  // aligned. False (and the index unchanged) when the bytes are not an image of this
  // build's byte order and layout, or index more than `max_patterns` patterns. Damaged
  // contents never read out of bounds: every slot and id is checked when it is used.
  bool read_image(std::string_view image, std::size_t max_patterns);

 private:
  struct Slot {
    uint32_t key = 0;
    uint32_t begin = 0;  // into ids_
    uint32_t count = 0;  // 0: empty slot
  };
  // keys of 3 and 4 bytes live in separate tables (a 3-byte key is not a prefix search).
  struct Table {
    std::span<const Slot> slots;  // owned_ below, or an image's bytes
    uint32_t mask = 0;
    const Slot* find(uint32_t key) const;
  };
  // The tables finish() builds; empty when they are read from an image.
  struct Owned {
    std::vector<uint32_t> ids;
    std::vector<Slot> slots3, slots4;
    std::vector<uint64_t> bloom3, bloom4;
  };
  template <typename OnHit>
  void scan(std::string_view line, bool error_line, OnHit&& on_hit) const;
  template <typename OnHit>
  void hits_of(const Slot& s, std::size_t position, bool error_line, OnHit& on_hit) const;

  // A slot's ids: the patterns of any level first, then the error-level-only ones, each
  // marked with this bit, so that a line of another level stops at the first marked id.
  static constexpr uint32_t kErrorOnlyBit = uint32_t{1} << 31;
  // Until finish(), each key of each pattern packed in one word, so that sorting groups a
  // key's patterns, those of any level first, each part in id order: bit 63 set for a
  // 4-byte key, bits 31-62 the key, bit 30 set for an error-level-only pattern, 0-29 the id.
  static constexpr unsigned kIdBits = 30;
  static constexpr unsigned kGroupShift = 31;
  static uint64_t pack(std::size_t width, uint32_t key, std::size_t id, bool error_level_only) {
    return (width == 4 ? uint64_t{1} << 63 : 0) | (uint64_t{key} << kGroupShift) |
           (error_level_only ? uint64_t{1} << kIdBits : 0) | (id & ((uint64_t{1} << kIdBits) - 1));
  }
  static uint64_t width_of(uint64_t packed) { return (packed >> 63) != 0 ? 4 : 3; }
  static uint64_t group_of(uint64_t packed) { return packed >> kGroupShift; }  // width and key
  static uint32_t key_of(uint64_t packed) { return static_cast<uint32_t>(packed >> kGroupShift); }
  // The id as a slot stores it: the id, with kErrorOnlyBit for an error-level-only pattern.
  static uint32_t slot_id_of(uint64_t packed) {
    return static_cast<uint32_t>(packed & ((uint64_t{1} << kIdBits) - 1)) |
           (((packed >> kIdBits) & 1) != 0 ? kErrorOnlyBit : 0);
  }
  std::vector<uint64_t> pending_;
  std::vector<uint32_t> always_;                        // patterns without keys
  Owned owned_;
  std::span<const uint32_t> ids_;
  Table table3_;
  Table table4_;
  // Bloom bits over each table's keys: most positions of a line are rejected with one bit
  // test, in a table small enough for the L2 cache whatever the size of the knowledge base.
  std::span<const uint64_t> bloom3_;
  std::span<const uint64_t> bloom4_;
  bool has3_ = false;
  std::size_t patterns_ = 0;
};

}  // namespace npu_doctor
