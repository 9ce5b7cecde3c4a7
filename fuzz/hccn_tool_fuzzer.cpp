// `hccn_tool` outputs as users collect them (src/hccl/hccn_output.cpp): command
// lines, device loops, [device N] prefixes, -link_stat records. The first byte says
// whether the caller names the device, as `net`/`hccl` do when they ran the tool.
#include "hccl/hccn_check.hpp"
#include "hccl/hccn_output.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  if (size == 0) return 0;
  std::optional<int> device;
  if (data[0] < 64) device = data[0] % 16;
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  std::vector<hccl::HccnCapture> captures;
  captures.push_back(hccl::parse_hccn_output("fuzz.txt", text, device));
  captures.push_back(hccl::parse_hccn_output("fuzz2.txt", text.substr(text.size() / 2)));
  std::vector<hccl::HccnNode> nodes(2);
  nodes[0] = {"a", hccl::merge_devices(captures)};
  nodes[1] = {"b", captures[1].devices};
  for (const hccl::HccnDevice& d : nodes[0].devices) {
    if (d.health) (void)hccl::classify_health(*d.health);
  }
  (void)hccl::check_hccn(std::move(nodes), fuzz::builtin_kb());
  return 0;
}
