#include "env_check.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/finding_set.hpp"
#include "core/text_util.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor::hccl {
namespace {

using checks::to_integer;
using checks::trim;

// The cluster sizes at which HCCL's own guide raises HCCL_CONNECT_TIMEOUT (HCCL Test
// guide: 3K cards -> 240 s, 5K cards -> 600 s).
struct ClusterStep {
  long long ranks;
  long long connect_timeout;
};
constexpr ClusterStep kClusterSteps[] = {{5000, 600}, {3000, 240}};

// A huge WORLD_SIZE with few files: list this many missing ranks at most.
constexpr std::size_t kMaxListedRanks = 1000000;

std::optional<double> to_seconds(std::string_view s) {
  return parse_number<double>(trim(s));
}

std::string file_list(const EnvReport& r, const std::vector<std::size_t>& idx) {
  std::string out = std::to_string(idx.size()) + (idx.size() == 1 ? " file: " : " files: ");
  for (std::size_t i = 0; i < idx.size() && i < 3; ++i) out += (i ? ", " : "") + r.files[idx[i]].path;
  if (idx.size() > 3) out += ", ...";
  return out;
}

Evidence var_evidence(const EnvFile& f, const EnvVar& v, std::vector<std::pair<std::string, std::string>> caps) {
  return evidence_at(f.path, v.line, v.text, std::move(caps));
}

// Evidence for a variable a file does not set: the file, no line.
Evidence unset_evidence(const EnvFile& f, std::string_view name, std::string_view default_value,
                        std::vector<std::pair<std::string, std::string>> caps) {
  std::string text = std::string(name) + " (unset";
  if (!default_value.empty()) text += ", default " + std::string(default_value);
  text += ")";
  return evidence_at(f.path, 0, text, std::move(caps));
}

class EnvChecker {
 public:
  EnvChecker(const std::vector<EnvFile>& files, const KnowledgeBase& kb) : files_(files), set_(kb) {}

  EnvReport run(const KnowledgeBase& kb) {
    report_.kb_version = kb.version();
    for (const auto& f : files_) summarise(f);
    for (const auto& f : files_) validate(f);
    compare();
    for (auto [rank, size] : {std::pair{"RANK", "WORLD_SIZE"}, {"RANK_ID", "RANK_SIZE"}, {"NODE_RANK", "NNODES"}}) {
      check_ranks(rank, size);
    }
    check_devices_per_host();
    check_timeouts();
    report_.findings = set_.take_worst_first();
    return std::move(report_);
  }

 private:
  void summarise(const EnvFile& f) {
    EnvFileSummary s;
    s.path = f.path;
    s.format = f.format;
    s.host = f.host;
    if (s.host.empty()) {
      if (const EnvVar* h = f.find("HOSTNAME")) s.host = std::string(trim(h->value));
    }
    s.variables = f.variable_count();
    if (const EnvVar* r = f.find("RANK")) s.rank = std::string(trim(r->value));
    else if (const EnvVar* r2 = f.find("RANK_ID")) s.rank = std::string(trim(r2->value));
    report_.files.push_back(std::move(s));
  }

