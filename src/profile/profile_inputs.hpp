#pragma once
// Which files of a profiling directory are read, as what, and which are left out
// (older exports, per-device copies of a combined table).
#include <string>
#include <string_view>
#include <vector>

#include "core/input_source.hpp"
#include "profile.hpp"

namespace npu_doctor::profile_detail {

// The kind of a profiling file from its name ("op_summary_20240101.csv" -> "op_summary",
// also inside .gz/.zst/.xz/.bz2), or "" when it is not one we read.
std::string kind_from_name(std::string_view path);

// The kind of a CSV from its header line when the name says nothing (stdin, renamed files).
std::string kind_from_header(std::string_view first_line);

struct PlannedInput {
  InputItem item;
  std::string kind;  // "" = decide per archive member or from the header
};

// An InputReport with the fields that matter here (the rest default).
InputReport make_input_report(std::string path, std::string kind, InputStatus status, std::string note);

// Chooses the files to read among the enumerated ones; the others go to `left_out` with a note.
std::vector<PlannedInput> plan_inputs(const Enumeration& en, const std::vector<std::string>& named_paths,
                                      std::vector<InputReport>& left_out, uint64_t& ignored);

}  // namespace npu_doctor::profile_detail
