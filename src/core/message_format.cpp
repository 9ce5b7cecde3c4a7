#include "message_format.hpp"

#include <algorithm>
#include <cctype>

namespace npu_doctor {
namespace {

// A byte that \b counts as part of a word (PCRE2 without UCP): where a format's first or last
// word meets a boundary.
bool is_word_byte(unsigned char c) { return std::isalnum(c) != 0 || c == '_'; }

// One placeholder's regex. Integers and pointers get digit classes (they are what makes a
// message line recognisable among similar ones); text gets a lazy any-run.
std::string_view conversion_regex(char conv) {
  switch (conv) {
    case 'd': case 'i': return R"(-?\d+)";
    case 'u': case 'o': return R"(\d+)";
    case 'x': case 'X': case 'p': return R"((?:0[xX])?[0-9a-fA-F]+|\(nil\))";
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
      return R"(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|-?inf|-?nan)";
    case 'c': return ".";
    default: return ".*?";
  }
}


struct Piece {
  std::string literal;  // a literal run, or
  char conv = 0;        // a placeholder's conversion character
};

// printf: %[flags][width][.precision][length]conv; "%%" is a literal percent sign.
std::vector<Piece> printf_pieces(std::string_view f) {
  std::vector<Piece> out;
  std::string lit;
  auto flush = [&] {
    if (!lit.empty()) out.push_back({lit, 0});
    lit.clear();
  };
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      lit += f[i];
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '%') {
      lit += '%';
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    while (j < f.size() && std::string_view("-+ #0'").find(f[j]) != std::string_view::npos) ++j;
    while (j < f.size() && (std::isdigit(static_cast<unsigned char>(f[j])) || f[j] == '*')) ++j;
    if (j < f.size() && f[j] == '.') {
      ++j;
      while (j < f.size() && (std::isdigit(static_cast<unsigned char>(f[j])) || f[j] == '*')) ++j;
    }
    while (j < f.size() && std::string_view("hljztLqI3264").find(f[j]) != std::string_view::npos) ++j;
    if (j < f.size() && std::string_view("diouxXeEfFgGaAcspn").find(f[j]) != std::string_view::npos) {
      flush();
      if (f[j] != 'n') out.push_back({{}, f[j]});
      i = j;
    } else {
      lit += '%';  // not a conversion: printed as is
    }
  }
  flush();
  return out;
}

// Python: "{}", "{name}", "{0!r:>10}" and %-style conversions; "{{" / "}}" are braces.
std::vector<Piece> python_pieces(std::string_view f) {
  std::vector<Piece> out;
  std::string lit;
  auto flush = [&] {
    if (!lit.empty()) out.push_back({lit, 0});
    lit.clear();
  };
  for (std::size_t i = 0; i < f.size(); ++i) {
    const char c = f[i];
    if ((c == '{' || c == '}') && i + 1 < f.size() && f[i + 1] == c) {
      lit += c;
      ++i;
    } else if (c == '{') {
      const auto close = f.find('}', i);
      if (close == std::string_view::npos) {
        lit += c;
        continue;
      }
      flush();
      out.push_back({{}, 's'});
      i = close;
    } else if (c == '%' && i + 1 < f.size()) {
      std::size_t j = i + 1;
      while (j < f.size() && std::string_view("-+ #0").find(f[j]) != std::string_view::npos) ++j;
      while (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j]))) ++j;
      if (j < f.size() && f[j] == '.') {
        ++j;
        while (j < f.size() && std::isdigit(static_cast<unsigned char>(f[j]))) ++j;
      }
      if (j < f.size() && std::string_view("sdifrxXegc").find(f[j]) != std::string_view::npos) {
        flush();
        out.push_back({{}, f[j] == 'r' ? 's' : f[j]});
        i = j;
      } else if (f[i + 1] == '%') {
        lit += '%';
        ++i;
      } else {
        lit += c;
      }
    } else {
      lit += c;
    }
  }
  flush();
  return out;
}

}  // namespace

void append_literal(std::string& regex, std::string_view text) {
  constexpr std::string_view kMeta = "\\^$.|?*+()[]{}";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (kMeta.find(c) != std::string_view::npos) {
      regex += '\\';
      regex += c;
    } else if (std::isprint(u) || u >= 0x80) {
      regex += c;
    } else if (c == '\t') {
      regex += "\\t";
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      regex += "\\x";
      regex += kHex[u >> 4];
      regex += kHex[u & 15];
    }
  }
}

std::optional<FormatStyle> parse_format_style(std::string_view s) {
  if (s == "printf") return FormatStyle::printf;
  if (s == "python") return FormatStyle::python;
  return std::nullopt;
}

