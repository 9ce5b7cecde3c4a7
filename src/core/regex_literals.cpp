#include "regex_literals.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

namespace npu_doctor {
namespace {

constexpr std::size_t kMaxExact = 16;       // strings an exact set may hold
constexpr std::size_t kMaxExactLength = 64; // and their length
constexpr std::size_t kMaxClass = 8;        // characters a class may have to count as exact
constexpr std::size_t kMaxClause = 64;      // strings one clause may offer

using Strings = std::set<std::string>;

// What one piece of a pattern says: it matches exactly one of `exact` (when known), and
// every match contains something of each clause of `req`.
struct Info {
  std::optional<Strings> exact;
  std::vector<Strings> req;

  static Info any() { return {}; }
  static Info empty() { return {Strings{""}, {}}; }
  static Info of(Strings s) { return {std::move(s), {}}; }
};

bool usable(const Strings& s) {
  return !s.empty() && s.size() <= kMaxClause &&
         std::none_of(s.begin(), s.end(), [](const std::string& x) { return x.empty(); });
}

std::optional<Strings> cross(const Strings& a, const Strings& b) {
  if (a.size() * b.size() > kMaxExact) return std::nullopt;
  Strings out;
  for (const auto& x : a) {
    for (const auto& y : b) {
      if (x.size() + y.size() > kMaxExactLength) return std::nullopt;
      out.insert(x + y);
    }
  }
  return out;
}

// The clause of `i` that narrows most (its exact set counts as one), or nothing.
std::optional<Strings> best_clause(const Info& i) {
  std::optional<Strings> best;
  std::size_t best_len = 0;
  auto consider = [&](const Strings& s) {
    if (!usable(s)) return;
    std::size_t shortest = SIZE_MAX;
    for (const auto& x : s) shortest = std::min(shortest, x.size());
    if (!best || shortest > best_len || (shortest == best_len && s.size() < best->size())) {
      best = s;
      best_len = shortest;
    }
  };
  if (i.exact) consider(*i.exact);
  for (const auto& c : i.req) consider(c);
  return best;
}

class Parser {
 public:
  explicit Parser(std::string_view re) : re_(re) {}

  Info parse() {
    Info i = alternation();
    if (pos_ != re_.size()) return Info::any();  // something unbalanced: claim nothing
    return i;
  }

 private:
  bool at_end() const { return pos_ >= re_.size(); }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < re_.size() ? re_[pos_ + ahead] : '\0'; }

  Info alternation() {
    std::vector<Info> branches{sequence()};
    while (!at_end() && peek() == '|') {
      ++pos_;
      branches.push_back(sequence());
    }
    if (branches.size() == 1) return std::move(branches.front());
    if (std::all_of(branches.begin(), branches.end(), [](const Info& b) { return b.exact.has_value(); })) {
      Strings all;
      for (const auto& b : branches) all.insert(b.exact->begin(), b.exact->end());
      if (all.size() <= kMaxExact) return Info::of(std::move(all));
    }
    // Each branch must give one clause; their union is what the alternation requires.
    Strings any_of;
    for (const auto& b : branches) {
      auto c = best_clause(b);
      if (!c) return Info::any();
      any_of.insert(c->begin(), c->end());
    }
    Info out;
    if (usable(any_of)) out.req.push_back(std::move(any_of));
    return out;
  }

  Info sequence() {
    Info out;
    Strings run{""};  // the exact text of the items so far since the last unknown one
    auto flush = [&] {
      if (usable(run)) out.req.push_back(run);
      run = {""};
    };
    bool all_exact = true;  // the whole sequence's text is `run`
    while (!at_end() && peek() != '|' && peek() != ')') {
      Info item = quantified(atom());
      out.req.insert(out.req.end(), item.req.begin(), item.req.end());
      if (item.exact) {
        if (auto c = cross(run, *item.exact)) {
          run = std::move(*c);
        } else {
          all_exact = false;  // too many combinations: keep the pieces as clauses
          flush();
          run = *item.exact;
        }
      } else {
        all_exact = false;
        flush();
      }
    }
    if (all_exact) {
      out.exact = run;
    } else {
      flush();
    }
    return out;
  }

