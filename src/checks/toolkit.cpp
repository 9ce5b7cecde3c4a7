#include "checks/toolkit.hpp"

#include "core/text_util.hpp"
#include "checks/version_files.hpp"

namespace npu_doctor::checks {
namespace {

std::string parent_of(std::string_view dir) {
  const auto slash = dir.find_last_of('/');
  return slash == std::string_view::npos || slash == 0 ? std::string("/") : std::string(dir.substr(0, slash));
}

std::vector<std::string> candidates(CheckContext& ctx) {
  std::vector<std::string> dirs;
  auto add = [&](std::string d) {
    while (d.size() > 1 && d.back() == '/') d.pop_back();
    if (!d.starts_with('/')) return;
    for (const auto& x : dirs) {
      if (x == d) return;
    }
    dirs.push_back(std::move(d));
  };
  for (const char* var : {"ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH"}) {
    if (auto v = ctx.env(var); v && !v->empty()) add(*v);
  }
  add("/usr/local/Ascend/ascend-toolkit/latest");
  add("/usr/local/Ascend/cann");
  if (auto home = ctx.env("HOME"); home && !home->empty()) add(*home + "/Ascend/ascend-toolkit/latest");
  if (const auto& info = ctx.file("/etc/Ascend/ascend_cann_install.info")) {
    for (const auto& [k, v] : parse_key_values(*info)) {
      if (k == "Install_Path" && v.starts_with('/')) add(v + "/ascend-toolkit/latest");
    }
  }
  add("/usr/local/Ascend/nnae/latest");
  return dirs;
}

// The version of the toolkit in `dir`, from <arch>-linux/*_install.info or version.cfg.
bool read_version(CheckContext& ctx, Toolkit& t) {
  for (const auto& name : ctx.probe().list_dir(t.dir)) {
    if (!name.ends_with("-linux")) continue;
    for (const char* info_name : {"ascend_toolkit_install.info", "ascend_nnae_install.info"}) {
      const std::string path = t.dir + "/" + name + "/" + info_name;
      const auto& text = ctx.file(path);
      if (!text) continue;
      if (auto info = parse_toolkit_install_info(*text)) {
        t.version = info->version;
        t.version_evidence = evidence_at(path, find_key_line(*text, "version").value_or(NumberedLine{}));
        t.install_info = std::move(info);
        return true;
      }
    }
  }
  const std::string cfg_path = t.dir + "/version.cfg";
  if (const auto& cfg = ctx.file(cfg_path)) {
    const auto entries = parse_version_cfg(*cfg);
    if (auto v = cann_version_from_cfg(entries)) {
      t.version = *v;
      t.version_evidence = evidence_at(cfg_path, find_line_containing(*cfg, "_running_version").value_or(NumberedLine{}));
      return true;
    }
  }
  return false;
}

}  // namespace

bool path_within(std::string_view path, std::string_view dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
  if (!path.starts_with(dir)) return false;
  return path.size() == dir.size() || path[dir.size()] == '/' || dir == "/";
}

std::optional<Toolkit> locate_toolkit(CheckContext& ctx, std::vector<std::string>& looked_at) {
  std::optional<Toolkit> without_version;
  for (const auto& dir : candidates(ctx)) {
    looked_at.push_back(dir);
    const FileInfo st = ctx.probe().stat(dir);
    if (!st.exists || !st.is_directory) continue;
    Toolkit t;
    t.dir = dir;
    for (const std::string& s : {parent_of(dir) + "/set_env.sh", dir + "/set_env.sh"}) {
      if (ctx.probe().stat(s).exists) {
        t.set_env = s;
        break;
      }
    }
    if (t.set_env.empty()) t.set_env = (dir.ends_with("/latest") ? parent_of(dir) : dir) + "/set_env.sh";
    if (read_version(ctx, t)) return t;
    if (!without_version) without_version = std::move(t);
  }
  return without_version;
}

}  // namespace npu_doctor::checks
