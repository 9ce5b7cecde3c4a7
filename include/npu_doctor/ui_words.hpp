#pragma once
// The words of the user interface (headings, labels, sentences), in English and Chinese, from
// the catalogue data/ui.yaml (docs/ui-words.md). The build lints it and generates ui::Key, so
// naming a word the catalogue lacks is a compile error; the texts are compiled in, so nothing
// is read or parsed at start-up. Knowledge (titles, causes, remedies) lives in kb/, not here.
#include <fmt/core.h>

#include <string>
#include <string_view>

#include "npu_doctor/ui_keys.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::ui {

// A word without placeholders, as written ("ROOT CAUSE", "根因").
std::string_view word(Key k, Lang lang);

// A text with its named placeholders filled:
//   ui::text(Key::report_waited_for, lang, fmt::arg("peer", 3))
// A text whose arguments do not fit (a name missing) comes back unformatted rather than
// throwing; the unit tests format every key that has placeholders.
std::string vtext(Key k, Lang lang, fmt::format_args args);
template <typename... Args>
std::string text(Key k, Lang lang, const Args&... args) {
  return vtext(k, lang, fmt::make_format_args(args...));
}

// The key as data/ui.yaml writes it ("report.root_cause").
std::string_view key_name(Key k);
// Whether the key's text has placeholders (and so is a format string).
bool formatted(Key k);

}  // namespace npu_doctor::ui