  void validate(const EnvFile& f) {
    for (const auto& v : f.vars) {
      const VarSpec* spec = find_var_spec(v.name);
      if (spec == nullptr) continue;
      const auto why = invalid_because(*spec, v.value);
      if (!why) continue;
      std::vector<std::pair<std::string, std::string>> caps = {
          {"variable", v.name}, {"value", std::string(trim(v.value))}, {"expected", *why}};
      if (v.name == "HCCL_CONNECT_TIMEOUT") {
        const auto n = to_integer(v.value);
        if (n && *n < spec->min) {
          caps.emplace_back("fix", "export HCCL_CONNECT_TIMEOUT=600");
          set_.add(kb_id::hccl_config::connect_timeout_too_low, var_evidence(f, v, std::move(caps)));
          continue;
        }
      }
      set_.add(spec->launch ? kb_id::hccl_config::invalid_launch_value : kb_id::hccl_config::invalid_value,
               var_evidence(f, v, std::move(caps)));
    }
    // HCCL refuses both intra-server paths at once, and a lone 0 for either (hcomm ParseIntraLinkType).
    const EnvVar* pcie = f.find("HCCL_INTRA_PCIE_ENABLE");
    const EnvVar* roce = f.find("HCCL_INTRA_ROCE_ENABLE");
    const auto on = [](const EnvVar* v) { return v != nullptr ? to_integer(v->value) : std::nullopt; };
    const auto p = on(pcie), r = on(roce);
    std::string why;
    if (p && r && *p == 1 && *r == 1) why = "not both 1: HCCL cannot use PCIe and RoCE inside a server at once";
    else if (p && !roce && *p == 0) why = "HCCL_INTRA_PCIE_ENABLE=0 alone is refused: also set HCCL_INTRA_ROCE_ENABLE=1";
    else if (r && !pcie && *r == 0) why = "HCCL_INTRA_ROCE_ENABLE=0 alone is refused: also set HCCL_INTRA_PCIE_ENABLE=1";
    if (!why.empty()) {
      const EnvVar* at = pcie != nullptr ? pcie : roce;
      set_.add(kb_id::hccl_config::invalid_value,
               var_evidence(f, *at, {{"variable", "HCCL_INTRA_PCIE_ENABLE, HCCL_INTRA_ROCE_ENABLE"},
                                     {"value", (pcie ? pcie->value : "unset") + ", " + (roce ? roce->value : "unset")},
                                     {"expected", why}}));
    }
  }

  void compare() {
    std::set<std::string> names;
    for (const auto& f : files_) {
      for (const auto& v : f.vars) {
        const auto scope = scope_of(v.name);
        if (scope && *scope != VarScope::rank) names.insert(v.name);
      }
    }
    for (const auto& name : names) {
      const VarSpec* spec = find_var_spec(name);
      EnvVariableRow row;
      row.name = name;
      row.scope = *scope_of(name);
      row.default_value = spec != nullptr ? std::string(spec->default_value) : "";
      std::map<std::pair<std::string, bool>, std::size_t> index;  // (value, set) -> group
      for (std::size_t i = 0; i < files_.size(); ++i) {
        const EnvVar* v = files_[i].find(name);
        // Unset means the default: 120 written out and HCCL_CONNECT_TIMEOUT unset agree.
        const std::string value = v != nullptr ? comparable_value(name, v->value) : row.default_value;
        const bool set = v != nullptr;
        const auto key = std::make_pair(value, row.default_value.empty() ? set : true);
        auto [it, inserted] = index.emplace(key, row.groups.size());
        if (inserted) row.groups.push_back({value, set, {}});
        EnvValueGroup& g = row.groups[it->second];
        g.set = g.set || set;
        g.files.push_back(i);
      }
      std::stable_sort(row.groups.begin(), row.groups.end(),
                       [](const EnvValueGroup& a, const EnvValueGroup& b) { return a.files.size() > b.files.size(); });
      if (!row.agree() && row.scope == VarScope::job) raise_mismatch(row, spec != nullptr && spec->launch);
      report_.variables.push_back(std::move(row));
    }
  }

  void raise_mismatch(const EnvVariableRow& row, bool launch) {
    const EntryId id = launch ? kb_id::hccl_config::launch_variable_mismatch : kb_id::hccl_config::hccl_setting_mismatch;
    std::string all;
    for (const auto& g : row.groups) {
      all += (all.empty() ? "" : " | ") + (g.value.empty() ? std::string("(unset)") : g.value) + " in " +
             std::to_string(g.files.size());
    }
    for (const auto& g : row.groups) {
      const EnvFile& f = files_[g.files.front()];
      std::vector<std::pair<std::string, std::string>> caps = {
          {"variable", row.name},
          {"value", g.value.empty() ? "(unset)" : g.value},
          {"files", file_list(report_, g.files)},
          {"values", all}};
      const EnvVar* v = f.find(row.name);
      set_.add(id, v != nullptr ? var_evidence(f, *v, std::move(caps))
                                : unset_evidence(f, row.name, row.default_value, std::move(caps)));
    }
  }

