#pragma once
// How any report is rendered: language, colour, width. Every feature's renderers take it.
#include <cstddef>

#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor {

struct RenderOptions {
  Lang lang = Lang::en;
  bool color = false;          // ANSI colours (text only)
  std::size_t width = 80;      // text: wrap at this many columns (0: never)
  bool all_incidents = false;  // text, markdown: every incident in full, not the shown one and a table
};

}  // namespace npu_doctor
