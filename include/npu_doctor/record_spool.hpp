#pragma once
// Numbered byte records with a bounded memory cost at any count: the newest in memory up to
// a budget, the older ones in a private temporary file (created on first need and unlinked
// at once, so nothing is left behind), read back through a small window. What stays in
// memory per record is one 8-byte offset. InputStore (a run's input reports) and the
// bundle's member list are built on it.
//
// Reads and writes are safe from several threads. If the temporary file cannot be written
// (no space, no $TMPDIR), records stay in memory: nothing is lost, only the bound.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

namespace npu_doctor {

class RecordSpool {
 public:
  // Bytes of records kept in memory before they go to the file. NPU_DOCTOR_INPUT_MEMORY
  // (bytes) overrides it for every spool made with the default: 0 sends every record to
  // the file (the GoldenSpilled tests run whole reports that way).
  static constexpr std::size_t kDefaultMemoryBudget = std::size_t{1} << 20;

  RecordSpool();
  explicit RecordSpool(std::size_t memory_budget);
  RecordSpool(const RecordSpool& other);
  RecordSpool(RecordSpool&& other) noexcept;
  RecordSpool& operator=(const RecordSpool& other);
  RecordSpool& operator=(RecordSpool&& other) noexcept;
  ~RecordSpool();

  std::size_t size() const;
  bool empty() const { return size() == 0; }
  void reserve(std::size_t n);  // room in the offset index
  void clear();                 // keeps the budget and the index's room
  void swap(RecordSpool& other) noexcept { impl_.swap(other.impl_); }

  void push_back(std::string_view record);
  std::string operator[](std::size_t i) const;  // a copy; std::out_of_range past the end
  void replace(std::size_t i, std::string_view record);  // the old bytes are left unused

  bool spilled() const;              // some records are in the file
  std::size_t memory_bytes() const;  // bytes held in memory: records and offsets not in the file

 private:
  struct Impl;
  Impl& impl();
  std::unique_ptr<Impl> impl_;  // null only when moved from (then empty)
};

// An input iterator over a container whose operator[] gives decoded copies (InputStore,
// InputItems, LogFiles): `for (const auto& x : c)` reads each
// element once, in order.
template <typename Container, typename Value>
class CopyingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = Value;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = Value;

  CopyingIterator() = default;
  CopyingIterator(const Container* c, std::size_t i) : c_(c), i_(i) {}
  Value operator*() const { return (*c_)[i_]; }
  CopyingIterator& operator++() {
    ++i_;
    return *this;
  }
  CopyingIterator operator++(int) {
    CopyingIterator old = *this;
    ++i_;
    return old;
  }
  friend bool operator==(const CopyingIterator& a, const CopyingIterator& b) { return a.i_ == b.i_; }

 private:
  const Container* c_ = nullptr;
  std::size_t i_ = 0;
};

}  // namespace npu_doctor
