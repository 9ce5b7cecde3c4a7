#include "regex_suffix.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "regex_literals.hpp"

namespace npu_doctor {
namespace {

struct Item {
  std::size_t begin = 0;
  bool single = false;  // one character (a literal, an escape, a class), exactly once
  bool flags = false;   // an inline flag group "(?i)"
};

// The top-level items of `re`; nullopt when it has a top-level alternation or something
// this reader does not follow.
std::optional<std::vector<Item>> top_level_items(std::string_view re) {
  std::vector<Item> items;
  std::size_t p = 0;
  auto skip_class = [&](std::size_t q) -> std::optional<std::size_t> {  // q at '['
    ++q;
    if (q < re.size() && re[q] == '^') ++q;
    if (q < re.size() && re[q] == ']') ++q;
    while (q < re.size() && re[q] != ']') {
      if (re[q] == '[' && q + 1 < re.size() && re[q + 1] == ':') {  // a POSIX class, "[:digit:]"
        const auto close = re.find(":]", q + 2);
        if (close == std::string_view::npos) return std::nullopt;
        q = close + 2;
        continue;
      }
      q += re[q] == '\\' ? 2u : 1u;
    }
    if (q >= re.size()) return std::nullopt;
    return q + 1;
  };
  while (p < re.size()) {
    Item it;
    it.begin = p;
    const char c = re[p];
    if (c == '|' || c == ')') return std::nullopt;
    if (c == '(') {
      if (re.substr(p).starts_with("(?") && p + 2 < re.size()) {
        // "(?i)" (flags only, no ':') changes the rest of the pattern.
        std::size_t q = p + 2;
        while (q < re.size() && std::isalpha(static_cast<unsigned char>(re[q])) != 0) ++q;
        if (q < re.size() && re[q] == ')' && q > p + 2) {
          it.flags = true;
          items.push_back(it);
          p = q + 1;
          continue;
        }
      }
      int depth = 0;
      std::size_t q = p;
      for (; q < re.size(); ++q) {
        if (re[q] == '\\') {
          ++q;
        } else if (re[q] == '[') {
          auto e = skip_class(q);
          if (!e) return std::nullopt;
          q = *e - 1;
        } else if (re[q] == '(') {
          ++depth;
        } else if (re[q] == ')' && --depth == 0) {
          break;
        }
      }
      if (q >= re.size()) return std::nullopt;
      p = q + 1;
    } else if (c == '[') {
      auto e = skip_class(p);
      if (!e) return std::nullopt;
      p = *e;
      it.single = true;
    } else if (c == '\\') {
      if (p + 1 >= re.size()) return std::nullopt;
      const char e = re[p + 1];
      if (std::isdigit(static_cast<unsigned char>(e)) != 0 || e == 'k' || e == 'g' || e == 'Q' || e == 'x' ||
          e == 'p' || e == 'P' || e == 'c' || e == 'o' || e == 'N') {
        return std::nullopt;  // back-references, \Q..\E and multi-byte escapes: not followed
      }
      p += 2;
      // \b \B \A \z \Z \G are assertions, not characters.
      it.single = std::string_view("bBAzZG").find(e) == std::string_view::npos;
    } else {
      ++p;
      it.single = c != '^' && c != '$';
    }
    // A quantifier makes the item optional or variable.
    if (p < re.size() && (re[p] == '*' || re[p] == '+' || re[p] == '?' || re[p] == '{')) {
      if (re[p] == '{') {
        const auto close = re.find('}', p);
        if (close == std::string_view::npos) return std::nullopt;
        p = close + 1;
      } else {
        ++p;
      }
      if (p < re.size() && (re[p] == '?' || re[p] == '+')) ++p;
      it.single = false;
    }
    items.push_back(it);
  }
  return items;
}

std::size_t shortest_of_best(std::string_view re) {
  const RequiredLiterals lits = required_literals(re);
  const auto* best = lits.best();
  if (best == nullptr || best->empty()) return 0;
  std::size_t n = SIZE_MAX;
  for (const auto& s : *best) n = std::min(n, s.size());
  return n;
}

}  // namespace

std::optional<std::string> first_stage_suffix(std::string_view regex) {
  const auto items = top_level_items(regex);
  if (!items || items->empty()) return std::nullopt;
  std::string flags;
  std::size_t first = 0;
  if (items->front().flags) {
    flags = std::string(regex.substr(0, (*items)[1 % items->size()].begin));
    first = 1;
    if (items->size() == 1) return std::nullopt;
  }
  if (std::any_of(items->begin() + static_cast<std::ptrdiff_t>(first), items->end(), [](const Item& i) { return i.flags; })) {
    return std::nullopt;
  }
  const std::size_t want = shortest_of_best(regex);
  if (want == 0) return std::nullopt;
  const auto suffix = [&](std::size_t k) { return flags + std::string(regex.substr((*items)[k].begin)); };
  // The last item from which on the pattern still needs as long a literal...
  std::size_t k = items->size();
  while (k-- > first) {
    if (shortest_of_best(suffix(k)) >= want) break;
  }
  if (k < first || k >= items->size()) return std::nullopt;
  // ...then back over optional and variable items to one certain character before it, which
  // anchors the suffix ("[:=]" before "\s*['\"]?(nan|inf)").
  while (k > first) {
    --k;
    if ((*items)[k].single) break;
  }
  if (k == first) return std::nullopt;  // nothing left to cut
  return suffix(k);
}

}  // namespace npu_doctor
