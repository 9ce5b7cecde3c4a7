#include "isolate/device_list.hpp"

#include "core/npu_smi_query.hpp"

namespace npu_doctor::isolate {

std::optional<DeviceList> devices_from_npu_smi(const Probe& probe, std::string& why) {
  const NpuSmiQuery smi = query_npu_smi_info(probe);
  if (!smi.info || smi.info->chips.empty()) {
    why = smi.why_not();
    return std::nullopt;
  }
  DeviceList list;
  for (std::size_t i = 0; i < smi.info->chips.size(); ++i) {
    const auto& c = smi.info->chips[i];
    list.devices.push_back(static_cast<int>(i));
    std::string name = "NPU " + std::to_string(c.npu) + " chip " + std::to_string(c.chip);
    if (c.phy_id) name += " (Phy-ID " + std::to_string(*c.phy_id) + ")";
    list.names.push_back(std::move(name));
  }
  return list;
}

}  // namespace npu_doctor::isolate
