#include "text_layout.hpp"

#include <vector>

namespace npu_doctor::render_detail {
namespace {

// One UTF-8 sequence at s[i]: its length in bytes and its code point (U+FFFD if broken).
std::pair<std::size_t, char32_t> next_char(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 1;
  if (i + n > s.size()) return {1, 0xfffd};
  if (n == 1) return {1, c < 0x80 ? c : 0xfffd};
  char32_t cp = c & (0x7f >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) return {1, 0xfffd};
    cp = (cp << 6) | (b & 0x3f);
  }
  return {n, cp};
}

// East Asian Wide and Fullwidth ranges that matter in logs and in our Chinese texts.
bool wide(char32_t c) {
  return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) || (c >= 0x3041 && c <= 0x33ff) ||
         (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
         (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) ||
         (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd);
}

std::size_t char_width(char32_t c) {
  if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return 0;
  if (c >= 0x300 && c <= 0x36f) return 0;  // combining marks
  return wide(c) ? 2 : 1;
}

// Chinese punctuation no line may start with: it stays with the character before it.
bool closing_punctuation(char32_t c) {
  switch (c) {
    case 0x3001: case 0x3002: case 0xff0c: case 0xff1a: case 0xff1b: case 0xff01: case 0xff1f:
    case 0xff09: case 0x300d: case 0x300f: case 0x3011:
      return true;
    default:
      return false;
  }
}

// Pieces a line may break between: a word, or one wide character (Chinese breaks between
// characters), each with the spaces after it; closing punctuation stays with what it closes.
struct Piece {
  std::string_view text;         // without trailing spaces
  std::size_t width = 0;
  std::size_t spaces_after = 0;  // kept inside a line ("file.log:8  ×3"), dropped at a break
  bool ends_wide = false;
};

std::vector<Piece> pieces(std::string_view s) {
  std::vector<Piece> out;
  bool after_space = true;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == ' ') {
      if (!out.empty()) ++out.back().spaces_after;
      after_space = true;
      ++i;
      continue;
    }
    const auto [n, cp] = next_char(s, i);
    const bool is_wide = wide(cp);
    const bool glue = !out.empty() && !after_space && (closing_punctuation(cp) || (!is_wide && !out.back().ends_wide));
    if (glue) {
      Piece& p = out.back();
      p.text = std::string_view(p.text.data(), p.text.size() + n);
      p.width += char_width(cp);
      p.ends_wide = is_wide;
    } else {
      out.push_back({s.substr(i, n), char_width(cp), 0, is_wide});
    }
    after_space = false;
    i += n;
  }
  return out;
}

}  // namespace

std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto [n, cp] = next_char(s, i);
    w += char_width(cp);
    i += n;
  }
  return w;
}

std::string wrap_text(std::string_view text, std::size_t width, std::size_t first, std::size_t indent) {
  if (width == 0) return std::string(text);
  std::string out;
  std::size_t col = first;
  bool line_empty = true;
  std::size_t pending_spaces = 0;
  for (const Piece& p : pieces(text)) {
    const std::size_t gap = line_empty ? 0 : pending_spaces;
    if (!line_empty && col + gap + p.width > width) {
      out += "\n" + std::string(indent, ' ');
      col = indent;
      line_empty = true;
    } else {
      out += std::string(gap, ' ');
      col += gap;
    }
    out += p.text;
    col += p.width;
    line_empty = false;
    pending_spaces = p.spaces_after;
  }
  return out;
}

std::string fit_width(std::string_view s, std::size_t width) {
  if (width == 0 || display_width(s) <= width) return std::string(s);
  std::string out;
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto [n, cp] = next_char(s, i);
    const std::size_t cw = char_width(cp);
    if (w + cw + 1 > width) break;  // room for the ellipsis
    out.append(s.substr(i, n));
    w += cw;
    i += n;
  }
  return out + "…";
}

}  // namespace npu_doctor::render_detail
