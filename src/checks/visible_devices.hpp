#pragma once
// The device-selection variables (ascend-reference.md §5.4).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::checks {

// ASCEND_RT_VISIBLE_DEVICES as torch_npu reads it: comma-separated logical ids; parsing
// stops at the first character that is neither a digit nor ','; an empty value selects
// no device. `rest` receives what was ignored (for the message).
std::vector<int> parse_rt_visible_devices(std::string_view value, std::string* rest = nullptr);

// ASCEND_VISIBLE_DEVICES as the Ascend Docker Runtime takes it: "0,1", "0-3", "0-1,4".
// nullopt when a part is not a number or a range.
std::optional<std::vector<int>> parse_container_visible_devices(std::string_view value);

}  // namespace npu_doctor::checks
