#include "atc_command.hpp"

#include <algorithm>
#include <cctype>

namespace npu_doctor::atc_detail {

std::vector<std::string> shell_words(std::string_view line) {
  std::vector<std::string> words;
  std::string cur;
  bool have = false;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < line.size() && std::string_view("\"\\$`").find(line[i + 1]) != std::string_view::npos) {
        cur.push_back(line[++i]);
      } else {
        cur.push_back(c);
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      have = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      cur.push_back(line[++i]);
      have = true;
    } else if (c == ' ' || c == '\t') {
      if (have) words.push_back(std::move(cur));
      cur.clear();
      have = false;
    } else {
      cur.push_back(c);
      have = true;
    }
  }
  if (have) words.push_back(std::move(cur));
  return words;
}

std::optional<AtcCommand> parse_atc_command(std::string_view text) {
  const auto words = shell_words(text);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    const auto slash = w.rfind('/');
    if ((slash == std::string::npos ? w : w.substr(slash + 1)) != "atc") continue;
    AtcCommand cmd;
    cmd.program = w;
    for (std::size_t j = i + 1; j < words.size(); ++j) {
      const std::string& a = words[j];
      if (a.rfind("--", 0) != 0 || a.size() < 3) continue;
      if (auto eq = a.find('='); eq != std::string::npos) {
        cmd.options.emplace_back(a.substr(0, eq), a.substr(eq + 1));
      } else if (j + 1 < words.size() && words[j + 1].rfind("--", 0) != 0) {
        cmd.options.emplace_back(a, words[++j]);
      } else {
        cmd.options.emplace_back(a, "");
      }
    }
    // "atc --help" is not a conversion; a real one names a model or a single-op file.
    const bool converts = std::any_of(cmd.options.begin(), cmd.options.end(), [](const auto& o) {
      return o.first == "--model" || o.first == "--singleop" || o.first == "--framework";
    });
    if (!converts) continue;
    // The command as written from the program on (no shell prompt), blanks collapsed.
    const auto at = text.find(w);
    std::string_view from = at == std::string_view::npos ? text : text.substr(at);
    bool blank = false;
    for (char c : from) {
      const bool b = c == ' ' || c == '\t';
      if (!(b && blank)) cmd.text.push_back(b ? ' ' : c);
      blank = b;
    }
    while (!cmd.text.empty() && cmd.text.back() == ' ') cmd.text.pop_back();
    return cmd;
  }
  return std::nullopt;
}

std::string shell_quote(std::string_view word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("-_./:,=+@%").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(word);
  std::string out = "\"";
  for (char c : word) {
    if (c == '"' || c == '\\' || c == '$' || c == '`') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

std::string format_atc_command(const AtcCommand& cmd, const std::vector<std::pair<std::string, std::string>>& set,
                               const std::vector<std::string>& remove) {
  std::vector<std::pair<std::string, std::string>> opts;
  for (const auto& o : cmd.options) {
    if (std::find(remove.begin(), remove.end(), o.first) != remove.end()) continue;
    auto s = std::find_if(set.begin(), set.end(), [&](const auto& x) { return x.first == o.first; });
    opts.push_back(s == set.end() ? o : *s);
  }
  for (const auto& s : set) {
    if (std::none_of(opts.begin(), opts.end(), [&](const auto& o) { return o.first == s.first; })) opts.push_back(s);
  }
  std::string out = shell_quote(cmd.program);
  for (const auto& [name, value] : opts) out += " " + name + (value.empty() ? "" : "=" + shell_quote(value));
  return out;
}

}  // namespace npu_doctor::atc_detail
