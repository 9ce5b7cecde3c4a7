#pragma once
// The few words of the user interface itself (headings, labels), in English and
// Chinese. Knowledge (titles, causes, remedies) lives in kb/, not here.
#include <string_view>

#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::ui {

enum class Text {
  root_cause,
  no_root_cause,
  why,
  evidence,
  cause,
  remedies,
  other_findings,
  inputs_with_problems,
  symptom,
  wrapper,
  hint,
  follows_from,
  occurrences,
  seen,
  findings_word,
  inputs_word,
  lines_word,
  nothing_found,
  category,
  code,
  references,
  incident,
};

std::string_view get(Text t, Lang lang);

}  // namespace npu_doctor::ui
