#include "env_file.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "core/text_util.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::hccl {
namespace {

using checks::trim;

constexpr std::string_view kCaptureHeader = "# npu-doctor hccl env capture";

bool is_name(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// "value", 'value' or $'value' as a shell would read it; other values as written.
std::string unquote(std::string_view v) {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
    std::string out;
    for (std::size_t i = 1; i + 1 < v.size(); ++i) {
      if (v[i] == '\\' && i + 2 < v.size() && std::string_view("\"\\$`").find(v[i + 1]) != std::string_view::npos) ++i;
      out += v[i];
    }
    return out;
  }
  if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'') return std::string(v.substr(1, v.size() - 2));
  if (v.size() >= 3 && v.front() == '$' && v[1] == '\'' && v.back() == '\'') {
    std::string out;
    for (std::size_t i = 2; i + 1 < v.size(); ++i) {
      if (v[i] == '\\' && i + 2 < v.size()) {
        const char n = v[++i];
        out += n == 'n' ? '\n' : n == 't' ? '\t' : n;
      } else {
        out += v[i];
      }
    }
    return out;
  }
  return std::string(v);
}

struct Assignment {
  std::string name;
  std::string value;
  bool exported = false;  // written as a shell command (export, declare -x, setenv)
};

std::optional<Assignment> parse_assignment(std::string_view line) {
  std::string_view s = trim(line);
  bool exported = false;
  for (std::string_view prefix : {"export ", "declare -x ", "typeset -x ", "declare -gx "}) {
    if (s.starts_with(prefix)) {
      s = trim(s.substr(prefix.size()));
      exported = true;
      break;
    }
  }
  if (s.starts_with("setenv ")) {  // csh: setenv NAME value
    s = trim(s.substr(7));
    const auto sp = s.find_first_of(" \t");
    if (sp == std::string_view::npos || !is_name(s.substr(0, sp))) return std::nullopt;
    return Assignment{std::string(s.substr(0, sp)), unquote(trim(s.substr(sp))), true};
  }
  const auto eq = s.find('=');
  if (eq == std::string_view::npos || !is_name(s.substr(0, eq))) return std::nullopt;
  std::string_view value = s.substr(eq + 1);
  if (exported) value = trim(value);
  return Assignment{std::string(s.substr(0, eq)), unquote(value), exported};
}

// Assigns variables in file order; a name assigned again moves to its last assignment.
// Earlier assignments are dropped once at the end (finish), not one erase each: a dump of
// 200,000 variables took minutes that way.
class VarSetter {
 public:
  explicit VarSetter(EnvFile& f) : f_(f) {}
  void set(EnvVar v) {
    auto [it, inserted] = at_.try_emplace(v.name, f_.vars.size());
    if (!inserted) {
      if (dead_.empty()) dead_.resize(f_.vars.size(), 0);
      dead_[it->second] = 1;
      it->second = f_.vars.size();
    }
    f_.vars.push_back(std::move(v));
    if (!dead_.empty()) dead_.push_back(0);
  }
  void finish() {
    if (dead_.empty()) return;
    std::vector<EnvVar> kept;
    kept.reserve(at_.size());
    for (std::size_t i = 0; i < f_.vars.size(); ++i) {
      if (dead_[i] == 0) kept.push_back(std::move(f_.vars[i]));
    }
    f_.vars = std::move(kept);
    dead_.clear();
  }

 private:
  EnvFile& f_;
  std::unordered_map<std::string, std::size_t> at_;
  std::vector<char> dead_;  // 1 for an assignment a later one replaced; empty while there is none
};

std::string header_field(std::string_view header, std::string_view key) {
  const std::string needle = " " + std::string(key) + "=";
  const auto p = header.find(needle);
  if (p == std::string_view::npos) return {};
  std::string_view rest = header.substr(p + needle.size());
  return std::string(rest.substr(0, rest.find(' ')));
}

}  // namespace

std::string_view to_string(EnvFormat f) {
  switch (f) {
    case EnvFormat::env: return "env";
    case EnvFormat::exports: return "export";
    case EnvFormat::environ: return "environ";
    case EnvFormat::capture: return "capture";
  }
  return "env";
}

