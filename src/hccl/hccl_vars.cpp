#include "hccl_vars.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "core/text_util.hpp"

namespace npu_doctor::hccl {
namespace {

using checks::to_integer;
using checks::trim;

// Ranges as hcomm's externalinput.cc checks them ([V] in ascend-reference.md §6.1 and the
// hcomm source); HCCL_EXEC_TIMEOUT takes [0, 2147483647] on Atlas A2/A3 and [1, 17340]
// (rounded down to a multiple of 68 s) on Atlas training series.
constexpr std::array kSpecs = {
    VarSpec{"MASTER_ADDR", VarScope::job, true, "", VarKind::address, 0, 0, 0, "", "an IP address or host name"},
    VarSpec{"MASTER_PORT", VarScope::job, true, "", VarKind::integer, 1, 65535, 0, "", "a port in [1, 65535]"},
    VarSpec{"WORLD_SIZE", VarScope::job, true, "", VarKind::integer, 1, 1 << 24, 0, "", "a positive integer"},
    VarSpec{"RANK_SIZE", VarScope::job, true, "", VarKind::integer, 1, 1 << 24, 0, "", "a positive integer"},
    VarSpec{"NNODES", VarScope::job, true, "", VarKind::integer, 1, 1 << 24, 0, "", "a positive integer"},
    VarSpec{"RANK", VarScope::rank, true, "", VarKind::integer, 0, 1 << 24, 0, "", "an integer >= 0"},
    VarSpec{"RANK_ID", VarScope::rank, true, "", VarKind::integer, 0, 1 << 24, 0, "", "an integer >= 0"},
    VarSpec{"LOCAL_RANK", VarScope::rank, true, "", VarKind::integer, 0, 1 << 16, 0, "", "an integer >= 0"},
    VarSpec{"DEVICE_ID", VarScope::rank, true, "", VarKind::integer, 0, 1 << 16, 0, "", "an integer >= 0"},
    VarSpec{"ASCEND_DEVICE_ID", VarScope::rank, true, "", VarKind::integer, 0, 1 << 16, 0, "", "an integer >= 0"},
    VarSpec{"NODE_RANK", VarScope::node, true, "", VarKind::integer, 0, 1 << 20, 0, "", "an integer >= 0"},
    VarSpec{"GROUP_RANK", VarScope::node, true, "", VarKind::integer, 0, 1 << 20, 0, "", "an integer >= 0"},
    VarSpec{"LOCAL_WORLD_SIZE", VarScope::node, true, "", VarKind::integer, 1, 1 << 16, 0, "", "a positive integer"},
    VarSpec{"RANK_TABLE_FILE", VarScope::node, true, "", VarKind::text, 0, 0, 0, "", ""},
    VarSpec{"ASCEND_RT_VISIBLE_DEVICES", VarScope::node, false, "", VarKind::text, 0, 0, 0, "", ""},
    VarSpec{"ASCEND_VISIBLE_DEVICES", VarScope::node, false, "", VarKind::text, 0, 0, 0, "", ""},
    VarSpec{"HCCL_CONNECT_TIMEOUT", VarScope::job, false, "120", VarKind::integer, 120, 7200, 0, "",
            "an integer number of seconds in [120, 7200]"},
    VarSpec{"HCCL_EXEC_TIMEOUT", VarScope::job, false, "1836", VarKind::seconds, 0, 2147483647, 0, "",
            "seconds in [0, 2147483647] on Atlas A2/A3 (0 = never), [1, 17340] on Atlas training series"},
    VarSpec{"HCCL_EVENT_TIMEOUT", VarScope::job, false, "", VarKind::integer, 0, 2147483647, 0, "",
            "an integer number of seconds >= 0"},
    VarSpec{"HCCL_BUFFSIZE", VarScope::job, false, "200", VarKind::integer, 1, 1 << 30, 0, "", "an integer >= 1 (MB)"},
    VarSpec{"HCCL_IF_BASE_PORT", VarScope::job, false, "60000", VarKind::integer, 1024, 65520, 0, "",
            "a port in [1024, 65520]"},
    VarSpec{"HCCL_WHITELIST_DISABLE", VarScope::job, false, "1", VarKind::choice, 0, 0, 0, "0|1", "0 or 1"},
    VarSpec{"HCCL_WHITELIST_FILE", VarScope::node, false, "", VarKind::text, 0, 0, 0, "", ""},
    VarSpec{"HCCL_IF_IP", VarScope::node, false, "", VarKind::ip, 0, 0, 0, "", "an IP address, optionally ip%ifname"},
    VarSpec{"HCCL_SOCKET_IFNAME", VarScope::node, false, "", VarKind::text, 0, 0, 0, "", ""},
    VarSpec{"HCCL_SOCKET_FAMILY", VarScope::job, false, "", VarKind::choice, 0, 0, 0, "AF_INET|AF_INET6",
            "AF_INET or AF_INET6"},
    VarSpec{"HCCL_RDMA_TC", VarScope::job, false, "132", VarKind::integer, 0, 255, 4, "",
            "an integer in [0, 255] that is a multiple of 4"},
    VarSpec{"HCCL_RDMA_SL", VarScope::job, false, "4", VarKind::integer, 0, 7, 0, "", "an integer in [0, 7]"},
    VarSpec{"HCCL_RDMA_TIMEOUT", VarScope::job, false, "20", VarKind::integer, 5, 24, 0, "",
            "an integer in [5, 20] on Atlas A2/A3, [5, 24] otherwise"},
    VarSpec{"HCCL_RDMA_RETRY_CNT", VarScope::job, false, "7", VarKind::integer, 1, 7, 0, "", "an integer in [1, 7]"},
    VarSpec{"HCCL_RDMA_QPS_PER_CONNECTION", VarScope::job, false, "", VarKind::integer, 1, 32, 0, "",
            "an integer in [1, 32]"},
    VarSpec{"HCCL_MULTI_QP_THRESHOLD", VarScope::job, false, "", VarKind::integer, 1, 8192, 0, "",
            "an integer in [1, 8192] (KB)"},
    VarSpec{"HCCL_INTRA_PCIE_ENABLE", VarScope::job, false, "1", VarKind::choice, 0, 0, 0, "0|1", "0 or 1"},
    VarSpec{"HCCL_INTRA_ROCE_ENABLE", VarScope::job, false, "0", VarKind::choice, 0, 0, 0, "0|1", "0 or 1"},
    VarSpec{"HCCL_DETERMINISTIC", VarScope::job, false, "false", VarKind::choice, 0, 0, 0, "TRUE|FALSE|STRICT",
            "true, false or strict"},
    VarSpec{"HCCL_INTER_HCCS_DISABLE", VarScope::job, false, "", VarKind::choice, 0, 0, 0, "TRUE|FALSE",
            "true or false"},
    VarSpec{"HCCL_OP_RETRY_ENABLE", VarScope::job, false, "", VarKind::text, 0, 0, 0, "", ""},
    VarSpec{"HCCL_DIAGNOSE_ENABLE", VarScope::job, false, "", VarKind::choice, 0, 0, 0, "0|1", "0 or 1"},
    VarSpec{"HCCL_ENTRY_LOG_ENABLE", VarScope::job, false, "", VarKind::choice, 0, 0, 0, "0|1", "0 or 1"},
    VarSpec{"HCCL_RDMA_PCIE_DIRECT_POST_NOSTRICT", VarScope::job, false, "", VarKind::choice, 0, 0, 0, "TRUE|FALSE",
            "true or false"},
    VarSpec{"HCCL_LOGIC_SUPERPOD_ID", VarScope::node, false, "", VarKind::text, 0, 0, 0, "", ""},
};

// HCCL's own rule for HCCL_EXEC_TIMEOUT: digits with at most two decimals.
std::optional<double> parse_seconds(std::string_view s) {
  s = trim(s);
  const auto dot = s.find('.');
  const std::string_view whole = s.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  auto digits = [](std::string_view d) {
    return std::all_of(d.begin(), d.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  if (whole.empty() || !digits(whole) || whole.size() > 12) return std::nullopt;
  if (dot != std::string_view::npos && (frac.empty() || frac.size() > 2 || !digits(frac))) return std::nullopt;
  double v = 0;
  for (char c : whole) v = v * 10 + (c - '0');
  double scale = 0.1;
  for (char c : frac) {
    v += (c - '0') * scale;
    scale /= 10;
  }
  return v;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool is_host_name(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
  });
}

}  // namespace

std::string_view to_string(VarScope s) {
  switch (s) {
    case VarScope::job: return "job";
    case VarScope::node: return "node";
    case VarScope::rank: return "rank";
  }
  return "job";
}

std::span<const VarSpec> var_specs() { return kSpecs; }

const VarSpec* find_var_spec(std::string_view name) {
  for (const auto& s : kSpecs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::optional<VarScope> scope_of(std::string_view name) {
  if (const VarSpec* s = find_var_spec(name)) return s->scope;
  if (name.starts_with("HCCL_")) return VarScope::job;
  return std::nullopt;
}

bool is_ip_address(std::string_view s) {
  const std::string str(s);
  unsigned char buf[16];
  return ::inet_pton(AF_INET, str.c_str(), buf) == 1 || ::inet_pton(AF_INET6, str.c_str(), buf) == 1;
}

std::optional<std::string> invalid_because(const VarSpec& spec, std::string_view raw) {
  const std::string_view value = trim(raw);
  const std::string expect = spec.expect.empty() ? std::string("a valid value") : std::string(spec.expect);
  switch (spec.kind) {
    case VarKind::text: return std::nullopt;
    case VarKind::integer: {
      const auto v = to_integer(value);
      if (!v || *v < spec.min || *v > spec.max) return expect;
      if (spec.multiple_of > 0 && *v % spec.multiple_of != 0) return expect;
      return std::nullopt;
    }
    case VarKind::seconds: {
      const auto v = parse_seconds(value);
      if (!v || *v < static_cast<double>(spec.min) || *v > static_cast<double>(spec.max)) return expect;
      return std::nullopt;
    }
    case VarKind::choice: {
      const std::string u = upper(value);
      for (std::string_view c : checks::split(spec.choices, '|')) {
        if (u == upper(c)) return std::nullopt;
      }
      return expect;
    }
    case VarKind::address:
      return is_ip_address(value) || is_host_name(value) ? std::nullopt : std::optional<std::string>(expect);
    case VarKind::ip: {
      const std::string_view ip = value.substr(0, value.find('%'));
      return is_ip_address(ip) ? std::nullopt : std::optional<std::string>(expect);
    }
  }
  return std::nullopt;
}

std::string comparable_value(std::string_view name, std::string_view raw) {
  const std::string_view value = trim(raw);
  const VarSpec* spec = find_var_spec(name);
  if (spec == nullptr) return std::string(value);
  if (spec->kind == VarKind::choice) return upper(value);
  if (spec->kind == VarKind::integer) {
    if (auto v = to_integer(value)) return std::to_string(*v);
  }
  if (spec->kind == VarKind::seconds) {
    if (auto v = parse_seconds(value)) {
      const double r = std::round(*v * 100) / 100;
      if (r == std::floor(r)) return std::to_string(static_cast<long long>(r));
      std::string s = std::to_string(r);
      while (!s.empty() && s.back() == '0') s.pop_back();
      return s;
    }
  }
  return std::string(value);
}

}  // namespace npu_doctor::hccl
