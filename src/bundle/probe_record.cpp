#include "bundle/probe_record.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "json_number.hpp"

namespace npu_doctor::bundle {

using nlohmann::json;

namespace {

json optional_text(const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); }

std::optional<std::string> text_of(const json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<std::string>();
}

// A number field as T: nlohmann's get<unsigned>() on 1e66 is undefined behaviour (found by
// the bundle fuzzer), so out-of-range numbers make the record malformed instead.
template <class T>
T number_of(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_number()) return v.get<T>();  // throws nlohmann's own type error
  if (auto n = json_number<T>(v)) return *n;
  throw std::out_of_range(std::string("\"") + key + "\" is out of range");
}

std::vector<unsigned> unsigned_list(const json& j, const char* key) {
  std::vector<unsigned> out;
  for (const auto& v : j.at(key)) {
    auto n = json_number<unsigned>(v);
    if (!n) throw std::out_of_range(std::string("an item of \"") + key + "\" is not a number in range");
    out.push_back(*n);
  }
  return out;
}

}  // namespace

std::string ProbeRecord::to_json() const {
  json j;
  j["schema"] = kProbeRecordSchema;
  j["root"] = root;
  j["identity"] = {{"uid", identity.uid},       {"gid", identity.gid},   {"groups", identity.groups},
                   {"user", identity.user},     {"origin", identity.origin}};
  json files_j = json::object();
  for (const auto& [path, content] : files) {
    files_j[path] = content ? json{{"present", true}, {"bytes", content->size()}} : json{{"present", false}};
  }
  j["files"] = files_j;
  j["dirs"] = dirs;
  json stats_j = json::object();
  for (const auto& [path, s] : stats) {
    stats_j[path] = {{"exists", s.exists}, {"directory", s.is_directory}, {"char_device", s.is_char_device},
                     {"mode", s.mode},     {"uid", s.uid},                {"gid", s.gid}};
  }
  j["stats"] = stats_j;
  json env_j = json::object();
  for (const auto& [k, v] : env) env_j[k] = optional_text(v);
  j["env"] = env_j;
  json programs_j = json::object();
  for (const auto& [k, v] : programs) programs_j[k] = optional_text(v);
  j["programs"] = programs_j;
  json commands_j = json::array();
  for (const auto& [argv, r] : commands) {
    commands_j.push_back({{"argv", argv},
                          {"started", r.started},
                          {"timed_out", r.timed_out},
                          {"exit_code", r.exit_code},
                          {"signal", r.signal},
                          {"stdout", r.out},
                          {"stderr", r.err},
                          {"truncated", r.truncated},
                          {"error", r.error},
                          {"seconds", r.seconds}});
  }
  j["commands"] = commands_j;
  // Replace invalid UTF-8 (command output, binary files) instead of failing.
  return j.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::optional<ProbeRecord> ProbeRecord::from_json(const std::string& text, const std::string& bundle_dir,
                                                  std::string& error) {
  ProbeRecord r;
  try {
    const json j = json::parse(text);
    if (j.value("schema", "") != kProbeRecordSchema) {
      error = "not a " + std::string(kProbeRecordSchema) + " record";
      return std::nullopt;
    }
    r.root = j.at("root").get<std::string>();
    const json& id = j.at("identity");
    r.identity.uid = number_of<unsigned>(id, "uid");
    r.identity.gid = number_of<unsigned>(id, "gid");
    r.identity.groups = unsigned_list(id, "groups");
    r.identity.user = id.value("user", "");
    r.identity.origin = id.value("origin", "");
    for (const auto& [path, f] : j.at("files").items()) {
      if (!f.value("present", false)) {
        r.files[path] = std::nullopt;
        continue;
      }
      std::ifstream in(bundle_dir + "/sysroot" + path, std::ios::binary);
      if (!in) {
        r.files[path] = std::nullopt;  // the member was removed: answer as missing
        continue;
      }
      std::ostringstream s;
      s << in.rdbuf();
      r.files[path] = s.str();
    }
    r.dirs = j.at("dirs").get<std::map<std::string, std::vector<std::string>>>();
    for (const auto& [path, s] : j.at("stats").items()) {
      FileInfo info;
      info.exists = s.at("exists").get<bool>();
      info.is_directory = s.at("directory").get<bool>();
      info.is_char_device = s.at("char_device").get<bool>();
      info.mode = number_of<unsigned>(s, "mode");
      info.uid = number_of<unsigned>(s, "uid");
      info.gid = number_of<unsigned>(s, "gid");
      r.stats[path] = info;
    }
    for (const auto& [k, v] : j.at("env").items()) r.env[k] = text_of(v);
    for (const auto& [k, v] : j.at("programs").items()) r.programs[k] = text_of(v);
    for (const auto& c : j.at("commands")) {
      CommandResult cr;
      cr.started = c.at("started").get<bool>();
      cr.timed_out = c.at("timed_out").get<bool>();
      cr.exit_code = number_of<int>(c, "exit_code");
      cr.signal = number_of<int>(c, "signal");
      cr.out = c.at("stdout").get<std::string>();
      cr.err = c.at("stderr").get<std::string>();
      cr.truncated = c.at("truncated").get<bool>();
      cr.error = c.at("error").get<std::string>();
      cr.seconds = c.at("seconds").get<double>();
      r.commands[c.at("argv").get<std::vector<std::string>>()] = std::move(cr);
    }
  } catch (const std::exception& e) {
    error = std::string("malformed probe record: ") + e.what();
    return std::nullopt;
  }
  return r;
}

// --- recording -------------------------------------------------------------------------

namespace {

// Of two reads of one file (different max_bytes), the longer answer is kept.
void keep_longer(std::optional<std::string>& slot, std::optional<std::string> content) {
  if (content && (!slot || content->size() > slot->size())) slot = std::move(content);
}

}  // namespace

std::optional<std::string> RecordingProbe::read_file(const std::string& path, std::size_t max_bytes) const {
  auto content = live_.read_file(path, max_bytes);
  keep_longer(raw_.files[path], content);
  return content;
}

std::vector<std::string> RecordingProbe::list_dir(const std::string& path) const {
  auto names = live_.list_dir(path);
  raw_.dirs[path] = names;
  return names;
}

FileInfo RecordingProbe::stat(const std::string& path) const {
  const FileInfo info = live_.stat(path);
  raw_.stats[path] = info;
  return info;
}

std::optional<std::string> RecordingProbe::env(const std::string& name) const {
  auto value = live_.env(name);
  raw_.env[name] = value;
  return value;
}

std::optional<std::string> RecordingProbe::find_program(const std::string& name) const {
  auto where = live_.find_program(name);
  raw_.programs[name] = where;
  return where;
}

CommandResult RecordingProbe::run(const std::vector<std::string>& argv) const {
  CommandResult r = live_.run(argv);
  raw_.commands[argv] = r;
  return r;
}

ProbeRecord RecordingProbe::redacted_record() const {
  ProbeRecord r;
  r.root = raw_.root;
  r.identity = raw_.identity;
  auto text = [&](const std::optional<std::string>& s) {
    return s ? std::optional<std::string>(redactor_.redact(*s)) : std::nullopt;
  };
  for (const auto& [path, content] : raw_.files) {
    auto& slot = r.files[redactor_.redact(path)];
    keep_longer(slot, text(content));
  }
  for (const auto& [path, names] : raw_.dirs) {
    auto& kept = r.dirs[redactor_.redact(path)];
    kept.clear();
    for (const auto& n : names) kept.push_back(redactor_.redact(n));
  }
  for (const auto& [path, info] : raw_.stats) r.stats[redactor_.redact(path)] = info;
  for (const auto& [name, value] : raw_.env) {
    r.env[name] = value ? std::optional<std::string>(redactor_.redact_variable(name, *value)) : std::nullopt;
  }
  for (const auto& [name, where] : raw_.programs) r.programs[name] = text(where);
  for (const auto& [argv, result] : raw_.commands) {
    CommandResult kept = result;
    kept.out = redactor_.redact(result.out);
    kept.err = redactor_.redact(result.err);
    kept.error = redactor_.redact(result.error);
    r.commands[redactor_.redact_argv(argv)] = std::move(kept);
  }
  return r;
}

// --- replay ----------------------------------------------------------------------------

std::optional<std::string> ReplayProbe::read_file(const std::string& path, std::size_t max_bytes) const {
  auto it = record_.files.find(path);
  if (it == record_.files.end() || !it->second) return std::nullopt;
  return it->second->substr(0, max_bytes);
}

std::vector<std::string> ReplayProbe::list_dir(const std::string& path) const {
  auto it = record_.dirs.find(path);
  return it == record_.dirs.end() ? std::vector<std::string>{} : it->second;
}

FileInfo ReplayProbe::stat(const std::string& path) const {
  auto it = record_.stats.find(path);
  return it == record_.stats.end() ? FileInfo{} : it->second;
}

std::optional<std::string> ReplayProbe::env(const std::string& name) const {
  auto it = record_.env.find(name);
  return it == record_.env.end() ? std::nullopt : it->second;
}

std::optional<std::string> ReplayProbe::find_program(const std::string& name) const {
  auto it = record_.programs.find(name);
  return it == record_.programs.end() ? std::nullopt : it->second;
}

CommandResult ReplayProbe::run(const std::vector<std::string>& argv) const {
  if (auto it = record_.commands.find(argv); it != record_.commands.end()) return it->second;
  CommandResult r;
  r.error = "not recorded in the bundle";
  return r;
}

}  // namespace npu_doctor::bundle
