// Step 4, NUMA placement: the NUMA node of each NPU the job uses (PCI numa_node in
// sysfs, bus ids from npu-smi or from the PCI device list) against the CPUs the job may
// run on (/proc/<pid>/status Cpus_allowed_list). A job whose CPUs are all on other nodes
// than its NPU's gets the numactl line that fixes it.
#include <algorithm>
#include <map>
#include <set>

#include "checks/cpu_list.hpp"
#include "checks/probe_glob.hpp"
#include "checks/proc_files.hpp"
#include "checks/steps.hpp"
#include "checks/visible_devices.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::checks {
namespace {

struct Npu {
  std::string label;   // "NPU 0 chip 0" or the bus id
  std::string bus_id;  // lower-case, as in sysfs
  std::optional<int> node;
};

constexpr std::string_view kHuaweiVendor = "0x19e5";

// The NPUs the job uses: those npu-smi shows its pid on, else those the visible-device
// variable selects, else all.
std::vector<Npu> npus_of_job(CheckContext& ctx, StepResult& step) {
  std::vector<Npu> all;
  const auto& smi = ctx.npu_smi();
  if (smi.usable()) {
    for (const auto& c : smi.info->chips) {
      all.push_back({"NPU " + std::to_string(c.npu) + " chip " + std::to_string(c.chip), to_lower(c.bus_id), {}});
    }
    if (const auto pid = ctx.options().pid) {
      std::vector<Npu> used;
      for (const auto& p : smi.info->processes) {
        if (p.pid != *pid) continue;
        for (std::size_t i = 0; i < smi.info->chips.size(); ++i) {
          const auto& c = smi.info->chips[i];
          if (c.npu == p.npu && c.chip == p.chip) used.push_back(all[i]);
        }
      }
      if (!used.empty()) {
        step.fact("npus_of_job", "npu-smi process table");
        return used;
      }
    }
  } else {
    // No npu-smi: Huawei processing accelerators (PCI class 0x12) in sysfs.
    for (const auto& dir : glob_paths(ctx.probe(), "/sys/bus/pci/devices/*")) {
      const std::string vendor(trim(ctx.file(dir + "/vendor").value_or("")));
      const std::string cls(trim(ctx.file(dir + "/class").value_or("")));
      if (to_lower(vendor) != kHuaweiVendor || !cls.starts_with("0x12")) continue;
      const std::string bus = dir.substr(dir.find_last_of('/') + 1);
      all.push_back({bus, to_lower(bus), {}});
    }
  }
  if (auto rt = ctx.env("ASCEND_RT_VISIBLE_DEVICES"); rt && !all.empty()) {
    std::vector<Npu> visible;
    for (int id : parse_rt_visible_devices(*rt)) {
      if (id >= 0 && static_cast<std::size_t>(id) < all.size()) visible.push_back(all[static_cast<std::size_t>(id)]);
    }
    if (!visible.empty()) {
      step.fact("npus_of_job", "ASCEND_RT_VISIBLE_DEVICES");
      return visible;
    }
  }
  return all;
}

// node number -> its CPUs, from /sys/devices/system/node/node<N>/cpulist.
std::map<int, std::set<unsigned>> numa_nodes(CheckContext& ctx) {
  std::map<int, std::set<unsigned>> nodes;
  for (const auto& name : ctx.probe().list_dir("/sys/devices/system/node")) {
    if (!name.starts_with("node") || name.size() == 4) continue;
    const auto n = to_integer(std::string_view(name).substr(4));
    if (!n || *n < 0 || *n > 4096) continue;
    const auto cpus = parse_cpu_list(ctx.file("/sys/devices/system/node/" + name + "/cpulist").value_or(""));
    if (cpus) nodes[static_cast<int>(*n)] = *cpus;
  }
  return nodes;
}

}  // namespace

