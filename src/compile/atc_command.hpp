#pragma once
// The ATC command line as users paste it into their console logs ("$ atc --model=... \"),
// parsed into options, and printed again with changes.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "atc.hpp"

namespace npu_doctor::atc_detail {

// Shell-like words: '...' and "..." quoting, backslash escapes.
std::vector<std::string> shell_words(std::string_view line);

// An ATC invocation in `text` (one logical line, continuations already joined): the word
// whose file name is "atc" followed by --options. nullopt when there is none.
std::optional<AtcCommand> parse_atc_command(std::string_view text);

// The command with `set` options replaced or appended (in order) and `remove` dropped.
std::string format_atc_command(const AtcCommand& cmd,
                               const std::vector<std::pair<std::string, std::string>>& set,
                               const std::vector<std::string>& remove = {});

// Quotes a word for a POSIX shell when it needs it.
std::string shell_quote(std::string_view word);

}  // namespace npu_doctor::atc_detail
