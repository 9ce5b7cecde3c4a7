#include "member_list.hpp"

#include <algorithm>
#include <stdexcept>

namespace npu_doctor {

namespace {

void put_varint(std::vector<unsigned char>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<unsigned char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<unsigned char>(v));
}

uint64_t get_varint(const std::vector<unsigned char>& in, std::size_t& at) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const unsigned char byte = in[at++];
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return v;
  }
}

}  // namespace

MemberList::MemberList(std::initializer_list<uint32_t> indices) {
  for (uint32_t i : indices) push_back(i);
}

MemberList MemberList::first(std::size_t count) {
  MemberList all;
  all.open_length_ = count;
  all.size_ = count;
  return all;
}

void MemberList::push_back(uint32_t index) {
  if (open_length_ > 0) {
    const uint64_t next = uint64_t{open_first_} + open_length_;
    if (index < next) throw std::invalid_argument("MemberList: members must be added in increasing order");
    if (index == next) {
      ++open_length_;
      ++size_;
      return;
    }
    close_open_run();
  }
  open_first_ = index;
  open_length_ = 1;
  ++size_;
}

void MemberList::close_open_run() {
  if (closed_runs_ % kCheckpointRuns == 0) checkpoints_.push_back({open_first_, bytes_.size()});
  // Growth by a quarter, not double: the room left unused stays a fraction of the list.
  constexpr std::size_t kMostBytesARun = 20;
  if (bytes_.size() + kMostBytesARun > bytes_.capacity()) bytes_.reserve(bytes_.capacity() + bytes_.capacity() / 4 + 64);
  put_varint(bytes_, open_first_ - closed_end_);
  put_varint(bytes_, open_length_ - 1);
  closed_end_ = uint64_t{open_first_} + open_length_;
  ++closed_runs_;
  open_length_ = 0;
}

uint32_t MemberList::front() const {
  if (empty()) throw std::out_of_range("MemberList::front: the list is empty");
  return checkpoints_.empty() ? open_first_ : checkpoints_.front().first;
}

bool MemberList::contains(uint32_t index) const {
  if (empty()) return false;
  if (index >= open_first_) return index - uint64_t{open_first_} < open_length_;
  // The last checkpoint at or before `index`, then its runs in order.
  auto cp = std::upper_bound(checkpoints_.begin(), checkpoints_.end(), index,
                             [](uint32_t i, const Checkpoint& c) { return i < c.first; });
  if (cp == checkpoints_.begin()) return false;
  --cp;
  std::size_t at = cp->at;
  uint64_t end = 0;  // one past the run before (the checkpoint gives its first run's start)
  bool first_run = true;
  while (at < bytes_.size()) {
    const uint64_t gap = get_varint(bytes_, at);
    const uint64_t length = get_varint(bytes_, at) + 1;
    const uint64_t first = first_run ? uint64_t{cp->first} : end + gap;
    first_run = false;
    if (index < first) return false;
    if (index < first + length) return true;
    end = first + length;
  }
  return false;
}

std::vector<uint32_t> MemberList::to_vector() const {
  std::vector<uint32_t> out;
  out.reserve(size_);
  for (uint32_t i : *this) out.push_back(i);
  return out;
}

bool MemberList::operator==(const MemberList& other) const {
  // Runs are maximal, so one sequence has one encoding.
  return size_ == other.size_ && bytes_ == other.bytes_ && open_first_ == other.open_first_ &&
         open_length_ == other.open_length_;
}

MemberList::iterator::iterator(const MemberList* list, std::size_t left) : list_(list), left_(left) {
  if (left_ > 0) enter_next_run();
}

void MemberList::iterator::enter_next_run() {
  const std::vector<unsigned char>& bytes = list_->bytes_;
  if (at_ < bytes.size()) {
    const uint64_t gap = get_varint(bytes, at_);
    const uint64_t length = get_varint(bytes, at_) + 1;
    const uint64_t first = previous_end_ + gap;
    current_ = static_cast<uint32_t>(first);
    run_left_ = length - 1;
    previous_end_ = first + length;
    return;
  }
  current_ = list_->open_first_;
  run_left_ = list_->open_length_ - 1;
}

MemberList::iterator& MemberList::iterator::operator++() {
  --left_;
  if (left_ == 0) return *this;
  if (run_left_ > 0) {
    ++current_;
    --run_left_;
  } else {
    enter_next_run();
  }
  return *this;
}

IncidentCursor::IncidentCursor(const std::vector<const MemberList*>& lists) {
  for (std::size_t k = 0; k < lists.size(); ++k) {
    at_.push_back(lists[k]->begin());
    end_.push_back(lists[k]->end());
    if (at_[k] != end_[k]) heads_.push({*at_[k], k});
  }
}

std::optional<std::size_t> IncidentCursor::list_of(uint32_t index) {
  while (!heads_.empty() && heads_.top().first <= index) {
    const auto [member, k] = heads_.top();
    heads_.pop();
    if (++at_[k] != end_[k]) heads_.push({*at_[k], k});
    if (member == index) return k;
  }
  return std::nullopt;
}

}  // namespace npu_doctor
