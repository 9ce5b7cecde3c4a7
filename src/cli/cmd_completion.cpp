// npu-doctor completion bash|zsh: shell completion generated from the command-line
// definition itself, so it never drifts from --help. The build installs both scripts and
// writes a man page per command listed by the hidden `completion --commands`
// (cmake/NpuDoctorInstall.cmake).
#include <algorithm>
#include <iostream>
#include <sstream>

#include "common.hpp"
#include "exit_codes.hpp"

namespace npu_doctor::cli {
namespace {

struct OptionInfo {
  std::vector<std::string> names;    // -f --format
  bool takes_value = false;
  std::vector<std::string> choices;  // from an IsMember check: {text,json}
};

struct CommandInfo {
  std::string path;  // "" for npu-doctor itself, "mem analyze"
  std::string description;
  std::vector<std::pair<std::string, std::string>> subcommands;  // name, description
  std::vector<OptionInfo> options;
};

std::vector<std::string> choices_of(CLI::Option* opt) {
  std::string d;
  try {
    d = opt->get_validator()->get_description();
  } catch (const CLI::OptionNotFound&) {
    return {};  // CLI11's way of saying the option has no check
  }
  if (d.size() < 2 || d.front() != '{' || d.back() != '}') return {};
  std::vector<std::string> out;
  std::stringstream ss(d.substr(1, d.size() - 2));
  for (std::string c; std::getline(ss, c, ',');) out.push_back(c);
  return out;
}

// Every command, depth first; options of npu-doctor itself are accepted after any
// subcommand name too (fallthrough), so they are part of each command's list.
void collect(CLI::App* app, const std::string& path, const std::vector<OptionInfo>& inherited,
             std::vector<CommandInfo>& out) {
  CommandInfo c;
  c.path = path;
  c.description = app->get_description();
  c.options = inherited;
  for (CLI::Option* opt : app->get_options()) {
    if (opt->get_positional() || opt->get_group().empty()) continue;
    OptionInfo o;
    for (const auto& s : opt->get_snames()) o.names.push_back("-" + s);
    for (const auto& l : opt->get_lnames()) o.names.push_back("--" + l);
    o.takes_value = opt->get_type_size_max() != 0;
    o.choices = choices_of(opt);
    if (!o.names.empty()) c.options.push_back(std::move(o));
  }
  const auto subs = app->get_subcommands([](CLI::App* s) { return !s->get_name().empty() && !s->get_group().empty(); });
  for (CLI::App* s : subs) c.subcommands.emplace_back(s->get_name(), s->get_description());
  const std::vector<OptionInfo> pass_on = path.empty() ? c.options : inherited;
  out.push_back(std::move(c));
  for (CLI::App* s : subs) collect(s, path.empty() ? s->get_name() : path + " " + s->get_name(), pass_on, out);
}

// "mem analyze" -> "/mem/analyze", the form the scripts track while reading the words.
std::string slashed(const std::string& path) {
  std::string s = path.empty() ? "" : "/" + path;
  for (char& ch : s) ch = ch == ' ' ? '/' : ch;
  return s;
}

std::string join(const std::vector<std::string>& v, const std::string& sep = " ") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

// Single-quoted for the shell.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// Shared by both shells: which words are command names, and the values an option takes.
void write_path_and_values(const std::vector<CommandInfo>& commands, bool zsh, std::ostream& out) {
  std::vector<std::string> paths;
  for (const auto& c : commands) {
    if (!c.path.empty()) paths.push_back(slashed(c.path));
  }
  out << "  local cmdpath='' w i\n";
  out << (zsh ? "  for ((i = 2; i < CURRENT; i++)); do\n    w=${words[i]}\n"
              : "  for ((i = 1; i < COMP_CWORD; i++)); do\n    w=${COMP_WORDS[i]}\n");
  out << "    case \"$cmdpath/$w\" in\n      " << (zsh ? "(" : "") << join(paths, "|") << ") cmdpath=\"$cmdpath/$w\" ;;\n"
      << "    esac\n  done\n";
  out << "  case \"$cmdpath|$prev\" in\n";
  for (const auto& c : commands) {
    for (const auto& o : c.options) {
      if (!o.takes_value) continue;
      std::vector<std::string> keys;
      for (const auto& n : o.names) keys.push_back("\"" + slashed(c.path) + "|" + n + "\"");
      out << "    " << (zsh ? "(" : "") << join(keys, "|") << ") ";
      if (!o.choices.empty()) {
        out << (zsh ? "compadd -- " + join(o.choices) : "COMPREPLY=($(compgen -W " + quoted(join(o.choices)) + " -- \"$cur\"))");
      } else {
        out << (zsh ? "_files" : "COMPREPLY=($(compgen -f -- \"$cur\"))");
      }
      out << "; return ;;\n";
    }
  }
  out << "  esac\n";
}

std::vector<std::string> option_names(const CommandInfo& c) {
  std::vector<std::string> names;
  for (const auto& o : c.options) {
    for (const auto& n : o.names) {
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
  }
  return names;
}

void write_bash(const std::vector<CommandInfo>& commands, std::ostream& out) {
  out << "# bash completion for npu-doctor (generated by `npu-doctor completion bash`)\n"
         "_npu_doctor() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "  COMPREPLY=()\n";
  write_path_and_values(commands, false, out);
  out << "  local subs='' opts=''\n  case \"$cmdpath\" in\n";
  for (const auto& c : commands) {
    std::vector<std::string> subs;
    for (const auto& [name, d] : c.subcommands) subs.push_back(name);
    out << "    \"" << slashed(c.path) << "\") subs=" << quoted(join(subs)) << "; opts=" << quoted(join(option_names(c)))
        << " ;;\n";
  }
  out << "  esac\n"
         "  if [[ $cur == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
         "  elif [[ -n $subs ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _npu_doctor npu-doctor\n";
}

void write_zsh(const std::vector<CommandInfo>& commands, std::ostream& out) {
  out << "#compdef npu-doctor\n"
         "# zsh completion for npu-doctor (generated by `npu-doctor completion zsh`)\n"
         "_npu-doctor() {\n"
         "  local cur=${words[CURRENT]} prev=${words[CURRENT-1]}\n";
  write_path_and_values(commands, true, out);
  out << "  if [[ $cur == -* ]]; then\n    case \"$cmdpath\" in\n";
  for (const auto& c : commands) {
    out << "      (\"" << slashed(c.path) << "\") compadd -- " << join(option_names(c)) << " ;;\n";
  }
  out << "    esac\n    return\n  fi\n  local -a subs\n  case \"$cmdpath\" in\n";
  for (const auto& c : commands) {
    if (c.subcommands.empty()) continue;
    std::vector<std::string> items;
    for (auto [name, d] : c.subcommands) {
      std::string escaped;
      for (char ch : d) escaped += ch == ':' ? std::string("\\:") : std::string(1, ch);
      items.push_back(quoted(name + ":" + escaped));
    }
    out << "    (\"" << slashed(c.path) << "\") subs=(" << join(items) << ") ;;\n";
  }
  out << "  esac\n"
         "  if (( ${#subs} )); then\n"
         "    _describe 'command' subs\n"
         "  else\n"
         "    _files\n"
         "  fi\n"
         "}\n"
         "_npu-doctor \"$@\"\n";
}

}  // namespace

void setup_completion(CLI::App& app, GlobalOptions&, int& exit_code) {
  auto shell = std::make_shared<std::string>();
  auto list = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("completion", help_text(ui::Key::help_completion_about));
  cmd->add_option("shell", *shell, help_text(ui::Key::help_completion_shell))->check(CLI::IsMember({"bash", "zsh"}));
  cmd->add_flag("--commands", *list, help_text(ui::Key::help_completion_commands))->group("");
  cmd->footer(help_text(ui::Key::help_completion_footer));
  cmd->callback([&app, &exit_code, shell, list] {
    std::vector<CommandInfo> commands;
    collect(&app, "", {}, commands);
    if (*list) {
      for (const auto& c : commands) std::cout << c.path << '\t' << c.description << '\n';
    } else if (*shell == "bash") {
      write_bash(commands, std::cout);
    } else if (*shell == "zsh") {
      write_zsh(commands, std::cout);
    } else {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_completion_no_shell) << "\n";
      exit_code = kUsage;
      return;
    }
    exit_code = kOk;
  });
}

}  // namespace npu_doctor::cli