  std::optional<long long> agreed_integer(std::string_view name) const {
    for (const auto& row : report_.variables) {
      if (row.name != name) continue;
      if (row.groups.size() != 1 || !row.groups.front().set) return std::nullopt;
      return to_integer(row.groups.front().value);
    }
    return std::nullopt;
  }

  void check_ranks(const std::string& variable, const std::string& size_variable) {
    RankCoverage cov;
    cov.variable = variable;
    cov.size_variable = size_variable;
    std::map<long long, std::vector<std::size_t>> by_rank;
    std::vector<std::size_t> without;
    for (std::size_t i = 0; i < files_.size(); ++i) {
      const EnvVar* v = files_[i].find(variable);
      if (v == nullptr) {
        without.push_back(i);
        continue;
      }
      if (auto n = to_integer(v->value); n && *n >= 0) by_rank[*n].push_back(i);
      ++cov.files_with;
    }
    if (cov.files_with == 0) return;
    cov.files_without = without.size();
    for (std::size_t k = 0; k < without.size(); ++k) {
      set_.add(kb_id::hccl_config::rank_not_set,
               unset_evidence(files_[without[k]], variable, "", {{"variable", variable},
                                                                  {"files", std::to_string(without.size()) + " of " +
                                                                                std::to_string(files_.size())}}));
    }
    cov.size = agreed_integer(size_variable);
    for (const auto& [rank, idx] : by_rank) {
      if (idx.size() > 1) {
        cov.duplicates.push_back(rank);
        for (std::size_t i : idx) {
          const EnvFile& f = files_[i];
          set_.add(kb_id::hccl_config::duplicate_rank,
                   var_evidence(f, *f.find(variable),
                                {{"variable", variable}, {"rank", std::to_string(rank)}, {"files", file_list(report_, idx)}}));
        }
      }
      if (cov.size && rank >= *cov.size) {
        cov.out_of_range.push_back(rank);
        const EnvFile& f = files_[idx.front()];
        set_.add(kb_id::hccl_config::rank_out_of_range,
                 var_evidence(f, *f.find(variable),
                              {{"variable", variable},
                               {"rank", std::to_string(rank)},
                               {size_variable, std::to_string(*cov.size)},
                               {"expected", "0 to " + std::to_string(*cov.size - 1)}}));
      }
    }
    // With no agreed size, a gap below the highest rank is still a missing rank.
    const long long upto = cov.size ? *cov.size : (by_rank.empty() ? 0 : by_rank.rbegin()->first + 1);
    auto next = by_rank.begin();
    for (long long r = 0; r < upto && cov.missing.size() < kMaxListedRanks; ++r) {
      while (next != by_rank.end() && next->first < r) ++next;
      if (next == by_rank.end() || next->first != r) cov.missing.push_back(r);
    }
    if (!cov.missing.empty()) {
      const std::string missing = format_ranges(cov.missing);
      std::vector<std::pair<std::string, std::string>> caps = {{"variable", variable}, {"missing", missing},
                                                               {"files", std::to_string(files_.size())}};
      if (cov.size) caps.emplace_back(size_variable, std::to_string(*cov.size));
      set_.add(kb_id::hccl_config::missing_rank,
               evidence_at("", 0, variable + " " + missing + " not set in any of the " + std::to_string(files_.size()) +
                                      " files", std::move(caps)));
    }
    report_.ranks.push_back(std::move(cov));
  }

  // Two processes of one host on one device: HCCL or the runtime fails (the device is busy).
  void check_devices_per_host() {
    for (const char* variable : {"DEVICE_ID", "ASCEND_DEVICE_ID"}) {
      std::map<std::pair<std::string, long long>, std::vector<std::size_t>> seen;
      for (std::size_t i = 0; i < files_.size(); ++i) {
        const std::string& host = report_.files[i].host;
        const EnvVar* v = files_[i].find(variable);
        if (host.empty() || v == nullptr) continue;
        if (auto n = to_integer(v->value)) seen[{host, *n}].push_back(i);
      }
      for (const auto& [key, idx] : seen) {
        if (idx.size() < 2) continue;
        for (std::size_t i : idx) {
          set_.add(kb_id::hccl_config::duplicate_device,
                   var_evidence(files_[i], *files_[i].find(variable),
                                {{"variable", variable}, {"host", key.first}, {"device", std::to_string(key.second)},
                                 {"files", file_list(report_, idx)}}));
        }
      }
    }
  }

