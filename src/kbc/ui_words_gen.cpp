// npu-doctor-ui-words: lints data/ui.yaml, the catalogue of the user interface's words, and
// writes npu_doctor/ui_keys.hpp (enum ui::Key, one constant per key, so a missing key is a
// compile error) and ui_words_table.inc (the texts, compiled into src/core/ui_words.cpp, so
// nothing is parsed at start-up). Both are rewritten only when their content changes: editing
// a text recompiles one file, adding a key recompiles the code that names keys.
//   npu-doctor-ui-words KEYS.hpp TABLE.inc STAMP ui.yaml
// The rules (docs/ui-words.md): a key is dotted lowercase ("report.root_cause"); each key has
// exactly `en` and `zh`, both non-empty; placeholders are named ({peer}, {n:>3}), never
// positional, and the two languages use the same set; braces are otherwise doubled ({{ }}).
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Word {
  std::string key;
  std::string text[2];   // en, zh: as written (fmt syntax) when formatted, else unescaped
  std::set<std::string> placeholders;
};

bool lower_or_digit(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// "report.root_cause": segments of [a-z][a-z0-9_]*, at least two.
bool valid_key(const std::string& key) {
  int segments = 0;
  std::size_t start = 0;
  while (true) {
    const auto dot = key.find('.', start);
    const std::string seg = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (seg.empty() || !(seg[0] >= 'a' && seg[0] <= 'z')) return false;
    for (char c : seg)
      if (!lower_or_digit(c)) return false;
    ++segments;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return segments >= 2;
}

bool identifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!lower_or_digit(c)) return false;
  return true;
}

// The placeholder names of a format string and its text with {{ }} undone; an error names
// what is wrong.
struct Parsed {
  std::set<std::string> names;
  std::string plain;
  std::string error;
};

Parsed parse(const std::string& s) {
  Parsed p;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if ((c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
      p.plain += c;
      ++i;
    } else if (c == '}') {
      p.error = "a lone '}' (write '}}' for a brace)";
      return p;
    } else if (c == '{') {
      const auto close = s.find('}', i);
      if (close == std::string::npos) {
        p.error = "an unclosed '{' (write '{{' for a brace)";
        return p;
      }
      const std::string inside = s.substr(i + 1, close - i - 1);
      const std::string name = inside.substr(0, inside.find(':'));
      if (!identifier(name)) {
        p.error = "placeholder '{" + inside + "}' has no name (placeholders are named: {peer}, {n:>3})";
        return p;
      }
      p.names.insert(name);
      p.plain += s.substr(i, close - i + 1);
      i = close;
    } else {
      p.plain += c;
    }
  }
  return p;
}

std::string joined(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "{" : " {") + n + "}";
  return out.empty() ? "none" : out;
}

std::string cpp_name(const std::string& key) {
  std::string out = key;
  for (char& c : out)
    if (c == '.') c = '_';
  return out;
}

