#pragma once
// Sorting more values than memory should hold: values are gathered up to a count, each full
// gathering is sorted and written to a RecordSpool as a run (blocks of values as records),
// and the runs are merged when read back. Below the count nothing leaves memory. Memory is
// `in_memory` values while gathering, one block per run while merging. For trivially
// copyable values under a strict total order (equal values would come out in no fixed order).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <queue>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "npu_doctor/record_spool.hpp"

namespace npu_doctor {

template <typename T, typename Less>
class ExternalSorter {
  static_assert(std::is_trivially_copyable_v<T>, "values are written as their bytes");

 public:
  static constexpr std::size_t kBlock = 256;  // values per record of a run

  ExternalSorter(std::size_t in_memory, Less less) : in_memory_(std::max<std::size_t>(in_memory, 1)), less_(less) {}

  void push(const T& value) {
    gathering_.push_back(value);
    if (gathering_.size() >= in_memory_) write_run();
  }

  std::size_t runs_written() const { return runs_.size(); }

  // Each value once, in order; the sorter is empty afterwards.
  template <typename Visit>
  void for_each_sorted(Visit visit) {
    if (runs_.empty()) {
      std::sort(gathering_.begin(), gathering_.end(), less_);
      for (const T& v : gathering_) visit(v);
      gathering_.clear();
      return;
    }
    if (!gathering_.empty()) write_run();
    std::vector<Cursor> cursors(runs_.size());
    auto later = [&](std::size_t a, std::size_t b) { return less_(cursors[b].current(), cursors[a].current()); };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heads(later);
    for (std::size_t r = 0; r < runs_.size(); ++r) {
      cursors[r].run = runs_[r];
      if (load(cursors[r])) heads.push(r);
    }
    while (!heads.empty()) {
      const std::size_t r = heads.top();
      heads.pop();
      visit(cursors[r].current());
      if (++cursors[r].at < cursors[r].block.size() || load(cursors[r])) heads.push(r);
    }
    runs_.clear();
    spool_.clear();
  }

 private:
  struct Run {
    std::size_t first_record = 0, records = 0;
  };
  struct Cursor {
    Run run;
    std::size_t next_record = 0;  // within the run
    std::vector<T> block;
    std::size_t at = 0;
    const T& current() const { return block[at]; }
  };

  void write_run() {
    std::sort(gathering_.begin(), gathering_.end(), less_);
    Run run{spool_.size(), 0};
    for (std::size_t i = 0; i < gathering_.size(); i += kBlock) {
      const std::size_t n = std::min(kBlock, gathering_.size() - i);
      spool_.push_back(std::string_view(reinterpret_cast<const char*>(gathering_.data() + i), n * sizeof(T)));
      ++run.records;
    }
    runs_.push_back(run);
    gathering_.clear();
  }

  // The cursor's next block, false at the end of its run.
  bool load(Cursor& c) const {
    if (c.next_record == c.run.records) return false;
    const std::string bytes = spool_[c.run.first_record + c.next_record++];
    if (bytes.empty() || bytes.size() % sizeof(T) != 0) throw std::runtime_error("a sort run read back damaged");
    c.block.resize(bytes.size() / sizeof(T));
    std::memcpy(c.block.data(), bytes.data(), bytes.size());
    c.at = 0;
    return true;
  }

  std::size_t in_memory_;
  Less less_;
  std::vector<T> gathering_;
  std::vector<Run> runs_;
  RecordSpool spool_;
};

}  // namespace npu_doctor