StepResult run_numa_step(CheckContext& ctx) {
  StepResult step;
  step.id = StepId::numa;
  const auto nodes = numa_nodes(ctx);
  std::vector<Npu> npus = npus_of_job(ctx, step);
  step.fact("numa_nodes", std::to_string(nodes.size()));
  if (npus.empty()) {
    step.skipped = true;
    ctx.raise(step, kb_id::check::numa_info_unavailable,
              evidence_line(ctx.npu_smi().usable() ? "npu-smi info" : "/sys/bus/pci/devices", 0, "no NPU found"));
    return step;
  }
  if (nodes.size() <= 1) {
    // One node (or none known): every CPU is as close to the NPUs as any other.
    step.evidence.push_back(evidence_line("/sys/devices/system/node", 0, std::to_string(nodes.size()) + " NUMA node(s)"));
    return step;
  }
  for (auto& n : npus) {
    const std::string path = "/sys/bus/pci/devices/" + n.bus_id + "/numa_node";
    const auto value = to_integer(ctx.file(path).value_or(""));
    if (value && *value >= 0) n.node = static_cast<int>(*value);
  }
  const std::string self = ctx.options().pid ? std::to_string(*ctx.options().pid) : "self";
  const std::string status_path = "/proc/" + self + "/status";
  const auto& status_text = ctx.file(status_path);
  const ProcStatus status = parse_proc_status(status_text.value_or(""));
  const auto cpus = parse_cpu_list(status.cpus_allowed_list);
  const bool any_node_known = std::any_of(npus.begin(), npus.end(), [](const Npu& n) { return n.node.has_value(); });
  if (!any_node_known || !cpus || cpus->empty()) {
    step.skipped = true;
    ctx.raise(step, kb_id::check::numa_info_unavailable,
              evidence_line(any_node_known ? status_path : "/sys/bus/pci/devices/" + npus.front().bus_id + "/numa_node", 0,
                            any_node_known ? "no Cpus_allowed_list" : "no numa_node"));
    return step;
  }
  std::set<int> job_nodes;
  for (const auto& [n, node_cpus] : nodes) {
    if (intersects(*cpus, node_cpus)) job_nodes.insert(n);
  }
  Evidence cpus_evidence = evidence_at(status_path, find_key_line(*status_text, "Cpus_allowed_list").value_or(NumberedLine{}));
  step.evidence.push_back(cpus_evidence);
  std::string job_nodes_text;
  for (int n : job_nodes) job_nodes_text += (job_nodes_text.empty() ? "" : ",") + std::to_string(n);
  step.fact("job_cpus", format_cpu_list(*cpus));
  step.fact("job_numa_nodes", job_nodes_text);

  // What to run: the job's own command line when known.
  std::string command = "<your command>";
  if (ctx.options().pid) {
    const auto args = parse_cmdline(ctx.file("/proc/" + self + "/cmdline").value_or(""));
    if (!args.empty()) command = shell_join(args);
  }
  std::set<int> npu_nodes, cited;
  std::vector<Evidence> mismatched;
  for (const auto& n : npus) {
    if (!n.node) continue;
    npu_nodes.insert(*n.node);
    Evidence e = evidence_line("/sys/bus/pci/devices/" + n.bus_id + "/numa_node", 1, std::to_string(*n.node));
    if (job_nodes.count(*n.node) == 0) {
      mismatched.push_back(with(std::move(e), {{"npu", n.label},
                                               {"npu_node", std::to_string(*n.node)},
                                               {"job_nodes", job_nodes_text},
                                               {"fix", "numactl --cpunodebind=" + std::to_string(*n.node) + " --membind=" +
                                                           std::to_string(*n.node) + " " + command}}));
    } else if (cited.insert(*n.node).second) {
      step.evidence.push_back(std::move(e));  // one NPU per node is enough to show it
    }
  }
  std::string npu_nodes_text;
  for (int n : npu_nodes) npu_nodes_text += (npu_nodes_text.empty() ? "" : ",") + std::to_string(n);
  step.fact("npu_numa_nodes", npu_nodes_text);
  if (!mismatched.empty()) {
    mismatched.push_back(cpus_evidence);
    ctx.raise(step, kb_id::check::numa_mismatch, std::move(mismatched));
    return step;
  }
  // Not bound at all while the NPUs sit on one node: a hint, not a problem.
  if (job_nodes.size() == nodes.size() && npu_nodes.size() == 1) {
    const std::string node = std::to_string(*npu_nodes.begin());
    ctx.raise(step, kb_id::check::numa_not_pinned,
              with(cpus_evidence, {{"npu_node", node}, {"fix", "numactl --cpunodebind=" + node + " --membind=" + node + " " + command}}));
  }
  return step;
}

}  // namespace npu_doctor::checks
