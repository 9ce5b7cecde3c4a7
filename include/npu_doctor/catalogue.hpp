#pragma once
// The message catalogue of a knowledge-base snapshot (docs/kb-messages.md), read in place:
// tens of thousands of entries cost neither start-up time nor memory until a log shows
// one. The matcher reads each entry's pattern from a fixed-size record without decoding
// the entry; an entry is decoded the first time a line matches it (or `explain` asks).
#include <array>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/once_slots.hpp"

namespace npu_doctor {

class Catalogue {
 public:
  static constexpr std::size_t kRecordSize = 64;
  static constexpr std::size_t kMaxKeys = 8;

  // What the matcher needs of an entry, read from its record.
  struct Pattern {
    std::string_view regex;
    bool ignore_case = false;
    bool gated = false;
    LevelRequirement level = LevelRequirement::any;
    std::size_t key_count = 0;
    std::array<std::string_view, kMaxKeys> keys{};
  };

  // The sections of a snapshot's catalogue: fixed-size records sorted by id, and the ids,
  // regexes and encoded entries they point into. Ids and regexes are stored apart from the
  // entries so that start-up and look-ups touch a few megabytes, not all of them.
  struct Sections {
    std::string records, ids, regexes, entries;
  };
  struct SectionViews {
    std::string_view records, ids, regexes, entries;
  };
  // Where the sections' bytes live: a read-only file mapping (the snapshot compiled into the
  // binary, or one NPU_DOCTOR_KB_SNAPSHOT maps) can give its pages back and read them again
  // from the file; bytes in memory cannot.
  enum class Bytes { in_memory, read_only_mapping };
  // Views valid as long as `owner` (or, when null, forever: the snapshot compiled into the
  // binary). Null when the records do not fit `count`.
  static std::shared_ptr<Catalogue> open(const SectionViews& in, std::size_t count, std::shared_ptr<const std::string> owner,
                                         Bytes bytes = Bytes::in_memory);

  std::size_t size() const { return count_; }
  std::string_view id(std::size_t i) const;
  Pattern pattern(std::size_t i) const;
  // Whether the scan gate covers entry i's pattern, and its level requirement
  // (pattern(i).gated and .level, without decoding the rest: the matcher asks per candidate).
  bool gated(std::size_t i) const;
  LevelRequirement level(std::size_t i) const;
  // The entry, decoded on first use (thread-safe; the reference stays valid).
  const Entry& entry(std::size_t i) const;
  // Lets go of every entry decoded so far (they are decoded again when asked for): only when
  // no other thread uses the catalogue and no reference entry() gave is used afterwards.
  void forget_decoded() const { decoded_.forget_all(); }
  // Gives back the resident pages of a read-only mapping's sections (a pass over every entry,
  // as `kb lint` makes, would otherwise keep all of them, tens of MiB). They are read from the
  // file again when touched, so this is safe at any time and from any thread; no-op in memory.
  void release_pages() const;
  std::optional<std::size_t> find(std::string_view id) const;

  // An entry a user's file replaces by id is no longer matched.
  bool disabled(std::size_t i) const { return i < disabled_.size() && disabled_[i]; }
  void disable(std::size_t i);
  // Each category's general texts, for decoded entries without their own (kb/categories.yaml).
  void set_category_texts(const std::array<const Entry*, 12>& by_category);

  // The catalogue sections of a snapshot for `entries` (sorted by id, unique).
  static void write(const std::vector<const Entry*>& entries, Sections& out);
  // Whether an entry can live in the catalogue section: a catalogue message with one pattern
  // and no codes.
  static bool belongs(const Entry& e);

 private:
  Catalogue() = default;
  unsigned char flags(std::size_t i) const;  // record i's flag byte

  SectionViews in_;
  std::size_t count_ = 0;
  std::shared_ptr<const std::string> owner_;
  Bytes bytes_ = Bytes::in_memory;
  std::vector<bool> disabled_;
  OnceSlots<Entry> decoded_;
  std::array<const Entry*, 12> category_texts_{};
  mutable std::mutex texts_mutex_;
};

}  // namespace npu_doctor
