// Step 2, CANN and PyTorch: the toolkit and its version, whether its environment is set
// in the checked process, torch and torch_npu from the Python environment's metadata,
// and whether torch ↔ torch_npu ↔ CANN ↔ driver is a supported combination.
#include <algorithm>

#include "checks/python_env.hpp"
#include "checks/python_packages.hpp"
#include "checks/steps.hpp"
#include "checks/toolkit.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::checks {
namespace {

// ASCEND_TOOLKIT_HOME, ASCEND_OPP_PATH and LD_LIBRARY_PATH as set_env.sh leaves them.
void check_environment(CheckContext& ctx, StepResult& step, const Toolkit& t) {
  const auto home = ctx.env("ASCEND_TOOLKIT_HOME");
  const auto opp = ctx.env("ASCEND_OPP_PATH");
  const auto ld = ctx.env("LD_LIBRARY_PATH");
  std::vector<Evidence> ev = {evidence_env("ASCEND_TOOLKIT_HOME", home), evidence_env("ASCEND_OPP_PATH", opp),
                              evidence_env("LD_LIBRARY_PATH", ld)};
  step.evidence.insert(step.evidence.end(), ev.begin(), ev.end());

  std::vector<std::string> missing, stale;
  auto exists = [&](const std::string& p) { return ctx.probe().stat(p).is_directory; };
  if (!home || home->empty()) missing.push_back("ASCEND_TOOLKIT_HOME");
  else if (!exists(*home)) stale.push_back("ASCEND_TOOLKIT_HOME=" + *home);
  if (!opp || opp->empty()) missing.push_back("ASCEND_OPP_PATH");
  else if (!exists(*opp)) stale.push_back("ASCEND_OPP_PATH=" + *opp);
  // The toolkit's libraries: any entry inside the toolkit (its versioned parent too, as
  // latest/ is a link) or inside ASCEND_TOOLKIT_HOME.
  const std::string root = t.dir.ends_with("/latest") ? t.dir.substr(0, t.dir.size() - 7) : t.dir;
  bool ld_ok = false;
  const std::string ld_path = ld.value_or("");  // split() returns views into it: keep it alive
  for (std::string_view entry : split(ld_path, ':')) {
    entry = trim(entry);
    if (entry.empty()) continue;
    if (path_within(entry, root) || (home && !home->empty() && path_within(entry, *home))) ld_ok = true;
  }
  if (!ld_ok) missing.push_back("LD_LIBRARY_PATH");

  const std::string fix = "source " + t.set_env;
  if (!missing.empty()) {
    ev.front() = with(ev.front(), {{"missing", join(missing, ", ")}, {"fix", fix}});
    ctx.raise(step, kb_id::check::cann_env_not_set, ev);
  }
  if (!stale.empty()) {
    ctx.raise(step, kb_id::check::cann_env_stale,
              with(evidence_env("ASCEND_TOOLKIT_HOME", home), {{"not_found", join(stale, ", ")}, {"toolkit", t.dir}, {"fix", fix}}));
  }
  step.fact("cann_environment", missing.empty() && stale.empty() ? "set" : "not set");
}

void check_frameworks(CheckContext& ctx, StepResult& step, const PythonEnvironment& py, const std::optional<Version>& cann) {
  if (py.torch) {
    step.evidence.push_back(py.torch->evidence);
    step.fact("torch_version", py.torch->version);
  }
  if (py.torch_npu) {
    step.evidence.push_back(py.torch_npu->evidence);
    step.fact("torch_npu_version", py.torch_npu->version);
  }
  if (!py.torch && !py.torch_npu) {
    const std::string where = py.scanned_tree ? ctx.probe().describe_root() : py.interpreter;
    ctx.raise(step, kb_id::check::torch_not_installed,
              evidence_line(where, 0, "no torch or torch_npu metadata in " + std::to_string(py.site_dirs.size()) +
                                          (py.scanned_tree ? " site-packages directories" : " sys.path directories")));
    return;
  }
  if (!py.torch_npu) {
    ctx.raise(step, kb_id::check::torch_npu_not_installed, with(py.torch->evidence, {{"torch", py.torch->version}}));
    return;
  }
  const auto npu = Version::parse(py.torch_npu->version);
  if (!npu) return;
  const TorchNpuRow* row = ctx.table().torch_npu(*npu);
  const std::string table_line = row ? "data/compatibility.yaml:" + std::to_string(row->line) : "";
  // torch_npu X.Y.Z[.postN] is built for PyTorch X.Y.Z.
  const std::string want_torch = row ? row->pytorch.release() : npu->release();
  const auto torch = py.torch ? Version::parse(py.torch->version) : std::nullopt;
  if (!torch || torch->release() != want_torch) {
    ctx.raise(step, kb_id::check::torch_npu_torch_mismatch,
              {with(py.torch_npu->evidence, {{"torch_npu", npu->text()},
                                             {"torch", torch ? torch->text() : "not installed"},
                                             {"expected_torch", want_torch}}),
               py.torch ? py.torch->evidence : evidence_line(py.site_dir, 0, "no torch metadata")});
  }
  if (!cann) return;
  if (!row) {
    ctx.raise(step, kb_id::check::torch_npu_combination_unknown,
              with(py.torch_npu->evidence, {{"torch_npu", npu->text()}, {"cann", cann->text()}}));
    return;
  }
  const bool listed = std::any_of(row->cann.begin(), row->cann.end(), [&](const Version& c) { return c == *cann; });
  if (listed) {
    step.fact("torch_npu_cann", "supported (" + table_line + ")");
    return;
  }
  std::vector<std::string> want;
  for (const auto& c : row->cann) want.push_back(c.text());
  ctx.raise(step, kb_id::check::torch_npu_cann_mismatch,
            with(py.torch_npu->evidence, {{"torch_npu", npu->text()},
                                          {"cann", cann->text()},
                                          {"expected_cann", join(want, " or ")},
                                          {"table", table_line}}));
}

// The driver is at least the Ascend HDK released with this CANN (or with the newest
// older CANN in the table), and CANN's own list of driver release lines names it.
void check_cann_driver(CheckContext& ctx, StepResult& step, const Toolkit& t, const Version& cann) {
  const auto driver = ctx.driver_version();
  if (!driver) return;
  const CannDriverAnswer a = ctx.table().cann_driver(cann);
  if (a.row != nullptr && *driver < a.row->driver) {
    const auto& drv = ctx.driver_file();
    Evidence where = drv.parsed ? evidence_at(drv.path, find_key_line(*drv.text, "Version").value_or(NumberedLine{}))
                                : evidence_line("npu-smi info", 0, "driver " + driver->text());
    ctx.raise(step, kb_id::check::cann_driver_too_old,
              {with(t.version_evidence, {{"cann", cann.text()},
                                         {"driver", driver->text()},
                                         {"required_driver", a.row->driver.text()},
                                         {"table", "data/compatibility.yaml:" + std::to_string(a.row->line) +
                                                       (a.exact ? "" : " (CANN " + a.row->cann.text() + ")")}}),
               where});
  }
  const auto& drv = ctx.driver_file();
  if (t.install_info && !t.install_info->compatible_inner.empty() && drv.parsed) {
    const std::string line = inner_release(drv.parsed->inner_version);
    const auto& list = t.install_info->compatible_inner;
    if (!line.empty() && std::find(list.begin(), list.end(), line) == list.end()) {
      ctx.raise(step, kb_id::check::cann_driver_not_listed,
                {with(t.version_evidence, {{"driver_release", line}, {"cann_accepts", join(list, ",")}}),
                 evidence_at(drv.path, find_key_line(*drv.text, "Innerversion").value_or(NumberedLine{}))});
    }
  }
}

void probe_device(CheckContext& ctx, StepResult& step) {
  const std::string python = python_interpreter(ctx);
  if (python.empty()) {
    ctx.raise(step, kb_id::check::probe_device_skipped, evidence_line("--probe-device", 0, "no interpreter to run under --root"));
    return;
  }
  const std::vector<std::string> argv = {python, "-c", std::string(device_probe_program())};
  const CommandResult& r = ctx.run(argv);
  const std::string shown = python + " -c '<import torch_npu; torch.npu.is_available(); a tensor on the NPU>'";
  const auto result = parse_device_probe(r.out);
  if (!result) {
    ctx.raise(step, kb_id::check::probe_device_failed, evidence_command_failure(shown, r));
    return;
  }
  Evidence e = evidence_line(shown, 0, result->line);
  step.evidence.push_back(e);
  if (result->available) step.fact("npu_available", *result->available ? "true" : "false");
  if (result->device_count) step.fact("npu_device_count", std::to_string(*result->device_count));
  if (result->ok()) return;
  std::vector<std::pair<std::string, std::string>> caps = {{"stage", result->stage}};
  if (!result->error.empty()) caps.emplace_back("error", result->error);
  if (result->available && !*result->available) caps.emplace_back("available", "false");
  ctx.raise(step, kb_id::check::probe_device_failed, with(std::move(e), std::move(caps)));
}

}  // namespace

