// `npu-smi info` in every layout, "Key : Value" outputs of `npu-smi info -t ...`, and the
// memory samples `mem watch` makes from them (src/core/npu_smi.cpp,
// src/memory/npu_smi_watch.cpp).
#include "memory/npu_smi_watch.hpp"
#include "fuzz_support.hpp"
#include "npu_doctor/parse/npu_smi.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  const std::string_view text = fuzz::as_text(data, size);
  std::string error;
  if (auto info = parse_npu_smi_info(text, &error)) {
    for (const mem::WatchSample& s : mem::samples_from_npu_smi(*info, 1, 1.0)) (void)mem::watch_line(s);
  }
  const auto kv = parse_key_values(text);
  if (!kv.empty()) (void)value_of(kv, kv.front().first);
  return 0;
}
