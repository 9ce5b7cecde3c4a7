#pragma once
// Message formats from the stack's sources (docs/kb-messages.md) turned into the pattern
// that recognises what they print: printf ("%s failed, ret[%d]") or Python ("{} is not
// supported") placeholders become number or text classes, everything else is literal.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor {

enum class FormatStyle { printf, python };

std::optional<FormatStyle> parse_format_style(std::string_view s);

struct FormatPattern {
  std::string regex;                  // PCRE2 (and Vectorscan) syntax, one line
  std::vector<std::string> literals;  // the literal runs the regex keeps, in order
  bool leading_placeholder = false;   // the format started with a placeholder (dropped)
};

// The pattern of `format`. Leading and trailing placeholders are dropped (patterns are
// searched anywhere in a line), and so is everything after a newline in the format (a
// log record prints on one line). A last word that stood apart from a dropped placeholder
// ends at a word boundary ("unsupported mode %ld" is not "unsupported model"). Fails with `error` set when nothing literal is left.
std::optional<FormatPattern> format_to_pattern(std::string_view format, FormatStyle style, std::string& error);

// Appends `text` to `regex` as a literal (metacharacters and control characters escaped),
// in the syntax both PCRE2 and Vectorscan read.
void append_literal(std::string& regex, std::string_view text);

// Characters of the longest literal run: a format whose runs are all shorter than
// kMinFormatLiteral cannot be recognised reliably (docs/kb-messages.md).
constexpr std::size_t kMinFormatLiteral = 4;
// A format's closing full stop is optional when its last literal holds this many words.
constexpr std::ptrdiff_t kMinWordsForOptionalStop = 5;

}  // namespace npu_doctor
