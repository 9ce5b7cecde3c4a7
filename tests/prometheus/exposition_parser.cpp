#include "prometheus/exposition_parser.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

namespace npu_doctor::testing {
namespace {

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    }
    i += n;
  }
  return true;
}

bool name_char(char c, bool first, bool colon) {
  const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
  return alpha || (!first && c >= '0' && c <= '9');
}

// Reads [a-zA-Z_:][a-zA-Z0-9_:]* (label names: no colon) at `pos`.
std::string read_name(std::string_view line, std::size_t& pos, bool colon) {
  const std::size_t start = pos;
  while (pos < line.size() && name_char(line[pos], pos == start, colon)) ++pos;
  return std::string(line.substr(start, pos - start));
}

bool snake_case(std::string_view name) {
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return name.find("__") == std::string_view::npos && !name.ends_with("_");
}

// Unescapes HELP (\\ and \n) or a label value (also \"); false on any other escape.
bool unescape(std::string_view s, bool quotes, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) return false;
    if (s[i] == '\\') out += '\\';
    else if (s[i] == 'n') out += '\n';
    else if (quotes && s[i] == '"') out += '"';
    else return false;
  }
  return true;
}

bool parse_value(std::string_view s, double& v) {
  if (s == "NaN" || s == "+Inf" || s == "-Inf") {
    v = s == "NaN" ? std::nan("") : s == "+Inf" ? HUGE_VAL : -HUGE_VAL;
    return true;
  }
  if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string_view::npos) return false;
  const std::string text(s);
  char* end = nullptr;
  errno = 0;
  v = std::strtod(text.c_str(), &end);
  return errno == 0 && end == text.c_str() + text.size();
}

class Parser {
 public:
  std::optional<Exposition> run(std::string_view text, std::string& error) {
    if (text.empty()) return fail(error, 0, "empty exposition");
    if (text.back() != '\n') return fail(error, 0, "the last line does not end with a newline");
    if (!valid_utf8(text)) return fail(error, 0, "not valid UTF-8");
    std::size_t n = 0;
    for (std::size_t start = 0; start < text.size();) {
      const std::size_t end = text.find('\n', start);
      const std::string_view line = text.substr(start, end - start);
      start = end + 1;
      ++n;
      if (!line_ok(line)) return fail(error, n, problem_ + ": " + std::string(line));
    }
    for (const auto& [name, f] : out_.families) {
      if (f.type.empty() || !help_seen_.count(name)) return fail(error, 0, "family " + name + " has no HELP or TYPE");
      if (f.samples.empty()) return fail(error, 0, "family " + name + " has no samples");
    }
    return std::move(out_);
  }

 private:
  std::optional<Exposition> fail(std::string& error, std::size_t line, const std::string& message) {
    error = "line " + std::to_string(line) + ": " + message;
    return std::nullopt;
  }

  bool bad(std::string message) {
    problem_ = std::move(message);
    return false;
  }

  // A new family may start only once: its lines form one group.
  bool enter(const std::string& name) {
    if (name == current_) return true;
    if (!closed_.insert(name).second) return bad("family " + name + " is split into several groups");
    if (!current_.empty()) closed_.insert(current_);
    current_ = name;
    return true;
  }

  bool line_ok(std::string_view line) {
    if (line.empty()) return bad("empty line");
    if (line.starts_with("#")) return comment_ok(line);
    return sample_ok(line);
  }

