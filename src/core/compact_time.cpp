#include "npu_doctor/compact_time.hpp"

#include <cstring>
#include <utility>

namespace npu_doctor {

static_assert(sizeof(char*) <= 30, "the heap pointer is kept in the inline bytes");

char* CompactTime::heap() const {
  char* p = nullptr;
  std::memcpy(&p, inline_, sizeof p);
  return p;
}

void CompactTime::set_heap(char* p) { std::memcpy(inline_, &p, sizeof p); }

CompactTime::CompactTime(CompactTime&& o) noexcept : micros_(o.micros_), len_(o.len_), state_(o.state_) {
  std::memcpy(inline_, o.inline_, kInline);  // the heap pointer too, when there is one
  o.len_ = 0;
  o.state_ = State::none;
}

CompactTime& CompactTime::operator=(const CompactTime& o) {
  if (this != &o) {
    release();
    copy_from(o);
  }
  return *this;
}

CompactTime& CompactTime::operator=(CompactTime&& o) noexcept {
  if (this != &o) {
    release();
    micros_ = o.micros_;
    len_ = o.len_;
    state_ = o.state_;
    std::memcpy(inline_, o.inline_, kInline);
    o.len_ = 0;
    o.state_ = State::none;
  }
  return *this;
}

CompactTime& CompactTime::operator=(const std::optional<Timestamp>& t) {
  release();
  assign(t);
  return *this;
}

void CompactTime::reset() { release(); }

void CompactTime::assign(const std::optional<Timestamp>& t) {
  if (!t) return;
  micros_ = t->micros;
  state_ = t->has_year ? State::dated : State::yearless;
  const std::string& s = t->text;
  if (s.size() <= kInline) {
    std::memcpy(inline_, s.data(), s.size());
    len_ = static_cast<unsigned char>(s.size());
    return;
  }
  const auto size = s.size();
  char* block = new char[sizeof size + s.size()];
  std::memcpy(block, &size, sizeof size);
  std::memcpy(block + sizeof size, s.data(), s.size());
  set_heap(block);
  len_ = kOnHeap;
}

void CompactTime::copy_from(const CompactTime& o) {
  if (!o.has_value()) return;
  micros_ = o.micros_;
  state_ = o.state_;
  if (o.len_ != kOnHeap) {
    std::memcpy(inline_, o.inline_, kInline);
    len_ = o.len_;
    return;
  }
  const std::string_view t = o.text();
  const auto size = t.size();
  char* block = new char[sizeof size + t.size()];
  std::memcpy(block, &size, sizeof size);
  std::memcpy(block + sizeof size, t.data(), t.size());
  set_heap(block);
  len_ = kOnHeap;
}

void CompactTime::release() {
  if (state_ != State::none && len_ == kOnHeap) delete[] heap();
  micros_ = 0;
  len_ = 0;
  state_ = State::none;
}

std::string_view CompactTime::text() const {
  if (!has_value()) return {};
  if (len_ != kOnHeap) return {inline_, len_};
  const char* block = heap();
  std::size_t size = 0;
  std::memcpy(&size, block, sizeof size);
  return {block + sizeof size, size};
}

Timestamp CompactTime::value() const {
  Timestamp t;
  t.micros = micros_;
  t.has_year = state_ == State::dated;
  t.text = std::string(text());
  return t;
}

CompactTime::operator std::optional<Timestamp>() const {
  if (!has_value()) return std::nullopt;
  return value();
}

bool operator==(const CompactTime& a, const CompactTime& b) {
  if (a.state_ != b.state_) return false;
  return !a.has_value() || (a.micros_ == b.micros_ && a.text() == b.text());
}

}  // namespace npu_doctor
