#include "word_features.hpp"

#include "fnv1a.hpp"

#include <algorithm>

namespace npu_doctor {
namespace {

bool is_ascii_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_ascii_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_ascii_alpha(char c) { return is_ascii_upper(c) || is_ascii_lower(c); }
bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
char to_ascii_lower(char c) { return is_ascii_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

// One UTF-8 sequence starting at s[i]: its code point and length (invalid bytes: 0xFFFD, 1).
std::pair<uint32_t, std::size_t> decode_utf8(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  if (len == 1 || i + len > s.size()) return {0xFFFD, 1};
  uint32_t cp = b & (0x7F >> len);
  for (std::size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return {0xFFFD, 1};
    cp = (cp << 6) | (c & 0x3F);
  }
  return {cp, len};
}

bool is_cjk(uint32_t cp) {
  return (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF);
}

struct Tokens {
  std::vector<std::string> words;      // in order: split ASCII words and CJK characters
  std::vector<bool> cjk;               // per word: a CJK character
  std::vector<std::string> compounds;  // ASCII runs that were split, kept whole
};

// Splits one run of ASCII letters and digits ("aclrtMalloc2", "NPUError") into words.
void split_run(std::string_view run, Tokens& t) {
  std::vector<std::string> parts;
  std::string cur;
  auto flush = [&] {
    if (cur.size() >= 2) parts.push_back(cur);
    cur.clear();
  };
  for (std::size_t i = 0; i < run.size(); ++i) {
    const char c = run[i];
    if (!is_ascii_alpha(c)) {  // digits end a word and are dropped
      flush();
      continue;
    }
    if (is_ascii_upper(c) && !cur.empty()) {
      const char prev = run[i - 1];
      const bool next_lower = i + 1 < run.size() && is_ascii_lower(run[i + 1]);
      // "aclrtMalloc": a hump; "NPUError": the last capital of a run starts the next word.
      if (is_ascii_lower(prev) || (is_ascii_upper(prev) && next_lower)) flush();
    }
    cur += to_ascii_lower(c);
  }
  flush();
  if (parts.size() > 1) {
    std::string whole;
    for (const auto& p : parts) whole += p;
    t.compounds.push_back(std::move(whole));
  }
  for (auto& p : parts) {
    t.words.push_back(std::move(p));
    t.cjk.push_back(false);
  }
}

Tokens tokenize(std::string_view text) {
  Tokens t;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (is_ascii_alpha(c) || is_ascii_digit(c)) {
      std::size_t j = i;
      while (j < text.size() && (is_ascii_alpha(text[j]) || is_ascii_digit(text[j]))) ++j;
      split_run(text.substr(i, j - i), t);
      i = j;
      continue;
    }
    if (static_cast<unsigned char>(c) < 0x80) {
      ++i;
      continue;
    }
    const auto [cp, len] = decode_utf8(text, i);
    if (is_cjk(cp)) {
      t.words.emplace_back(text.substr(i, len));
      t.cjk.push_back(true);
    }
    i += len;
  }
  return t;
}

}  // namespace

uint64_t feature_hash(std::string_view feature) {
  uint64_t h = fnv1a(kFnv1aBasis, feature);
  // splitmix64's finaliser: FNV's low bits alone spread short strings poorly.
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h;
}

std::vector<std::string> split_words(std::string_view text) { return tokenize(text).words; }

std::vector<uint32_t> feature_buckets(std::string_view text, const WordFeatureConfig& config) {
  const Tokens t = tokenize(text);
  const uint64_t mask = config.hash_bits >= 32 ? 0xFFFFFFFFull : (uint64_t{1} << config.hash_bits) - 1;
  std::vector<uint32_t> out;
  std::string f;
  auto add = [&](std::string_view kind, std::string_view a, std::string_view b = {}) {
    f.assign(kind);
    f += a;
    if (!b.empty()) {
      f += ' ';
      f += b;
    }
    out.push_back(static_cast<uint32_t>(feature_hash(f) & mask));
  };
  for (std::size_t i = 0; i < t.words.size(); ++i) {
    const std::string& w = t.words[i];
    add("w:", w);
    if (config.word_pairs && i + 1 < t.words.size()) add(t.cjk[i] && t.cjk[i + 1] ? "z:" : "p:", w, t.words[i + 1]);
    if (t.cjk[i]) continue;
    const std::string marked = "<" + w + ">";
    for (std::size_t n = config.char_min; n <= config.char_max && n <= marked.size(); ++n) {
      for (std::size_t k = 0; k + n <= marked.size(); ++k) add("c:", std::string_view(marked).substr(k, n));
    }
  }
  for (const auto& c : t.compounds) add("w:", c);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace npu_doctor
