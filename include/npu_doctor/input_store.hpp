#pragma once
// The reports of a run's inputs, with a bounded memory cost at any input count.
//
// A diagnosis keeps one InputReport per input (path, status, time span, first findings);
// 100,000 inputs held as a std::vector cost ~40 MB. InputStore keeps them as packed
// records in a RecordSpool: the newest in memory, up to a budget, the older ones in a
// private temporary file. What stays in memory per input is one 8-byte offset.
//
// It reads like a vector of values: `store[i]` and iteration give a decoded copy (so keep
// the copy, not a view into it, when a path is needed later), `replace`/`update` write a
// changed record back. Reads and writes are safe from several threads.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "npu_doctor/input_report.hpp"
#include "npu_doctor/record_spool.hpp"

namespace npu_doctor {

class InputStore {
 public:
  // Bytes of packed records kept in memory (RecordSpool: NPU_DOCTOR_INPUT_MEMORY overrides).
  static constexpr std::size_t kDefaultMemoryBudget = RecordSpool::kDefaultMemoryBudget;

  InputStore();
  explicit InputStore(std::size_t memory_budget);
  InputStore(std::initializer_list<InputReport> reports);
  explicit InputStore(const std::vector<InputReport>& reports);

  std::size_t size() const { return records_.size(); }
  bool empty() const { return records_.empty(); }
  void reserve(std::size_t n) { records_.reserve(n); }  // room in the offset index
  void clear() { records_.clear(); }
  void swap(InputStore& other) noexcept { records_.swap(other.records_); }

  void push_back(const InputReport& report);
  InputReport operator[](std::size_t i) const;  // a decoded copy; std::out_of_range past the end
  InputReport front() const { return (*this)[0]; }

  // Writes a changed record for input i (the old bytes are left unused).
  void replace(std::size_t i, const InputReport& report);
  template <typename Change>
  void update(std::size_t i, Change&& change) {
    InputReport r = (*this)[i];
    change(r);
    replace(i, r);
  }
  // `change(report)` on every input in order; it returns true when it changed the report,
  // and only those are written back.
  template <typename Change>
  void update_each(Change&& change) {
    for (std::size_t i = 0; i < size(); ++i) {
      InputReport r = (*this)[i];
      if (change(r)) replace(i, r);
    }
  }
  // `rewrite(path)` on every input's path; the inputs whose path it changed are written back.
  template <typename Rewrite>
  void rewrite_paths(Rewrite&& rewrite) {
    update_each([&](InputReport& in) {
      const std::string before = in.path;
      rewrite(in.path);
      return in.path != before;
    });
  }

  // What the bench and the tests look at.
  bool spilled() const { return records_.spilled(); }
  std::size_t memory_bytes() const { return records_.memory_bytes(); }

  using const_iterator = CopyingIterator<InputStore, InputReport>;
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

 private:
  RecordSpool records_;  // one encoded InputReport each
};

}  // namespace npu_doctor