const EnvVar* EnvFile::find(std::string_view name) const {
  for (const auto& v : vars) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

std::optional<EnvFile> parse_env_file(std::string path, std::string_view text, std::string* error,
                                      const std::function<bool(std::string_view)>& keep) {
  EnvFile f;
  f.path = std::move(path);
  auto fail = [&](std::string why) -> std::optional<EnvFile> {
    if (error != nullptr) *error = std::move(why);
    return std::nullopt;
  };
  VarSetter vars(f);
  const auto kept = [&](std::string_view name) {
    if (!keep || keep(name)) return true;
    ++f.others;
    return false;
  };
  if (text.find('\0') != std::string_view::npos) {
    // /proc/<pid>/environ: NAME=value entries separated by NUL bytes.
    f.format = EnvFormat::environ;
    std::size_t n = 0;
    for (std::string_view entry : checks::split(text, '\0')) {
      if (entry.empty()) continue;
      ++n;
      const auto eq = entry.find('=');
      if (eq == std::string_view::npos || !is_name(entry.substr(0, eq))) {
        ++f.skipped_lines;
        continue;
      }
      if (!kept(entry.substr(0, eq))) continue;
      vars.set({std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)), n, sanitize_line(utf8_prefix(entry, 512))});
    }
    vars.finish();
    if (f.variable_count() == 0) return fail("no NAME=value entries in this NUL-separated file");
    return f;
  }
  if (looks_binary(text.substr(0, 65536))) return fail("binary data, not an environment listing");

  bool any_export = false;
  bool previous_was_env_line = false;
  bool previous_was_kept = false;  // a continuation line belongs to a kept variable
  std::size_t number = 0;
  for (std::string_view line : checks::split(text, '\n')) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view t = trim(line);
    if (t.empty()) {
      previous_was_env_line = false;
      continue;
    }
    if (t.front() == '#') {
      if (f.variable_count() == 0 && t.starts_with(kCaptureHeader)) {
        f.format = EnvFormat::capture;
        f.host = header_field(t, "host");
      }
      previous_was_env_line = false;
      continue;
    }
    if (auto a = parse_assignment(line)) {
      any_export = any_export || a->exported;
      previous_was_env_line = !a->exported;
      previous_was_kept = kept(a->name);
      if (previous_was_kept) vars.set({a->name, a->value, number, sanitize_line(utf8_prefix(line, 512))});
      continue;
    }
    // `env` prints a value with a newline over several lines: continue the last value.
    if (previous_was_env_line && f.variable_count() > 0) {
      if (previous_was_kept) f.vars.back().value += "\n" + std::string(line);
      continue;
    }
    ++f.skipped_lines;
  }
  vars.finish();
  if (f.variable_count() == 0) {
    return fail("no NAME=value lines (expected `env` output, `export NAME=value` lines or /proc/<pid>/environ)");
  }
  if (f.format != EnvFormat::capture && any_export) f.format = EnvFormat::exports;
  return f;
}

bool is_captured_variable(std::string_view name) {
  static constexpr std::array<std::string_view, 8> kPrefixes = {"HCCL_", "ASCEND_", "HCCN_", "MASTER_",
                                                                "LOCAL_", "RANK", "TORCH_NPU", "PYTORCH_NPU"};
  static constexpr std::array<std::string_view, 9> kNames = {"WORLD_SIZE", "NODE_RANK", "GROUP_RANK", "DEVICE_ID",
                                                             "RANK_TABLE_FILE", "NNODES", "NPROC_PER_NODE",
                                                             "MS_ROLE", "MS_WORKER_NUM"};
  for (auto p : kPrefixes) {
    if (name.starts_with(p)) return true;
  }
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

std::string format_env_capture(const std::map<std::string, std::string>& env, const std::string& host,
                               const std::string& source, const std::string& time) {
  std::string out = std::string(kCaptureHeader) + " v1 host=" + (host.empty() ? "-" : host) +
                    " source=" + (source.empty() ? "-" : source) + " time=" + (time.empty() ? "-" : time) + "\n";
  for (const auto& [k, v] : env) {
    if (!is_captured_variable(k)) continue;
    if (v.find_first_of("\n\r") == std::string::npos) {
      out += k + "=" + v + "\n";
      continue;
    }
    std::string q;
    for (char c : v) {
      if (c == '\n') q += "\\n";
      else if (c == '\r') q += "\\r";
      else if (c == '\\' || c == '\'') q += std::string("\\") + c;
      else q += c;
    }
    out += "declare -x " + k + "=$'" + q + "'\n";
  }
  return out;
}

}  // namespace npu_doctor::hccl
