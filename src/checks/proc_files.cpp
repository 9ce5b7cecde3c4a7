#include "checks/proc_files.hpp"

#include <cctype>

#include "core/text_util.hpp"

namespace npu_doctor::checks {

std::vector<std::string> parse_proc_modules(std::string_view text) {
  std::vector<std::string> names;
  for (std::string_view line : split(text, '\n')) {
    line = trim(line);
    const std::size_t space = line.find(' ');
    const std::string_view name = line.substr(0, space);
    if (name.empty()) continue;
    bool ok = true;
    for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
    if (ok) names.emplace_back(name);
  }
  return names;
}

bool is_ascend_driver_module(std::string_view name) {
  for (std::string_view prefix : {"drv_", "asdrv_", "ascend_", "dbl_"}) {
    if (name.starts_with(prefix)) return true;
  }
  return name == "ts_agent";
}

namespace {

std::vector<unsigned> numbers(std::string_view s) {
  std::vector<unsigned> out;
  for (std::string_view w : split(s, '\t')) {
    for (std::string_view x : split(w, ' ')) {
      if (auto v = to_integer(x); v && *v >= 0) out.push_back(static_cast<unsigned>(*v));
    }
  }
  return out;
}

}  // namespace

ProcStatus parse_proc_status(std::string_view text) {
  ProcStatus s;
  for (std::string_view line : split(text, '\n')) {
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    if (key == "Name") {
      s.name = std::string(value);
    } else if (key == "Uid") {
      const auto v = numbers(value);
      if (!v.empty()) s.uid = v[0];
      if (v.size() > 1) s.euid = v[1];
    } else if (key == "Gid") {
      const auto v = numbers(value);
      if (!v.empty()) s.gid = v[0];
      if (v.size() > 1) s.egid = v[1];
    } else if (key == "Groups") {
      s.groups = numbers(value);
    } else if (key == "Cpus_allowed_list") {
      s.cpus_allowed_list = std::string(value);
    } else if (key == "Mems_allowed_list") {
      s.mems_allowed_list = std::string(value);
    }
  }
  return s;
}

std::map<std::string, std::string> parse_environ(std::string_view bytes) {
  std::map<std::string, std::string> env;
  for (std::string_view item : split(bytes, '\0')) {
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    env.emplace(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
  }
  return env;
}

std::vector<std::string> parse_cmdline(std::string_view bytes) {
  std::vector<std::string> args;
  if (!bytes.empty() && bytes.back() == '\0') bytes.remove_suffix(1);
  if (bytes.empty()) return args;
  for (std::string_view a : split(bytes, '\0')) args.emplace_back(a);
  return args;
}

std::string shell_join(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty();
    for (char c : a) {
      plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_./=:,+@%").find(c) != std::string_view::npos);
    }
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) {
        if (c == '\'') out += "'\\''";
        else out += c;
      }
      out += '\'';
    }
  }
  return out;
}

}  // namespace npu_doctor::checks
