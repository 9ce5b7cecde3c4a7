#pragma once
// The inputs of one incident: increasing input indices, kept as runs of consecutive indices.
// A run's logs usually sit together in the input order (one directory a rank or a run), so a
// million members of one run cost a few bytes, not 4 MB; when runs interleave input by input
// a member costs at most two bytes (the gap and the run length as variable-length numbers),
// half of a plain array and without its growth room. Read in order (iteration) or asked
// about one index (contains, logarithmic through a checkpoint every kCheckpointRuns runs).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

namespace npu_doctor {

class MemberList {
 public:
  MemberList() = default;
  MemberList(std::initializer_list<uint32_t> indices);
  // 0 .. count-1, one run (every input of a report, without a list of them).
  static MemberList first(std::size_t count);

  // `index` must be greater than the last one added (std::invalid_argument otherwise).
  void push_back(uint32_t index);

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint32_t front() const;  // the smallest; std::out_of_range when empty
  bool contains(uint32_t index) const;
  std::size_t memory_bytes() const { return bytes_.capacity() + checkpoints_.capacity() * sizeof(Checkpoint); }
  std::vector<uint32_t> to_vector() const;

  bool operator==(const MemberList& other) const;

  // Each member once, in increasing order.
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = uint32_t;

    iterator() = default;
    uint32_t operator*() const { return current_; }
    iterator& operator++();
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.left_ == b.left_; }

   private:
    friend class MemberList;
    iterator(const MemberList* list, std::size_t left);
    void enter_next_run();

    const MemberList* list_ = nullptr;
    std::size_t left_ = 0;     // members not yet passed, this one included (0: the end)
    std::size_t at_ = 0;          // the next closed run's bytes in list_->bytes_
    uint32_t current_ = 0;
    uint64_t run_left_ = 0;       // members of the current run after this one
    uint64_t previous_end_ = 0;   // one past the last member of the runs read
  };
  iterator begin() const { return iterator(this, size_); }
  iterator end() const { return iterator(this, 0); }

  static constexpr std::size_t kCheckpointRuns = 64;

 private:
  // Where a run starts: its first member and its bytes, every kCheckpointRuns closed runs.
  struct Checkpoint {
    uint32_t first;
    std::size_t at;  // offset in bytes_
  };
  void close_open_run();

  // Closed runs, each as varint(gap from the previous run's end) varint(length - 1). The
  // newest run is open (open_first_, open_length_) until a member does not extend it.
  std::vector<unsigned char> bytes_;
  std::vector<Checkpoint> checkpoints_;
  std::size_t closed_runs_ = 0;
  uint64_t closed_end_ = 0;  // one past the last member of the closed runs
  uint32_t open_first_ = 0;
  uint64_t open_length_ = 0;
  std::size_t size_ = 0;
};

// Which of several disjoint member lists holds each index, asked in increasing index order
// (the inputs of a report against its incidents): one iterator a list walks along with the
// questions, so no array an input is needed.
class IncidentCursor {
 public:
  explicit IncidentCursor(const std::vector<const MemberList*>& lists);
  // The position in `lists` of the list holding `index`, or nullopt. Each index asked must be
  // greater than the one before; the lists must outlive the cursor.
  std::optional<std::size_t> list_of(uint32_t index);

 private:
  using Head = std::pair<uint32_t, std::size_t>;  // (a list's next member, the list)
  std::vector<MemberList::iterator> at_, end_;
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads_;
};

}  // namespace npu_doctor