std::optional<FormatPattern> format_to_pattern(std::string_view format, FormatStyle style, std::string& error) {
  // One record prints on one line: what follows a newline is not on the matched line.
  format = format.substr(0, format.find('\n'));
  std::vector<Piece> pieces = style == FormatStyle::printf ? printf_pieces(format) : python_pieces(format);
  // Trailing spaces of the record are often trimmed by whatever printed the log.
  while (!pieces.empty() && pieces.back().conv == 0) {
    std::string& lit = pieces.back().literal;
    while (!lit.empty() && (lit.back() == ' ' || lit.back() == '\r' || lit.back() == '\t')) lit.pop_back();
    if (!lit.empty()) break;
    pieces.pop_back();
  }
  FormatPattern out;
  out.leading_placeholder = !pieces.empty() && pieces.front().conv != 0;
  while (!pieces.empty() && pieces.front().conv != 0) pieces.erase(pieces.begin());
  const bool trailing_placeholder = !pieces.empty() && pieces.back().conv != 0;
  // A format that begins with a word begins at a word boundary: "Init failed." is the
  // driver's message, not the end of HCCL's "HcclCommInit failed. ret = 4".
  const bool leading_boundary = !out.leading_placeholder && !pieces.empty() && !pieces.front().literal.empty() &&
                                is_word_byte(static_cast<unsigned char>(pieces.front().literal.front()));
  while (!pieces.empty() && pieces.back().conv != 0) pieces.pop_back();
  // "unsupported mode %ld" ends with the word "mode": it must not recognise "unsupported
  // model type" (a word that merely starts with the format's last word), so a last word
  // that stood apart from the dropped placeholder ends at a word boundary.
  bool word_boundary = false;
  if (!pieces.empty()) {  // "load file %s" ends with the literal "load file"
    std::string& lit = pieces.back().literal;
    const std::size_t before = lit.size();
    while (!lit.empty() && (lit.back() == ' ' || lit.back() == '\t')) lit.pop_back();
    const auto last = static_cast<unsigned char>(lit.empty() ? '\0' : lit.back());
    word_boundary = trailing_placeholder && lit.size() < before && is_word_byte(last);
    // A message's closing "." or "!" is what a quote, a paste or a re-wrapped line loses
    // first ("`Failed to obtain op buffer shape size which should be static`"): a format
    // that ends a sentence of five words or more matches without it, the word ending at a
    // boundary. A shorter one keeps it: without its full stop "timeout." or "Failed to
    // initialize." would claim every sentence that merely contains those words.
    if (!trailing_placeholder && std::count(lit.begin(), lit.end(), ' ') >= kMinWordsForOptionalStop - 1) {
      std::size_t end = lit.size();
      while (end > 0 && (lit[end - 1] == '.' || lit[end - 1] == '!')) --end;
      const auto word_end = static_cast<unsigned char>(end == 0 ? '\0' : lit[end - 1]);
      if (end < lit.size() && end > 0 && is_word_byte(word_end)) {
        lit.resize(end);
        word_boundary = true;
      }
    }
    if (lit.empty()) pieces.pop_back();
  }

  // A comma is followed by an optional space: releases of one component print the same
  // message as "devId[1],but local" and "devId[1], but local". Not when it would leave no
  // literal run long enough to recognise the message by.
  const auto longest_run = [&](bool split_commas) {
    std::size_t longest = 0;
    for (const Piece& p : pieces) {
      if (p.conv != 0) continue;
      std::size_t run = 0;
      for (char c : p.literal) {
        run = split_commas && c == ',' ? 0 : run + 1;
        longest = std::max(longest, run);
      }
    }
    return longest;
  };
  const bool split_commas = longest_run(true) >= kMinFormatLiteral;
  std::size_t longest = longest_run(split_commas);
  if (leading_boundary) out.regex += "\\b";
  for (const Piece& p : pieces) {
    if (p.conv != 0) {
      out.regex += "(?:";
      out.regex += conversion_regex(p.conv);
      out.regex += ')';
      continue;
    }
    std::string_view text = p.literal;
    std::size_t comma;
    while (split_commas && (comma = text.find(',')) != std::string_view::npos) {
      append_literal(out.regex, text.substr(0, comma));
      out.regex += ", ?";
      text.remove_prefix(comma + 1);
      if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    }
    append_literal(out.regex, text);
    out.literals.push_back(p.literal);
  }
  if (word_boundary) out.regex += "\\b";
  if (longest < kMinFormatLiteral) {
    error = "the format keeps no literal text of " + std::to_string(kMinFormatLiteral) +
            " or more characters, so nothing would recognise it reliably";
    return std::nullopt;
  }
  return out;
}

}  // namespace npu_doctor