  Info quantified(Info item) {
    for (;;) {
      std::size_t lo = 0, hi = SIZE_MAX;
      const char c = peek();
      if (c == '?') {
        lo = 0, hi = 1, ++pos_;
      } else if (c == '*') {
        lo = 0, ++pos_;
      } else if (c == '+') {
        lo = 1, ++pos_;
      } else if (c == '{' && counted(lo, hi)) {
        // counted() consumed it
      } else {
        return item;
      }
      if (peek() == '?' || peek() == '+') ++pos_;  // lazy or possessive: same language
      item = repeat(std::move(item), lo, hi);
    }
  }

  // "{n}", "{n,}", "{n,m}"; anything else is a literal brace (PCRE's rule).
  bool counted(std::size_t& lo, std::size_t& hi) {
    std::size_t p = pos_ + 1;
    auto number = [&](std::size_t& v) {
      const std::size_t start = p;
      v = 0;
      while (p < re_.size() && std::isdigit(static_cast<unsigned char>(re_[p]))) v = v * 10 + static_cast<std::size_t>(re_[p++] - '0');
      return p > start;
    };
    if (!number(lo)) return false;
    hi = lo;
    if (p < re_.size() && re_[p] == ',') {
      ++p;
      if (!number(hi)) hi = SIZE_MAX;
    }
    if (p >= re_.size() || re_[p] != '}') return false;
    pos_ = p + 1;
    return true;
  }

  static Info repeat(Info item, std::size_t lo, std::size_t hi) {
    if (lo == 0) {
      if (hi == 1 && item.exact) {
        Strings s = *item.exact;
        s.insert("");
        if (s.size() <= kMaxExact) return Info::of(std::move(s));
      }
      return Info::any();
    }
    Info out;
    out.req = item.req;
    if (item.exact && lo == hi && lo <= 3) {
      Strings s{""};
      for (std::size_t i = 0; i < lo; ++i) {
        auto c = cross(s, *item.exact);
        if (!c) break;
        s = std::move(*c);
        if (i + 1 == lo) {
          out.exact = std::move(s);
          return out;
        }
      }
    }
    if (item.exact && usable(*item.exact)) out.req.push_back(*item.exact);
    return out;
  }

  Info atom() {
    const char c = re_[pos_++];
    switch (c) {
      case '(':
        return group();
      case '[':
        return char_class();
      case '.':
        return Info::any();
      case '^':
      case '$':
        return Info::empty();
      case '\\':
        return escape();
      default:
        return Info::of({std::string(1, lower(c))});
    }
  }

  Info group() {
    bool discard = false;  // look-arounds match no text of their own
    if (peek() == '?') {
      ++pos_;
      const char k = peek();
      if (k == ':' || k == '>' || k == '|') {
        ++pos_;
      } else if (k == '=' || k == '!') {
        ++pos_;
        discard = true;
      } else if (k == '<' && (peek(1) == '=' || peek(1) == '!')) {
        pos_ += 2;
        discard = true;
      } else if (k == '<' || k == 'P' || k == '\'') {
        // Named group: (?<name>...), (?P<name>...), (?'name'...).
        const char close = k == '\'' ? '\'' : '>';
        const auto end = re_.find(close, pos_ + 1);
        if (end == std::string_view::npos) return fail();
        pos_ = end + 1;
      } else {
        // Inline flags: (?i) (?-i) (?i:...). Case is folded anyway.
        while (!at_end() && (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '-')) ++pos_;
        if (peek() == ')') {
          ++pos_;
          return Info::empty();
        }
        if (peek() != ':') return fail();
        ++pos_;
      }
    }
    Info inner = alternation();
    if (peek() != ')') return fail();
    ++pos_;
    return discard ? Info::empty() : inner;
  }

  Info char_class() {
    bool negated = false;
    if (peek() == '^') {
      negated = true;
      ++pos_;
    }
    Strings chars;
    bool too_big = negated;
    bool first = true;
    while (!at_end() && (peek() != ']' || first)) {
      first = false;
      int from = 0;
      if (peek() == '[' && peek(1) == ':') {  // [:alpha:]
        const auto end = re_.find(":]", pos_ + 2);
        if (end == std::string_view::npos) return fail();
        pos_ = end + 2;
        too_big = true;
        continue;
      }
      if (peek() == '\\') {
        ++pos_;
        const char e = re_[pos_++];
        if (auto lit = escaped_literal(e)) {
          from = static_cast<unsigned char>(*lit);
        } else {
          too_big = true;  // \d, \w, \s ... inside a class
          continue;
        }
      } else {
        from = static_cast<unsigned char>(re_[pos_++]);
      }
      int to = from;
      if (peek() == '-' && peek(1) != ']' && pos_ + 1 < re_.size()) {
        ++pos_;
        if (peek() == '\\') {
          ++pos_;
          const auto lit = escaped_literal(re_[pos_++]);
          if (!lit) return fail();
          to = static_cast<unsigned char>(*lit);
        } else {
          to = static_cast<unsigned char>(re_[pos_++]);
        }
      }
      if (to < from || to - from > static_cast<int>(kMaxClass)) {
        too_big = true;
        continue;
      }
      for (int ch = from; ch <= to; ++ch) chars.insert(std::string(1, lower(static_cast<char>(ch))));
    }
    if (at_end()) return fail();
    ++pos_;  // ']'
    if (too_big || chars.empty() || chars.size() > kMaxClass) return Info::any();
    return Info::of(std::move(chars));
  }