std::string literal(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool write_if_changed(const std::string& path, const std::string& text) {
  if (read_file(path) == text) return true;
  std::ofstream o(path, std::ios::binary | std::ios::trunc);
  o << text;
  if (!o) std::cerr << "npu-doctor-ui-words: cannot write " << path << "\n";
  return static_cast<bool>(o);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: npu-doctor-ui-words KEYS.hpp TABLE.inc STAMP ui.yaml\n";
    return 2;
  }
  const std::string file = argv[4];
  YAML::Node doc;
  try {
    doc = YAML::LoadFile(file);
  } catch (const YAML::Exception& e) {
    std::cerr << file << ": " << e.what() << "\n";
    return 1;
  }
  if (!doc.IsMap()) {
    std::cerr << file << ": expected a map of keys (report.root_cause: {en: ..., zh: ...})\n";
    return 1;
  }
  int errors = 0;
  std::map<std::string, Word> words;       // by C++ name: sorted, and a clash is found
  std::map<std::string, int> seen_at;      // key -> line
  for (const auto& kv : doc) {
    const int line = kv.first.Mark().line + 1;
    const std::string where = file + ":" + std::to_string(line) + ": ";
    const std::string key = kv.first.IsScalar() ? kv.first.as<std::string>() : std::string();
    auto fail = [&](const std::string& why) {
      std::cerr << where << "key '" << key << "': " << why << "\n";
      ++errors;
    };
    if (!valid_key(key)) {
      fail("not a key (dotted lowercase words: report.root_cause)");
      continue;
    }
    if (auto [it, added] = seen_at.emplace(key, line); !added) {
      fail("defined twice (first on line " + std::to_string(it->second) + ")");
      continue;
    }
    const YAML::Node v = kv.second;
    if (!v.IsMap()) {
      fail("expected {en: ..., zh: ...}");
      continue;
    }
    Word w{key, {}, {}};
    Parsed parsed[2];
    bool ok = true;
    const char* langs[2] = {"en", "zh"};
    for (const auto& field : v) {
      const std::string f = field.first.as<std::string>();
      if (f != "en" && f != "zh") {
        fail("unknown field '" + f + "' (only en and zh)");
        ok = false;
      }
    }
    for (int l = 0; l < 2 && ok; ++l) {
      const YAML::Node t = v[langs[l]];
      if (!t || !t.IsScalar() || t.as<std::string>().empty()) {
        fail(std::string("no ") + langs[l] + " text (every word needs both en and zh)");
        ok = false;
        break;
      }
      w.text[l] = t.as<std::string>();
      parsed[l] = parse(w.text[l]);
      if (!parsed[l].error.empty()) {
        fail(std::string(langs[l]) + ": " + parsed[l].error);
        ok = false;
      }
    }
    if (!ok) continue;
    if (parsed[0].names != parsed[1].names) {
      fail("en and zh differ in placeholders (en " + joined(parsed[0].names) + ", zh " + joined(parsed[1].names) + ")");
      continue;
    }
    w.placeholders = parsed[0].names;
    if (w.placeholders.empty())
      for (int l = 0; l < 2; ++l) w.text[l] = parsed[l].plain;
    const std::string name = cpp_name(key);
    if (auto [it, added] = words.emplace(name, w); !added) {
      fail("makes the same C++ name ui::Key::" + name + " as '" + it->second.key + "'");
      continue;
    }
  }
  if (errors != 0) return 1;

  std::ostringstream keys;
  keys << "#pragma once\n// Generated by npu-doctor-ui-words from data/ui.yaml (src/kbc/ui_words_gen.cpp): do not edit.\n"
          "// After a key, the named placeholders its text takes (ui::text(key, lang, fmt::arg(\"name\", v)...)).\n"
          "namespace npu_doctor::ui {\n\nenum class Key : unsigned short {\n";
  for (const auto& [name, w] : words) {
    keys << "  " << name << ",";
    if (!w.placeholders.empty()) keys << "  // " << joined(w.placeholders);
    keys << "\n";
  }
  keys << "  count_\n};\n\n}  // namespace npu_doctor::ui\n";

  std::ostringstream table;
  table << "// Generated by npu-doctor-ui-words from data/ui.yaml (src/kbc/ui_words_gen.cpp): do not edit.\n"
           "// Indexed by ui::Key: {key, {en, zh}, formatted}.\n";
  for (const auto& [name, w] : words)
    table << "{" << literal(w.key) << ", {" << literal(w.text[0]) << ", " << literal(w.text[1]) << "}, "
          << (w.placeholders.empty() ? "false" : "true") << "},\n";

  if (!write_if_changed(argv[1], keys.str()) || !write_if_changed(argv[2], table.str())) return 1;
  std::ofstream stamp(argv[3], std::ios::trunc);
  stamp << "ok\n";
  return stamp ? 0 : 1;
}
