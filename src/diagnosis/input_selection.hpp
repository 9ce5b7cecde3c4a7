#pragma once
// Which of a run's inputs an analysis reads: one incident's member list, or every input
// without a list (a list of 0..n-1 would cost memory an input, for nothing). Iterates as
// indices in order; does not own the list it points at.
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "member_list.hpp"

namespace npu_doctor {

class InputSelection {
 public:
  InputSelection(const MemberList& list) : list_(&list), size_(list.size()) {}  // NOLINT: a list is a selection
  static InputSelection all(std::size_t count) { return InputSelection(count); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = uint32_t;

    iterator() = default;
    iterator(MemberList::iterator member, std::size_t k, bool listed) : member_(member), k_(k), listed_(listed) {}
    uint32_t operator*() const { return listed_ ? *member_ : static_cast<uint32_t>(k_); }
    iterator& operator++() {
      if (listed_) ++member_;
      ++k_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.k_ == b.k_; }

   private:
    MemberList::iterator member_;
    std::size_t k_ = 0;  // members passed
    bool listed_ = false;
  };
  iterator begin() const { return list_ != nullptr ? iterator(list_->begin(), 0, true) : iterator({}, 0, false); }
  iterator end() const { return iterator({}, size_, list_ != nullptr); }

 private:
  explicit InputSelection(std::size_t count) : size_(count) {}
  const MemberList* list_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace npu_doctor
