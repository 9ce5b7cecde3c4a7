#pragma once
// A small PCRE2 wrapper: the one regex dialect of the knowledge base. Vectorscan
// finds candidate lines fast; PCRE2 confirms a match on one line and extracts the
// named captures. Byte semantics (no UTF mode), so invalid UTF-8 is never a problem.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npu_doctor {

struct RegexMatch {
  std::size_t begin = 0;
  std::size_t end = 0;
  // Where the match started, before any \K (equal to `begin` without one): the context
  // a redaction keeps but must see again when a stream is cut.
  std::size_t start = 0;
  // Named groups that took part in the match, in pattern order.
  std::vector<std::pair<std::string, std::string>> named;

  std::string_view group(std::string_view name) const {
    for (const auto& [n, v] : named) {
      if (n == name) return v;
    }
    return {};
  }
};

class Regex {
 public:
  // Whether the pattern is also compiled to machine code: a program that matches many lines
  // gains from it; one that matches a few (kb lint's, made for an entry's samples and let go)
  // loses, as compiling to machine code costs more than the lines take to match.
  enum class Jit { on, off };
  // Compiles `pattern`; on failure returns nullopt and sets `error` (with the offset).
  static std::optional<Regex> compile(std::string_view pattern, bool ignore_case, std::string& error, Jit jit = Jit::on);

  // First match in `subject` at or after `start`.
  std::optional<RegexMatch> search(std::string_view subject, std::size_t start = 0) const;

  const std::vector<std::string>& group_names() const { return names_->list; }

 private:
  struct Code;
  struct Names {
    std::vector<std::string> list;
    std::vector<int> numbers;  // capture group number of each name
  };
  std::shared_ptr<Code> code_;
  std::shared_ptr<Names> names_;
};

}  // namespace npu_doctor
