#pragma once
// The byte layer of the knowledge-base snapshot (kb_snapshot.cpp, catalogue_store.cpp):
// little-endian integers and length-prefixed strings; every read is bounds-checked, so a
// damaged snapshot is refused instead of read past its end.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor::snapshot_io {

class Writer {
 public:
  void u8(uint8_t v) { out_ += static_cast<char>(v); }
  void u16(uint16_t v) {
    for (int i = 0; i < 2; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xFF);
  }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xFF);
  }
  void i64(int64_t v) {
    const auto u = static_cast<uint64_t>(v);
    for (int i = 0; i < 8; ++i) out_ += static_cast<char>((u >> (8 * i)) & 0xFF);
  }
  void bytes(std::string_view s) { out_.append(s); }
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
  // Padding (a count, then zeros) so that the bytes of the next str() start 8-byte aligned
  // from the start of what this writer writes: tables read in place need it.
  void align_next_str() {
    const std::size_t pad = (8 - (out_.size() + 8) % 8) % 8;
    u32(static_cast<uint32_t>(pad));
    out_.append(pad, '\0');
  }
  std::size_t size() const { return out_.size(); }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  // Marks what was read as damaged (a nested block that did not decode).
  void fail() { ok_ = false; }
  std::size_t position() const { return pos_; }
  uint8_t u8() { return need(1) ? static_cast<uint8_t>(in_[pos_++]) : 0; }
  uint16_t u16() { return static_cast<uint16_t>(little(2)); }
  uint32_t u32() { return static_cast<uint32_t>(little(4)); }
  int64_t i64() { return static_cast<int64_t>(little(8)); }
  std::string str() { return std::string(view()); }
  // A string read in place (valid as long as the snapshot's bytes are).
  std::string_view view() {
    const uint32_t n = u32();
    if (!need(n)) return {};
    const std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::string_view bytes(std::size_t n) {
    if (!need(n)) return {};
    const std::string_view s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::vector<std::string> strs() {
    std::vector<std::string> v(count());
    for (auto& s : v) s = str();
    return v;
  }
  // Skips what Writer::align_next_str() wrote.
  void skip_alignment() {
    const uint32_t pad = u32();
    if (pad >= 8) ok_ = false;
    bytes(pad);
  }
  LocalizedText text() {
    LocalizedText t;
    t.en = str();
    t.zh = str();
    return t;
  }
  // An element count, refused when it cannot fit in what is left (a corrupt snapshot).
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
  uint64_t little(int n) {
    if (!need(static_cast<std::size_t>(n))) return 0;
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(in_[pos_ + static_cast<std::size_t>(i)])) << (8 * i);
    pos_ += static_cast<std::size_t>(n);
    return v;
  }
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

void write_pattern(Writer& w, const MatchPattern& p);
MatchPattern read_pattern(Reader& r);
void write_entry(Writer& w, const Entry& e);
// An entry's texts (title, cause, remedies, references, samples, seed row) are one
// length-prefixed block of it. `texts`: null decodes them; otherwise the entry is read
// without them and `*texts` is set to the block, for read_entry_texts() when they are
// asked for (explain prints one entry of ~1,400: decoding every text was a third of its
// start-up, mostly page faults of the heap it filled).
Entry read_entry(Reader& r, std::string_view* texts = nullptr);
// Fills the texts of `e` from its block; false when the block is damaged.
bool read_entry_texts(std::string_view block, Entry& e);

}  // namespace npu_doctor::snapshot_io
