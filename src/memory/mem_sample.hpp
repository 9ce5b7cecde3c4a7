#pragma once
// One memory sample: a JSON object on one line, as the Python helper (python/) and
// `mem watch` write it (format: docs/mem.md, "Sample lines").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npu_doctor::mem {

struct MemSample {
  int64_t step = 0;
  std::optional<double> time;  // seconds since 1970
  int device = 0;
  uint64_t allocated = 0;                 // bytes held by live tensors (npu-smi: HBM in use)
  std::optional<uint64_t> reserved;       // bytes the caching allocator holds
  std::optional<uint64_t> max_allocated;  // peak of allocated so far
  std::optional<uint64_t> capacity;       // device memory, when the writer knew it
  bool inference = false;                 // "phase": "inference"
  // Where the sample was read, for evidence.
  uint32_t input = 0;
  uint64_t line = 0;
};

enum class LineKind {
  blank,   // empty or white space
  other,   // not a JSON object: log text, counted but not an error
  sample,  // a valid sample
  invalid, // a JSON-looking line that is not a valid sample (`why` says what is wrong)
};

// Lines longer than this are not samples (a sample is about 150 bytes).
inline constexpr std::size_t kMaxSampleLine = 4096;

// Reads one line. Required: "step" (integer) and "allocated" (bytes); optional: "time",
// "device", "reserved", "max_allocated", "capacity", "phase"; other keys are ignored.
LineKind parse_sample_line(std::string_view line, MemSample& out, std::string& why);

}  // namespace npu_doctor::mem
