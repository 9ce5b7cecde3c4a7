#pragma once
// Pure parsers for `npu-smi` output, in every layout the reference shows: one chip per
// NPU (910, 910B), two chips per NPU with a Phy-ID column (Atlas A3), and the 950 layout
// with separate "NPU ID" and "Name" columns.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor {

struct NpuSmiChip {
  int npu = -1;               // the NPU id (the -i argument of npu-smi)
  int chip = 0;               // chip index inside the NPU
  std::optional<int> phy_id;  // Atlas A3 physical id
  std::string name;           // "910B4-1", "Ascend910"
  std::string health;         // OK, Warning, Alarm, Critical, UNKNOWN
  std::optional<double> power_w;
  std::optional<int> temp_c;
  std::string bus_id;         // "0000:C1:00.0"
  std::optional<int> utilization_percent;  // AICore(%) or NPU Util(%)
  std::optional<uint64_t> memory_used_mb, memory_total_mb;  // Memory-Usage (DDR)
  std::optional<uint64_t> hbm_used_mb, hbm_total_mb;        // HBM-Usage
};

struct NpuSmiProcess {
  int npu = -1;
  int chip = 0;
  long pid = 0;
  std::string name;
  uint64_t memory_mb = 0;
};

struct NpuSmiInfo {
  std::string tool_version;    // "23.0.rc3" from "npu-smi 23.0.rc3"
  std::string driver_version;  // "23.0.rc2.3" from "Version: 23.0.rc2.3"
  std::vector<NpuSmiChip> chips;
  std::vector<NpuSmiProcess> processes;
};

// Parses `npu-smi info`. nullopt (with `error`) when the text has no device table.
std::optional<NpuSmiInfo> parse_npu_smi_info(std::string_view text, std::string* error = nullptr);

// "Key : Value" (npu-smi -t ...) and "key=value" (version.info) lines, in order; the
// first ':' or '=' separates. Blank and comment (#) lines are skipped.
std::vector<std::pair<std::string, std::string>> parse_key_values(std::string_view text);

// The value of the first `key` (exact match, case-sensitive) in parsed key values.
std::optional<std::string> value_of(const std::vector<std::pair<std::string, std::string>>& kv,
                                    std::string_view key);

}  // namespace npu_doctor