StepResult run_cann_step(CheckContext& ctx) {
  StepResult step;
  step.id = StepId::cann;
  std::vector<std::string> looked_at;
  const auto toolkit = locate_toolkit(ctx, looked_at);
  std::optional<Version> cann;
  if (!toolkit) {
    std::vector<Evidence> ev;
    for (const auto& d : looked_at) ev.push_back(evidence_line(d, 0, "missing"));
    step.evidence.insert(step.evidence.end(), ev.begin(), ev.end());
    ctx.raise(step, kb_id::check::cann_not_installed, std::move(ev));
  } else {
    step.fact("cann_home", toolkit->dir);
    if (toolkit->version.empty()) {
      step.evidence.push_back(evidence_line(toolkit->dir, 0, "no ascend_toolkit_install.info or version.cfg with a version"));
      ctx.raise(step, kb_id::check::cann_version_unknown, step.evidence.back());
    } else {
      step.evidence.push_back(toolkit->version_evidence);
      step.fact("cann_version", toolkit->version);
      cann = Version::parse(toolkit->version);
    }
    check_environment(ctx, step, *toolkit);
    if (cann) check_cann_driver(ctx, step, *toolkit, *cann);
  }
  if (auto py = find_python_packages(ctx, step)) check_frameworks(ctx, step, *py, cann);
  if (ctx.options().probe_device) probe_device(ctx, step);
  return step;
}

}  // namespace npu_doctor::checks
