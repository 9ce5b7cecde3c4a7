#pragma once
// Fitting text to a terminal: display width of UTF-8 (East Asian wide characters take two
// columns), word wrapping with a hanging indent (Chinese breaks between characters), and
// cutting a log line to the width with an ellipsis.
#include <cstddef>
#include <string>
#include <string_view>

namespace npu_doctor::render_detail {

// Columns `s` takes on a terminal (no escape sequences expected).
std::size_t display_width(std::string_view s);

// `text` wrapped to `width` columns: the first line continues after `first` columns
// already used, the next lines start with `indent` spaces. Returns the text with "\n"
// between the lines (none at the end). width 0: no wrapping.
std::string wrap_text(std::string_view text, std::size_t width, std::size_t first, std::size_t indent);

// At most `width` columns of `s`, "…" at the end when cut. width 0: unchanged.
std::string fit_width(std::string_view s, std::size_t width);

}  // namespace npu_doctor::render_detail
