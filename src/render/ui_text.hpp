#pragma once
// The few words of the user interface itself (headings, labels), in English and
// Chinese. Knowledge (titles, causes, remedies) lives in kb/, not here.
#include <string>
#include <string_view>
#include <vector>

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
  follows_section,
  independent_section,
  same_line,
  peer,
  waited_read_first,      // {0}: who waited, {1}: the peer rank
  this_rank,
  waited_for,             // {0}: the peer rank
  incident_n_of,          // {0} of {1}
  other_incidents,
  time,
  root_cause_lower,
  no_error_finding,
  time_unknown,
  under,
  incidents_word,
  input_is_empty,         // {0}: the path
  inputs_are_empty,       // {0}: how many
  empty,
  file_is_empty,
  incident,
  count_,
};

std::string_view get(Text t, Lang lang);
// get() with {0}, {1}... replaced by `args`.
std::string format(Text t, Lang lang, const std::vector<std::string>& args);

}  // namespace npu_doctor::ui
