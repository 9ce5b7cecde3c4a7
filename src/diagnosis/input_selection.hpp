#pragma once
// Which of a run's inputs an analysis reads: one incident's list of indices, or every input
// without a list (a list of 0..n-1 costs 4 bytes an input, a million inputs 4 MB, for
// nothing). Iterates as indices in order; does not own the list it points at.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "npu_doctor/record_spool.hpp"  // CopyingIterator

namespace npu_doctor {

class InputSelection {
 public:
  InputSelection(const std::vector<uint32_t>& list) : list_(&list), size_(list.size()) {}  // NOLINT: a list is a selection
  static InputSelection all(std::size_t count) { return InputSelection(count); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint32_t operator[](std::size_t k) const { return list_ != nullptr ? (*list_)[k] : static_cast<uint32_t>(k); }

  using iterator = CopyingIterator<InputSelection, uint32_t>;
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size_}; }

 private:
  explicit InputSelection(std::size_t count) : size_(count) {}
  const std::vector<uint32_t>* list_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace npu_doctor
