#pragma once
// Lines out of blocks of bytes that arrive one after another (a file read in blocks, a
// pipe, an archive member), and out of text already in memory. One place for what every
// reader of tool output needs: a line split across two blocks is joined, an over-long line
// is cut so memory stays bounded whatever the input, and a CRLF file reads like an LF one
// where the caller asks for it.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

namespace npu_doctor {

class LineAssembler {
 public:
  // keep_bytes: at most this many bytes of a line are kept, the rest until its '\n' is
  // dropped (pass max + 1 to let the caller tell a cut line from one of exactly max bytes).
  // strip_cr: a '\r' ending the kept bytes is removed ("text\r\n" reads as "text").
  explicit LineAssembler(std::size_t keep_bytes, bool strip_cr = false) : keep_(keep_bytes), strip_cr_(strip_cr) {}

  // Hands every line completed by `block` to on_line (without its '\n'). on_line returns
  // void, or bool where false stops: then feed returns false and the rest is not read.
  template <typename F>
  bool feed(std::string_view block, F&& on_line) {
    while (!block.empty()) {
      const std::size_t nl = block.find('\n');
      // substr clamps: up to the '\n' (or the block's end), and never past keep_ bytes in all.
      if (line_.size() < keep_) line_.append(block.substr(0, std::min(nl, keep_ - line_.size())));
      if (nl == std::string_view::npos) return true;
      block.remove_prefix(nl + 1);
      if (!emit(on_line)) return false;
    }
    return true;
  }

  // The last line when the input did not end with '\n'; nothing when it did.
  template <typename F>
  void finish(F&& on_line) {
    if (!line_.empty()) emit(on_line);
  }

 private:
  template <typename F>
  bool emit(F& on_line) {
    if (strip_cr_ && !line_.empty() && line_.back() == '\r') line_.pop_back();
    bool go_on = true;
    if constexpr (std::is_same_v<std::invoke_result_t<F&, std::string_view>, bool>) {
      go_on = on_line(std::string_view(line_));
    } else {
      on_line(std::string_view(line_));
    }
    line_.clear();
    return go_on;
  }

  std::string line_;
  std::size_t keep_;
  bool strip_cr_;
};

// Calls f(line) for each line of `text` (without its '\n'), the last piece too when it has
// no '\n'; a '\n' at the very end adds no empty line.
template <typename F>
void for_each_line(std::string_view text, F&& f) {
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    f(text.substr(begin, end - begin));
    begin = end + 1;
  }
}

}  // namespace npu_doctor
