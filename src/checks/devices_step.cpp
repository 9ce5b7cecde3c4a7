// Step 3, permissions and device visibility: the device nodes exist and the checked
// identity may open them, the driver's kernel modules are loaded, the visible-device
// variables name devices that exist, and no other process holds a device.
#include <algorithm>
#include <set>

#include "checks/identity.hpp"
#include "checks/proc_files.hpp"
#include "checks/steps.hpp"
#include "checks/visible_devices.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::checks {
namespace {

std::string mode_text(const FileInfo& f) {
  static const char* kRwx[] = {"---", "--x", "-w-", "-wx", "r--", "r-x", "rw-", "rwx"};
  return std::string(kRwx[(f.mode >> 6) & 7]) + kRwx[(f.mode >> 3) & 7] + kRwx[f.mode & 7];
}

std::string group_name(const std::vector<GroupEntry>& groups, unsigned gid) {
  for (const auto& g : groups) {
    if (g.gid == gid) return g.name;
  }
  return std::to_string(gid);
}

std::string user_name(const std::vector<PasswdEntry>& users, unsigned uid) {
  for (const auto& u : users) {
    if (u.uid == uid) return u.name;
  }
  return std::to_string(uid);
}

bool is_950(CheckContext& ctx) {
  const auto& smi = ctx.npu_smi();
  if (!smi.usable()) return false;
  return std::any_of(smi.info->chips.begin(), smi.info->chips.end(),
                     [](const NpuSmiChip& c) { return c.name.find("950") != std::string::npos; });
}

void check_modules(CheckContext& ctx, StepResult& step) {
  const auto& modules = ctx.modules();
  if (!modules) {
    step.evidence.push_back(evidence_line("/proc/modules", 0, "unreadable"));
    return;
  }
  std::vector<std::string> ascend;
  for (const auto& m : *modules) {
    if (is_ascend_driver_module(m)) ascend.push_back(m);
  }
  step.fact("driver_modules", std::to_string(ascend.size()));
  if (!ascend.empty()) {
    if (auto line = find_line_containing(*ctx.file("/proc/modules"), ascend.front() + " ")) {
      step.evidence.push_back(evidence_at("/proc/modules", *line));
    }
    return;
  }
  // Only a problem when a driver is installed: no modules and no driver is "no driver".
  const auto& drv = ctx.driver_file();
  if (!drv.text) return;
  ctx.raise(step, kb_id::check::driver_modules_not_loaded,
            {with(evidence_line("/proc/modules", 0, std::to_string(modules->size()) + " modules, none of the Ascend driver's"),
                  {{"expected", "drv_*, asdrv_*, ascend_*, dbl_*, ts_agent"}}),
             evidence_line(drv.path, 0, "present")});
}

void check_nodes(CheckContext& ctx, StepResult& step, const std::vector<int>& davinci) {
  std::vector<std::string> nodes;
  for (int n : davinci) nodes.push_back("/dev/davinci" + std::to_string(n));
  std::vector<std::string> required = {"/dev/davinci_manager", "/dev/hisi_hdc"};
  if (!is_950(ctx)) required.push_back("/dev/devmm_svm");  // the 950 has no devmm_svm
  std::vector<std::string> missing;
  if (davinci.empty()) missing.push_back("/dev/davinci<N>");
  for (const auto& r : required) {
    if (ctx.probe().stat(r).exists) nodes.push_back(r);
    else missing.push_back(r);
  }
  step.fact("device_nodes", std::to_string(davinci.size()));
  if (!missing.empty()) {
    std::vector<Evidence> ev;
    for (const auto& m : missing) ev.push_back(evidence_line(m, 0, "missing"));
    ev.front() = with(ev.front(), {{"missing", join(missing, " ")}});
    step.evidence.insert(step.evidence.end(), ev.begin(), ev.end());
    ctx.raise(step, kb_id::check::device_nodes_missing, std::move(ev));
  }

  // Access for the checked identity, from owner, group and mode.
  Identity who = ctx.options().identity;
  name_identity(ctx.probe(), who);
  const auto groups = parse_group(ctx.file("/etc/group").value_or(""));
  const auto users = parse_passwd(ctx.file("/etc/passwd").value_or(""));
  step.fact("identity", (who.user.empty() ? "uid " + std::to_string(who.uid) : who.user) + " (" + who.origin + ")");
  std::vector<Evidence> denied;
  std::set<std::string> needed_groups;
  for (const auto& path : nodes) {
    const FileInfo f = ctx.probe().stat(path);
    const std::string text = mode_text(f) + " " + user_name(users, f.uid) + " " + group_name(groups, f.gid);
    if (can_read_write(f, who)) {
      if (path == nodes.front()) step.evidence.push_back(evidence_line(path, 0, text));
      continue;
    }
    denied.push_back(evidence_line(path, 0, text));
    // Group access would help only if the group may read and write.
    if (((f.mode >> 3) & 06) == 06) needed_groups.insert(group_name(groups, f.gid));
  }
  if (denied.empty()) return;
  step.evidence.insert(step.evidence.end(), denied.begin(), denied.end());
  const std::string user = who.user.empty() ? "<user>" : who.user;
  std::vector<std::pair<std::string, std::string>> caps = {{"user", user}, {"uid", std::to_string(who.uid)}};
  for (const auto& g : needed_groups) {
    // Listed in /etc/group but not in this process's groups: a new login is enough.
    const auto it = std::find_if(groups.begin(), groups.end(), [&](const GroupEntry& e) { return e.name == g; });
    const bool listed = it != groups.end() && std::find(it->members.begin(), it->members.end(), user) != it->members.end();
    caps.emplace_back("fix", listed ? "newgrp " + g + "   # or log out and in again" : "usermod -aG " + g + " " + user);
  }
  if (needed_groups.empty()) caps.emplace_back("fix", "chmod 660 " + denied.front().path + "; chgrp HwHiAiUser " + denied.front().path);
  denied.front() = with(denied.front(), std::move(caps));
  ctx.raise(step, kb_id::check::device_permission_denied, std::move(denied));
}

void check_visible(CheckContext& ctx, StepResult& step, const std::vector<int>& davinci) {
  const int count = static_cast<int>(davinci.size());
  if (auto rt = ctx.env("ASCEND_RT_VISIBLE_DEVICES")) {
    Evidence e = evidence_env("ASCEND_RT_VISIBLE_DEVICES", rt);
    step.evidence.push_back(e);
    std::string ignored;
    const auto ids = parse_rt_visible_devices(*rt, &ignored);
    std::vector<std::string> bad;
    for (int id : ids) {
      if (id >= count) bad.push_back(std::to_string(id));
    }
    if (ids.empty() || !bad.empty() || !ignored.empty()) {
      std::vector<std::pair<std::string, std::string>> caps = {{"devices", std::to_string(count)}};
      if (ids.empty()) caps.emplace_back("problem", "selects no device");
      if (!bad.empty()) caps.emplace_back("not_present", join(bad, ","));
      if (!ignored.empty()) caps.emplace_back("ignored", ignored);
      ctx.raise(step, kb_id::check::visible_devices_invalid, with(std::move(e), std::move(caps)));
    }
  }
  if (auto container = ctx.env("ASCEND_VISIBLE_DEVICES")) {
    Evidence e = evidence_env("ASCEND_VISIBLE_DEVICES", container);
    step.evidence.push_back(e);
    const auto ids = parse_container_visible_devices(*container);
    std::vector<std::string> bad;
    for (int id : ids.value_or(std::vector<int>{})) {
      if (std::find(davinci.begin(), davinci.end(), id) == davinci.end()) bad.push_back(std::to_string(id));
    }
    if (!ids || !bad.empty()) {
      ctx.raise(step, kb_id::check::visible_devices_invalid,
                with(std::move(e), {{"devices", std::to_string(count)},
                                    {ids ? "not_present" : "problem", ids ? join(bad, ",") : "not a list of ids or ranges"}}));
    }
  }
}

void check_busy(CheckContext& ctx, StepResult& step) {
  const auto& smi = ctx.npu_smi();
  if (!smi.usable()) return;
  const auto pid = ctx.options().pid;
  for (const auto& p : smi.info->processes) {
    if (pid && p.pid == *pid) continue;  // the checked job itself
    const auto line = find_line_containing(smi.result.out, std::to_string(p.pid)).value_or(NumberedLine{});
    ctx.raise(step, kb_id::check::device_busy,
              with(evidence_at("npu-smi info", line), {{"npu", std::to_string(p.npu)},
                                                      {"pid", std::to_string(p.pid)},
                                                      {"process", p.name},
                                                      {"memory_mb", std::to_string(p.memory_mb)}}));
  }
}

}  // namespace

StepResult run_devices_step(CheckContext& ctx) {
  StepResult step;
  step.id = StepId::devices;
  const std::vector<int> davinci = ctx.davinci_nodes();
  if (davinci.empty() && !ctx.driver_present()) {
    step.skipped = true;
    ctx.raise(step, kb_id::check::skipped_no_driver, evidence_line("/dev", 0, "no /dev/davinci* nodes, no Ascend driver"));
    return step;
  }
  check_modules(ctx, step);
  check_nodes(ctx, step, davinci);
  check_visible(ctx, step, davinci);
  check_busy(ctx, step);
  return step;
}

}  // namespace npu_doctor::checks
