#include "profile_inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "csv_reader.hpp"

namespace npu_doctor::profile_detail {
namespace {

namespace fs = std::filesystem;

std::string base_name(std::string_view path) {
  if (auto colon = path.rfind(':'); colon != std::string_view::npos && path.find('/', colon) != std::string_view::npos) {
    path = path.substr(colon + 1);  // archive member "a.tar.gz:dir/x.csv"
  }
  auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool has_timestamp(std::string_view name) {  // msprof exports: op_summary_20240515083246.csv
  std::size_t run = 0;
  for (char c : name) {
    run = (c >= '0' && c <= '9') ? run + 1 : 0;
    if (run >= 14) return true;
  }
  return false;
}

bool looks_like_archive_name(std::string_view n) {
  for (std::string_view ext : {".tar", ".tgz", ".tar.gz", ".zip", ".7z", ".tar.zst", ".tar.xz", ".tar.bz2"}) {
    if (n.size() > ext.size() && n.substr(n.size() - ext.size()) == ext) return true;
  }
  return false;
}

}  // namespace

InputReport make_input_report(std::string path, std::string kind, InputStatus status, std::string note) {
  InputReport r;
  r.path = std::move(path);
  r.kind = std::move(kind);
  r.status = status;
  r.note = std::move(note);
  return r;
}

std::string kind_from_name(std::string_view path) {
  std::string n = base_name(path);
  for (std::string_view ext : {".gz", ".zst", ".xz", ".bz2"}) {
    if (n.size() > ext.size() && n.substr(n.size() - ext.size()) == ext) n.resize(n.size() - ext.size());
  }
  auto starts = [&](std::string_view p) { return n.rfind(p, 0) == 0; };
  auto ends = [&](std::string_view e) { return n.size() >= e.size() && n.substr(n.size() - e.size()) == e; };
  if (ends(".csv")) {
    if (starts("op_summary")) return "op_summary";
    if (starts("kernel_details")) return "kernel_details";
    if (starts("op_statistic")) return "op_statistic";
    if (starts("cluster_step_trace_time")) return "cluster_step_trace_time";
    if (starts("step_trace_time")) return "step_trace_time";
    if (starts("api_statistic")) return "api_statistic";
  }
  if (ends(".json") && starts("cluster_communication")) return "cluster_communication";
  return "";
}

std::string kind_from_header(std::string_view first_line) {
  std::string h = normalize_header(first_line);
  auto has = [&](std::string_view col) { return h.find(normalize_header(col)) != std::string::npos; };
  if (has("Communication Time Info")) return "cluster_communication";
  if (has("Computing") && has("Index") && has("Type")) return "cluster_step_trace_time";
  if (has("Computing") && has("Free")) return "step_trace_time";
  if (has("API Name")) return "api_statistic";
  if (has("Task Duration(us)")) return "op_summary";
  if (has("Accelerator Core") && has("Duration(us)")) return "kernel_details";
  if (has("Total Time(us)") && has("OP Type")) return "op_statistic";
  return "";
}

std::vector<PlannedInput> plan_inputs(const Enumeration& en, const std::vector<std::string>& named_paths,
                                      std::vector<InputReport>& left_out, uint64_t& ignored) {
  const std::set<std::string> named(named_paths.begin(), named_paths.end());
  std::vector<PlannedInput> plan;
  // Newest export per (directory, kind) among timestamped files; combined tables of a PROF_ dir.
  std::map<std::pair<std::string, std::string>, std::string> newest;
  std::set<std::pair<std::string, std::string>> combined;  // (PROF root, kind) with mindstudio_profiler_output
  for (const auto& it : en.items) {
    const std::string kind = kind_from_name(it.display);
    if (kind.empty() || it.is_stdin) continue;
    const fs::path p(it.display);
    if (has_timestamp(p.filename().string())) {
      auto& n = newest[{p.parent_path().string(), kind}];
      n = std::max(n, p.filename().string());
    }
    if (p.parent_path().filename() == "mindstudio_profiler_output") {
      combined.insert({p.parent_path().parent_path().string(), kind});
    }
  }
  for (const auto& it : en.items) {
    const std::string kind = kind_from_name(it.display);
    const fs::path p(it.display);
    if (it.is_stdin || (kind.empty() && (named.count(it.display) > 0 || looks_like_archive_name(it.display)))) {
      plan.push_back({it, kind});  // stdin, archives and renamed files: decided when read
      continue;
    }
    if (kind.empty()) {
      ++ignored;
      continue;
    }
    if (has_timestamp(p.filename().string())) {
      const auto& n = newest[{p.parent_path().string(), kind}];
      if (n != p.filename().string()) {
        left_out.push_back(make_input_report(it.display, "file", InputStatus::skipped, "an older export; using " + n));
        continue;
      }
    }
    // PROF_x/device_0/summary/op_summary_0_1.csv when PROF_x/mindstudio_profiler_output has the combined table.
    if (p.parent_path().filename() == "summary" && p.parent_path().parent_path().filename().string().rfind("device_", 0) == 0 &&
        combined.count({p.parent_path().parent_path().parent_path().string(), kind}) > 0) {
      left_out.push_back(make_input_report(it.display, "file", InputStatus::skipped,
                                           "per-device copy; the table in mindstudio_profiler_output is used"));
      continue;
    }
    plan.push_back({it, kind});
  }
  return plan;
}

}  // namespace npu_doctor::profile_detail
