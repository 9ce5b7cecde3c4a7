#include "regex.hpp"

#include <algorithm>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace npu_doctor {

struct Regex::Code {
  pcre2_code* code = nullptr;
  bool jit = false;
  ~Code() { pcre2_code_free(code); }
};

namespace {

// One match-data block per thread, large enough for any knowledge-base pattern.
constexpr uint32_t kMaxPairs = 64;

pcre2_match_data* thread_match_data() {
  struct Holder {
    pcre2_match_data* data = pcre2_match_data_create(kMaxPairs, nullptr);
    ~Holder() { pcre2_match_data_free(data); }
  };
  thread_local Holder holder;
  return holder.data;
}

}  // namespace

std::optional<Regex> Regex::compile(std::string_view pattern, bool ignore_case, std::string& error, Jit jit) {
  int errcode = 0;
  PCRE2_SIZE erroffset = 0;
  uint32_t options = ignore_case ? PCRE2_CASELESS : 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   options, &errcode, &erroffset, nullptr);
  if (code == nullptr) {
    PCRE2_UCHAR buf[256];
    pcre2_get_error_message(errcode, buf, sizeof buf);
    error = std::string(reinterpret_cast<const char*>(buf)) + " at offset " + std::to_string(erroffset);
    return std::nullopt;
  }
  uint32_t captures = 0;
  pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &captures);
  if (captures + 1 > kMaxPairs) {
    pcre2_code_free(code);
    error = "too many capture groups (at most " + std::to_string(kMaxPairs - 1) + ")";
    return std::nullopt;
  }
  Regex r;
  r.code_ = std::make_shared<Code>();
  r.code_->code = code;
  r.code_->jit = jit == Jit::on && pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
  r.names_ = std::make_shared<Names>();

  uint32_t count = 0, entry_size = 0;
  PCRE2_SPTR table = nullptr;
  pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &count);
  pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
  pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &table);
  std::vector<std::pair<int, std::string>> named;
  for (uint32_t i = 0; i < count; ++i) {
    const PCRE2_SPTR e = table + i * entry_size;
    const int number = (e[0] << 8) | e[1];
    named.emplace_back(number, std::string(reinterpret_cast<const char*>(e + 2)));
  }
  std::sort(named.begin(), named.end());
  for (auto& [n, name] : named) {
    r.names_->numbers.push_back(n);
    r.names_->list.push_back(std::move(name));
  }
  return r;
}

std::optional<RegexMatch> Regex::search(std::string_view subject, std::size_t start) const {
  if (start > subject.size()) return std::nullopt;
  pcre2_match_data* md = thread_match_data();
  const auto* s = reinterpret_cast<PCRE2_SPTR>(subject.data());
  int rc = code_->jit ? pcre2_jit_match(code_->code, s, subject.size(), start, 0, md, nullptr)
                      : pcre2_match(code_->code, s, subject.size(), start, 0, md, nullptr);
  if (rc < 0) return std::nullopt;
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
  RegexMatch m;
  m.begin = ov[0];
  m.end = ov[1];
  m.start = std::min<std::size_t>(pcre2_get_startchar(md), m.begin);
  for (std::size_t i = 0; i < names_->list.size(); ++i) {
    const auto n = static_cast<std::size_t>(names_->numbers[i]);
    if (n >= static_cast<std::size_t>(rc) || ov[2 * n] == PCRE2_UNSET) continue;
    m.named.emplace_back(names_->list[i], std::string(subject.substr(ov[2 * n], ov[2 * n + 1] - ov[2 * n])));
  }
  return m;
}

}  // namespace npu_doctor
