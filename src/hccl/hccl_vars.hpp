#pragma once
// What npu-doctor knows about the variables a distributed Ascend job reads: which must
// agree on every node, their defaults, and the values HCCL accepts (ascend-reference.md
// §6.1; the ranges are the ones HCCL checks at init, reporting EI0001 and refusing to
// start when a value is outside them).
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace npu_doctor::hccl {

// job: must be the same on every node and rank (MASTER_ADDR, HCCL_CONNECT_TIMEOUT ...);
// node: legitimately differs between nodes (HCCL_IF_IP, HCCL_SOCKET_IFNAME ...);
// rank: differs between processes (RANK, LOCAL_RANK, DEVICE_ID ...).
enum class VarScope { job, node, rank };
std::string_view to_string(VarScope s);

enum class VarKind {
  text,     // anything
  integer,  // decimal integer in [min, max], optionally a multiple of `multiple_of`
  seconds,  // a number with at most two decimals in [min, max] (HCCL_EXEC_TIMEOUT)
  choice,   // one of `choices` ("0|1"), compared without case
  address,  // an IPv4/IPv6 address or a host name
  ip,       // an IPv4/IPv6 address, optionally followed by %ifname (HCCL_IF_IP)
};

struct VarSpec {
  std::string_view name;
  VarScope scope = VarScope::job;
  bool launch = false;               // read by the launcher (MASTER_ADDR, WORLD_SIZE ...), not HCCL
  std::string_view default_value;    // empty: none
  VarKind kind = VarKind::text;
  long long min = 0;
  long long max = 0;
  long long multiple_of = 0;
  std::string_view choices;          // "0|1"
  std::string_view expect;           // what HCCL expects, for messages
};

// The known variables, and the spec of one (nullopt for names npu-doctor knows nothing about).
std::span<const VarSpec> var_specs();
const VarSpec* find_var_spec(std::string_view name);

// The scope of any variable: known ones from their spec; other HCCL_* variables are
// job-wide; everything else (PATH, HOME ...) is not compared (nullopt).
std::optional<VarScope> scope_of(std::string_view name);

// nullopt when `value` is acceptable for `spec`, otherwise what is expected
// ("an integer in [120, 7200]").
std::optional<std::string> invalid_because(const VarSpec& spec, std::string_view value);

// A value in the form used to compare nodes: trimmed, numbers without leading zeros or
// trailing ".0", choices in upper case.
std::string comparable_value(std::string_view name, std::string_view value);

// True for a dotted IPv4 address or an IPv6 address.
bool is_ip_address(std::string_view s);

}  // namespace npu_doctor::hccl
