#pragma once
// An optional Timestamp kept in 40 bytes with its text inline (no heap for texts of up to
// 30 bytes, which every format find_timestamp reads fits): each input's first and last time
// (InputTimeline) cost 208 bytes as std::optional<Timestamp> with the text on the heap, the
// largest part of an input's report at 100,000 inputs. It reads like the optional it
// replaces: `if (t)`, `t->micros`, `*t`, and converts to std::optional<Timestamp>.
#include <cstdint>
#include <optional>
#include <string_view>

#include "npu_doctor/line_info.hpp"

namespace npu_doctor {

class CompactTime {
 public:
  CompactTime() = default;
  CompactTime(const std::optional<Timestamp>& t) { assign(t); }  // NOLINT: reads like the optional
  CompactTime(const CompactTime& o) { copy_from(o); }
  CompactTime(CompactTime&& o) noexcept;
  CompactTime& operator=(const CompactTime& o);
  CompactTime& operator=(CompactTime&& o) noexcept;
  CompactTime& operator=(const std::optional<Timestamp>& t);
  ~CompactTime() { release(); }

  bool has_value() const { return state_ != State::none; }
  explicit operator bool() const { return has_value(); }
  void reset();

  // The Timestamp (a copy: the text is rebuilt as a std::string). Only when has_value().
  Timestamp value() const;
  Timestamp operator*() const { return value(); }
  struct Arrow {
    Timestamp t;
    const Timestamp* operator->() const { return &t; }
  };
  Arrow operator->() const { return Arrow{value()}; }
  operator std::optional<Timestamp>() const;  // NOLINT: reads like the optional

  // Without a copy of the text.
  int64_t micros() const { return micros_; }
  bool has_year() const { return state_ == State::dated; }
  std::string_view text() const;

  friend bool operator==(const CompactTime& a, const CompactTime& b);

 private:
  static constexpr std::size_t kInline = 30;
  static constexpr unsigned char kOnHeap = 0xff;  // len_: the text is in heap_
  enum class State : unsigned char { none, dated, yearless };

  void assign(const std::optional<Timestamp>& t);
  void copy_from(const CompactTime& o);
  void release();

  char* heap() const;
  void set_heap(char* p);

  int64_t micros_ = 0;
  // The text, or (len_ == kOnHeap) a pointer to [std::size_t size][bytes] in its first bytes:
  // bytes, not a union with the pointer, so that nothing pads the 40 bytes.
  char inline_[kInline] = {};
  unsigned char len_ = 0;
  State state_ = State::none;
};

// Dated: it can be placed on a calendar (see line_info.hpp).
inline bool dated(const CompactTime& t) { return t.has_year(); }

}  // namespace npu_doctor
