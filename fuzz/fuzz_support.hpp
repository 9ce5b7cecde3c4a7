#pragma once
// Shared by the libFuzzer harnesses: the fuzzer's bytes as text and as a ByteStream that
// hands them out in uneven pieces (so readers see short reads at every offset), and the
// built-in knowledge base, loaded once per process.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "input_source.hpp"
#include "kb_matcher.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor::fuzz {

inline std::string_view as_text(const uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Reads of 1..max_piece bytes, the piece sizes cycling through a pattern taken from the
// input's first byte, so one input also fixes how it is split.
class PieceStream final : public ByteStream {
 public:
  PieceStream(std::string_view data, std::size_t max_piece) : data_(data), max_piece_(std::max<std::size_t>(max_piece, 1)) {}
  long read(char* buf, std::size_t n) override {
    if (pos_ >= data_.size()) return 0;
    std::size_t piece = 1 + (step_++ * 7919u) % max_piece_;
    std::size_t take = std::min({n, piece, data_.size() - pos_});
    std::memcpy(buf, data_.data() + pos_, take);
    pos_ += take;
    return static_cast<long>(take);
  }

 private:
  std::string_view data_;
  std::size_t max_piece_;
  std::size_t pos_ = 0;
  std::size_t step_ = 0;
};

// The knowledge base built into the binary (kb/*.yaml as shipped).
inline const KnowledgeBase& builtin_kb() {
  static const KnowledgeBase* kb = [] {
    std::vector<KbProblem> problems;
    return new KnowledgeBase(load_knowledge_base(KbLoadOptions{}, problems));
  }();
  return *kb;
}

// Its compiled matcher (no database cache: the harness must not write to $HOME).
inline const KbMatcher& builtin_matcher() {
  static const KbMatcher* matcher = [] {
    std::vector<KbProblem> problems;
    return KbMatcher::build(builtin_kb(), problems).release();
  }();
  return *matcher;
}

}  // namespace npu_doctor::fuzz
