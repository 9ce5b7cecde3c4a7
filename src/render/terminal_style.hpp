#pragma once
// ANSI colours for the terminal reports; plain text when colour is off (RenderOptions::color
// already says whether the output is a terminal that wants it).
#include <string>
#include <string_view>

namespace npu_doctor::render_detail {

struct TerminalStyle {
  bool on = false;
  std::string wrap(std::string_view code, std::string_view s) const {
    if (!on) return std::string(s);
    return "\x1b[" + std::string(code) + "m" + std::string(s) + "\x1b[0m";
  }
  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string red(std::string_view s) const { return wrap("1;31", s); }
  std::string green(std::string_view s) const { return wrap("1;32", s); }
  std::string yellow(std::string_view s) const { return wrap("33", s); }
  std::string dim(std::string_view s) const { return wrap("2", s); }
  std::string cyan(std::string_view s) const { return wrap("36", s); }
};

}  // namespace npu_doctor::render_detail
