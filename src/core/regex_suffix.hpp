#pragma once
// A cheaper first-stage regex for a pattern the first stage must run itself
// (docs/scanning.md): the pattern without the leading items of its top-level sequence that
// its rarest literal does not need. Any match of `P S` holds a match of `S` ending at the
// same place in the same text (assertions in `S` see the same neighbours), so the line the
// first stage marks is the same, and only lines holding `S` more are marked besides.
// Vectorscan runs a short suffix anchored on its literal much faster than a pattern whose
// literal ("inf") must be confirmed backwards through a long alternation of names.
#include <optional>
#include <string>
#include <string_view>

namespace npu_doctor {

// The suffix, with the pattern's leading inline flags ("(?i)") kept; nullopt when nothing
// can be cut (a top-level alternation, flags changed mid-pattern, a back-reference, or no
// item before the literal that the cut could drop).
std::optional<std::string> first_stage_suffix(std::string_view regex);

}  // namespace npu_doctor