  void check_timeouts() {
    std::optional<long long> world = agreed_integer("WORLD_SIZE");
    if (!world) world = agreed_integer("RANK_SIZE");
    for (const auto& f : files_) {
      const EnvVar* exec = f.find("HCCL_EXEC_TIMEOUT");
      const EnvVar* event = f.find("HCCL_EVENT_TIMEOUT");
      const EnvVar* connect = f.find("HCCL_CONNECT_TIMEOUT");
      std::optional<double> exec_s = 1836;
      if (exec != nullptr) {
        exec_s = invalid_because(*find_var_spec("HCCL_EXEC_TIMEOUT"), exec->value) ? std::nullopt : to_seconds(exec->value);
        if (exec_s && *exec_s == 0) {
          set_.add(kb_id::hccl_config::exec_timeout_disabled, var_evidence(f, *exec, {{"variable", exec->name}, {"value", "0"}}));
        } else if (exec_s && *exec_s < static_cast<double>(kMinSensibleExecTimeout)) {
          set_.add(kb_id::hccl_config::exec_timeout_too_low,
                   var_evidence(f, *exec, {{"variable", exec->name},
                                           {"value", std::string(trim(exec->value))},
                                           {"default", "1836"},
                                           {"minimum_suggested", std::to_string(kMinSensibleExecTimeout)}}));
        }
      }
      if (event != nullptr && exec_s && *exec_s > 0) {
        const auto ev = to_integer(event->value);
        if (ev && *ev > 0 && static_cast<double>(*ev) <= *exec_s) {
          set_.add(kb_id::hccl_config::event_timeout_not_above_exec,
                   var_evidence(f, *event, {{"variable", event->name},
                                            {"value", std::to_string(*ev)},
                                            {"HCCL_EXEC_TIMEOUT", comparable_value("HCCL_EXEC_TIMEOUT", exec ? exec->value : "1836")}}));
        }
      }
      if (world) {
        for (const auto& step : kClusterSteps) {
          if (*world < step.ranks) continue;
          const auto c = connect != nullptr ? to_integer(connect->value) : std::optional<long long>(120);
          if (c && *c >= 120 && *c < step.connect_timeout) {
            std::vector<std::pair<std::string, std::string>> caps = {
                {"variable", "HCCL_CONNECT_TIMEOUT"}, {"value", std::to_string(*c)}, {"ranks", std::to_string(*world)},
                {"suggested", std::to_string(step.connect_timeout)},
                {"fix", "export HCCL_CONNECT_TIMEOUT=" + std::to_string(step.connect_timeout)}};
            set_.add(kb_id::hccl_config::connect_timeout_small_for_cluster,
                     connect != nullptr ? var_evidence(f, *connect, std::move(caps))
                                        : unset_evidence(f, "HCCL_CONNECT_TIMEOUT", "120", std::move(caps)));
          }
          break;
        }
      }
    }
  }

  const std::vector<EnvFile>& files_;
  FindingSet set_;
  EnvReport report_;
};

}  // namespace

std::string format_ranges(std::vector<long long> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string out;
  for (std::size_t i = 0; i < values.size();) {
    std::size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(values[i]);
    if (j > i) out += "-" + std::to_string(values[j]);
    i = j + 1;
  }
  return out;
}

EnvReport check_env_files(const std::vector<EnvFile>& files, const KnowledgeBase& kb) {
  return EnvChecker(files, kb).run(kb);
}

bool is_checked_variable(std::string_view name) {
  return name == "HOSTNAME" || is_captured_variable(name) || scope_of(name).has_value() || find_var_spec(name) != nullptr;
}

}  // namespace npu_doctor::hccl