  Info escape() {
    if (at_end()) return fail();
    const char e = re_[pos_++];
    if (e == 'Q') {  // \Q...\E: everything literal
      const auto end = re_.find("\\E", pos_);
      const std::string_view lit = re_.substr(pos_, end == std::string_view::npos ? std::string_view::npos : end - pos_);
      pos_ = end == std::string_view::npos ? re_.size() : end + 2;
      return Info::of({ascii_lower(lit)});
    }
    if (std::string_view("bBAzZGK").find(e) != std::string_view::npos) return Info::empty();
    if (e == 'x') {
      if (peek() == '{') {
        const auto end = re_.find('}', pos_);
        if (end == std::string_view::npos) return fail();
        pos_ = end + 1;
        return Info::any();
      }
      int v = 0;
      for (int k = 0; k < 2 && std::isxdigit(static_cast<unsigned char>(peek())); ++k) {
        const char h = re_[pos_++];
        v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : std::tolower(h) - 'a' + 10);
      }
      return Info::of({std::string(1, lower(static_cast<char>(v)))});
    }
    if (e == 'p' || e == 'P') {  // \p{...}
      if (peek() == '{') {
        const auto end = re_.find('}', pos_);
        if (end == std::string_view::npos) return fail();
        pos_ = end + 1;
      } else {
        ++pos_;
      }
      return Info::any();
    }
    if (e == 'c') {  // \cX
      ++pos_;
      return Info::any();
    }
    if (auto lit = escaped_literal(e)) return Info::of({std::string(1, lower(*lit))});
    return Info::any();  // \d \w \s \1 \N \R ... : some character(s), which we do not name
  }

  // The character an escape stands for, when it is one fixed character.
  static std::optional<char> escaped_literal(char e) {
    switch (e) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'f': return '\f';
      case 'e': return '\x1b';
      case 'a': return '\a';
      default:
        if (std::isalnum(static_cast<unsigned char>(e))) return std::nullopt;
        return e;
    }
  }

  static char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

  // Something the analysis cannot follow: skip to the end, claim nothing.
  Info fail() {
    pos_ = re_.size();
    failed_ = true;
    return Info::any();
  }

 public:
  bool failed() const { return failed_; }

 private:
  std::string_view re_;
  std::size_t pos_ = 0;
  bool failed_ = false;
};

}  // namespace

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(ascii_lower_byte(static_cast<unsigned char>(c)));
  return out;
}

const std::vector<std::string>* RequiredLiterals::best() const {
  const std::vector<std::string>* out = nullptr;
  std::size_t best_len = 0;
  for (const auto& c : clauses) {
    std::size_t shortest = SIZE_MAX;
    for (const auto& s : c) shortest = std::min(shortest, s.size());
    if (out == nullptr || shortest > best_len || (shortest == best_len && c.size() < out->size())) {
      out = &c;
      best_len = shortest;
    }
  }
  return out;
}

RequiredLiterals required_literals(std::string_view regex) {
  Parser p(regex);
  Info info = p.parse();
  RequiredLiterals out;
  if (p.failed()) return out;
  std::vector<Strings> clauses = std::move(info.req);
  if (info.exact && usable(*info.exact)) clauses.push_back(*info.exact);
  for (auto& c : clauses) {
    if (!usable(c)) continue;
    std::vector<std::string> v(c.begin(), c.end());
    if (std::find(out.clauses.begin(), out.clauses.end(), v) == out.clauses.end()) out.clauses.push_back(std::move(v));
  }
  return out;
}

}  // namespace npu_doctor
