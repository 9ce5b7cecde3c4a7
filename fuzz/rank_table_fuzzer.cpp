// Rank tables (hccl.json, versions 1.0/1.1/1.2/2.0; src/hccl/ranktable.cpp and
// json_positions.cpp): JSON with a position for every value, duplicate keys, deep nesting,
// and every finding the checks raise from the built-in knowledge base.
#include "hccl/json_positions.hpp"
#include "hccl/ranktable.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  const std::string_view text = fuzz::as_text(data, size);
  (void)hccl::check_rank_table("hccl.json", text, fuzz::builtin_kb());
  hccl::JsonError error;
  if (auto json = hccl::parse_positioned_json(text, &error)) {
    for (const auto& [path, offset] : json->offsets) {
      if (offset > text.size()) __builtin_trap();
      (void)hccl::position_of(text, offset);
    }
  } else if (error.offset <= text.size()) {
    (void)hccl::position_of(text, error.offset);
  }
  return 0;
}
