#include "checks/python_env.hpp"

#include "checks/probe_glob.hpp"
#include "checks/proc_files.hpp"
#include "checks/python_packages.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::checks {
namespace {

// Where Python environments usually keep packages on Ascend hosts and images, for trees
// (bundles, fixtures) where no interpreter can be run.
constexpr const char* kSitePatterns[] = {
    "/usr/local/python3*/lib/python3*/site-packages",
    "/usr/local/lib/python3*/site-packages",
    "/usr/local/lib/python3*/dist-packages",
    "/usr/lib/python3*/site-packages",
    "/usr/lib/python3/dist-packages",
    "/opt/conda/lib/python3*/site-packages",
    "/opt/conda/envs/*/lib/python3*/site-packages",
    "/root/miniconda3/lib/python3*/site-packages",
    "/root/miniconda3/envs/*/lib/python3*/site-packages",
    "/root/anaconda3/lib/python3*/site-packages",
    "/root/anaconda3/envs/*/lib/python3*/site-packages",
    "/root/.local/lib/python3*/site-packages",
    "/home/*/.local/lib/python3*/site-packages",
    "/home/*/miniconda3/lib/python3*/site-packages",
    "/home/*/miniconda3/envs/*/lib/python3*/site-packages",
};

std::optional<InstalledPackage> package_in(CheckContext& ctx, const std::string& site, const std::string& wanted) {
  for (const auto& name : ctx.probe().list_dir(site)) {
    const auto dir = parse_package_dir_name(name);
    if (!dir || dir->name != wanted) continue;
    const std::string base = site + "/" + name;
    for (const std::string& meta : {base + "/METADATA", base + "/PKG-INFO", base}) {
      const auto& text = ctx.file(meta);
      if (!text) continue;
      if (auto m = parse_package_metadata(*text)) {
        return InstalledPackage{wanted, m->version,
                                evidence_at(meta, find_key_line(*text, "Version").value_or(NumberedLine{}))};
      }
    }
    return InstalledPackage{wanted, dir->version, evidence_line(base, 0, name)};
  }
  return std::nullopt;
}

void search(CheckContext& ctx, PythonEnvironment& env) {
  for (const auto& site : env.site_dirs) {
    auto torch = package_in(ctx, site, "torch");
    auto npu = package_in(ctx, site, "torch_npu");
    if (!torch && !npu) continue;
    // Python imports each package from the first directory that has it.
    if (!env.torch && torch) env.torch = std::move(torch);
    if (!env.torch_npu && npu) env.torch_npu = std::move(npu);
    if (env.site_dir.empty()) env.site_dir = site;
    if (env.torch && env.torch_npu) return;
  }
}

}  // namespace

std::string python_interpreter(CheckContext& ctx) {
  const auto& o = ctx.options();
  if (!o.python.empty()) return o.python;
  // Commands run on this host: another root's packages are read from its tree instead.
  if (!ctx.real_root()) return {};
  if (o.pid) {
    // The job's own interpreter, when its command line starts with one.
    const auto args = parse_cmdline(ctx.file("/proc/" + std::to_string(*o.pid) + "/cmdline").value_or(""));
    if (!args.empty()) {
      const std::string& exe = args.front();
      const std::string base = exe.substr(exe.find_last_of('/') + 1);
      if (base.starts_with("python")) return exe;
    }
  }
  for (const char* name : {"python3", "python"}) {
    if (ctx.probe().find_program(name)) return name;
  }
  return "python3";  // not found: reported as such
}

std::optional<PythonEnvironment> find_python_packages(CheckContext& ctx, StepResult& step) {
  PythonEnvironment env;
  env.interpreter = python_interpreter(ctx);
  if (env.interpreter.empty()) {
    env.scanned_tree = true;
    for (const char* pattern : kSitePatterns) {
      for (auto& dir : glob_paths(ctx.probe(), pattern)) env.site_dirs.push_back(std::move(dir));
    }
    step.fact("python", "site-packages under " + ctx.probe().describe_root());
  } else {
    const std::vector<std::string> argv = {env.interpreter, "-c", std::string(python_paths_program())};
    const CommandResult& r = ctx.run(argv);
    const std::string shown = env.interpreter + " -c 'import sys; print(sys.path)'";
    const auto parsed = r.ok() ? parse_python_paths(r.out) : std::nullopt;
    if (!parsed) {
      Evidence e = r.started ? evidence_command_failure(shown, r) : evidence_line(env.interpreter, 0, r.describe());
      step.evidence.push_back(e);
      ctx.raise(step, r.started ? kb_id::check::python_failed : kb_id::check::python_not_found, std::move(e));
      return std::nullopt;
    }
    env.version = parsed->version;
    env.site_dirs = parsed->paths;
    step.fact("python", env.interpreter + (env.version.empty() ? "" : " " + env.version));
  }
  search(ctx, env);
  if (!env.site_dir.empty()) step.fact("site_packages", env.site_dir);
  return env;
}

}  // namespace npu_doctor::checks
