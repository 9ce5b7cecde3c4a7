#pragma once
// A strict reader of the Prometheus text exposition format (version 0.0.4), for the
// tests of `-f prometheus`: names and label names by the grammar, only the escapes the
// format defines, HELP and TYPE at most once per family and before its samples, a family's
// samples in one group, no series twice, a newline at the end, valid UTF-8. Also the
// naming rules npu-doctor follows: snake_case, HELP and TYPE on every family, counters
// end in _total and nothing else does.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npu_doctor::testing {

struct ExpositionSample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;  // unescaped
  double value = 0;

  std::optional<std::string> label(std::string_view name) const;
};

struct ExpositionFamily {
  std::string type;  // counter, gauge, histogram, summary, untyped
  std::string help;  // unescaped
  std::vector<ExpositionSample> samples;
};

struct Exposition {
  std::map<std::string, ExpositionFamily> families;

  // The samples of `family` whose labels include all of `match`.
  std::vector<ExpositionSample> find(const std::string& family,
                                     const std::vector<std::pair<std::string, std::string>>& match = {}) const;
};

// nullopt with `error` ("line N: ...") when the text breaks a rule.
std::optional<Exposition> parse_exposition(std::string_view text, std::string& error);

}  // namespace npu_doctor::testing