  bool comment_ok(std::string_view line) {
    const bool help = line.starts_with("# HELP ");
    const bool type = line.starts_with("# TYPE ");
    if (!help && !type) return true;  // any other comment
    std::size_t pos = 7;
    const std::string name = read_name(line, pos, true);
    if (name.empty() || pos >= line.size() || line[pos] != ' ') return bad("bad metric name in HELP/TYPE");
    if (!snake_case(name)) return bad("metric name is not snake_case");
    if (!enter(name)) return false;
    ExpositionFamily& f = out_.families[name];
    const std::string_view rest = line.substr(pos + 1);
    if (help) {
      if (!help_seen_.insert(name).second) return bad("second HELP for " + name);
      if (!unescape(rest, false, f.help)) return bad("bad escape in HELP");
      if (f.help.empty()) return bad("empty HELP");
      return true;
    }
    if (!f.type.empty()) return bad("second TYPE for " + name);
    if (!f.samples.empty()) return bad("TYPE after samples of " + name);
    if (rest != "counter" && rest != "gauge" && rest != "histogram" && rest != "summary" && rest != "untyped") {
      return bad("unknown type");
    }
    f.type = rest;
    const bool total = name.ends_with("_total");
    if ((f.type == "counter") != total) return bad("only counters end in _total");
    return true;
  }

  bool sample_ok(std::string_view line) {
    std::size_t pos = 0;
    ExpositionSample s;
    s.name = read_name(line, pos, true);
    if (s.name.empty()) return bad("bad metric name");
    if (!enter(s.name)) return false;
    auto it = out_.families.find(s.name);
    if (it == out_.families.end() || it->second.type.empty()) return bad("sample before its TYPE");
    std::set<std::string> names;
    if (pos < line.size() && line[pos] == '{') {
      ++pos;
      while (pos < line.size() && line[pos] != '}') {
        const std::string label = read_name(line, pos, false);
        if (label.empty() || label.starts_with("__")) return bad("bad label name");
        if (!snake_case(label)) return bad("label name is not snake_case");
        if (!names.insert(label).second) return bad("label " + label + " twice");
        if (line.substr(pos, 2) != "=\"") return bad("expected =\" after a label name");
        pos += 2;
        std::size_t end = pos;
        while (end < line.size() && line[end] != '"') end += line[end] == '\\' ? 2u : 1u;
        if (end >= line.size()) return bad("unterminated label value");
        std::string value;
        if (!unescape(line.substr(pos, end - pos), true, value)) return bad("bad escape in a label value");
        s.labels.emplace_back(label, value);
        pos = end + 1;
        if (pos < line.size() && line[pos] == ',') ++pos;
        else if (pos < line.size() && line[pos] != '}') return bad("expected , or } after a label");
      }
      if (pos >= line.size()) return bad("unterminated label set");
      ++pos;
    }
    if (pos >= line.size() || line[pos] != ' ') return bad("expected a space before the value");
    const std::string_view rest = line.substr(pos + 1);
    const std::string_view value = rest.substr(0, rest.find(' '));
    if (!parse_value(value, s.value)) return bad("bad value");
    if (value.size() != rest.size()) {
      const std::string_view ts = rest.substr(value.size() + 1);
      if (ts.empty() || ts.find_first_not_of("-0123456789") != std::string_view::npos) return bad("bad timestamp");
    }
    auto sorted = s.labels;
    std::sort(sorted.begin(), sorted.end());
    std::string key = s.name;
    for (const auto& [k, v] : sorted) key += '\0' + k + '\0' + v;
    if (!series_.insert(key).second) return bad("series written twice");
    it->second.samples.push_back(std::move(s));
    return true;
  }

  Exposition out_;
  std::string current_;
  std::set<std::string> closed_;
  std::set<std::string> help_seen_;
  std::set<std::string> series_;
  std::string problem_;
};

}  // namespace

std::optional<std::string> ExpositionSample::label(std::string_view wanted) const {
  for (const auto& [k, v] : labels) {
    if (k == wanted) return v;
  }
  return std::nullopt;
}

std::vector<ExpositionSample> Exposition::find(const std::string& family,
                                               const std::vector<std::pair<std::string, std::string>>& match) const {
  std::vector<ExpositionSample> out;
  const auto it = families.find(family);
  if (it == families.end()) return out;
  for (const auto& s : it->second.samples) {
    bool all = true;
    for (const auto& [k, v] : match) all = all && s.label(k) == v;
    if (all) out.push_back(s);
  }
  return out;
}

std::optional<Exposition> parse_exposition(std::string_view text, std::string& error) {
  return Parser().run(text, error);
}

}  // namespace npu_doctor::testing
