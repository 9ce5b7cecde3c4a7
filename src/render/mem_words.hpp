#pragma once
// The two small conversions every mem renderer (text, HTML page, chart) writes with.
#include <cstdint>
#include <string>

#include "analyzers/memory/byte_size.hpp"
#include "analyzers/memory/mem_ui_text.hpp"

namespace npu_doctor::mem::render_words {

inline std::string bytes(uint64_t b) { return format_bytes(static_cast<double>(b)); }
inline std::string word(MemText t, Lang lang) { return std::string(mem_text(t, lang)); }

}  // namespace npu_doctor::mem::render_words
