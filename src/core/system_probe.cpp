// The real machine (or a directory standing in for its file system) behind Probe.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "npu_doctor/probe.hpp"

namespace npu_doctor {

std::optional<std::string> Probe::find_program(const std::string& name) const {
  return find_on_path(name, env("PATH").value_or(""));
}

SystemProbe::SystemProbe(std::string root, CommandOptions command_options)
    : root_(std::move(root)), command_options_(std::move(command_options)) {
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string SystemProbe::map(const std::string& path) const {
  if (root_.empty() || root_ == "/") return path;
  return root_ + (path.starts_with('/') ? path : "/" + path);
}

std::optional<std::string> SystemProbe::read_file(const std::string& path, std::size_t max_bytes) const {
  // A FIFO in a collected tree (or a hostile one) would block the open for ever: not a file we read.
  struct stat st {};
  if (::stat(map(path).c_str(), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) return std::nullopt;
  std::ifstream in(map(path), std::ios::binary);
  if (!in) return std::nullopt;
  std::string data(max_bytes, '\0');
  in.read(data.data(), static_cast<std::streamsize>(max_bytes));
  if (in.bad()) return std::nullopt;
  data.resize(static_cast<std::size_t>(in.gcount()));
  return data;
}

std::vector<std::string> SystemProbe::list_dir(const std::string& path) const {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(map(path), ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

FileInfo SystemProbe::stat(const std::string& path) const {
  FileInfo info;
  struct stat st {};
  if (::stat(map(path).c_str(), &st) != 0) return info;
  info.exists = true;
  info.is_directory = S_ISDIR(st.st_mode);
  info.is_char_device = S_ISCHR(st.st_mode);
  info.mode = st.st_mode & 07777;
  info.uid = st.st_uid;
  info.gid = st.st_gid;
  return info;
}

std::optional<std::string> SystemProbe::env(const std::string& name) const {
  if (auto it = env_overrides_.find(name); it != env_overrides_.end()) return it->second;
  const char* v = std::getenv(name.c_str());
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

void SystemProbe::set_env(const std::string& name, std::optional<std::string> value) {
  env_overrides_[name] = std::move(value);
}

CommandResult SystemProbe::run(const std::vector<std::string>& argv) const {
  CommandOptions options = command_options_;
  // Commands see the probe's view of the environment (overrides included).
  for (const auto& [k, v] : env_overrides_) {
    if (v) options.env[k] = *v;
  }
  if (options.path.empty()) {
    if (auto p = env("PATH")) options.path = *p;
  }
  return run_command(argv, options);
}

}  // namespace npu_doctor
