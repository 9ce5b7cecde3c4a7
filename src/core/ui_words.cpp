#include "npu_doctor/ui_words.hpp"

#include <array>
#include <cstddef>

namespace npu_doctor::ui {
namespace {

struct UiWord {
  std::string_view key;
  std::array<std::string_view, 2> text;  // en, zh
  bool formatted;
};

// Generated from data/ui.yaml by npu-doctor-ui-words (src/kbc/ui_words_gen.cpp).
constexpr UiWord kUiWords[] = {
#include "ui_words_table.inc"
};
static_assert(std::size(kUiWords) == static_cast<std::size_t>(Key::count_), "ui_keys.hpp and the table disagree");

const UiWord& ui_word(Key k) { return kUiWords[static_cast<std::size_t>(k)]; }
std::size_t lang_index(Lang lang) { return lang == Lang::zh ? 1 : 0; }

}  // namespace

std::string_view word(Key k, Lang lang) { return ui_word(k).text[lang_index(lang)]; }

std::string vtext(Key k, Lang lang, fmt::format_args args) {
  const UiWord& e = ui_word(k);
  const std::string_view t = e.text[lang_index(lang)];
  if (!e.formatted) return std::string(t);
  try {
    return fmt::vformat(t, args);
  } catch (const fmt::format_error&) {
    return std::string(t);
  }
}

std::string_view key_name(Key k) { return ui_word(k).key; }

bool formatted(Key k) { return ui_word(k).formatted; }

}  // namespace npu_doctor::ui
